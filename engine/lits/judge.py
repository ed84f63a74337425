"""Judging a placement: is the step from one board to the next a legal move?

The camera sees the board before and after a player's hand; :func:`judge`
works out the piece that was added and checks it against the rules. Every
refusal has a stable reason code (the phones and tests key on it), a
sentence for the players and the cells to highlight:

- ``pieces_moved``: a piece already on the board was moved or removed;
- ``symbol_mismatch``: an uncovered cell shows another symbol than the layout;
- ``nothing_placed``: no new cell is covered;
- ``two_pieces``: more than one piece was added at once;
- ``not_a_tetromino``: the new cells are not 4 cells joined by edges, or
  they form the 2x2 square (not a LITS piece);
- ``colour_mismatch``: the piece's colour is not its shape's (L red,
  I yellow, T green, S blue), or it mixes colours;
- ``overlap``: (a placement given by its cells) a cell is already covered;
- ``shape_exhausted``: all pieces of that shape are already on the board;
- ``not_touching``: the piece shares no edge with a piece on the board;
- ``same_shape_touching``: it shares an edge with a piece of its own shape;
- ``square_covered``: a 2x2 square ends up fully covered.

>>> from engine.lits.layout import Layout
>>> before = Position(Layout.parse(["." * 10] * 10))
>>> verdict, piece = judge(before, ["IIII......"] + ["." * 10] * 9)
>>> verdict.reason, str(piece)
('ok', 'I 1,1 1,2 1,3 1,4')
>>> judge(before.place(piece), ["IIII......", "IIII......"] + ["." * 10] * 8)[0].reason
'same_shape_touching'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_

from engine.lits.bitboard import SIZE, Cell, cells_of, full_squares, in_board, mask_of, where
from engine.lits.pieces import COLOURS, LETTERS, SUPPLY, Placement, named, placement_at, shape_of
from engine.lits.position import Position
from engine.lits.text import read_rows
from engine.regions import regions
from engine.verdict import Verdict


def judge(
    before: Position, after: str | Sequence[str], supply: int = SUPPLY
) -> tuple[Verdict, Placement | None]:
    """Judge the board ``after`` (position text) as the move after ``before``.

    Returns the verdict and the piece that was added, when exactly one whole
    piece of a known shape was added (legal or not: a rule-breaking piece is
    still returned, so it can be highlighted or overruled); ``None`` otherwise.
    Raises :class:`engine.boardtext.BoardTextError` when ``after`` is not
    position text (e.g. holds ``?``).
    """
    grid = read_rows(after, name="after")
    removed: list[Cell] = []
    misread: list[Cell] = []
    new: dict[Cell, str] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            was, now = before.code((r, c)), grid[r][c]
            if was == now:
                continue
            if was in LETTERS:
                removed.append((r, c))
            elif now in LETTERS:
                new[(r, c)] = now
            else:
                misread.append((r, c))
    if removed:
        return _moved(before, removed, grid), None
    if misread:
        first = misread[0]
        return Verdict.illegal(
            "symbol_mismatch",
            f"{where(first).capitalize()} shows {grid[first[0]][first[1]]!r}, but the board "
            f"prints {before.code(first)!r} there: a misread, or another board?",
            tuple(misread),
        ), None
    return _new_piece(before, new, supply)


def check_placement(position: Position, piece: Placement, supply: int = SUPPLY) -> Verdict:
    """The placement rules (RULES.md) for ``piece`` added to ``position``."""
    s = piece.shape
    this = f"This {COLOURS[s]} {s}"
    if piece.mask & position.covered:
        taken = cells_of(piece.mask & position.covered)
        return Verdict.illegal(
            "overlap", f"{where(taken[0]).capitalize()} is already covered by a piece.", taken
        )
    if position.count(s) >= supply:
        return Verdict.illegal(
            "shape_exhausted",
            f"All {supply} {s} pieces are already on the board; choose another shape.",
            piece.cells,
        )
    if position.covered and not piece.border & position.covered:
        return Verdict.illegal(
            "not_touching",
            f"{this} touches no piece on the board; every piece after the first must share "
            "an edge with one.",
            piece.cells,
        )
    same = piece.border & position.shape_mask(s)
    if same:
        others = [p.mask for p in position.pieces if p.mask & same]  # pieces never overlap
        return Verdict.illegal(
            "same_shape_touching",
            f"{this} shares an edge with another {s} at {where(cells_of(same)[0])}; pieces "
            "of the same shape may not touch.",
            cells_of(piece.mask | sum(others)),
        )
    filled = [sq for sq in full_squares(position.covered | piece.mask) if sq & piece.mask]
    if filled:
        return Verdict.illegal(
            "square_covered",
            f"{this} fills the 2x2 square from {where(cells_of(filled[0])[0])}; no 2x2 square "
            "may be fully covered.",
            cells_of(reduce(or_, filled)),
        )
    return Verdict.ok(piece.cells, f"{this} at {where(piece.cells[0])}: legal.")


def _moved(before: Position, removed: list[Cell], grid: Sequence[str]) -> Verdict:
    pieces = []
    for cell in removed:
        piece = before.piece_at(cell)
        if piece is not None and piece not in pieces:
            pieces.append(piece)
    names = ", ".join(f"the {p.shape} at {where(p.cells[0])}" for p in pieces)
    first = removed[0]
    now = grid[first[0]][first[1]]
    shows = f"now shows {now!r}" if now in LETTERS else "is now uncovered"
    return Verdict.illegal(
        "pieces_moved",
        f"A piece on the board was moved or removed ({names}: {where(first)} {shows}); "
        "put it back as it was.",
        tuple(cell for p in pieces for cell in p.cells),
    )


def _new_piece(
    before: Position, new: dict[Cell, str], supply: int
) -> tuple[Verdict, Placement | None]:
    cells = tuple(sorted(new))
    n = len(cells)
    if n == 0:
        return Verdict.illegal("nothing_placed", "No new piece: the board is as it was."), None
    grid = [
        "".join(new.get((r, c), ".") for c in range(SIZE)) for r in range(SIZE)
    ]  # only the new cells, to find how they hang together
    by_colour = regions(grid, LETTERS)
    groups = regions(["".join("#" if ch != "." else "." for ch in row) for row in grid], "#")
    letters = sorted({new[cell] for cell in cells}, key=LETTERS.index)
    colours = " and ".join(COLOURS[letter] for letter in letters)
    if n > 4:
        if len(groups) > 1 or len(by_colour) > 1 or n % 4 == 0:
            return Verdict.illegal(
                "two_pieces",
                f"{n} new cells are covered at once ({colours}): place one piece per turn.",
                cells,
            ), None
        return Verdict.illegal(
            "not_a_tetromino",
            f"{n} new {colours} cells are joined: a piece covers exactly 4 cells.",
            cells,
        ), None
    if n < 4:
        return Verdict.illegal(
            "not_a_tetromino",
            f"Only {n} new cell{'s are' if n > 1 else ' is'} covered: a piece covers 4 cells "
            "joined by edges.",
            cells,
        ), None
    if len(groups) > 1:
        return Verdict.illegal(
            "not_a_tetromino",
            "The 4 new cells are not joined by edges into one piece.",
            cells,
        ), None
    if len(letters) > 1:
        return Verdict.illegal(
            "colour_mismatch",
            f"The new piece is {colours}: a piece has one colour (L red, I yellow, T green, "
            "S blue).",
            cells,
        ), None
    letter = letters[0]
    shape = shape_of(cells)
    colour = COLOURS[letter]
    if shape == "O":
        return Verdict.illegal(
            "not_a_tetromino",
            f"The 4 new {colour} cells form a 2x2 square; no LITS piece has that shape.",
            cells,
        ), None
    if shape != letter:
        return Verdict.illegal(
            "colour_mismatch",
            f"The new {colour} piece is shaped like {named(str(shape))}, but {colour} is the "
            f"colour of the {letter}.",
            cells,
        ), None
    piece = placement_at(cells)
    assert piece is not None  # 4 joined cells of a LITS shape are a placement
    return check_placement(before, piece, supply), piece


def judge_piece(
    before: Position, shape: str, cells: Sequence[Cell], supply: int = SUPPLY
) -> tuple[Verdict, Placement | None]:
    """Judge a placement described by its ``shape`` letter and ``cells`` (a
    tap on the phone, not a photo) exactly as :func:`judge` would judge the
    board with those cells covered; a cell already covered is ``overlap``."""
    if shape not in LETTERS:
        raise ValueError(f"a piece is L, I, T or S, not {shape!r}")
    if not all(in_board(cell) for cell in cells):
        raise ValueError(f"cells must lie on the 10x10 board, counted from 0: {list(cells)}")
    mask = mask_of(cells)
    if mask.bit_count() != len(cells):
        raise ValueError("a cell is given twice")
    if mask & before.covered:
        taken = cells_of(mask & before.covered)
        return Verdict.illegal(
            "overlap", f"{where(taken[0]).capitalize()} is already covered by a piece.", taken
        ), placement_at(cells)
    after = tuple(
        "".join(shape if mask >> (r * SIZE + c) & 1 else before.code((r, c)) for c in range(SIZE))
        for r in range(SIZE)
    )
    return judge(before, after, supply)
