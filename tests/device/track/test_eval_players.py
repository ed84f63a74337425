"""The emulated players of ``tilewatch eval track`` put a wrong verdict right
the way players at a real table would, so one wrong verdict is counted once
and does not spoil the rest of the game."""

from __future__ import annotations

import copy

import pytest

from device.evals.track import GameResult, Truth, _players_fix, _players_read
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


EMPTY5 = ["......"] * 5


def _bits_after_start(table, seed: int = 1) -> tuple[str, str]:
    """A one-player BITS game (virtual deck) with its starting tile on the
    floor at the left; returns the first two building cards' tiles, read
    from a copy of the game (the deck is the engine's)."""
    table.new_game("bits", {"players": ["Ann"], "seed": seed, "tasks": ["square"]})
    start = table.game.view()["players"][0]["start_tile"]
    table.apply({"type": "place", "player": 0, "rows": [*EMPTY5, start + "...."]})
    first = table.game.view()["card"]
    ahead = copy.deepcopy(table.game)
    ahead.apply({"type": "place", "player": 0, "rows": [*EMPTY5, start + first + ".."]})
    return first, ahead.view()["card"]


def test_a_refusal_after_a_missed_tile_enters_the_missed_tile_first(table):
    # Seed 1: start RR, then the cards PK and YY. The camera missed the PK
    # (a dark tile on a dark ramp); the YY dropped next is refused as the
    # wrong tile, since the game still shows the PK card.
    pk, yy = _bits_after_start(table, seed=1)
    assert (pk, yy) == ("PK", "YY")
    row = table.game.view()["players"][0]["board"][5]
    ahead = copy.deepcopy(table.game)  # the table's own order: PK, then YY
    for rows in ([*EMPTY5, "RRPK.."], [*EMPTY5, "RRPKYY"]):
        ahead.apply({"type": "place", "player": 0, "rows": rows})
    missed = Truth(6.6, {(5, 2): "P", (5, 3): "K"}, legal=True, reason="ok")
    truth = Truth(9.9, {(5, 4): "Y", (5, 5): "Y"}, legal=True, reason="ok")
    events = table.apply({"type": "place", "player": 0, "rows": [*EMPTY5, row[:4] + "YY"]})
    assert [(e["type"], e["reason"]) for e in events] == [("illegal", "wrong_tile")]
    assert [a["can_overrule"] for a in table.alerts()] == [True]
    result = GameResult("bits", 1)
    _players_fix("bits", table, events[0], truth, result, missed=[missed])
    # Both tiles are on the board in the order they were dropped, each on
    # its own card, so the game shows the card the table sees next:
    # overruling instead records the YY on the PK card, a card behind.
    view = table.game.view()
    assert view["players"][0]["board"][5] == "RRPKYY"
    assert view["card"] == ahead.view()["card"]
    assert table.alerts() == [] and result.fixes == 2


def test_two_tiles_recorded_in_one_look_in_either_order_stand(table):
    # Seed 29: start PP, then two BB cards. Both BB were dropped while the
    # camera was knocked; once it found the ramp again it recorded both in
    # one look, the later drop first (either order is legal). The players
    # see two right verdicts on the phone and touch nothing.
    first, second = _bits_after_start(table, seed=29)
    assert (first, second) == ("BB", "BB")
    ahead = copy.deepcopy(table.game)
    ahead.apply({"type": "place", "player": 0, "rows": [*EMPTY5, "PPBB.."]})
    ahead.apply({"type": "place", "player": 0, "rows": [*EMPTY5, "PPBBBB"]})
    earlier = Truth(5.0, {(5, 2): "B", (5, 3): "B"}, legal=True, reason="ok")
    later = Truth(8.0, {(5, 4): "B", (5, 5): "B"}, legal=True, reason="ok")
    look = []
    for rows, truth in (("PP..BB", later), ("PPBBBB", earlier)):
        events = table.apply({"type": "place", "player": 0, "rows": [*EMPTY5, rows]})
        assert events[0]["type"] == "placed"
        cells = sorted(truth.cells)
        look.append({"type": "placed", "t": 9.0, "cells": [list(c) for c in cells], "codes": "BB"})
    answered: set[int] = set()
    result = GameResult("bits", 29)
    _players_read("bits", table, look, [earlier, later], answered, result)
    view = table.game.view()
    assert view["players"][0]["board"][5] == "PPBBBB"
    assert view["card"] == ahead.view()["card"]  # not a card behind
    assert answered == {0, 1} and result.fixes == 0


def test_a_refusal_of_a_move_nobody_made_is_dismissed_not_overruled(table):
    # A shadow read as a lone black cell: "not a tile". Overruling it would
    # record the phantom cell and spend the card on it.
    _bits_after_start(table, seed=1)
    card = table.game.view()["card"]
    board = table.game.view()["players"][0]["board"]
    events = table.apply(
        {"type": "place", "player": 0, "rows": [*EMPTY5[:3], ".K....", *board[4:]]}
    )
    assert [e["type"] for e in events] == ["illegal"]
    result = GameResult("bits", 1)
    _players_fix("bits", table, events[0], None, result)
    assert table.game.view()["players"][0]["board"] == board
    assert table.game.view()["card"] == card
    assert table.alerts() == [] and result.fixes == 1


def test_a_right_verdict_after_the_next_tile_counts_late_not_false():
    # Two tiles 3 s apart; the first one's verdict came only after the second
    # was made (a hand stayed over the board), then the second's verdict.
    from device.evals.track import _score

    first = Truth(10.0, {(5, 0): "R", (5, 1): "Y"}, legal=True, reason="")
    second = Truth(13.0, {(5, 2): "B", (5, 3): "B"}, legal=True, reason="")

    def placed(t, truth):
        cells = sorted(truth.cells)
        codes = [truth.cells[c] for c in cells]
        return {"type": "placed", "t": t, "cells": [list(c) for c in cells], "codes": codes}

    events = [placed(13.5, first), placed(14.0, second)]
    hands = [(9.0, True), (11.0, False), (13.2, False)]
    result = GameResult("bits", 1)
    _score(result, [first, second], events, hands)
    assert (result.right, result.false, result.missed) == (2, 0, 0)
    # the late verdict's delay is measured from its own tile's hand leaving
    assert result.delays == [2.5, 0.8]


def test_a_verdict_with_other_cells_after_the_next_tile_stays_false():
    from device.evals.track import _score

    first = Truth(10.0, {(5, 0): "R", (5, 1): "Y"}, legal=True, reason="")
    second = Truth(13.0, {(5, 2): "B", (5, 3): "B"}, legal=True, reason="")
    events = [{"type": "placed", "t": 13.5, "cells": [[4, 0], [4, 1]], "codes": ["R", "Y"]}]
    result = GameResult("bits", 1)
    _score(result, [first, second], events, [])
    # the first tile had no verdict (missed), the second a wrong one (false)
    assert (result.right, result.false, result.missed) == (0, 1, 1)
