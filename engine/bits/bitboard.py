"""Bitboards for the 6x6 BITS grid: a set of cells as one 36-bit int.

Bit ``6 * row + col`` stands for cell ``(row, col)`` (row 0 = the ramp's upper
edge), so set algebra is integer arithmetic: ``|`` union, ``&`` intersection,
``.bit_count()`` size. A board is six of these (one per colour and neutral),
which keeps drops and scoring fast enough for a move advisor to search.

>>> square = BB_CELL[0] | BB_CELL[1] | BB_CELL[6] | BB_CELL[7]
>>> cells(square)
((0, 0), (0, 1), (1, 0), (1, 1))
>>> cells(block_at(square | BB_CELL[35], BB_CELL[7]))
((0, 0), (0, 1), (1, 0), (1, 1))
>>> cells(normalised(square << 14))
((0, 0), (0, 1), (1, 0), (1, 1))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

SIZE = 6
CELL_COUNT = SIZE * SIZE
BB_EMPTY = 0
BB_ALL = (1 << CELL_COUNT) - 1
BB_CELL = tuple(1 << i for i in range(CELL_COUNT))
BB_ROWS = tuple(((1 << SIZE) - 1) << (SIZE * r) for r in range(SIZE))
BB_COLUMNS = tuple(sum(1 << (SIZE * r + c) for r in range(SIZE)) for c in range(SIZE))

# A shift by one bit carries a cell off one end of a row onto the other end of
# the next row; these masks cut those wrapped cells off.
_NOT_FIRST_COLUMN = BB_ALL & ~BB_COLUMNS[0]
_NOT_LAST_COLUMN = BB_ALL & ~BB_COLUMNS[SIZE - 1]


def bit(cell: Cell) -> int:
    """The one-cell mask of ``(row, col)``."""
    row, col = cell
    return 1 << (SIZE * row + col)


def on_grid(cell: Cell) -> bool:
    row, col = cell
    return 0 <= row < SIZE and 0 <= col < SIZE


def mask_of(cell_list: Iterable[Cell]) -> int:
    mask = 0
    for cell in cell_list:
        mask |= bit(cell)
    return mask


def scan(mask: int) -> Iterator[int]:
    """The square indices (``6 * row + col``) of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cells(mask: int) -> tuple[Cell, ...]:
    """The cells of ``mask`` in reading order (row by row, left to right)."""
    return tuple(divmod(i, SIZE) for i in scan(mask))


def spread(mask: int) -> int:
    """``mask`` plus every cell that shares an edge with it."""
    return (
        mask
        | ((mask << 1) & _NOT_FIRST_COLUMN)
        | ((mask >> 1) & _NOT_LAST_COLUMN)
        | ((mask << SIZE) & BB_ALL)
        | (mask >> SIZE)
    )


def block_at(within: int, seed: int) -> int:
    """The edge-connected part of ``within`` that contains ``seed`` (a flood
    fill done a whole ring of cells at a time)."""
    block = seed & within
    # spread() written out: this loop is the heart of scoring.
    while True:
        grown = (
            block
            | ((block << 1) & _NOT_FIRST_COLUMN)
            | ((block >> 1) & _NOT_LAST_COLUMN)
            | (block << SIZE)
            | (block >> SIZE)
        ) & within
        if grown == block:
            return block
        block = grown


def normalised(mask: int) -> int:
    """``mask`` slid up and left until it touches row 0 and column 0: equal
    results mean the same cells up to translation."""
    low = mask & -mask
    top_row = (low.bit_length() - 1) // SIZE
    # Fold all rows onto row 0 to see which columns are used.
    folded = mask | (mask >> 18)
    folded = (folded | (folded >> 6) | (folded >> 12)) & ((1 << SIZE) - 1)
    left_col = (folded & -folded).bit_length() - 1
    return mask >> (SIZE * top_row + left_col)


def column_tops(occupied: int) -> tuple[int, ...]:
    """For each column, the row of its highest filled cell (``SIZE`` when the
    column is empty): a tile dropped into the column stops just above it."""
    tops = []
    for column in BB_COLUMNS:
        filled = occupied & column
        tops.append(((filled & -filled).bit_length() - 1) // SIZE if filled else SIZE)
    return tuple(tops)
