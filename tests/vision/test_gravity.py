"""Settling a BITS reading: floating near-board cells are board."""

from __future__ import annotations

import numpy as np

from vision.gravity import settled

CODES = (".", "K", "R")


def grid(rows):
    return np.array([list(r) for r in rows])


def scores_for(codes, board_gap):
    """Scores where every tile cell is ``board_gap`` farther from the board than from its colour."""
    s = np.full((*codes.shape, 3), 30.0)
    for k, c in enumerate(CODES):
        s[..., k] = np.where(codes == c, 1.0, 30.0)
    s[..., 0] = np.where(codes == ".", 1.0, 1.0 + board_gap)
    return s


def test_a_floating_black_cell_near_the_board_becomes_board():
    codes = grid(["..K.", "....", "RR.."])
    out, moved = settled(codes, scores_for(codes, 4.0), CODES)
    assert ["".join(r) for r in out] == ["....", "....", "RR.."]
    assert moved.sum() == 1


def test_a_stack_of_floating_cells_settles_from_the_bottom():
    codes = grid(["K...", "K...", "....", "RR.."])
    out, _ = settled(codes, scores_for(codes, 4.0), CODES)
    assert ["".join(r) for r in out][:2] == ["....", "...."]


def test_resting_and_overhanging_tiles_stay():
    # R R lying over a hole at column 1: the right half overhangs, legal.
    codes = grid(["....", ".KK.", "RR..", "R..K"])
    out, moved = settled(codes, scores_for(codes, 4.0), CODES)
    assert not moved.any() and np.array_equal(out, codes)


def test_a_clearly_coloured_floating_cell_is_left_alone():
    # A red cell far from the board colour: maybe a tile in a hand's shadow,
    # not the board; the reader does not invent.
    codes = grid(["..R.", "....", "RR.."])
    out, moved = settled(codes, scores_for(codes, 25.0), CODES)
    assert not moved.any() and np.array_equal(out, codes)
