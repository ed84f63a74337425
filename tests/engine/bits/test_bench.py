"""Benchmarks (run with --benchmark-enable; the normal suite skips timing).
Targets from the issue: score a full board against 4 cards < 50 us, list every
legal drop of a tile < 30 us, one core."""

import pytest

from engine.bits import Board, Tile, legal_drops, parse_card, score_board


@pytest.fixture(scope="module")
def full_board(repo_root):
    text = (repo_root / "examples/bits/rulebook-example.txt").read_text()
    board = Board.from_text(text.replace(".", "N"))  # every cell filled (grey: no block)
    assert board.occupied.bit_count() == 36
    return board


def test_bench_score_full_board_against_4_cards(benchmark, full_board):
    cards = [parse_card(n) for n in ("square", "blue-corner", "pair", "plus")]
    score = benchmark(score_board, full_board, cards)
    assert [c.points for c in score.cards] == [6, 2, -2, 0]


def test_bench_every_legal_drop_of_a_tile(benchmark):
    # A mid-game board: uneven columns, so every kind of landing occurs.
    board = Board.from_rows(["......", "......", "....K.", "B...KP", "BR.YYP", "RRKKBB"])
    drops = benchmark(legal_drops, board, Tile("RY"))
    assert len(drops) == 22  # 6 columns + 5 pairs, both ways round
