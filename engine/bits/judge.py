"""Judging a placement from the board before and the board after.

The camera sees colours, not hands: from two boards the referee works out
what went in, and says *legal* or names the broken rule with a stable reason
code, a sentence for the players and the cells to highlight
(:class:`engine.verdict.Verdict`). Reason codes, checked in this order:

=================  ========================================================
``no_change``      nothing new on the board
``dropped_out``    the player placed after dropping out of the round
``tiles_moved``    tiles already on the board were moved or removed
``already_placed`` a second tile for the same card
``two_tiles``      more than one tile at once
``outside_grid``   one half of the tile sticks out of the grid
``not_a_tile``     the new cells are not one whole tile
``wrong_tile``     not the tile the card shows (or the neutral where it
                   may not replace the card)
``second_neutral`` the neutral tile again in the same round
``under_overhang`` pushed under a tile: not reachable straight from above
``mid_air``        resting in mid-air: it would slide further down
=================  ========================================================

>>> from engine.bits.board import Board
>>> before = Board.from_rows(["......"] * 5 + ["B....."])
>>> after = Board.from_rows(["......"] * 4 + ["RY....", "B....."])
>>> verdict, drop = judge(before, after, Turn(tiles=(Tile("RY"),)))
>>> verdict.legal, str(drop)
(True, 'RY horizontal in columns 1-2, row 5')
>>> judge(before, after, Turn(tiles=(Tile("BB"),)))[0].reason
'wrong_tile'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.bits.bitboard import BB_COLUMNS, BB_ROWS, SIZE, Cell, cells, spread
from engine.bits.board import Board
from engine.bits.data import TileSet, load_tileset
from engine.bits.drops import Drop, landing
from engine.bits.tiles import NEUTRAL, Tile
from engine.verdict import Verdict

_EDGE = BB_ROWS[0] | BB_COLUMNS[0] | BB_COLUMNS[SIZE - 1]


@dataclass(frozen=True)
class Turn:
    """What the player had to place and where they stand in the round.

    ``tiles``: the tiles the card allows (usually one; several while a
    physical card is not yet known; ``None`` = any tile). ``neutral``: may the
    neutral tile replace it (building cards yes, the starting card no).
    """

    tiles: tuple[Tile, ...] | None = None
    neutral: bool = True
    neutral_used: bool = False
    dropped_out: bool = False
    placed: bool = False
    card: str = "the building card"


def where(cell: Cell) -> str:
    """A cell as players count: ``where((5, 1)) == "row 6, column 2"``."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _places(mask: int) -> str:
    found = cells(mask)
    text = "; ".join(where(cell) for cell in found[:4])
    return text + ("; ..." if len(found) > 4 else "")


def _above(mask: int) -> int:
    """Every cell higher up in the same columns as ``mask``'s cells."""
    above = 0
    for i in range(SIZE * SIZE):
        if mask >> i & 1:
            column = BB_COLUMNS[i % SIZE]
            above |= column & ((1 << i) - 1)
    return above & ~mask


def judge(
    before: Board, after: Board, turn: Turn | None = None, tileset: TileSet | None = None
) -> tuple[Verdict, Drop | None]:
    """Legal or the broken rule, and the drop when the new cells form one tile
    (given even for an illegal placement, so a caller can show it)."""
    turn = turn or Turn()
    names = tileset or load_tileset()
    changed = 0
    for old, new in zip(before.layers, after.layers, strict=True):
        changed |= old ^ new
    if not changed:
        return Verdict.illegal("no_change", "Nothing new on the board."), None
    filled_before = before.occupied
    moved = changed & filled_before
    added = changed & ~filled_before
    if turn.dropped_out and added:
        return Verdict.illegal(
            "dropped_out",
            "You dropped out of this round and may not place more tiles until the next"
            f" round: take the tile at {_places(added)} back out.",
            cells(added),
        ), None
    if moved:
        removed = moved & ~after.occupied
        what = "removed" if removed == moved else "moved" if not removed else "moved or removed"
        return Verdict.illegal(
            "tiles_moved",
            f"Tiles already on the board were {what} ({_places(moved)}): put them back as"
            " they were.",
            cells(moved),
        ), None
    if turn.placed:
        return Verdict.illegal(
            "already_placed",
            f"You already placed a tile for {turn.card}: wait for the next card and take the"
            f" tile at {_places(added)} back out.",
            cells(added),
        ), None
    count = added.bit_count()
    later = added & (added - 1)  # all new cells but the first
    if count >= 3 or (count == 2 and not spread(added ^ later) & later):
        return Verdict.illegal(
            "two_tiles",
            f"More than one tile went in at once ({count} new cells: {_places(added)}):"
            " place one tile at a time.",
            cells(added),
        ), None
    if count == 1:
        if added & _EDGE:
            return Verdict.illegal(
                "outside_grid",
                f"The tile at {_places(added)} sticks out of the grid: a tile must lie"
                " completely on the board.",
                cells(added),
            ), None
        return Verdict.illegal(
            "not_a_tile",
            f"Only one new cell at {_places(added)}: that is not a whole tile.",
            cells(added),
        ), None
    first_cell, second_cell = cells(added)
    first, second = after.code_at(first_cell), after.code_at(second_cell)
    if (first == NEUTRAL) != (second == NEUTRAL):
        return Verdict.illegal(
            "not_a_tile",
            f"The new cells at {_places(added)} are half neutral, half coloured: no tile"
            " looks like that.",
            cells(added),
        ), None
    drop = Drop.from_cells(first_cell, second_cell, first, second)
    tile = drop.tile
    tile_cells = cells(added)
    if tile.is_neutral:
        if not turn.neutral:
            return Verdict.illegal(
                "wrong_tile",
                f"The neutral tile may only replace a building card's tile, not {turn.card}'s.",
                tile_cells,
            ), drop
        if turn.neutral_used:
            return Verdict.illegal(
                "second_neutral",
                "The neutral tile was already played this round: it may replace a card's"
                " tile only once per round.",
                tile_cells,
            ), drop
    elif turn.tiles is not None and tile not in turn.tiles:
        shown = list(dict.fromkeys(names.describe(t) for t in sorted(turn.tiles)))
        if len(shown) == 1:
            message = f"Wrong tile: {turn.card} shows {shown[0]}, but a {names.describe(tile)}"
            message += " tile was placed."
        else:
            message = f"Wrong tile: a {names.describe(tile)} tile is not on any card still"
            message += f" possible ({', '.join(shown) or 'none left'})."
        return Verdict.illegal("wrong_tile", message, tile_cells), drop
    expected = landing(before.tops(), drop.vertical, drop.column)
    if expected is None or drop.row > expected:
        overhang = _above(added) & filled_before
        return Verdict.illegal(
            "under_overhang",
            f"The tile in {drop.place} was pushed under the tile at {_places(overhang)}:"
            " tiles only come straight down from the top.",
            cells(added | overhang),
        ), drop
    if drop.row < expected:
        rest = drop._replace(row=expected)
        gap = _above(rest.mask) & ~_above(added) | rest.mask
        return Verdict.illegal(
            "mid_air",
            f"The tile in {drop.place} is resting in mid-air: it must slide down to {rest.place}.",
            cells(added | gap),
        ), drop
    return Verdict.ok(tile_cells, f"Legal: {drop}."), drop


def infer(before: Board, after: Board) -> Drop | None:
    """The one legal drop that turns ``before`` into ``after`` (any tile, the
    neutral included), or None: the physical-deck mode, where the companion
    never saw the card.

    >>> before = Board.from_rows(["......"] * 6)
    >>> str(infer(before, Board.from_rows(["......"] * 4 + [".K....", ".P...."])))
    'KP vertical in column 2, rows 5-6'
    """
    verdict, drop = judge(before, after, Turn())
    return drop if verdict.legal else None


def card_candidates(drop: Drop, cards: Iterable[Tile]) -> tuple[Tile, ...]:
    """Which of ``cards`` (e.g. the building cards not yet played) the drop
    could have answered: the card showing its tile, or any card when the
    neutral replaced it. Sorted, each tile once."""
    remaining = sorted(set(cards))
    if drop.tile.is_neutral:
        return tuple(remaining)
    return tuple(tile for tile in remaining if tile == drop.tile)
