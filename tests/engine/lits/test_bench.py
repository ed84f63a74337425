"""Benchmarks (``make bench``; skipped timing in the ordinary suite)."""

import pytest

from engine.lits import Position
from tests.engine.lits import naive
from tests.engine.lits.boards import example


@pytest.mark.parametrize("name", ["midgame.txt", "before.txt"])
def test_legal_move_generation(benchmark, name):
    # midgame.txt: 9 pieces down, 58 legal moves; before.txt: 2 pieces, many more.
    position = Position.from_rows(example(name))
    moves = benchmark(position.legal_moves)
    assert {(m.shape, frozenset(m.cells)) for m in moves} == naive.legal(position.rows())
