"""Legal-move generation: which of the 1,292 placements may be played now.

Sets of placements are bitboards over placement numbers (a 1,292-bit int), so
each rule is a handful of ``|`` and ``&`` over tables built once at import:

- ``_COVERING[i]``: placements that cover cell ``i``;
- ``_OF_SHAPE[s]``: placements of shape ``s``;
- ``_COMPLETING[cells]``: for every part of a 2x2 square, the placements that
  cover all of that part (so they would fill the square if the rest is covered).

A position is given as its covered cells and one mask per shape, so the
generator knows nothing of layouts, players or history.
"""

from __future__ import annotations

from engine.lits.bitboard import CELLS, SQUARES, indices, neighbours
from engine.lits.pieces import LETTERS, PLACEMENTS, Placement

ALL = (1 << len(PLACEMENTS)) - 1


def _tables() -> tuple[list[int], dict[str, int], dict[int, int]]:
    covering = [0] * CELLS
    of_shape = dict.fromkeys(LETTERS, 0)
    for p in PLACEMENTS:
        for i in indices(p.mask):
            covering[i] |= 1 << p.index
        of_shape[p.shape] |= 1 << p.index
    completing: dict[int, int] = {}
    for square in SQUARES:
        corners = list(indices(square))
        for pick in range(1, 15):  # every non-empty proper subset of the 4 cells
            part = sum(1 << corners[k] for k in range(4) if pick >> k & 1)
            found = ALL
            for i in indices(part):
                found &= covering[i]
            completing[part] = found
    return covering, of_shape, completing


_COVERING, _OF_SHAPE, _COMPLETING = _tables()
# The same per-cell table split by shape, for the same-shape contact rule.
_COVERING_SHAPE = {s: [placements & _OF_SHAPE[s] for placements in _COVERING] for s in LETTERS}


def legal_set(covered: int, shape_masks: dict[str, int], supply: int) -> int:
    """The legal placements as a bitboard over placement numbers.

    ``covered`` is the bitboard of covered cells, ``shape_masks`` the cells
    covered by each shape letter, ``supply`` the pieces of each shape in the
    box. Rules (RULES.md): the cells are free; the piece shares an edge with a
    piece on the board (except the very first piece); it shares no edge with
    a piece of its own shape; no 2x2 square ends up fully covered; a piece of
    that shape is left.
    """
    if not covered:
        allowed = ALL
    else:
        blocked = _union(_COVERING, covered)
        touching = _union(_COVERING, neighbours(covered))
        for square in SQUARES:
            free = square & ~covered
            if free and free != square:
                blocked |= _COMPLETING[free]
        allowed = touching & ~blocked
    for letter in LETTERS:
        mine = shape_masks.get(letter, 0)
        if mine.bit_count() >= 4 * supply:
            allowed &= ~_OF_SHAPE[letter]
        elif mine:
            allowed &= ~_union(_COVERING_SHAPE[letter], neighbours(mine))
    return allowed


def _union(table: list[int], cells: int) -> int:
    """``table[i]`` or-ed together over the cells ``i`` of a cell bitboard
    (inlined bit scan: this loop is the generator's inner loop)."""
    found = 0
    while cells:
        low = cells & -cells
        found |= table[low.bit_length() - 1]
        cells ^= low
    return found


def placements_in(found: int) -> list[Placement]:
    """The placements of a bitboard over placement numbers, in number order."""
    return [PLACEMENTS[i] for i in indices(found)]
