"""Which way up a BITS board is: tiles rest at the bottom of the ramp.

The locator gives corners as the image is upright; a camera over a ramp may
see it any way round. Gravity decides: in the right orientation no tile
floats above an empty cell (holes under an overhang are legal but rare), and
the bottom row fills first.

>>> seen = np.array([list(r) for r in ["..R", "..B", ".YB"]])  # the ramp's bottom on the right
>>> gravity_turns(seen)
1
>>> ["".join(r) for r in turn(seen, 1)]
['...', 'Y..', 'BBR']
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


def floating(cells: np.ndarray, empty: str = ".") -> int:
    """How many tile cells sit directly above an empty cell (row 0 = top)."""
    full = cells != empty
    return int((full[:-1] & ~full[1:]).sum())


def gravity_turns(cells: np.ndarray, empty: str = ".") -> int:
    """Clockwise quarter turns (0..3) that put the resting tiles at the bottom.

    Fewest floating tiles wins; then the fuller bottom row; then no turn.
    Unsure cells count as tiles (they are rarely empty board)."""
    best: tuple[int, int, int] | None = None
    choice = 0
    for k in range(4):
        board = turn(cells, k)
        key = (floating(board, empty), -int((board[-1] != empty).sum()), k)
        if best is None or key < best:
            best, choice = key, k
    return choice
