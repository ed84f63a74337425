"""Recover every piece from one picture of the board.

Pieces of the same shape never share an edge, so on a legal board every
single-colour connected region is exactly one piece: one photo of a finished
game is enough. :func:`decode` says which regions are not a piece and why,
and which rules the board as a whole breaks.

>>> rows = ["LLL......."] + ["L........."] + ["IIII......"] + [".........."] * 7
>>> result = decode(rows)
>>> [str(p) for p in result.pieces]
['L 1,1 1,2 1,3 2,1', 'I 3,1 3,2 3,3 3,4']
>>> result.ok
True
>>> [v.reason for v in decode(["TTT......."] + [".........."] * 9).problems]
['not_a_tetromino']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.lits.bitboard import SIZE, Cell, cells_of, full_squares, mask_of, neighbours, where
from engine.lits.pieces import COLOURS, LETTERS, SUPPLY, Placement, named, placement_at, shape_of
from engine.lits.text import read_rows
from engine.regions import regions
from engine.verdict import Verdict


@dataclass(frozen=True)
class Decoded:
    """The pieces found (reading order of their first cell) and the problems:
    one :class:`Verdict` per region that is not a piece, then one per rule
    the board breaks. ``ok`` when there are none."""

    pieces: tuple[Placement, ...]
    problems: tuple[Verdict, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "pieces": [p.to_json() for p in self.pieces],
            "problems": [v.to_json() for v in self.problems],
        }


def region_problem(letter: str, cells: frozenset[Cell]) -> Verdict | None:
    """Why one single-colour region is not one piece of its colour's shape,
    or ``None`` when it is."""
    colour = COLOURS[letter]
    at = where(min(cells))
    size = len(cells)
    if size != 4:
        if size > 4 and size % 4 == 0:
            return Verdict.illegal(
                "same_shape_touching",
                f"{size} {colour} cells are joined from {at}: {size // 4} {letter} pieces "
                "touch each other, or a cell is misread.",
                tuple(cells),
            )
        return Verdict.illegal(
            "not_a_tetromino",
            f"{size} {colour} cell{'s are' if size > 1 else ' is'} joined from {at}; "
            "a piece covers exactly 4 cells.",
            tuple(cells),
        )
    shape = shape_of(cells)
    if shape == "O":
        return Verdict.illegal(
            "not_a_tetromino",
            f"The 4 {colour} cells from {at} form a 2x2 square; no LITS piece has that shape.",
            tuple(cells),
        )
    if shape != letter:
        return Verdict.illegal(
            "colour_mismatch",
            f"The {colour} cells from {at} form {named(str(shape))}, but {colour} is the "
            f"colour of the {letter}.",
            tuple(cells),
        )
    return None


def recoloured(rows: Sequence[str]) -> tuple[list[str], tuple[Cell, ...]]:
    """The board as read by a camera, each piece in the colour of its shape.

    A piece's colour follows from its shape (the L is red, the I yellow, the
    T green, the S blue), so four cells of one colour in an L's shape are an
    L whatever colour the camera saw there (a red L under a warm lamp's
    highlight looks yellow). And three cells of one colour with a single
    unsure (``?``) neighbour that makes them that colour's shape are that
    piece. Nothing else changes: other regions are left for :func:`decode`
    to report. ``rows``: 10 strings, ``?`` allowed; returns the rows and the
    cells that changed.

    >>> rows = ["III.......", "I........."] + [".........."] * 8
    >>> recoloured(rows)[0][:2], recoloured(rows)[1]
    (['LLL.......', 'L.........'], ((0, 0), (0, 1), (0, 2), (1, 0)))
    >>> recoloured(["IIII......"] + [".........."] * 9)[1]
    ()
    >>> recoloured(["TTT.......", ".?........"] + [".........."] * 8)[0][:2]
    ['TTT.......', '.T........']
    """
    grid = [list(row) for row in rows]
    changed: list[Cell] = []
    for letter, cells in regions(rows, LETTERS):
        shape = shape_of(cells)
        if len(cells) == 3:
            completions = [
                cell for cell in _unsure_around(grid, cells) if shape_of(cells | {cell}) == letter
            ]
            if len(completions) == 1:
                r, c = completions[0]
                grid[r][c] = letter
                changed.append((r, c))
                continue
        if shape is None or shape == "O" or shape == letter:
            continue
        for r, c in sorted(cells):
            grid[r][c] = shape
            changed.append((r, c))
    return ["".join(row) for row in grid], tuple(changed)


def _unsure_around(grid: list[list[str]], cells: frozenset[Cell]) -> set[Cell]:
    """The ``?`` cells sharing an edge with ``cells``."""
    around = set()
    for r, c in cells:
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= q[0] < len(grid) and 0 <= q[1] < len(grid[0]) and grid[q[0]][q[1]] == "?":
                around.add(q)
    return around


def decode(rows: str | Sequence[str], supply: int = SUPPLY) -> Decoded:
    """Read position text (see :mod:`engine.lits.text`) into pieces.

    Problems, with stable reasons: a region of the wrong size
    (``not_a_tetromino``, or ``same_shape_touching`` when it could be several
    pieces of one shape), a region of another shape than its colour's
    (``colour_mismatch``), then for the whole board a fully covered 2x2
    (``square_covered``), more pieces of a shape than the box holds
    (``shape_exhausted``) and pieces cut off from the rest (``not_touching``).
    """
    grid = read_rows(rows)
    pieces: list[Placement] = []
    problems: list[Verdict] = []
    for letter, cells in regions(grid, LETTERS):
        problem = region_problem(letter, cells)
        if problem is not None:
            problems.append(problem)
            continue
        piece = placement_at(cells)
        assert piece is not None  # a region of 4 cells in its colour's shape is a placement
        pieces.append(piece)
    covered = mask_of((r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] in LETTERS)
    problems.extend(_board_problems(covered, pieces, supply))
    return Decoded(tuple(pieces), tuple(problems))


def _board_problems(covered: int, pieces: list[Placement], supply: int) -> list[Verdict]:
    problems = []
    for square in full_squares(covered):
        first = cells_of(square)[0]
        problems.append(
            Verdict.illegal(
                "square_covered",
                f"The 2x2 square from {where(first)} is fully covered.",
                cells_of(square),
            )
        )
    for letter in LETTERS:
        mine = [p for p in pieces if p.shape == letter]
        if len(mine) > supply:
            problems.append(
                Verdict.illegal(
                    "shape_exhausted",
                    f"{len(mine)} {letter} pieces are on the board, but the box has {supply}.",
                    tuple(cell for p in mine for cell in p.cells),
                )
            )
    groups = _groups(covered)
    if len(groups) > 1:
        # Every piece after the first touches one already down, so all covered
        # cells form one group; the groups apart from the largest are cut off.
        groups.sort(key=lambda g: (-g.bit_count(), cells_of(g)[0]))
        for group in groups[1:]:
            problems.append(
                Verdict.illegal(
                    "not_touching",
                    f"The pieces from {where(cells_of(group)[0])} do not touch the other "
                    "pieces; every piece after the first must share an edge with one.",
                    cells_of(group),
                )
            )
    return problems


def _groups(covered: int) -> list[int]:
    """Edge-connected groups of covered cells, whatever their colour."""
    groups = []
    rest = covered
    while rest:
        group = rest & -rest
        while True:
            grown = group | (neighbours(group) & covered)
            if grown == group:
                break
            group = grown
        groups.append(group)
        rest &= ~group
    return groups
