"""Candidate quadrilaterals for where a grid might be.

Cheap and permissive on purpose: every candidate is checked afterwards by the
lattice it implies (:mod:`vision.lattice`), so a false candidate costs a
fraction of a millisecond, while a missed one loses the grid.

Two hypotheses:

* *outer border*: a large closed outline (the printed frame, the ramp's rim,
  the edge of a cube face) found among the contours of a locally thresholded
  image, in both polarities (dark lines on light paper, light on dark);
* *inner lattice*: many small, similar quadrilaterals packed side by side (the
  cells themselves, e.g. stickers separated by dark gaps, or empty cells
  between lines), returned as blobs for :mod:`vision.blobs` to name and fit.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.blobs import Blob, cell_blobs
from vision.rectify import order_corners


def binarize(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dark-on-light and light-on-dark structure masks (uint8 0/255), thresholded
    against the local mean so a lamp's gradient or a shadow does not matter.
    A slight blur first: sensor noise would otherwise make thousands of specks
    (each a contour to look at) without adding a single line."""
    block = max(15, (min(gray.shape[:2]) // 24) | 1)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    dark = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7
    )
    light = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -7
    )
    return dark, light


def quad_from_points(points: np.ndarray, min_fill: float = 0.85) -> np.ndarray | None:
    """The convex quadrilateral outlining ``points`` (a contour), ordered ``UL UR LR LL``,
    or ``None`` when the outline is not four-sided enough (the quad must cover
    ``min_fill`` of the hull's area)."""
    hull = cv2.convexHull(points.reshape(-1, 1, 2).astype(np.float32))
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.04, 0.07):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            if cv2.contourArea(quad.astype(np.float32)) >= min_fill * hull_area:
                return order_corners(quad)
            return None
        if len(approx) < 4:
            return None
    return None


def outline_quads(contours: Sequence[np.ndarray], min_area: float) -> list[np.ndarray]:
    """Four-sided outlines among contours (outer and holes) larger than ``min_area``."""
    quads = []
    for c in contours:
        if len(c) < 4 or cv2.contourArea(c) < min_area:
            continue
        q = quad_from_points(c)
        if q is not None:
            quads.append(q)
    return quads


def dedupe(quads: list[np.ndarray], tolerance: float) -> list[np.ndarray]:
    """Drop quads whose every corner is within ``tolerance`` px of an earlier one's."""
    kept: list[np.ndarray] = []
    for q in quads:
        if all(np.max(np.linalg.norm(q - k, axis=1)) > tolerance for k in kept):
            kept.append(q)
    return kept


def candidate_quads(
    gray: np.ndarray, rows: int, cols: int, min_fraction: float = 0.02
) -> tuple[list[np.ndarray], list[Blob]]:
    """Candidate grid outlines in a grey image (largest first, ``UL UR LR LL``)
    and the cell-like blobs seen on the way.

    ``min_fraction``: the smallest grid worth finding, as a fraction of the image area."""
    h, w = gray.shape[:2]
    image_area = float(h * w)
    min_area = min_fraction * image_area
    quads: list[np.ndarray] = []
    found: list[Blob] = []
    for mask in binarize(gray):
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        quads += outline_quads(contours, min_area)
        found += cell_blobs(
            contours,
            min_cell=0.5 * min_area / (rows * cols),
            max_cell=0.9 * image_area / (rows * cols),
        )
    quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return dedupe(quads, tolerance=0.01 * np.hypot(h, w)), found
