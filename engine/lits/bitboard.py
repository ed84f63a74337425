"""Bitboards: a set of cells of the 10x10 LITS board as one Python int.

Bit ``10 * row + col`` stands for cell ``(row, col)``, so set algebra is
integer arithmetic (``|`` union, ``&`` intersection, ``.bit_count()`` size) and
a whole board fits in a few ints: this is what makes legal-move generation fast.

>>> mask = mask_of([(0, 0), (0, 1)])
>>> mask
3
>>> cells_of(neighbours(mask))
((0, 2), (1, 0), (1, 1))
>>> cells_of(rotate180(mask))
((9, 8), (9, 9))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

SIZE = 10
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1

# Columns 0 and 9: a shift by one bit wraps a cell off one side of a row onto
# the other side of the next row, so these cells are cut from shifted masks.
_FIRST_COLUMN = sum(1 << (r * SIZE) for r in range(SIZE))
_LAST_COLUMN = _FIRST_COLUMN << (SIZE - 1)


def bit(cell: Cell) -> int:
    """The one-cell mask of ``(row, col)``."""
    row, col = cell
    return 1 << (row * SIZE + col)


def mask_of(cells: Iterable[Cell]) -> int:
    mask = 0
    for cell in cells:
        mask |= bit(cell)
    return mask


def indices(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cells_of(mask: int) -> tuple[Cell, ...]:
    """The cells of ``mask`` in reading order (row by row, left to right)."""
    return tuple(divmod(i, SIZE) for i in indices(mask))


def in_board(cell: Cell) -> bool:
    row, col = cell
    return 0 <= row < SIZE and 0 <= col < SIZE


def neighbours(mask: int) -> int:
    """Cells outside ``mask`` that share an edge with a cell of it."""
    grown = (
        ((mask << 1) & ~_FIRST_COLUMN)
        | ((mask >> 1) & ~_LAST_COLUMN)
        | (mask << SIZE)
        | (mask >> SIZE)
    )
    return grown & FULL & ~mask


def rotate180(mask: int) -> int:
    """Turn the board half round: cell (r, c) goes to (9 - r, 9 - c)."""
    return int(format(mask, f"0{CELLS}b")[::-1], 2)


def rotate_cell(cell: Cell) -> Cell:
    return (SIZE - 1 - cell[0], SIZE - 1 - cell[1])


# Every 2x2 square of the board (81 of them), by its upper-left cell.
SQUARES: tuple[int, ...] = tuple(
    mask_of([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)])
    for r in range(SIZE - 1)
    for c in range(SIZE - 1)
)


def full_squares(mask: int) -> list[int]:
    """The 2x2 squares entirely inside ``mask``."""
    return [square for square in SQUARES if square & mask == square]


def where(cell: Cell) -> str:
    """A cell as players say it, counting from 1: ``where((0, 2))`` is
    ``'row 1, column 3'``."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"
