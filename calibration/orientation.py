"""Turning a reading and its corners by quarter turns, together.

The locator gives corners as the image is upright; a camera over a BITS ramp
may see it any way round, and :func:`vision.orientation.gravity_quarters`
says how many clockwise quarter turns put the ramp's bottom at the bottom.
These helpers apply such a turn to the cells read and to the corners, so the
two always agree (row 0 = the board's top, corners UL UR LR LL as on the board).

>>> seen = np.array([list(r) for r in ["..R", "..B", ".YB"]])  # the ramp's bottom on the right
>>> ["".join(r) for r in turn(seen, 1)]
['...', 'Y..', 'BBR']
>>> turn_corners(np.array([[0, 0], [3, 0], [3, 3], [0, 3]]), 1).tolist()
[[0, 3], [0, 0], [3, 0], [3, 3]]
"""

from __future__ import annotations

import numpy as np


def turn(cells: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``cells`` (rows, cols, ...) turned clockwise ``quarter_turns`` times."""
    return np.rot90(cells, -quarter_turns, axes=(0, 1))


def turn_corners(corners: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Corners UL UR LR LL of a grid after turning its reading clockwise.

    Turning the board's content clockwise makes the old lower-left corner the
    new upper-left one."""
    return np.roll(np.asarray(corners), quarter_turns % 4, axis=0)
