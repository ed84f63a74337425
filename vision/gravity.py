"""BITS tiles rest: a reading where a tile floats is probably wrong there.

Tiles slide down the ramp and stop on the bottom edge or on another tile. A
hole can stay only under the other half of a lying tile (an overhang). So a
cell read as a tile with an empty cell straight below it, and with no resting
tile beside it, floats: when the empty board was nearly as good a match (a
dark board print and a black tile differ by a few ΔE), it is the board.
Unsure cells in such places are settled the same way. The board must be the
right way up (row 0 = the ramp's top): see :mod:`vision.orientation`.

The neutral tile is a grey domino, grey on both halves, so a grey cell with
no grey neighbour is misread (a black tile lifted by glare, a dark board
print): it takes its next best colour, or ``?``, and where a tile would float
it is the board whatever its colour said.

>>> import numpy as np
>>> codes = np.array([list("..K."), list("...."), list("RRYB")])
>>> scores = np.zeros((3, 4, 2))        # entries: '.', 'K'
>>> scores[..., 0] = np.where(codes == ".", 0.0, 7.0)   # K cell: board 7 away...
>>> scores[..., 1] = np.where(codes == "K", 3.0, 20.0)  # ...K only 3
>>> ["".join(row) for row in settled(codes, scores, (".", "K"))[0]]
['....', '....', 'RRYB']
"""

from __future__ import annotations

import numpy as np

# A floating tile cell becomes board when the board's match is within this
# many ΔE of the tile's (ΔE-equivalent scores).
SLACK = 8.0
# The neutral tile is a grey domino: both halves grey. A cell read grey with
# no grey beside it is something else (a glared black tile, a shadowed
# board): its next best code when that is within LONE_SLACK, else unsure.
NEUTRAL = "N"
LONE_SLACK = 15.0


def _resting(full: np.ndarray) -> np.ndarray:
    """Cells that rest: on the bottom row, on a resting cell, or beside one
    on the same row (the other half of a lying tile over a hole)."""
    rows = full.shape[0]
    rest = np.zeros_like(full)
    rest[-1] = full[-1]
    for r in range(rows - 2, -1, -1):
        row = full[r] & rest[r + 1]
        # a lying tile's second half rests through its neighbour
        grown = row.copy()
        for _ in range(full.shape[1]):
            left = np.zeros_like(grown)
            left[1:] = grown[:-1]
            right = np.zeros_like(grown)
            right[:-1] = grown[1:]
            new = grown | (full[r] & (left | right))
            if np.array_equal(new, grown):
                break
            grown = new
        rest[r] = grown
    return rest


def settled(
    codes: np.ndarray, scores: np.ndarray, entry_codes: tuple[str, ...], empty: str = "."
) -> tuple[np.ndarray, np.ndarray]:
    """Codes (rows, cols) with lone grey cells and floating near-board cells
    fixed (see the module docstring), and a mask of changes.

    ``scores`` (rows, cols, K): each palette entry's distance (Reading.scores);
    ``entry_codes``: the palette's codes (K,), so the board's entries are known."""
    board = np.array([c == empty for c in entry_codes])
    if not board.any():
        return codes, np.zeros(codes.shape, bool)
    out = _lone_neutrals(codes, scores, entry_codes)
    board_score = scores[..., board].min(axis=-1)
    best_score = scores.min(axis=-1)
    # A lone grey cell's colour was wrong whatever it said: where a tile
    # would float, only the board is left.
    near_board = (board_score - best_score <= SLACK) | ((codes == NEUTRAL) & (out != NEUTRAL))
    for _ in range(codes.shape[0]):
        full = out != empty
        floating = full & ~_resting(full) & near_board
        if not floating.any():
            break
        out = np.where(floating, empty, out)
    return out, out != codes


def _lone_neutrals(
    codes: np.ndarray, scores: np.ndarray, entry_codes: tuple[str, ...]
) -> np.ndarray:
    """Codes with every grey cell that has no grey neighbour (edge-joined)
    replaced by its next best code, or ``?`` when none is near."""
    grey = codes == NEUTRAL
    if not grey.any():
        return codes.copy()
    beside = np.zeros_like(grey)
    beside[1:] |= grey[:-1]
    beside[:-1] |= grey[1:]
    beside[:, 1:] |= grey[:, :-1]
    beside[:, :-1] |= grey[:, 1:]
    lone = grey & ~beside
    out = codes.copy()
    if not lone.any():
        return out
    is_grey = np.array([c == NEUTRAL for c in entry_codes])
    others = np.where(is_grey, np.inf, scores)
    k = others.argmin(axis=-1)
    near = others.min(axis=-1) - scores.min(axis=-1) <= LONE_SLACK
    lookup = np.array(entry_codes)
    out[lone] = np.where(near, lookup[k], "?")[lone]
    return out
