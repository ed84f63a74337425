import random

from engine.lits import Layout, Position
from engine.lits.pieces import placement_at
from tests.engine.lits import naive
from tests.engine.lits.boards import BLANK, example, rows


def as_pairs(placements):
    return {(p.shape, frozenset(p.cells)) for p in placements}


def test_every_placement_is_legal_on_an_empty_board():
    assert len(Position(Layout.parse(BLANK)).legal_moves()) == 1292


def test_second_piece_must_touch_the_first_and_not_match_its_shape():
    position = Position.from_rows(
        rows("""
        ..........
        ..........
        ..........
        ..........
        ....IIII..
        ..........
        ..........
        ..........
        ..........
        ..........
        """)
    )
    moves = position.legal_moves()
    assert moves, "a second piece always fits next to the first"
    for move in moves:
        assert move.border & position.covered, f"{move} does not touch the I"
        assert move.shape != "I", "an I would share an edge with the I"
    assert as_pairs(moves) == naive.legal(position.rows())


def test_no_move_may_complete_a_2x2_square():
    # The L leaves (1,1) as the only gap in the square (0,0)-(1,1).
    position = Position.from_rows(["LL........", "L.........", "L.........", *BLANK[3:]])
    for move in position.legal_moves():
        assert (1, 1) not in move.cells
    assert as_pairs(position.legal_moves()) == naive.legal(position.rows())


def test_a_used_up_shape_is_not_offered():
    position = Position.from_rows(example("midgame.txt"))
    assert position.count("L") == 0 and position.count("T") == 4
    moves = position.legal_moves(supply=4)
    assert not any(m.shape == "T" for m in moves)
    assert any(m.shape == "T" for m in position.legal_moves(supply=5))
    assert as_pairs(moves) == naive.legal(position.rows(), supply=4)


def test_generator_agrees_with_the_naive_rules_on_random_positions():
    rng = random.Random(20240601)
    for _ in range(5):
        position = Position(Layout.random(rng.randrange(1000)))
        while True:
            expected = naive.legal(position.rows())
            assert as_pairs(position.legal_moves()) == expected
            assert position.legal_set().bit_count() == len(expected)
            if not expected:
                break
            _letter, cells = sorted(expected, key=lambda m: (m[0], sorted(m[1])))[
                rng.randrange(len(expected))
            ]
            position = position.place(placement_at(cells))


def test_is_legal_matches_the_move_list():
    position = Position.from_rows(example("midgame.txt"))
    legal = set(position.legal_moves())
    i_piece = placement_at([(1, 0), (1, 1), (1, 2), (1, 3)])  # touches nothing
    assert not position.is_legal(i_piece) and i_piece not in legal
    assert all(position.is_legal(move) for move in legal)
