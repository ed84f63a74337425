"""Grid coordinates, homographies and the one rectify function everyone uses.

A grid of ``rows`` x ``cols`` square cells has *grid coordinates* measured in
cells: ``x`` = column (0 at the left edge, ``cols`` at the right edge), ``y`` =
row (0 at the upper edge, ``rows`` at the lower edge). A grid homography maps
image pixels (OpenCV convention: the centre of pixel ``(i, j)`` is at
``x = j, y = i``) to grid coordinates, so it does not depend on any output
resolution. :func:`rectify` scales it to ``cell_px`` pixels per cell.

Corners are always ordered upper-left, upper-right, lower-right, lower-left
(``UL UR LR LL``), as a ``(4, 2)`` float array of ``(x, y)``.

>>> import numpy as np
>>> corners = np.array([[10, 20], [110, 20], [110, 80], [10, 80]], float)
>>> H = homography_from_corners(corners, rows=3, cols=5)
>>> np.round(apply_homography(H, [[60, 50]]), 6).tolist()
[[2.5, 1.5]]
>>> np.allclose(corners_from_homography(H, 3, 5), corners)
True
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import ArrayLike


def grid_corners(rows: int, cols: int) -> np.ndarray:
    """The grid's outer corners in grid coordinates, ``UL UR LR LL``."""
    return np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], dtype=np.float64)


def homography_from_corners(corners: ArrayLike, rows: int, cols: int) -> np.ndarray:
    """Image -> grid homography (3x3 float64) from the four outer corners."""
    src = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    return cv2.getPerspectiveTransform(
        src.astype(np.float32), grid_corners(rows, cols).astype(np.float32)
    ).astype(np.float64)


def apply_homography(homography: np.ndarray, points: ArrayLike) -> np.ndarray:
    """Map ``(N, 2)`` points through a 3x3 homography; returns ``(N, 2)`` float64."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    h = np.hstack([pts, np.ones((len(pts), 1))]) @ np.asarray(homography, np.float64).T
    with np.errstate(divide="ignore", invalid="ignore"):  # a point on the horizon is at infinity
        out: np.ndarray = h[:, :2] / h[:, 2:3]
    return out


def corners_from_homography(homography: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The image positions of the grid's outer corners, ``UL UR LR LL``."""
    return apply_homography(np.linalg.inv(homography), grid_corners(rows, cols))


def grid_to_pixels(cell_px: float, margin_cells: float = 0.0) -> np.ndarray:
    """Grid coordinates -> pixels of a rectified image with ``cell_px`` per cell.

    The rectified image's pixel centres sit at the middle of each pixel-sized
    square of the board, so cell ``(r, c)`` covers pixels
    ``[r*cell_px, (r+1)*cell_px)`` exactly. ``margin_cells`` adds that much
    board around the grid on every side."""
    s = float(cell_px)
    off = margin_cells * s - 0.5
    return np.array([[s, 0, off], [0, s, off], [0, 0, 1]], dtype=np.float64)


def rectify(
    frame: np.ndarray,
    homography: np.ndarray,
    rows: int,
    cols: int,
    cell_px: int,
    margin_cells: float = 0.0,
    interpolation: int = cv2.INTER_LINEAR,
) -> np.ndarray:
    """The grid seen from straight above: ``(rows*cell_px, cols*cell_px[, 3])``.

    ``frame`` is any OpenCV image (BGR uint8, grey, float); ``homography``
    maps its pixels to grid coordinates (e.g. ``GridFit.homography``). Row 0 of
    the result is the grid's upper edge. With ``margin_cells`` the output grows
    by that many cells on every side (useful for drawing and border checks)."""
    if cell_px < 1:
        raise ValueError(f"cell_px must be at least 1, not {cell_px}")
    width = round((cols + 2 * margin_cells) * cell_px)
    height = round((rows + 2 * margin_cells) * cell_px)
    warp = grid_to_pixels(cell_px, margin_cells) @ np.asarray(homography, np.float64)
    return cv2.warpPerspective(
        frame, warp, (width, height), flags=interpolation, borderMode=cv2.BORDER_REPLICATE
    )


def order_corners(points: ArrayLike) -> np.ndarray:
    """Order four points of a convex quadrilateral ``UL UR LR LL`` as the image is upright.

    Walks the quadrilateral clockwise (on screen) and starts at the corner that
    lies most towards the upper-left of its centre, so a rolled grid keeps the
    corner a viewer would call upper-left.

    >>> order_corners([[9, 9], [0, 0], [0, 9], [9, 0]]).tolist()
    [[0.0, 0.0], [9.0, 0.0], [9.0, 9.0], [0.0, 9.0]]
    """
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angle = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angle)]  # clockwise on screen (y points down)
    # The upper-left direction is angle -3pi/4; start at the closest corner.
    d = np.angle(np.exp(1j * (np.arctan2(*(pts - centre)[:, ::-1].T) + 3 * np.pi / 4)))
    start = int(np.argmin(np.abs(d)))
    return np.roll(pts, -start, axis=0)


def turn(homography: np.ndarray, rows: int, cols: int, quarters: int) -> np.ndarray:
    """The same grid with its corner names moved ``quarters`` steps clockwise:
    the new upper-left is the old corner ``quarters`` places after it
    (``UL UR LR LL``). Odd turns need a square grid.

    >>> H = homography_from_corners([[0, 0], [6, 0], [6, 6], [0, 6]], 6, 6)
    >>> np.round(corners_from_homography(turn(H, 6, 6, 1), 6, 6)).tolist()
    [[6.0, 0.0], [6.0, 6.0], [0.0, 6.0], [0.0, 0.0]]
    """
    quarters %= 4
    if quarters % 2 and rows != cols:
        raise ValueError("only a square grid can be turned a quarter")
    step = np.array([[0.0, 1, 0], [-1, 0, cols], [0, 0, 1]])  # (x, y) -> (y, n - x)
    out = np.asarray(homography, np.float64)
    for _ in range(quarters):
        out = step @ out
    return out


def upright_quarters(corners: np.ndarray, rows: int, cols: int) -> int:
    """How many quarter turns (see :func:`turn`) bring the corners to the order
    :func:`order_corners` gives, i.e. the upper-left corner is the one most
    towards the picture's upper left (half turns only for an oblong grid)."""
    target = order_corners(corners)
    options = range(4) if rows == cols else (0, 2)
    return min(options, key=lambda k: float(np.abs(np.roll(corners, -k, axis=0) - target).sum()))
