"""The emulated players of ``tilewatch eval track`` put a wrong verdict right
the way players at a real table would, so one wrong verdict is counted once
and does not spoil the rest of the game."""

from __future__ import annotations

import pytest

from device.evals.track import GameResult, Truth, _players_fix
from device.store import Store
from device.table import Table
from engine.verdict import Verdict


@pytest.fixture
def table(tmp_path):
    t = Table(Store(tmp_path / "t.sqlite"), pin="1234")
    yield t
    t.close()


def test_a_lits_refusal_that_cannot_be_overruled_is_entered_by_hand(table):
    table.new_game("lits", {"players": ["Ann", "Bob"], "layout": "crossfire"})
    # The camera missed two cells of a legal I under glare and called it
    # "not a tetromino"; the phone cannot overrule that rule.
    cells = {(4, c): "I" for c in range(4, 8)}
    refused = Verdict.illegal("not_a_tetromino", "not four cells", cells=[(4, 4), (4, 7)])
    alert = table.raise_illegal(0, refused)
    assert [a["can_overrule"] for a in table.alerts()] == [False]
    result = GameResult("lits", 1)
    truth = Truth(1.0, cells, legal=True, reason="")
    _players_fix("lits", table, {"type": "illegal", "alert": alert}, truth, result)
    # The placement really made is on the board, the alert is gone, one fix counted.
    rows = table.game.view()["rows"]
    assert rows[4][4:8] == "IIII"
    assert table.alerts() == []
    assert result.fixes == 1


def test_a_refusal_of_an_illegal_placement_is_left_standing(table):
    table.new_game("lits", {"players": ["Ann", "Bob"], "layout": "crossfire"})
    refused = Verdict.illegal("square", "a 2x2 square", cells=[(0, 0), (0, 1)])
    table.raise_illegal(0, refused)
    result = GameResult("lits", 1)
    truth = Truth(1.0, {(0, 0): "S"}, legal=False, reason="square")
    _players_fix("lits", table, {"type": "illegal"}, truth, result)
    assert len(table.alerts()) == 1 and result.fixes == 0
