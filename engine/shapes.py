"""Polyominoes: the shapes on BITS task cards and the LITS tetrominoes.

A shape is a set of (row, col) cells, normalised so that its top-most row and
left-most column are 0. Two shapes are "the same" up to rotation, and up to
mirroring when the game allows it (a setting, see RULES.md).

>>> square = Shape.parse("##\\n##")
>>> len(square)
4
>>> Shape.parse("#..\\n###").same_as(Shape.parse("..#\\n###"), mirror=True)
True
>>> Shape.parse("#..\\n###").same_as(Shape.parse("..#\\n###"), mirror=False)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

Cell = tuple[int, int]


def _normalise(cells: Iterable[Cell]) -> frozenset[Cell]:
    cells = list(cells)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def is_connected(cells: frozenset[Cell]) -> bool:
    """Whether ``cells`` (at least one) are joined side by side into one group.

    >>> is_connected(frozenset({(0, 0), (0, 1), (1, 1)})), is_connected(frozenset({(0, 0), (1, 1)}))
    (True, False)
    """
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


@dataclass(frozen=True)
class Shape:
    """An edge-connected polyomino, normalised to the origin."""

    cells: frozenset[Cell]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", _normalise(self.cells))
        if not is_connected(self.cells):
            raise ValueError("a shape's cells must be joined by edges")

    @classmethod
    def of(cls, cells: Iterable[Cell]) -> Shape:
        """The shape of any set of cells (e.g. a colour block on a board)."""
        return cls(frozenset(cells))

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Read a shape drawn with ``#`` (cell) and ``.`` (no cell), rows split
        by newlines or ``/``: ``"##/##"`` is the 2x2 square."""
        rows = [row.strip() for row in text.replace("/", "\n").strip().splitlines()]
        cells = []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in "#Xx1":
                    cells.append((r, c))
                elif ch not in ".0 ":
                    raise ValueError(f"shape drawing has {ch!r}; use '#' for a cell, '.' for none")
        return cls.of(cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self.cells))

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def rotated(self) -> Shape:
        """Quarter turn clockwise."""
        return Shape.of((c, -r) for r, c in self.cells)

    def mirrored(self) -> Shape:
        """Flipped left to right."""
        return Shape.of((r, -c) for r, c in self.cells)

    def orientations(self, mirror: bool = True) -> tuple[Shape, ...]:
        """Every distinct rotation (and mirror image if ``mirror``), sorted."""
        found: set[Shape] = set()
        shape = self
        for _ in range(4):
            found.add(shape)
            if mirror:
                found.add(shape.mirrored())
            shape = shape.rotated()
        return tuple(sorted(found, key=lambda s: s.key))

    @cached_property
    def key(self) -> tuple[Cell, ...]:
        """The cells in a fixed order: a hashable, sortable identity."""
        return tuple(sorted(self.cells))

    def canonical(self, mirror: bool = True) -> tuple[Cell, ...]:
        """One key shared by all orientations: equal keys mean the same shape."""
        return self.orientations(mirror)[0].key

    def same_as(self, other: Shape, mirror: bool = True) -> bool:
        return len(self) == len(other) and self.canonical(mirror) == other.canonical(mirror)

    def __str__(self) -> str:
        return "\n".join(
            "".join("#" if (r, c) in self.cells else "." for c in range(self.width))
            for r in range(self.height)
        )

    def text(self) -> str:
        """One-line drawing, the inverse of :meth:`parse`: ``"##/##"``."""
        return str(self).replace("\n", "/")
