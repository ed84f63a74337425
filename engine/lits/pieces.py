"""The four LITS tetrominoes and every place one can lie on the board.

Pieces turn and flip (L = J, S = Z), so a shape has up to 8 orientations; a
*placement* is one orientation at one spot. There are 1,292 of them on an
empty 10x10 board, numbered once here (L first, then I, T, S) so that a set of
placements is also a bitboard: bit ``placement.index``.

>>> len(PLACEMENTS)
1292
>>> shape_of([(0, 0), (1, 0), (2, 0), (2, 1)])
'L'
>>> shape_of([(0, 0), (0, 1), (1, 0), (1, 1)])
'O'
>>> placement_at([(4, 4), (4, 5), (4, 6), (4, 7)]).shape
'I'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.lits.bitboard import SIZE, Cell, cells_of, in_board, mask_of, neighbours
from engine.shapes import Shape

LETTERS = "LITS"
SHAPES: dict[str, Shape] = {
    "L": Shape.parse("#./#./##"),
    "I": Shape.parse("####"),
    "T": Shape.parse("###/.#."),
    "S": Shape.parse(".##/##."),
}
COLOURS = {"L": "red", "I": "yellow", "T": "green", "S": "blue"}
SUPPLY = 5  # pieces of each shape in the box

# The square tetromino is a tetromino but not a LITS piece: shape_of names it
# "O" so a judge can say exactly what went wrong.
_TETROMINOES: dict[tuple[Cell, ...], str] = {
    shape.canonical(): letter for letter, shape in [*SHAPES.items(), ("O", Shape.parse("##/##"))]
}


@dataclass(frozen=True)
class Placement:
    """One piece lying on the board: ``shape`` letter, its 4 ``cells`` in
    reading order, their bitboard ``mask`` and the ``border`` (the cells just
    outside it that share an edge with it)."""

    index: int
    shape: str
    cells: tuple[Cell, ...]
    mask: int
    border: int

    @property
    def colour(self) -> str:
        return COLOURS[self.shape]

    def to_json(self) -> dict[str, object]:
        return {"shape": self.shape, "cells": [list(cell) for cell in self.cells]}

    def __str__(self) -> str:
        return f"{self.shape} " + " ".join(f"{r + 1},{c + 1}" for r, c in self.cells)


def _all_placements() -> tuple[Placement, ...]:
    found: list[Placement] = []
    for letter in LETTERS:
        for orientation in SHAPES[letter].orientations(mirror=True):
            for top in range(SIZE - orientation.height + 1):
                for left in range(SIZE - orientation.width + 1):
                    mask = mask_of((top + r, left + c) for r, c in orientation.cells)
                    found.append(
                        Placement(len(found), letter, cells_of(mask), mask, neighbours(mask))
                    )
    return tuple(found)


PLACEMENTS: tuple[Placement, ...] = _all_placements()
_BY_MASK: dict[int, Placement] = {p.mask: p for p in PLACEMENTS}


def shape_of(cells: Iterable[Cell]) -> str | None:
    """``'L'``, ``'I'``, ``'T'``, ``'S'`` (or ``'O'`` for the square) when the
    cells form that tetromino in any orientation; ``None`` when they are not
    4 cells joined by edges."""
    cells = list(cells)
    if len(cells) != 4:
        return None
    try:
        shape = Shape.of(cells)
    except ValueError:  # not joined by edges
        return None
    return _TETROMINOES.get(shape.canonical())


def placement_at(cells: Iterable[Cell]) -> Placement | None:
    """The LITS piece covering exactly these cells, if they form one."""
    cells = list(cells)
    if not all(in_board(cell) for cell in cells):
        return None
    return _BY_MASK.get(mask_of(cells))


def placement_of_mask(mask: int) -> Placement | None:
    return _BY_MASK.get(mask)


def named(letter: str) -> str:
    """A shape as a sentence says it: ``named('L')`` is ``'an L'``."""
    return {"L": "an L", "I": "an I", "T": "a T", "S": "an S", "O": "a 2x2 square"}[letter]
