from collections import Counter

import pytest

from engine.lits.bitboard import cells_of, neighbours
from engine.lits.pieces import PLACEMENTS, SHAPES, placement_at, shape_of
from tests.engine.lits import naive


def test_there_are_1292_placements_on_an_empty_board():
    # Counted by hand, per shape, on a 10x10 board:
    # - I: 2 orientations. Lying flat it spans 1 row x 4 columns: 10 rows x 7
    #   starting columns = 70; standing, 70 more. I = 140.
    # - L: 8 orientations (4 turns x mirror). Four span 2 rows x 3 columns
    #   (9 x 8 = 72 spots each), four span 3 x 2 (8 x 9 = 72). L = 8 x 72 = 576.
    # - T: 4 orientations, two 2x3 and two 3x2, 72 spots each. T = 288.
    # - S: 4 orientations (S and Z, each flat or standing), 72 spots each. S = 288.
    # Total 140 + 576 + 288 + 288 = 1,292, the figure RULES.md quotes.
    assert len(PLACEMENTS) == 1292
    assert Counter(p.shape for p in PLACEMENTS) == {"L": 576, "I": 140, "T": 288, "S": 288}


def test_placements_match_the_naive_enumeration():
    assert {(p.shape, frozenset(p.cells)) for p in PLACEMENTS} == naive.ALL


def test_placement_numbers_masks_and_borders_are_consistent():
    assert [p.index for p in PLACEMENTS] == list(range(1292))
    assert len({p.mask for p in PLACEMENTS}) == 1292
    for p in PLACEMENTS:
        assert cells_of(p.mask) == p.cells and len(p.cells) == 4
        assert shape_of(p.cells) == p.shape
        assert set(cells_of(p.border)) == {
            (r, c) for r, c in naive.edge_neighbours(p.cells) if 0 <= r < 10 and 0 <= c < 10
        }


@pytest.mark.parametrize(("letter", "orientations"), [("L", 8), ("I", 2), ("T", 4), ("S", 4)])
def test_pieces_turn_and_flip(letter, orientations):
    assert len(SHAPES[letter].orientations(mirror=True)) == orientations


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ([(0, 0), (0, 1), (0, 2), (1, 2)], "L"),  # a J is an L flipped
        ([(0, 1), (1, 1), (2, 1), (3, 1)], "I"),
        ([(0, 1), (1, 0), (1, 1), (1, 2)], "T"),
        ([(0, 0), (1, 0), (1, 1), (2, 1)], "S"),
        ([(0, 0), (0, 1), (1, 1), (1, 2)], "S"),  # a Z is an S flipped
        ([(5, 5), (5, 6), (6, 5), (6, 6)], "O"),  # the square: not a LITS piece
        ([(0, 0), (0, 1), (0, 2)], None),
        ([(0, 0), (0, 1), (0, 2), (2, 2)], None),  # not joined
        ([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)], None),
    ],
)
def test_shape_of(cells, expected):
    assert shape_of(cells) == expected


def test_placement_at_refuses_cells_off_the_board():
    # (0, 10) would wrap onto row 1 in a careless bitboard.
    assert placement_at([(0, 8), (0, 9), (0, 10), (0, 11)]) is None
    assert placement_at([(0, 6), (0, 7), (0, 8), (0, 9)]).shape == "I"
    assert placement_at([(0, 0), (0, 1), (1, 0), (1, 1)]) is None


def test_neighbours_do_not_wrap_around_the_board_edges():
    right_edge = placement_at([(0, 9), (1, 9), (2, 9), (3, 9)])
    assert set(cells_of(neighbours(right_edge.mask))) == {(0, 8), (1, 8), (2, 8), (3, 8), (4, 9)}
