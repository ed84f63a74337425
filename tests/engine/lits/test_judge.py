"""Every verdict of the judge, on boards drawn by hand.

The base board (blank layout) has an L; each test draws the board after one
more move and checks the reason code, the cells to highlight and the piece.
"""

import pytest

from engine.boardtext import BoardTextError
from engine.lits import Position, judge, judge_piece
from engine.lits.pieces import placement_at
from tests.engine.lits.boards import BLANK, example, rows

BEFORE = Position.from_rows(
    rows("""
    ..........
    ..........
    ..........
    ...LLL....
    ...L......
    ..........
    ..........
    ..........
    ..........
    ..........
    """)
)


def after(*changes):
    """BEFORE with cells changed: ``(row, col, code)``."""
    grid = [list(row) for row in BEFORE.rows()]
    for r, c, code in changes:
        grid[r][c] = code
    return ["".join(row) for row in grid]


def covering(code, *cells):
    return [(r, c, code) for r, c in cells]


def test_a_legal_placement_names_its_piece():
    board = after(*covering("I", (2, 6), (3, 6), (4, 6), (5, 6)))
    verdict, piece = judge(BEFORE, board)
    assert verdict.legal and verdict.reason == "ok"
    assert piece == placement_at([(2, 6), (3, 6), (4, 6), (5, 6)])
    assert verdict.cells == ((2, 6), (3, 6), (4, 6), (5, 6))
    assert "legal" in verdict.message


def test_the_first_piece_may_go_anywhere():
    empty = Position.from_rows(BLANK)
    verdict, piece = judge(empty, ["." * 10] * 8 + ["......TTT.", ".......T.."])
    assert verdict.legal and piece.shape == "T"


def test_not_touching():
    verdict, piece = judge(BEFORE, after(*covering("I", (8, 0), (8, 1), (8, 2), (8, 3))))
    assert verdict.reason == "not_touching"
    assert verdict.cells == ((8, 0), (8, 1), (8, 2), (8, 3))
    assert piece.shape == "I"  # recognised, so it can be highlighted or overruled
    # Touching only at a corner is not sharing an edge.
    corner = after(*covering("I", (5, 4), (5, 5), (5, 6), (5, 7)))
    assert judge(BEFORE, corner)[0].reason == "not_touching"


def test_same_shape_touching_highlights_both_pieces():
    verdict, _piece = judge(BEFORE, after(*covering("L", (5, 3), (6, 3), (7, 3), (7, 4))))
    assert verdict.reason == "same_shape_touching"
    assert "another L at row 5, column 4" in verdict.message  # the old L's foot, (4, 3)
    assert set(verdict.cells) == {(5, 3), (6, 3), (7, 3), (7, 4), (3, 3), (3, 4), (3, 5), (4, 3)}


def test_square_covered():
    # The T fills (4,4) and (4,5); with the L on (3,3), (3,4), (3,5), (4,3)
    # two squares end up fully covered: (3,3)-(4,4) and (3,4)-(4,5).
    verdict, piece = judge(BEFORE, after(*covering("T", (4, 4), (4, 5), (4, 6), (5, 5))))
    assert verdict.reason == "square_covered"
    assert "square from row 4, column 4" in verdict.message
    assert verdict.cells == ((3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5))
    assert piece.shape == "T"


def test_shape_exhausted_with_a_smaller_supply():
    board = after(*covering("I", (2, 6), (3, 6), (4, 6), (5, 6)))
    assert judge(BEFORE, board, supply=5)[0].legal
    placed = BEFORE.place(placement_at([(2, 6), (3, 6), (4, 6), (5, 6)]))
    another = [list(row) for row in placed.rows()]
    for c in range(0, 4):
        another[5][c] = "I"
    verdict, _ = judge(placed, ["".join(r) for r in another], supply=1)
    assert verdict.reason == "shape_exhausted"
    assert "All 1 I pieces" in verdict.message


def test_shape_exhausted_after_five_real_pieces():
    # midgame.txt has 4 T pieces; every T that is legal with a supply of 5 is
    # refused once the box holds only those 4.
    position = Position.from_rows(example("midgame.txt"))
    assert position.count("T") == 4
    t_moves = [m for m in position.legal_moves() if m.shape == "T"]
    assert t_moves
    for move in t_moves:
        board = [list(row) for row in position.rows()]
        for r, c in move.cells:
            board[r][c] = "T"
        assert judge(position, ["".join(r) for r in board], supply=4)[0].reason == (
            "shape_exhausted"
        )


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        (covering("I", (2, 6), (3, 6), (4, 6)), "Only 3 new cells"),
        (covering("I", (2, 6), (3, 6), (4, 6), (5, 6), (6, 6)), "5 new yellow cells"),
        (covering("I", (3, 6), (3, 7), (5, 6), (5, 7)), "not joined"),
        (covering("T", (4, 4), (4, 5), (5, 4), (5, 5)), "2x2 square"),
    ],
)
def test_not_a_tetromino(changes, fragment):
    verdict, piece = judge(BEFORE, after(*changes))
    assert verdict.reason == "not_a_tetromino"
    assert fragment in verdict.message
    assert piece is None
    assert set(verdict.cells) == {(r, c) for r, c, _ in changes}


def test_colour_does_not_match_the_shape():
    # A red (L-coloured) piece shaped like a T.
    verdict, piece = judge(BEFORE, after(*covering("L", (2, 6), (3, 6), (4, 6), (3, 7))))
    assert verdict.reason == "colour_mismatch"
    assert "shaped like a T" in verdict.message and "red" in verdict.message
    assert piece is None
    # One piece in two colours.
    mixed = after(*covering("I", (2, 6), (3, 6), (4, 6)), (5, 6, "S"))
    verdict, _ = judge(BEFORE, mixed)
    assert verdict.reason == "colour_mismatch"
    assert "yellow and blue" in verdict.message


@pytest.mark.parametrize(
    "changes",
    [
        [(4, 3, ".")],  # one cell of the L lifted
        [(3, 3, "."), (3, 4, "."), (3, 5, "."), (4, 3, ".")],  # the L taken away
        [(4, 3, "."), (2, 5, "L")],  # the L turned in place
        [(3, 3, "T"), (3, 4, "T"), (3, 5, "T"), (4, 3, "."), (4, 4, "T")],  # swapped for a T
    ],
)
def test_pieces_moved_or_removed(changes):
    verdict, piece = judge(BEFORE, after(*changes))
    assert verdict.reason == "pieces_moved"
    assert "the L at row 4, column 4" in verdict.message
    assert set(verdict.cells) == {(3, 3), (3, 4), (3, 5), (4, 3)}
    assert piece is None


def test_two_pieces_at_once():
    both = after(
        *covering("I", (2, 6), (3, 6), (4, 6), (5, 6)),
        *covering("T", (6, 5), (6, 6), (6, 7), (7, 6)),
    )
    verdict, _piece = judge(BEFORE, both)
    assert verdict.reason == "two_pieces"
    assert "8 new cells" in verdict.message
    apart = after(
        *covering("I", (2, 6), (3, 6), (4, 6), (5, 6)),
        *covering("I", (5, 0), (5, 1), (5, 2), (5, 3)),
    )
    assert judge(BEFORE, apart)[0].reason == "two_pieces"


def test_nothing_placed():
    verdict, piece = judge(BEFORE, BEFORE.rows())
    assert verdict.reason == "nothing_placed" and piece is None


def test_a_misread_symbol_is_named():
    before = Position.from_rows(example("before.txt"))
    board = example("after-legal.txt")
    board[0] = "." + board[0][1:]  # the X in the corner read as blank
    verdict, _ = judge(before, board)
    assert verdict.reason == "symbol_mismatch"
    assert verdict.cells == ((0, 0),)
    assert "Row 1, column 1 shows '.'" in verdict.message


def test_examples_on_a_real_layout():
    before = Position.from_rows(example("before.txt"))
    assert judge(before, example("after-legal.txt"))[0].legal
    assert judge(before, example("after-same-shape.txt"))[0].reason == "same_shape_touching"
    assert judge(before, example("after-square.txt"))[0].reason == "square_covered"


def test_unreadable_cells_are_refused_not_judged():
    board = after()
    board[9] = "?" + board[9][1:]
    with pytest.raises(BoardTextError, match="row 10, column 1 has '\\?'"):
        judge(BEFORE, board)


def test_a_placement_given_by_its_cells():
    verdict, piece = judge_piece(BEFORE, "I", [(2, 6), (3, 6), (4, 6), (5, 6)])
    assert verdict.legal and piece.shape == "I"
    verdict, _ = judge_piece(BEFORE, "I", [(4, 3), (5, 3), (6, 3), (7, 3)])
    assert verdict.reason == "overlap" and verdict.cells == ((4, 3),)
    verdict, _ = judge_piece(BEFORE, "T", [(2, 6), (3, 6), (4, 6), (5, 6)])
    assert verdict.reason == "colour_mismatch"  # the cells form an I, not a T
    with pytest.raises(ValueError, match="L, I, T or S"):
        judge_piece(BEFORE, "O", [(2, 6), (3, 6), (4, 6), (5, 6)])
    with pytest.raises(ValueError, match="given twice"):
        judge_piece(BEFORE, "I", [(2, 6), (2, 6), (4, 6), (5, 6)])
