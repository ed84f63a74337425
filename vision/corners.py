"""The grid's outer corners, measured where they are.

The homography is fitted to every lattice line at once, which is right for the
cells but lets a curled page or a wide lens move a corner: there the outer
lines bend away from any single homography. Each corner is therefore taken
from the two border lines next to it, fitted only over the cells nearest that
corner (:func:`local_corners`).

A corner is the meeting point of the two border lines' *middles*, like every
other lattice point (the simulator's ground truth uses the same convention).
People clicking on a photo of a thick printed frame tend to mark its outside
instead: :func:`frame_corners` gives that, for comparison with such labels.

Everything is done in grid coordinates of the global fit, where the border
lines are nearly ``x = 0``, ``x = cols``, ``y = 0``, ``y = rows`` and the
corrections are small numbers in cells.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import LinePoints, Pyramid, cell_size_px
from vision.rectify import apply_homography, grid_corners

# Strip resolution across a border line when measuring its width.
STRIP_PX = 48
# The outer edge of a border line is looked for this far out (cells).
MAX_HALF_WIDTH = 0.15


def _local_line(
    along: np.ndarray, across: np.ndarray, weight: np.ndarray, at: float
) -> float | None:
    """Weighted straight-line fit ``across = a + b * along``; its value at ``at``."""
    if len(along) < 2 or np.ptp(along) < 0.5:
        return None
    w = np.sqrt(np.maximum(weight, 1e-6))
    a = np.stack([np.ones_like(along), along], 1) * w[:, None]
    coef, *_ = np.linalg.lstsq(a, across * w, rcond=None)
    return float(coef[0] + coef[1] * at)


def local_corners(
    homography: np.ndarray, rows: int, cols: int, found: list[LinePoints], span: float = 0.4
) -> np.ndarray:
    """Each corner in grid coordinates, from the border lines near it.

    For every border line the supported segments within ``span`` of the
    line's length from the corner are fitted with a straight line (in grid
    coordinates); the corner is where the two lines meet. Where a border line
    is not seen near a corner, the global fit's corner stands."""
    out = grid_corners(rows, cols).copy()
    for f in found:
        if len(f.points) == 0:
            continue
        g = apply_homography(homography, f.points)
        n_lines = cols if f.vertical else rows
        length = rows if f.vertical else cols
        for edge in (0, n_lines):
            on = f.line == edge
            across = g[on, 0] if f.vertical else g[on, 1]
            along = g[on, 1] if f.vertical else g[on, 0]
            # Keep only points that really sit on this border line.
            keep = np.abs(across - edge) < 0.2
            across, along, w = across[keep], along[keep], f.weight[on][keep]
            for end in (0, length):
                near = np.abs(along - end) <= max(1.0, span * length)
                value = _local_line(along[near], across[near], w[near], end)
                if value is None:
                    continue
                # Which corner: (x, y) = (edge, end) for vertical lines.
                corner = (edge, end) if f.vertical else (end, edge)
                i = _corner_index(corner, rows, cols)
                out[i, 0 if f.vertical else 1] = value
    return out


def _corner_index(corner: tuple[float, float], rows: int, cols: int) -> int:
    x, y = corner
    return {(0, 0): 0, (cols, 0): 1, (cols, rows): 2, (0, rows): 3}[(int(x), int(y))]


def border_half_widths(
    pyramid: Pyramid, homography: np.ndarray, rows: int, cols: int
) -> np.ndarray:
    """How far each border line's outer edge lies outside its middle, in cells.

    Returned as ``(top, right, bottom, left)``. A thin line or a step (a rim,
    the edge of a sticker) gives about 0; a thick printed frame gives half its
    width. Measured on a fine strip across each border, away from the
    crossings with the inner lines."""
    level = max(0, pyramid.level_for(cell_size_px(homography, rows, cols)) - 1)
    image = pyramid.levels[level]
    inv = np.linalg.inv(homography)
    scale = 2.0**level
    across = np.arange(-0.3, 0.3, 1.0 / STRIP_PX)
    widths = np.zeros(4)
    # Per side: cells along it, and grid (x, y) = origin + t * along + d * outward.
    sides = (
        (cols, (0, 0), (1, 0), (0, -1)),
        (rows, (cols, 0), (0, 1), (1, 0)),
        (cols, (0, rows), (1, 0), (0, 1)),
        (rows, (0, 0), (0, 1), (-1, 0)),
    )
    for i, (n, origin, along, outward) in enumerate(sides):
        t = (np.arange(n)[:, None] + np.linspace(0.25, 0.75, 6)[None, :]).ravel()
        tt, dd = np.meshgrid(t, across)
        gx = origin[0] + tt * along[0] + dd * outward[0]
        gy = origin[1] + tt * along[1] + dd * outward[1]
        pts = apply_homography(inv, np.stack([np.ravel(gx), np.ravel(gy)], 1)) / scale
        mx = pts[:, 0].reshape(tt.shape).astype(np.float32)
        my = pts[:, 1].reshape(tt.shape).astype(np.float32)
        strip = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        strip = strip.astype(np.float32)
        grad = np.abs(np.diff(strip, axis=0))
        if grad.ndim == 3:
            grad = grad.max(axis=2)
        profile = np.median(grad, axis=1)  # along the border, robust to digits and gaps
        widths[i] = _outer_edge(profile, across)
    return widths


def _outer_edge(profile: np.ndarray, across: np.ndarray) -> float:
    """Outward distance from the line's middle to its outermost strong edge."""
    mid = (across[:-1] + across[1:]) / 2  # positions of the differences
    if profile.max() <= 0:
        return 0.0
    central = np.abs(mid) <= 0.1
    top = profile[central].max() if np.any(central) else 0.0
    if top <= 0:
        return 0.0
    # Local maxima that are strong compared with the line's own edges.
    peaks = (profile[1:-1] >= profile[:-2]) & (profile[1:-1] >= profile[2:])
    strong = profile[1:-1] >= 0.4 * top
    candidates = mid[1:-1][peaks & strong & (mid[1:-1] <= MAX_HALF_WIDTH) & (mid[1:-1] >= -0.02)]
    return float(candidates.max()) if len(candidates) else 0.0


def frame_corners(
    pyramid: Pyramid, homography: np.ndarray, corners: np.ndarray, rows: int, cols: int
) -> np.ndarray:
    """The outside of the grid's frame line at each corner, image pixels ``UL UR LR LL``.

    ``corners`` are a fit's corners (line middles); each is moved outward by
    the half-width of the two border lines that meet there. This is where a
    person tends to click on a thick printed frame."""
    g = apply_homography(homography, corners)
    top, right, bottom, left = border_half_widths(pyramid, homography, rows, cols)
    g += np.array([[-left, -top], [right, -top], [right, bottom], [-left, bottom]])
    return apply_homography(np.linalg.inv(homography), g)
