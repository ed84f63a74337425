import pytest

from engine.bits import Board, BoardError, Drop, Tile, legal_drops
from engine.boardtext import BoardTextError

EMPTY_ROWS = ["......"] * 6


def test_text_round_trip_and_str_prints_the_board():
    text = "......\n......\n......\n..N...\n..NK..\nRYBPKK"
    board = Board.from_text(text)
    assert str(board) == text
    assert Board.from_text(str(board)) == board
    assert board.code_at((5, 3)) == "P" and board.code_at((0, 0)) == "."


def test_unreadable_cell_is_refused_with_its_place():
    rows = ["......"] * 5 + ["R?...."]
    with pytest.raises(BoardError, match=r"row 6, column 2 is '\?'"):
        Board.from_rows(rows)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["......"] * 5, "expected 6 rows"),
        (["......"] * 5 + ["......."], "row 6 has 7 cells"),
        (["......"] * 5 + ["....Z."], "column 5 has 'Z'"),
    ],
)
def test_bad_board_text_names_the_problem(rows, message):
    with pytest.raises(BoardTextError, match=message):
        Board.from_rows(rows)


def test_a_camera_board_has_no_tile_pairing_but_a_played_one_does():
    board = Board.from_rows(["......"] * 5 + ["RY...."])
    assert board.tile_at((5, 0)) is None and board.unpaired.bit_count() == 2
    played = Board.empty().after(Drop("R", "Y", False, 0, 5))
    assert played.same_cells(board)
    assert played.tile_at((5, 1)) == ((5, 0), (5, 1))
    assert played.unpaired == 0


def test_horizontal_drop_over_uneven_columns_leaves_a_hole():
    board = Board.empty().after(Drop("B", "B", True, 0, 4))  # column 1 two high
    (drop,) = [d for d in legal_drops(board, Tile("RY")) if not d.vertical and d.column == 0][:1]
    after = board.after(drop)
    assert after.rows()[3:] == ("RY....", "B.....", "B.....")
    assert [divmod(i, 6) for i in range(36) if after.holes >> i & 1] == [(4, 1), (5, 1)]


def test_after_refuses_overlaps_and_cells_off_the_grid():
    board = Board.empty().after(Drop("R", "R", False, 0, 5))
    with pytest.raises(BoardError, match="overlaps"):
        board.after(Drop("Y", "Y", False, 1, 5))
    with pytest.raises(BoardError, match="sticks out"):
        board.after(Drop("Y", "Y", False, 5, 5))


def test_correcting_a_cell_forgets_a_tile_that_lost_a_half():
    board = Board.empty().after(Drop("R", "Y", False, 0, 5))
    recoloured = board.with_cell((5, 1), "B")
    assert recoloured.rows()[5] == "RB...." and recoloured.tiles == board.tiles
    emptied = board.with_cell((5, 1), ".")
    assert emptied.rows()[5] == "R....." and emptied.tiles == ()
    with pytest.raises(BoardError):
        board.with_cell((6, 0), "R")


def test_floating_tiles_are_found():
    # A horizontal tile resting on nothing: pairing known, nothing below.
    floating = Board.empty().after(Drop("R", "R", False, 0, 3))
    assert floating.floating_tiles() == floating.tiles
    resting = Board.empty().after(Drop("B", "B", True, 0, 4)).after(Drop("R", "R", False, 0, 3))
    assert resting.floating_tiles() == ()
