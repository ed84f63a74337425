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
  between lines), returned as contours for :mod:`vision.blobs` to judge,
  name and fit.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

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


def without_repeats(quads: list[np.ndarray], keep: int = 2) -> list[np.ndarray]:
    """``quads`` (largest first) with at most ``keep`` of each repeated block:
    outlines of about the same area (within 20%) lying side by side (their
    bounding boxes overlap by under a third) are the repeats of one pattern,
    like a sudoku's nine boxes or a board's cells, and each is as good a start
    as the others. Nested outlines of one object (a rim, a frame, the grid)
    overlap, so they are all kept.

    >>> box = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    >>> row = [box + [12 * i, 0] for i in range(5)]
    >>> len(without_repeats(row)), len(without_repeats([box, box * 1.05]))
    (2, 2)
    """
    kept: list[np.ndarray] = []
    boxes: list[tuple[float, float, float, float, float]] = []
    for q in quads:
        x0, y0 = q.min(axis=0)
        x1, y1 = q.max(axis=0)
        area = float(cv2.contourArea(q.astype(np.float32)))
        repeats = 0
        for a0, b0, a1, b1, other in boxes:
            overlap = max(0.0, min(x1, a1) - max(x0, a0)) * max(0.0, min(y1, b1) - max(y0, b0))
            smaller = min((x1 - x0) * (y1 - y0), (a1 - a0) * (b1 - b0))
            if abs(area - other) < 0.2 * max(area, other) and overlap < smaller / 3:
                repeats += 1
        if repeats < keep:
            kept.append(q)
            boxes.append((float(x0), float(y0), float(x1), float(y1), area))
    return kept


def candidate_quads(
    gray: np.ndarray, rows: int, cols: int, min_fraction: float = 0.02
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Candidate grid outlines in a grey image (largest first, ``UL UR LR LL``)
    and the contours of about one cell's size seen on the way (for
    :func:`vision.blobs.cell_blobs`, when the outlines are not enough).

    ``min_fraction``: the smallest grid worth finding, as a fraction of the image area."""
    h, w = gray.shape[:2]
    image_area = float(h * w)
    min_area = min_fraction * image_area
    min_cell, max_cell = cell_area_range(gray.shape[:2], rows, cols, min_fraction)
    quads: list[np.ndarray] = []
    cells: list[np.ndarray] = []
    for mask in binarize(gray):
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        # One area per contour, then each test sees only its own sizes: print
        # and texture make thousands of specks.
        areas = [cv2.contourArea(c) for c in contours]
        quads += outline_quads(
            [c for c, a in zip(contours, areas, strict=True) if a >= min_area], min_area
        )
        cells += [c for c, a in zip(contours, areas, strict=True) if min_cell <= a <= max_cell]
    quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return dedupe(quads, tolerance=0.01 * np.hypot(h, w)), cells


def cell_area_range(
    shape: tuple[int, int], rows: int, cols: int, min_fraction: float = 0.02
) -> tuple[float, float]:
    """The areas (pixels) a cell may have in an image of ``shape``: half a
    cell of the smallest grid worth finding, up to 90% of a grid filling it."""
    image_area = float(shape[0] * shape[1])
    return 0.5 * min_fraction * image_area / (rows * cols), 0.9 * image_area / (rows * cols)
