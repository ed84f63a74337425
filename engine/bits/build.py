"""How a board could have been built: a legal drop order that makes it.

The camera may see a finished board without having seen it grow (a photo,
or a companion switched on mid-round). This search answers "could legal drops
have made this board, with these tiles?" and gives one such order. It works
backwards: the last tile dropped must sit exactly where it would land on the
board without it, so only tiles on top of their columns are tried.

>>> from engine.bits.board import Board
>>> board = Board.from_rows(["......"] * 4 + ["RR....", "YB...."])
>>> [str(d) for d in build_order(board, tiles=[Tile("RR"), Tile("BY")])]
['YB horizontal in columns 1-2, row 6', 'RR horizontal in columns 1-2, row 5']
>>> build_order(Board.from_rows(["......"] * 4 + ["R.....", "......"])) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator

from engine.bits.bitboard import SIZE, column_tops
from engine.bits.board import Board
from engine.bits.drops import Drop
from engine.bits.tiles import NEUTRAL, Tile


def _top_tiles(board: Board, mask: int) -> Iterator[Drop]:
    """Drops that could have been the last one onto the cells ``mask``."""
    tops = column_tops(mask)
    code = board.code_at
    for column, top in enumerate(tops):
        if top <= SIZE - 2 and mask >> (SIZE * (top + 1) + column) & 1:
            rest = mask & ~((1 << (SIZE * top + column)) | (1 << (SIZE * (top + 1) + column)))
            if column_tops(rest)[column] == top + 2:
                first, second = code((top, column)), code((top + 1, column))
                if (first == NEUTRAL) == (second == NEUTRAL):
                    yield Drop(first, second, True, column, top)
    for column in range(SIZE - 1):
        row = tops[column]
        if row == SIZE or tops[column + 1] != row:
            continue
        rest = mask & ~((1 << (SIZE * row + column)) | (1 << (SIZE * row + column + 1)))
        after = column_tops(rest)
        if min(after[column], after[column + 1]) - 1 == row:
            first, second = code((row, column)), code((row, column + 1))
            if (first == NEUTRAL) == (second == NEUTRAL):
                yield Drop(first, second, False, column, row)


def build_order(
    board: Board,
    tiles: Iterable[Tile] | None = None,
    first: Collection[Tile] | None = None,
) -> list[Drop] | None:
    """One legal drop order that builds ``board`` from empty, or None.

    ``tiles``: the tiles that may be used, each as often as listed (None = any
    tile, any number of times). ``first``: tiles allowed as the first drop
    (the starting tile), taken from this set instead of ``tiles``. Known tile
    pairing on the board (``board.tiles``) is respected.

    The search is exhaustive (memoised on the cells left and the tiles left):
    under a millisecond for a buildable board, a few hundred milliseconds to
    prove that a full board cannot be built from one player's tiles. Not for
    a hot loop.
    """
    budget: Counter[Tile] | None = Counter(tiles) if tiles is not None else None
    paired = board.occupied & ~board.unpaired
    known = set(board.tiles)
    failed: set[tuple[int, tuple[tuple[Tile, int], ...]]] = set()
    order: list[Drop] = []

    def allowed(drop: Drop) -> bool:
        if drop.mask & paired:
            return drop.mask in known
        return True

    def search(mask: int) -> bool:
        if not mask:
            return True
        key = (mask, tuple(sorted(budget.items())) if budget is not None else ())
        if key in failed:
            return False
        for drop in _top_tiles(board, mask):
            if not allowed(drop):
                continue
            tile = drop.tile
            is_first = drop.mask == mask
            if is_first and first is not None:
                use_budget = False
                if tile not in first:
                    continue
            else:
                use_budget = budget is not None
                if budget is not None and budget[tile] <= 0:
                    continue
            if use_budget and budget is not None:
                budget[tile] -= 1
            order.append(drop)
            if search(mask & ~drop.mask):
                return True
            order.pop()
            if use_budget and budget is not None:
                budget[tile] += 1
        failed.add(key)
        return False

    if not search(board.occupied):
        return None
    return order[::-1]
