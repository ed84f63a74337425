"""Board layouts: which cells of the 10x10 board print an X, an O or nothing.

A layout is data: 10 lines of ``X``, ``O`` and ``.`` (``data/layouts/*.txt``
holds the named built-ins). The four official boards are not published, so
there is also the generator other implementations use: 30 X cells, each with
an O on the cell rotated 180 degrees about the centre.

>>> layout = Layout.random(seed=7)
>>> layout.count("X"), layout.count("O")
(30, 30)
>>> layout.turned().rows() == layout.swapped().rows()
True
>>> Layout.parse("X" * 10 + "\\n" + ".........." * 1)
Traceback (most recent call last):
...
engine.boardtext.BoardTextError: layout: expected 10 rows of 10 cells, got 2 rows
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from engine.boardtext import parse_board_text
from engine.lits.bitboard import CELLS, SIZE, Cell, bit, cells_of, in_board, rotate180

SYMBOLS = "XO."
RANDOM_PAIRS = 30
DEFAULT_LAYOUT = "crossfire"


class LayoutError(ValueError):
    """A layout that cannot be used; the message says why."""


@dataclass(frozen=True)
class Layout:
    """The printed symbols: ``x`` and ``o`` are bitboards of X and O cells."""

    x: int
    o: int
    name: str = ""

    def __post_init__(self) -> None:
        if self.x & self.o:
            raise LayoutError(f"{cells_of(self.x & self.o)[0]} cannot print both X and O")

    @classmethod
    def parse(cls, text: str | Sequence[str], name: str = "") -> Layout:
        """Read 10 lines of ``X``, ``O``, ``.``; a clear error says where not."""
        if not isinstance(text, str):
            text = "\n".join(text)
        rows = parse_board_text(text, SIZE, SIZE, SYMBOLS, name="layout")
        return cls.from_rows(rows, name)

    @classmethod
    def from_rows(cls, rows: Sequence[str], name: str = "") -> Layout:
        """Layout symbols of already-checked rows; any other character (a
        piece letter of a position) is read as "not known", i.e. blank."""
        x = o = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "X":
                    x |= bit((r, c))
                elif ch == "O":
                    o |= bit((r, c))
        return cls(x, o, name)

    @classmethod
    def random(cls, seed: int, pairs: int = RANDOM_PAIRS) -> Layout:
        """``pairs`` X cells, each with an O on the cell opposite it through
        the centre, chosen by a seeded generator (same seed, same board)."""
        if not 0 <= pairs <= CELLS // 2:
            raise LayoutError(f"a random layout has 0 to {CELLS // 2} X/O pairs, not {pairs}")
        rng = random.Random(seed)
        # The 50 cells of the upper half each stand for one pair {cell, its rotation}.
        half = [(r, c) for r in range(SIZE // 2) for c in range(SIZE)]
        x = 0
        for cell in rng.sample(half, pairs):
            x |= bit(cell if rng.random() < 0.5 else (SIZE - 1 - cell[0], SIZE - 1 - cell[1]))
        return cls(x, rotate180(x), f"random {seed}")

    @classmethod
    def builtin(cls, name: str) -> Layout:
        """A named layout shipped in ``engine/lits/data/layouts/NAME.txt``."""
        names = builtin_names()
        if name not in names:
            raise LayoutError(f"no built-in layout {name!r}; choose from {', '.join(names)}")
        text = _layout_files().joinpath(f"{name}.txt").read_text(encoding="utf-8")
        return cls.parse(text, name)

    def rows(self) -> tuple[str, ...]:
        return tuple("".join(self.symbol((r, c)) for c in range(SIZE)) for r in range(SIZE))

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def symbol(self, cell: Cell) -> str:
        if not in_board(cell):
            raise LayoutError(f"{cell} is not on the 10x10 board")
        b = bit(cell)
        return "X" if self.x & b else "O" if self.o & b else "."

    def count(self, symbol: str) -> int:
        return {"X": self.x, "O": self.o}[symbol].bit_count()

    def turned(self) -> Layout:
        """The board as seen after rotating it 180 degrees (the swap rule)."""
        return Layout(rotate180(self.x), rotate180(self.o), self.name)

    def swapped(self) -> Layout:
        """Every X printed as O and every O as X."""
        return Layout(self.o, self.x, self.name)

    def with_symbol(self, cell: Cell, symbol: str) -> Layout:
        """The same layout with one cell's printed symbol corrected."""
        if symbol not in SYMBOLS:
            raise LayoutError(f"a printed symbol is X, O or '.', not {symbol!r}")
        b = bit(cell) if in_board(cell) else 0
        if not b:
            raise LayoutError(f"{cell} is not on the 10x10 board")
        x, o = self.x & ~b, self.o & ~b
        if symbol == "X":
            x |= b
        elif symbol == "O":
            o |= b
        return Layout(x, o, self.name)

    def notes(self) -> list[str]:
        """Remarks that do not stop a game but a player may want to know."""
        found = []
        if self.count("X") != self.count("O"):
            found.append(f"{self.count('X')} X but {self.count('O')} O: the board favours one side")
        if self.turned().rows() != self.swapped().rows():
            found.append(
                "not symmetric: turning the board (swap rule) does not simply exchange X and O"
            )
        return found


def _layout_files() -> Traversable:
    return resources.files("engine.lits").joinpath("data", "layouts")


def builtin_names() -> list[str]:
    """Names of the shipped layouts, sorted."""
    return sorted(
        entry.name.removesuffix(".txt")
        for entry in _layout_files().iterdir()
        if entry.name.endswith(".txt")
    )
