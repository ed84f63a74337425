"""The inner-lattice hypothesis: a candidate outline that is only *part* of the grid.

A thick-lined 3x3 box of a sudoku, a few cells left uncovered by a hand, a
block of stickers whose neighbours are too dark to stand out: each outlines an
``a`` x ``b`` block of the grid's cells. The lines inside the outline tell how
many cells it spans (a comb of evenly spaced peaks, with nothing half-way);
the block is then slid to every place it could occupy in the full ``rows`` x
``cols`` grid and each placement is scored by the lattice it implies.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import lattice
from vision.rectify import homography_from_corners

# Pixels per cell of the division test's view (the block is warped to a square).
_PX = 16


def _comb(profile: np.ndarray, n: int) -> tuple[float, float]:
    """How clearly ``profile`` peaks at *every one* of the ``n - 1`` inner dividers
    of ``n`` equal parts (the weaker quarter of them counts), and how strongly
    it peaks half-way between them (the median), both as multiples of the
    profile's median. Peaks below ``lattice.PEAK_FLOOR`` count as none."""
    size = len(profile)
    base = float(np.median(profile)) + 1.0
    reach = max(1, size // (5 * n))

    def peaks_at(fractions: np.ndarray) -> np.ndarray:
        idx = np.round(fractions * size - 0.5).astype(int)
        window = np.clip(idx[:, None] + np.arange(-reach, reach + 1)[None, :], 0, size - 1)
        p = profile[window].max(axis=1)
        return np.where(p >= lattice.PEAK_FLOOR, p, 0.0) / base

    on = float(np.percentile(peaks_at(np.arange(1, n) / n), 25))
    between = float(np.median(peaks_at((np.arange(n) + 0.5) / n)))
    return on, between


def divisions(
    pyramid: lattice.Pyramid, quad: np.ndarray, max_cols: int, max_rows: int
) -> tuple[int, int]:
    """How many cells across and down the outline ``quad`` (``UL UR LR LL``) spans.

    The largest count whose dividers are all there (and no lines half-way) wins,
    since a 9-cell outline also shows the dividers of its three boxes."""
    n_max = max(max_cols, max_rows)
    size = _PX * n_max
    H = homography_from_corners(quad, 1, 1)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    level = pyramid.level_for(side / n_max)
    scale = 2.0**level
    to_view = np.array([[size, 0, -0.5], [0, size, -0.5], [0, 0, 1.0]]) @ H
    view = cv2.warpPerspective(
        pyramid.levels[level],
        to_view @ np.diag([scale, scale, 1.0]),
        (size, size),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    gx, gy = lattice.gradient(view, 1, 0), lattice.gradient(view, 0, 1)
    band = slice(size // 10, size - size // 10)
    # Medians along the lines: a divider runs the whole way, a digit does not.
    across = np.median(gx[band], axis=0)
    down = np.median(gy[:, band], axis=1)

    def best(profile: np.ndarray, limit: int) -> int:
        chosen = 1
        for n in range(2, limit + 1):
            on, between = _comb(profile, n)
            if on >= lattice.PEAK_RATIO and between < 0.6 * on:
                chosen = n
        return chosen

    return best(across, max_cols), best(down, max_rows)


def placements(
    pyramid: lattice.Pyramid, quad: np.ndarray, rows: int, cols: int, keep: int = 2
) -> list[tuple[float, np.ndarray]]:
    """The best placements of the block outlined by ``quad`` in the full grid
    (see :func:`place_block`); empty when the outline is already the whole
    grid or shows no inner lines."""
    a, b = divisions(pyramid, quad, cols, rows)
    if (a, b) == (cols, rows) or (a == 1 and b == 1):
        return []
    return place_block(pyramid, homography_from_corners(quad, b, a), a, b, rows, cols, keep)


def place_block(
    pyramid: lattice.Pyramid,
    block: np.ndarray,
    a: int,
    b: int,
    rows: int,
    cols: int,
    keep: int = 2,
) -> list[tuple[float, np.ndarray]]:
    """Slide a block of ``a`` x ``b`` cells (``block``: image -> block
    coordinates) to every place in the ``rows`` x ``cols`` grid, also turned a
    quarter, and return the best ``(score, image -> grid homography)``."""
    turned = np.array([[0.0, 1, 0], [-1, 0, a], [0, 0, 1]]) @ block  # (x, y) -> (y, a - x)
    scored = []
    for H0, (w, h) in ((block, (a, b)), (turned, (b, a))):
        if w > cols or h > rows or (H0 is turned and a == b):
            continue
        # One view of the block grown to every cell the grid could cover.
        grow_x, grow_y = cols - w, rows - h
        big = np.array([[1.0, 0, grow_x], [0, 1.0, grow_y], [0, 0, 1.0]]) @ H0
        try:
            view = lattice.look(pyramid, big, h + 2 * grow_y, w + 2 * grow_x)
        except (np.linalg.LinAlgError, cv2.error):
            continue
        for i0, j0, s in lattice.windows(view, rows, cols, tolerance=0.3):
            H = np.array([[1.0, 0, -i0], [0, 1.0, -j0], [0, 0, 1.0]]) @ big
            scored.append((s.value, H))
    scored.sort(key=lambda t: -t[0])
    return scored[:keep]
