"""Boards, tiles and task-card shapes as drawing models for the SVG templates.

The templates draw; this module decides what: each cell's colour class, the
letter on it (colour-blind players read the letter, not the colour), whether
it is part of the last placement, flagged by an alert, or part of a block
that scored. Coordinates are in cells (the SVG ``viewBox`` is cols x rows),
so the same drawing scales to any phone.

>>> b = bits_board(["RR....", "......"], letter=lambda code: code)
>>> [(c.r, c.c, c.css, c.label) for c in b.cells[:3]]
[(0, 0, 'c-R', 'R'), (0, 1, 'c-R', 'R'), (0, 2, 'c-empty', '')]
>>> outline([(0, 0), (0, 1)])
'M0 0h1M1 0h1M0 1h1M1 1h1M0 0v1M2 0v1'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]
Letter = Callable[[str], str]

# Codes drawn with white letters (dark fills); the rest get dark letters.
DARK = set("RBPKLTS")
BITS_COLOURS = "RYBPKN"
LITS_PIECES = "LITS"


@dataclass
class CellView:
    r: int
    c: int
    code: str
    css: str  # fill class, e.g. 'c-R'
    label: str  # the letter drawn on it ('' for an empty cell)
    dark: bool  # white letters on a dark fill
    printed: str = ""  # LITS: the printed symbol of an uncovered cell
    href: str | None = None
    last: bool = False
    flag: bool = False
    unsure: bool = False


@dataclass
class Outline:
    d: str  # SVG path of the region's border
    css: str
    label: str = ""
    x: float = 0.0  # where the label goes
    y: float = 0.0


@dataclass
class BoardView:
    rows: int
    cols: int
    cells: list[CellView]
    outlines: list[Outline] = field(default_factory=list)
    title: str = ""

    @property
    def last_path(self) -> str:
        return outline([(c.r, c.c) for c in self.cells if c.last])

    @property
    def flag_path(self) -> str:
        return outline([(c.r, c.c) for c in self.cells if c.flag])

    @property
    def unsure_path(self) -> str:
        return outline([(c.r, c.c) for c in self.cells if c.unsure])


def outline(cells: Iterable[Cell]) -> str:
    """The border of a set of cells as one SVG path (unit cells): every cell
    side that does not touch another cell of the set."""
    inside = {(int(r), int(c)) for r, c in cells}
    top, bottom, left, right = [], [], [], []
    for r, c in sorted(inside):
        if (r - 1, c) not in inside:
            top.append(f"M{c} {r}h1")
        if (r + 1, c) not in inside:
            bottom.append(f"M{c} {r + 1}h1")
        if (r, c - 1) not in inside:
            left.append(f"M{c} {r}v1")
        if (r, c + 1) not in inside:
            right.append(f"M{c + 1} {r}v1")
    return "".join(top + bottom + left + right)


def _cells(raw: Iterable[Any] | None) -> set[Cell]:
    out: set[Cell] = set()
    for cell in raw or ():
        try:
            r, c = cell
            out.add((int(r), int(c)))
        except (TypeError, ValueError):
            continue
    return out


def bits_board(
    rows: Sequence[str],
    *,
    letter: Letter,
    href: Callable[[int, int], str] | None = None,
    last: Iterable[Any] | None = None,
    flagged: Iterable[Any] | None = None,
    unsure: Iterable[Any] | None = None,
    blocks: Sequence[dict[str, Any]] = (),
) -> BoardView:
    """A BITS board (board text rows). ``blocks``: ``{"cells", "label",
    "minus"}`` for blocks that scored, outlined and labelled."""
    last_set, flag_set, unsure_set = _cells(last), _cells(flagged), _cells(unsure)
    cells = []
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            filled = code in BITS_COLOURS
            cells.append(
                CellView(
                    r=r,
                    c=c,
                    code=code,
                    css=f"c-{code}" if filled else ("c-unk" if code == "?" else "c-empty"),
                    label=letter(code) if filled or code == "?" else "",
                    dark=code in DARK,
                    href=href(r, c) if href else None,
                    last=(r, c) in last_set,
                    flag=(r, c) in flag_set,
                    unsure=(r, c) in unsure_set,
                )
            )
    view = BoardView(len(rows), len(rows[0]) if rows else 0, cells)
    view.outlines = [_block_outline(b) for b in blocks]
    return view


def _block_outline(block: dict[str, Any]) -> Outline:
    cells = sorted(_cells(block.get("cells")))
    r, c = cells[0] if cells else (0, 0)
    return Outline(
        d=outline(cells),
        css="block minus" if block.get("minus") else "block",
        label=str(block.get("label", "")),
        x=c + 0.12,
        y=r + 0.38,
    )


def lits_board(
    rows: Sequence[str],
    layout: Sequence[str],
    *,
    href: Callable[[int, int], str] | None = None,
    last: Iterable[Any] | None = None,
    flagged: Iterable[Any] | None = None,
    unsure: Iterable[Any] | None = None,
) -> BoardView:
    """A LITS position: pieces by letter over the printed layout. Uncovered
    cells show their printed X or O (and link for a symbol fix)."""
    last_set, flag_set, unsure_set = _cells(last), _cells(flagged), _cells(unsure)
    cells = []
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            piece = code in LITS_PIECES
            printed = layout[r][c] if r < len(layout) and c < len(layout[r]) else "."
            cells.append(
                CellView(
                    r=r,
                    c=c,
                    code=code,
                    css=f"c-{code}" if piece else "c-empty",
                    label=code if piece else "",
                    dark=code in DARK,
                    printed="" if piece or printed == "." else printed,
                    href=href(r, c) if href and not piece else None,
                    last=(r, c) in last_set,
                    flag=(r, c) in flag_set,
                    unsure=(r, c) in unsure_set,
                )
            )
    return BoardView(len(rows), len(rows[0]) if rows else 0, cells)


def shape_board(shape: str, colour: str | None, letter: Letter) -> BoardView:
    """A task card's shape (``"##/#."``) in its colour, or grey-outlined when
    any colour counts."""
    rows = shape.split("/")
    code = colour or "."
    cells = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "#X":
                cells.append(
                    CellView(
                        r,
                        c,
                        code,
                        css=f"c-{colour}" if colour else "c-any",
                        label=letter(colour) if colour else "",
                        dark=code in DARK,
                    )
                )
    return BoardView(len(rows), max((len(r) for r in rows), default=0), cells)


def tile_board(tile: str, letter: Letter, vertical: bool = False) -> BoardView:
    """A domino (``"RY"``) as two cells."""
    cells = [
        CellView(
            i if vertical else 0,
            0 if vertical else i,
            code,
            css=f"c-{code}",
            label=letter(code),
            dark=code in DARK,
        )
        for i, code in enumerate(tile[:2])
    ]
    return BoardView(2 if vertical else 1, 1 if vertical else 2, cells)
