"""Which edge of a BITS grid is the ramp's bottom, from where the tiles rest.

Tiles slide down the ramp and stop on the bottom edge or on other tiles, so in
the right orientation the filled cells stand in columns on the bottom row
(a hole under an overhanging tile is legal but rare). Turn the board a quarter
and the same tiles hang in the air. Each of the four quarter turns is scored
by how well its filled cells are supported; the margin between the best and
the runner-up is the confidence (0 for an empty board, which says nothing).

The turn convention is :func:`numpy.rot90` with ``k = -quarters`` (clockwise),
the same as ``calibration.orientation``: ``quarters`` clockwise turns of the
grid as read bring the ramp's bottom to the bottom.

Which cells are filled comes from the caller when it knows (the colour reader's
codes), or from the pixels (see :func:`filled_from_pixels`).

>>> cells = np.array([list(r) for r in ["....", "....", "..Y.", "RBYK"]]) != "."
>>> gravity_quarters(cells)
(0, 0.625)
>>> gravity_quarters(np.rot90(cells, -1))[0]  # seen turned clockwise: 3 more turns
3
"""

from __future__ import annotations

import cv2
import numpy as np

# CIELAB distance from the empty board beyond which a cell holds a tile.
FILLED_DELTA_E = 22.0


def support_score(filled: np.ndarray) -> float:
    """How well the filled cells rest (row 0 = top), per filled cell: +1 for a
    supported cell, -2 for a floating one, plus a small bonus for a bottom row
    fuller than the top one. A cell is supported on the bottom row, on a filled
    cell, or beside a supported cell (the other half of a lying tile, which
    may overhang a hole). 1.0 is a perfect pile; below 0, tiles hang in the air."""
    full = np.asarray(filled, bool)
    n = int(full.sum())
    if n == 0:
        return 0.0
    below = np.zeros_like(full)
    below[:-1] = full[1:]
    below[-1] = True  # the bottom edge holds the last row
    supported = full & below
    beside = np.zeros_like(full)
    beside[:, 1:] |= supported[:, :-1]
    beside[:, :-1] |= supported[:, 1:]
    supported |= full & beside
    floating = full & ~supported
    fill = (full[-1].sum() - full[0].sum()) / full.shape[1]
    return float(supported.sum() - 2 * floating.sum()) / n + 0.25 * float(fill)


def gravity_quarters(filled: np.ndarray) -> tuple[int, float]:
    """Clockwise quarter turns (0..3) putting the tiles at the bottom, and a
    confidence 0..1: the best score's lead over the runner-up, full at a lead
    of 0.4 (a lead under 0.1 was right only about half the time on simulated
    games, with the true cells given)."""
    scores = [support_score(np.rot90(filled, -k)) for k in range(4)]
    order = np.argsort(scores)[::-1]
    lead = scores[order[0]] - scores[order[1]]
    return int(order[0]), float(np.clip(lead / 0.4, 0.0, 1.0))


def cell_colours(rectified: np.ndarray, rows: int, cols: int, inset: float = 0.25) -> np.ndarray:
    """Median CIELAB (L 0..100, a, b) of each cell's inner patch: ``(rows, cols, 3)``.

    ``rectified``: BGR uint8 from :func:`vision.rectify.rectify`, whole cells of
    equal size. (8-bit Lab: plenty to tell a tile from the board, and fast.)"""
    h, w = rectified.shape[:2]
    ch, cw = h // rows, w // cols
    lab = cv2.cvtColor(np.ascontiguousarray(rectified[: ch * rows, : cw * cols]), cv2.COLOR_BGR2LAB)
    y0, x0 = int(inset * ch), int(inset * cw)
    cells = lab.reshape(rows, ch, cols, cw, 3)[:, y0 : ch - y0, :, x0 : cw - x0]
    patch = cells.transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1, 3)
    med = np.median(patch, axis=2)
    out: np.ndarray = med * np.array([100 / 255, 1.0, 1.0]) - np.array([0.0, 128.0, 128.0])
    return out


def bits_orientation(
    rectified: np.ndarray, rows: int = 6, cols: int = 6, filled: np.ndarray | None = None
) -> tuple[int, float]:
    """``(quarters, confidence)`` for a rectified BITS board (see the module doc).

    ``filled``: ``(rows, cols)`` bool when the caller has read the cells;
    otherwise it is judged from the pixels."""
    if filled is not None:
        return gravity_quarters(np.asarray(filled, bool))
    return gravity_quarters(filled_from_pixels(cell_colours(rectified, rows, cols)))


def filled_from_pixels(colours: np.ndarray) -> np.ndarray:
    """Cells unlike the empty board: ``(rows, cols)`` bool from cell colours.

    The empty board is the colour most cells share: all empty cells are one
    printed colour, while tiles come in five colours (this fails only on a
    nearly full board, where orientation matters least)."""
    flat = colours.reshape(-1, 3)
    near = np.linalg.norm(flat[:, None] - flat[None], axis=2) < FILLED_DELTA_E / 2
    empty = np.median(flat[near[int(np.argmax(near.sum(axis=1)))]], axis=0)
    full: np.ndarray = np.linalg.norm(colours - empty, axis=2) > FILLED_DELTA_E
    return full
