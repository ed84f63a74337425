from engine.bits import Board, Drop, Tile, can_place, drop, landing, legal_drops


def heights_board(heights):
    """A board whose column c is filled from the bottom to height heights[c]."""
    rows = []
    for r in range(6):
        rows.append("".join("K" if 6 - r <= h else "." for h in heights))
    return Board.from_rows(rows)


def test_every_landing_on_an_empty_board():
    # 6 vertical columns + 5 horizontal pairs, each both ways round.
    drops = legal_drops(Board.empty(), Tile("RY"))
    assert len(drops) == 22 and len(set(drops)) == 22
    assert all(d.row == (4 if d.vertical else 5) for d in drops)
    # A double looks the same either way round.
    assert len(legal_drops(Board.empty(), Tile("BB"))) == 11


def test_vertical_lands_on_top_of_its_column():
    board = heights_board([3, 0, 0, 0, 0, 0])
    d = drop(board, "RY", vertical=True, column=0)
    assert d == Drop("R", "Y", True, 0, 1) and d.cells == ((1, 0), (2, 0))


def test_horizontal_lands_one_row_above_the_taller_column():
    board = heights_board([0, 2, 0, 0, 0, 0])
    d = drop(board, "RY", vertical=False, column=0)
    assert d.cells == ((3, 0), (3, 1))  # a hole of two cells stays under the red half


def test_a_tile_that_would_stick_out_has_no_landing():
    board = heights_board([5, 6, 4, 0, 0, 0])
    assert landing(board.tops(), vertical=True, column=0) is None  # one cell left
    assert landing(board.tops(), vertical=True, column=2) == 0
    assert landing(board.tops(), vertical=False, column=0) is None  # column 2 full
    assert landing(board.tops(), vertical=False, column=5) is None  # off the right edge
    assert landing(board.tops(), vertical=True, column=-1) is None
    assert {(d.vertical, d.column) for d in legal_drops(board, Tile("KK"))} == {
        (True, 2), (True, 3), (True, 4), (True, 5),
        (False, 2), (False, 3), (False, 4),
    }  # fmt: skip


def test_a_player_who_cannot_place_drops_out():
    assert not can_place(heights_board([6, 5, 6, 5, 6, 5]))
    assert can_place(heights_board([6, 5, 5, 6, 6, 6]))  # a horizontal fits
    assert can_place(heights_board([6, 6, 6, 6, 6, 4]))  # a vertical fits
    assert not legal_drops(heights_board([6, 5, 6, 5, 6, 5]), Tile("RY"))


def test_drop_text_and_json():
    d = Drop("R", "Y", True, 2, 3)
    assert str(d) == "RY vertical in column 3, rows 4-5"
    assert d.to_json() == {
        "tile": "RY",
        "orientation": "vertical",
        "column": 2,
        "row": 3,
        "cells": [[3, 2], [4, 2]],
    }
    assert Drop.from_cells((4, 2), (3, 2), "Y", "R") == d
