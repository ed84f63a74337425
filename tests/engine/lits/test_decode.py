"""Decoding a whole board from one grid of colours (one photo of a finished game)."""

import pytest

from engine.boardtext import BoardTextError
from engine.lits import Position, PositionError, decode
from tests.engine.lits import naive
from tests.engine.lits.boards import example, rows


def reasons(decoded):
    return [v.reason for v in decoded.problems]


def test_a_finished_game_decodes_into_its_pieces():
    board = example("final.txt")
    decoded = decode(board)
    assert decoded.ok, decoded.problems
    # Counted on the drawing: 15 pieces, 60 covered cells.
    assert len(decoded.pieces) == 15
    assert sum(row.count(ch) for row in board for ch in "LITS") == 60
    covered = {cell for p in decoded.pieces for cell in p.cells}
    assert covered == {
        (r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "LITS"
    }
    assert all(board[r][c] == p.shape for p in decoded.pieces for r, c in p.cells)
    # ... and it is finished: the rules allow no further piece.
    assert naive.legal(board) == set()
    assert Position.from_rows(board).legal_moves() == []


def test_json_lists_pieces_and_problems():
    out = decode(example("final.txt")).to_json()
    assert out["ok"] is True and out["problems"] == []
    assert {"shape": "S", "cells": [[0, 2], [0, 3], [1, 3], [1, 4]]} in out["pieces"]


def test_region_of_the_wrong_size():
    decoded = decode(
        rows("""
        TTT.......
        ..LLL.....
        ..L.......
        .IIIII....
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        """)
    )
    assert reasons(decoded) == ["not_a_tetromino", "not_a_tetromino"]
    three, five = decoded.problems
    assert three.cells == ((0, 0), (0, 1), (0, 2)) and "3 green cells" in three.message
    assert len(five.cells) == 5 and "5 yellow cells" in five.message
    assert [p.shape for p in decoded.pieces] == ["L"]


def test_square_region_is_not_a_piece():
    decoded = decode(["SS........", "SS........", "TTT.......", ".T........"] + ["." * 10] * 6)
    assert reasons(decoded)[0] == "not_a_tetromino"
    assert "2x2 square" in decoded.problems[0].message
    # the blue square is itself a fully covered 2x2 as well
    assert "square_covered" in reasons(decoded)


def test_colour_does_not_match_the_shape():
    decoded = decode(["LLL.......", ".L........", "IIII......"] + ["." * 10] * 7)
    assert reasons(decoded) == ["colour_mismatch"]
    assert "form a T, but red is the colour of the L" in decoded.problems[0].message


def test_same_shape_pieces_joined_into_one_region():
    joined = decode(["LLLLLL....", "L....L...."] + ["." * 10] * 8)
    assert reasons(joined) == ["same_shape_touching"]
    assert len(joined.problems[0].cells) == 8
    assert "2 L pieces touch" in joined.problems[0].message


def test_fully_covered_square_between_pieces():
    # L on (0,0) (0,1) (0,2) (1,0), T on (1,1) (1,2) (1,3) (2,2): the squares
    # (0,0)-(1,1) and (0,1)-(1,2) are both fully covered.
    decoded = decode(["LLL.......", "LTTT......", "..T......."] + ["." * 10] * 7)
    assert reasons(decoded) == ["square_covered", "square_covered"]
    assert decoded.problems[0].cells == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert decoded.problems[1].cells == ((0, 1), (0, 2), (1, 1), (1, 2))
    assert len(decoded.pieces) == 2


def test_more_pieces_of_a_shape_than_the_box_holds():
    # Six I pieces hanging off a spine of L, T and S pieces in columns 4-5;
    # no two I share an edge and no 2x2 is covered, so the count is the only
    # thing wrong.
    board = rows("""
        IIIILIIII.
        ....L.....
        IIIILL....
        ....T.....
        IIIITT....
        ....T.....
        IIIIS.....
        ....SS....
        .....S....
        ...IIII...
        """)
    decoded = decode(board, supply=5)
    assert reasons(decoded) == ["shape_exhausted"]
    assert decoded.problems[0].message.startswith("6 I pieces are on the board, but the box has 5")
    assert len(decoded.problems[0].cells) == 24
    assert decode(board, supply=6).ok


def test_pieces_cut_off_from_the_rest():
    board = ["LLL.......", "L.........", "IIII......"] + ["." * 10] * 5
    board += ["......TTT.", ".......T.."]
    decoded = decode(board)
    assert reasons(decoded) == ["not_touching"]
    # The L and I (8 cells) are the main group; the T is cut off.
    assert decoded.problems[0].cells == ((8, 6), (8, 7), (8, 8), (9, 7))
    assert "row 9, column 7" in decoded.problems[0].message


def test_unreadable_cells_are_an_error():
    with pytest.raises(BoardTextError, match="'\\?'"):
        decode(["?........."] + ["." * 10] * 9)


def test_position_from_rows_needs_whole_pieces():
    with pytest.raises(PositionError, match="3 green cells"):
        Position.from_rows(["TTT......."] + ["." * 10] * 9)
    # A rule broken between whole pieces (players may have overruled) is kept.
    square = Position.from_rows(["LLL.......", "LTTT......", "..T......."] + ["." * 10] * 7)
    assert len(square.pieces) == 2


def test_a_finished_board_with_one_misread_cell():
    # final-broken.txt is final.txt with the T cell at (7,6) read as red: the
    # two red L pieces beside it and that cell join into one 9-cell region,
    # and the T keeps only 3 cells.
    decoded = decode(example("final-broken.txt"))
    assert reasons(decoded) == ["not_a_tetromino", "not_a_tetromino"]
    red, green = decoded.problems
    assert red.message.startswith("9 red cells are joined from row 6, column 7")
    assert (7, 6) in red.cells and len(red.cells) == 9
    assert green.cells == ((7, 7), (7, 8), (8, 7))
    assert len(decoded.pieces) == 12


def test_a_piece_read_in_another_colour_takes_its_shape_s_colour():
    # A red L seen yellow under a lamp: four cells in an L's shape are an L.
    from engine.lits import recoloured

    seen = ["III.......", "I...TTT...", ".....T...."] + [".........."] * 7
    fixed, changed = recoloured(seen)
    assert fixed[:3] == ["LLL.......", "L...TTT...", ".....T...."]
    assert changed == ((0, 0), (0, 1), (0, 2), (1, 0))
    assert "colour_mismatch" in reasons(decode(seen))
    assert "colour_mismatch" not in reasons(decode(fixed))


def test_only_single_tetrominoes_change_colour():
    from engine.lits import recoloured

    # Five yellow cells (two pieces merged, or a misread neighbour), a 2x2
    # square and a lone cell: none is one piece, so none changes.
    seen = ["IIIII.....", "..........", "SS........", "SS........", "......T..."]
    seen += [".........."] * 5
    assert recoloured(seen) == (seen, ())


def test_an_unsure_cell_completes_a_piece_only_when_one_cell_can():
    from engine.lits import recoloured

    # Three green cells and one ? under the middle: only a T fits.
    one = ["TTT.......", ".?........"] + [".........."] * 8
    assert recoloured(one)[0][1] == ".T........"
    # Three yellow cells in a row with a ? at either end: either makes an I.
    two = ["?III?....."] + [".........."] * 9
    assert recoloured(two) == (two, ())
