"""Drops: where a tile lands when it slides down the ramp.

A tile goes in at the top, horizontal or vertical, either colour first, over
any column(s), and slides straight down until it rests on the bottom edge or
on a tile (RULES.md, "Placing"). A vertical tile lands on top of its column; a
horizontal one over columns c, c+1 lands one row above the taller of the two,
leaving a hole under the other half. A tile that would stick out of the top
cannot be dropped there.

>>> from engine.bits.board import Board
>>> from engine.bits.tiles import Tile
>>> board = Board.from_text("....../....../....../....../....../B.....".replace("/", "\\n"))
>>> landing(board.tops(), vertical=False, column=0)
4
>>> len(legal_drops(board, Tile("RY")))  # 6 columns + 5 pairs, both ways round
22
>>> str(legal_drops(board, Tile("RR"))[0])
'RR vertical in column 1, rows 4-5'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.bits.bitboard import SIZE, Cell, column_tops
from engine.bits.tiles import CODES, EMPTY, Tile

if TYPE_CHECKING:
    from engine.bits.board import Board


class Drop(NamedTuple):
    """A tile at its resting place. ``first`` is the top half of a vertical
    tile or the left half of a horizontal one; ``row``/``column`` are the
    first half's cell."""

    first: str
    second: str
    vertical: bool
    column: int
    row: int

    @property
    def cells(self) -> tuple[Cell, Cell]:
        if self.vertical:
            return (self.row, self.column), (self.row + 1, self.column)
        return (self.row, self.column), (self.row, self.column + 1)

    @property
    def mask(self) -> int:
        at = SIZE * self.row + self.column
        return (1 << at) | (1 << (at + (SIZE if self.vertical else 1)))

    @property
    def tile(self) -> Tile:
        return Tile(self.first + self.second)

    @property
    def orientation(self) -> str:
        return "vertical" if self.vertical else "horizontal"

    @property
    def place(self) -> str:
        """Where it lies, counted from 1: ``"column 3, rows 4-5"``."""
        if self.vertical:
            return f"column {self.column + 1}, rows {self.row + 1}-{self.row + 2}"
        return f"columns {self.column + 1}-{self.column + 2}, row {self.row + 1}"

    def __str__(self) -> str:
        return f"{self.first}{self.second} {self.orientation} in {self.place}"

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.first + self.second,
            "orientation": self.orientation,
            "column": self.column,
            "row": self.row,
            "cells": [list(cell) for cell in self.cells],
        }

    @classmethod
    def from_cells(cls, a: Cell, b: Cell, first: str, second: str) -> Drop:
        """The drop covering two touching cells (in any order) with these codes.
        A double is written with its codes as given; the other tiles put
        the top (or left) cell first."""
        if b < a:
            a, b, first, second = b, a, second, first
        vertical = a[1] == b[1]
        if not ((vertical and b[0] == a[0] + 1) or (a[0] == b[0] and b[1] == a[1] + 1)):
            raise ValueError(f"cells {a} and {b} do not touch")
        return cls(first, second, vertical, a[1], a[0])


def landing(tops: Sequence[int], vertical: bool, column: int) -> int | None:
    """The row where the first half comes to rest, or None when the tile would
    stick out of the grid (out to the side, or above the top)."""
    if vertical:
        if not 0 <= column < SIZE:
            return None
        row = tops[column] - 2
    else:
        if not 0 <= column < SIZE - 1:
            return None
        row = min(tops[column], tops[column + 1]) - 1
    return row if row >= 0 else None


def drop(board: Board, tile_order: str, vertical: bool, column: int) -> Drop | None:
    """Slide a tile down: ``tile_order`` is first half then second (e.g.
    ``"RY"``: red on top, or on the left). None when it does not fit."""
    if len(tile_order) != 2 or any(code not in CODES or code == EMPTY for code in tile_order):
        raise ValueError(f"a tile is two cell codes like 'RY', not {tile_order!r}")
    Tile(tile_order)  # refuses a half-neutral tile
    row = landing(board.tops(), vertical, column)
    if row is None:
        return None
    return Drop(tile_order[0], tile_order[1], vertical, column, row)


def legal_drops(board: Board, tile: Tile) -> list[Drop]:
    """Every legal landing of ``tile``: orientation x column x colour order."""
    tops = column_tops(board.occupied)
    found: list[Drop] = []
    append = found.append
    for first, second in tile.orders():
        for column in range(SIZE):
            top = tops[column]
            if top >= 2:
                append(Drop(first, second, True, column, top - 2))
        left = tops[0]
        for column in range(SIZE - 1):
            right = tops[column + 1]
            row = (left if left < right else right) - 1
            if row >= 0:
                append(Drop(first, second, False, column, row))
            left = right
    return found


def can_place(board: Board) -> bool:
    """Does any tile fit anywhere? (All tiles have the same footprint, so a
    player who cannot place one tile cannot place any: they drop out.)"""
    tops = column_tops(board.occupied)
    if any(top >= 2 for top in tops):
        return True
    return any(min(tops[c], tops[c + 1]) >= 1 for c in range(SIZE - 1))
