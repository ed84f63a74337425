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
  between walls); the hull of such a cluster outlines the grid even when the
  outer border is hidden, broken or merged with clutter.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.rectify import order_corners


def binarize(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dark-on-light and light-on-dark structure masks (uint8 0/255), thresholded
    against the local mean so a lamp's gradient or a shadow does not matter."""
    block = max(15, (min(gray.shape[:2]) // 24) | 1)
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


def outline_quads(mask: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Four-sided outlines of the mask's contours (outer and holes) larger than ``min_area``."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for c in contours:
        if len(c) < 4 or cv2.contourArea(c) < min_area:
            continue
        q = quad_from_points(c)
        if q is not None:
            quads.append(q)
    return quads


def cell_clusters(
    mask: np.ndarray, min_cell: float, max_cell: float, min_cells: int
) -> list[np.ndarray]:
    """Hulls of clusters of similar, adjacent cell-like blobs, as quads.

    A blob is cell-like when it is compact and nearly convex, of area in
    ``[min_cell, max_cell]``. Two blobs are neighbours when their areas differ
    by less than 2x and their centres are within 1.6 of their mean side."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    cells = []
    for c in contours:
        area = cv2.contourArea(c)
        if not (min_cell <= area <= max_cell):
            continue
        # Cell-like: nearly fills its hull and its rotated bounding box (a
        # perspective trapezoid still does; a letter or a bar does not).
        (_, _), (bw, bh), _ = cv2.minAreaRect(c)
        if area < 0.7 * bw * bh or min(bw, bh) < 0.3 * max(bw, bh):
            continue
        if cv2.contourArea(cv2.convexHull(c)) > 1.2 * area:
            continue
        cells.append((c.reshape(-1, 2), area))
    if len(cells) < min_cells:
        return []
    centres = np.array([pts.mean(0) for pts, _ in cells])
    areas = np.array([a for _, a in cells])
    sides = np.sqrt(areas)
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    ratio = areas[:, None] / areas[None]
    near = (d < 1.6 * (sides[:, None] + sides[None]) / 2) & (ratio < 2) & (ratio > 0.5)
    label = _components(near)
    quads = []
    for lab in np.unique(label):
        members = np.flatnonzero(label == lab)
        if len(members) < min_cells:
            continue
        q = quad_from_points(np.concatenate([cells[i][0] for i in members]), min_fill=0.8)
        if q is not None:
            quads.append(q)
    return quads


def _components(adjacent: np.ndarray) -> np.ndarray:
    """Connected-component label per node of a boolean adjacency matrix."""
    n = len(adjacent)
    label = -np.ones(n, dtype=int)
    for seed in range(n):
        if label[seed] >= 0:
            continue
        label[seed] = seed
        stack = [seed]
        while stack:
            i = stack.pop()
            for j in np.flatnonzero(adjacent[i] & (label < 0)):
                label[j] = seed
                stack.append(int(j))
    return label


def dedupe(quads: list[np.ndarray], tolerance: float) -> list[np.ndarray]:
    """Drop quads whose every corner is within ``tolerance`` px of an earlier one's."""
    kept: list[np.ndarray] = []
    for q in quads:
        if all(np.max(np.linalg.norm(q - k, axis=1)) > tolerance for k in kept):
            kept.append(q)
    return kept


def candidate_quads(
    gray: np.ndarray, rows: int, cols: int, min_fraction: float = 0.02
) -> list[np.ndarray]:
    """Candidate grid outlines in a grey image, largest first, ``UL UR LR LL``.

    ``min_fraction``: the smallest grid worth finding, as a fraction of the image area."""
    h, w = gray.shape[:2]
    image_area = float(h * w)
    min_area = min_fraction * image_area
    quads: list[np.ndarray] = []
    for mask in binarize(gray):
        quads += outline_quads(mask, min_area)
        quads += cell_clusters(
            mask,
            min_cell=0.5 * min_area / (rows * cols),
            max_cell=0.9 * image_area / (rows * cols),
            min_cells=4,
        )
    quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return dedupe(quads, tolerance=0.01 * np.hypot(h, w))
