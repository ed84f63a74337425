"""The event-sourced Game: JSON actions in, JSON events out."""

import json
import random

import pytest

from engine.errors import ActionError
from engine.lits import Game, Layout
from tests.engine.lits.boards import BLANK, example

FIRST = {"type": "place", "shape": "I", "cells": [[4, 3], [4, 4], [4, 5], [4, 6]]}
# Touches the I from below, so legal as the second piece.
SECOND = {"type": "place", "shape": "T", "cells": [[5, 4], [6, 4], [7, 4], [6, 5]]}


def new(**setup):
    return Game.new({"players": ["Ann", "Bob"], **setup})


def play_out(game, seed):
    """Random legal moves until the game ends; returns the events."""
    rng = random.Random(seed)
    events = []
    while not game.over:
        move = rng.choice(game.legal_moves())
        events += game.apply({"type": "place", **move.to_json()})
    return events


def test_new_game_defaults_and_normalised_setup():
    game = Game.new({})
    setup = game.setup
    assert setup["players"] == ["Player 1", "Player 2"]
    assert setup["layout_name"] == "crossfire"
    assert setup["layout_rows"] == list(Layout.builtin("crossfire").rows())
    assert setup["settings"] == {"supply": 5, "swap": True, "swap_turns_board": True}
    view = game.view()
    assert view["turn"] == {"player": "Player 1", "symbol": "X"}
    assert view["legal_moves"] == 1292 and view["pieces"] == 0
    assert view["supply"] == {"L": 5, "I": 5, "T": 5, "S": 5}
    assert view["score"] == {"X": 16, "O": 16}
    assert not view["over"] and view["winner"] is None and view["last_placement"] is None


@pytest.mark.parametrize(
    ("setup", "rows"),
    [
        ({"layout_seed": 9}, Layout.random(9).rows()),
        ({"layout_text": "\n".join(["X" + "." * 9, *BLANK[1:]])}, ["X" + "." * 9, *BLANK[1:]]),
        ({"layout_rows": BLANK}, BLANK),
        ({"layout": "frame"}, Layout.builtin("frame").rows()),
    ],
)
def test_layout_sources(setup, rows):
    assert new(**setup).view()["layout"] == list(rows)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"colour": "red"}, "unknown setup keys: colour"),
        ({"layout": "crossfire", "layout_seed": 3}, "give one layout"),
        ({"layout": "moon"}, "no built-in layout 'moon'"),
        ({"layout_text": "XO"}, "expected 10 rows"),
        ({"layout_rows": ["X"] * 10}, "row 1 has 1 cells"),
        ({"layout_seed": "seven"}, "whole number"),
        ({"players": ["Ann"]}, "two names"),
        ({"players": ["Ann", "Ann"]}, "different names"),
        ({"settings": {"supply": 0}}, "1 to 25"),
        ({"settings": {"supply": True}}, "1 to 25"),
        ({"settings": {"swap": "yes"}}, "true or false"),
        ({"settings": {"speed": 2}}, "unknown settings: speed"),
        ({"game": "bits"}, "not 'bits'"),
    ],
)
def test_bad_setups_are_refused(setup, message):
    with pytest.raises(ActionError, match=message):
        Game.new({"players": ["Ann", "Bob"], **setup} if "players" not in setup else setup)


def test_a_legal_placement_and_whose_turn_follows():
    game = new()
    placed, turn = game.apply(FIRST)
    assert placed["type"] == "placed" and placed["number"] == 1
    assert placed["player"] == "Ann" and placed["symbol"] == "X"
    assert placed["shape"] == "I" and placed["colour"] == "yellow"
    assert placed["cells"] == [[4, 3], [4, 4], [4, 5], [4, 6]]
    assert placed["supply_left"] == 4
    assert turn == {
        "type": "turn",
        "player": "Bob",
        "symbol": "O",
        "legal_moves": turn["legal_moves"],
        "can_swap": True,
    }
    assert turn["legal_moves"] == len(game.legal_moves()) > 0
    view = game.view()
    assert view["rows"][4] == ".X.IIIIO.X"  # crossfire row 5 is .X..X..O.X
    assert view["last_placement"] == {
        "shape": "I",
        "cells": [[4, 3], [4, 4], [4, 5], [4, 6]],
        "player": "Ann",
        "symbol": "X",
    }
    assert view["score"] == {"X": 15, "O": 16}  # the I covers the X at (4,4)
    assert game.actions == [FIRST]


def test_placement_from_the_cameras_rows():
    game = new()
    rows = list(Layout.builtin("crossfire").rows())
    rows[4] = ".X.IIIIO.X"
    events = game.apply({"type": "place", "rows": rows})
    assert events[0]["type"] == "placed" and events[0]["shape"] == "I"
    assert game.actions == [FIRST]  # recorded by shape and cells


def test_an_illegal_placement_changes_nothing():
    game = new()
    game.apply(FIRST)
    before = game.view()
    far = {"type": "place", "shape": "I", "cells": [[9, 0], [9, 1], [9, 2], [9, 3]]}
    (event,) = game.apply(far)
    assert event["type"] == "illegal" and event["reason"] == "not_touching"
    assert event["player"] == "Bob"
    assert event["cells"] == [[9, 0], [9, 1], [9, 2], [9, 3]]
    assert event["placement"] == {"shape": "I", "cells": far["cells"]}
    assert event["can_overrule"] is True
    assert game.view() == before and game.actions == [FIRST]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("place", "JSON object"),
        ({"kind": "place"}, "unknown action type None"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "place"}, "a placement is"),
        ({"type": "place", "shape": "I", "cells": [[0, 0], [0, 1], [0, 2], [0, 10]]}, "off the"),
        ({"type": "place", "shape": "I", "cells": [[0, 0], [0, 1], [0, 2], "x"]}, "a cell is"),
        ({"type": "place", "shape": "Q", "cells": [[0, 0], [0, 1], [0, 2], [0, 3]]}, "L, I, T"),
        ({"type": "place", "rows": ["?" * 10] * 10}, "has '\\?'"),
        ({"type": "place", "rows": 7}, "list of 10 strings"),
        ({"type": "place", "rows": BLANK, "shape": "I"}, "does not take shape"),
        ({"type": "swap", "now": True}, "does not take now"),
        ({"type": "correct_cell", "cell": [0, 0], "symbol": "Z"}, "'X', 'O' or '.'"),
    ],
)
def test_malformed_actions_raise_and_change_nothing(action, message):
    game = new()
    game.apply(FIRST)
    before = game.view()
    with pytest.raises(ActionError, match=message):
        game.apply(action)
    assert game.view() == before and len(game.actions) == 1


def test_swap_on_os_first_turn():
    game = new()
    with pytest.raises(ActionError, match="only on O's first turn"):
        game.apply({"type": "swap"})  # nothing placed yet
    game.apply(FIRST)
    assert game.can_swap and game.view()["can_swap"]
    swapped, turn = game.apply({"type": "swap"})
    assert swapped["type"] == "swapped" and swapped["player"] == "Bob"
    assert swapped["players"] == {"X": "Bob", "O": "Ann"}
    assert swapped["turned_board"] is True
    # The player who placed first places again, now as O.
    assert turn["player"] == "Ann" and turn["symbol"] == "O"
    view = game.view()
    assert view["players"] == {"X": "Bob", "O": "Ann"} and view["swapped"]
    # The board was turned 180 degrees: cell (r, c) moved to (9 - r, 9 - c),
    # so old row 5 (.X..X..O.X, the I on its columns 4-7) is now row 6 read
    # backwards, with the I on columns 4-7 again (9 - 6 = 3 ... 9 - 3 = 6).
    assert view["rows"][5] == "X.OIIII.X."
    assert view["layout"] == list(Layout.builtin("crossfire").turned().rows())
    with pytest.raises(ActionError, match="only on O's first turn"):
        game.apply({"type": "swap"})
    placed, turn = game.apply(
        {"type": "place", "shape": "T", "cells": [[4, 4], [3, 4], [2, 4], [3, 5]]}
    )
    assert placed["player"] == "Ann" and placed["symbol"] == "O"
    assert turn["player"] == "Bob" and turn["symbol"] == "X"
    assert not game.can_swap and turn["can_swap"] is False


def test_swap_without_turning_the_board_and_too_late():
    game = new()
    game.apply(FIRST)
    game.apply({"type": "swap", "turn_board": False})
    assert game.view()["rows"][4] == ".X.IIIIO.X"
    assert game.view()["players"] == {"X": "Bob", "O": "Ann"}
    late = new()
    late.apply(FIRST)
    late.apply(SECOND)
    with pytest.raises(ActionError, match="only on O's first turn"):
        late.apply({"type": "swap"})


def test_swap_can_be_switched_off():
    game = new(settings={"swap": False})
    game.apply(FIRST)
    assert not game.view()["can_swap"]
    with pytest.raises(ActionError, match="swap rule is off"):
        game.apply({"type": "swap"})


def test_no_passing_while_a_piece_fits():
    game = new()
    with pytest.raises(ActionError, match=r"passing is not allowed.*1292 placements"):
        game.apply({"type": "pass"})
    play_out(game, seed=3)
    with pytest.raises(ActionError, match="the game is over"):
        game.apply({"type": "pass"})


def test_game_over_when_no_piece_fits():
    game = new()
    events = play_out(game, seed=4)
    assert events[-1]["type"] == "game_over"
    assert all(e["type"] != "game_over" for e in events[:-1])
    assert game.legal_moves() == [] and game.turn is None
    view = game.view()
    assert view["over"] and view["legal_moves"] == 0 and view["turn"] is None
    score = view["score"]
    # Uncovered symbols, counted straight from the rows.
    assert score == {
        "X": sum(row.count("X") for row in view["rows"]),
        "O": sum(row.count("O") for row in view["rows"]),
    }
    assert events[-1]["score"] == score
    with pytest.raises(ActionError, match="the game is over"):
        game.apply(FIRST)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_tie_goes_to_whoever_placed_last(seed):
    # On a blank layout every game ends 0-0.
    game = new(layout_rows=BLANK)
    events = play_out(game, seed)
    last = [e for e in events if e["type"] == "placed"][-1]
    over = events[-1]
    assert over["score"] == {"X": 0, "O": 0}
    assert over["winner"] == last["player"] and over["winner_symbol"] == last["symbol"]
    assert "tie" in over["why"] and game.view()["winner"] == last["player"]


def test_a_tie_after_a_swap_goes_to_the_person_who_placed_last():
    game = new(layout_rows=BLANK)
    game.apply(FIRST)
    game.apply({"type": "swap"})
    events = play_out(game, seed=8)
    last = [e for e in events if e["type"] == "placed"][-1]
    assert game.view()["winner"] == last["player"]
    assert game.players[last["symbol"]] == last["player"]


def test_more_symbols_win():
    # A layout with X symbols only: X wins unless every X gets covered.
    rows = ["X.X.X.X.X.", *BLANK[1:]]
    game = new(layout_rows=rows)
    events = play_out(game, seed=5)
    placed = [e for e in events if e["type"] == "placed"]
    x_left = game.view()["score"]["X"]
    expected = "Ann" if x_left > 0 else placed[-1]["player"]
    assert game.view()["winner"] == expected


def test_undo_takes_back_the_last_action():
    game = new()
    start = game.view()
    game.apply(FIRST)
    after_first = game.view()
    game.apply({"type": "swap"})
    assert game.undo() == {"type": "swap", "turn_board": True}
    assert game.view() == after_first
    assert game.undo() == FIRST
    assert game.view() == start
    with pytest.raises(ActionError, match="nothing to undo"):
        game.undo()


def test_undo_after_the_end_reopens_the_game():
    game = new()
    play_out(game, seed=6)
    game.undo()
    assert not game.over and game.view()["legal_moves"] > 0


def test_replay_rebuilds_the_exact_state():
    game = new(layout_seed=77)
    game.apply(FIRST)
    game.apply({"type": "swap"})
    game.apply({"type": "correct_cell", "cell": [0, 1], "symbol": "O"})
    play_out(game, seed=9)
    setup, actions = json.loads(json.dumps([game.setup, game.actions]))
    again = Game.replay(setup, actions)
    assert again.view() == game.view()
    assert again.actions == game.actions
    assert str(again) == str(game)


def test_replay_refuses_a_log_that_does_not_play():
    game = new()
    bad = [FIRST, {"type": "place", "shape": "I", "cells": [[9, 0], [9, 1], [9, 2], [9, 3]]}]
    with pytest.raises(ActionError, match=r"action 2 cannot be replayed: .*touches no piece"):
        Game.replay(game.setup, bad)
    with pytest.raises(ActionError, match=r"action 1 cannot be replayed: .*only on O's first"):
        Game.replay(game.setup, [{"type": "swap"}])


def test_the_record_cannot_be_changed_from_outside():
    game = new()
    game.apply(FIRST)
    game.actions[0]["shape"] = "L"
    game.setup["players"][0] = "Eve"
    assert game.actions == [FIRST] and game.setup["players"] == ["Ann", "Bob"]


def test_judge_is_pure():
    game = new()
    game.apply(FIRST)
    before = game.view()
    rows = list(game.position.rows())
    rows[5] = rows[5][:4] + "T" + rows[5][5:]
    rows[6] = rows[6][:4] + "TT" + rows[6][6:]
    rows[7] = rows[7][:4] + "T" + rows[7][5:]
    verdict, piece = game.judge(rows)
    assert verdict.legal and piece.shape == "T"
    assert game.view() == before
    with pytest.raises(ActionError, match="after: expected 10 rows"):
        game.judge(rows[:9])


def test_correct_a_misread_symbol():
    game = new()
    (event,) = game.apply({"type": "correct_cell", "cell": [0, 1], "symbol": "O"})
    assert event == {
        "type": "layout_corrected",
        "cell": [0, 1],
        "symbol": "O",
        "was": ".",
        "score": {"X": 16, "O": 17},
    }
    assert game.view()["layout"][0] == "XO..O....X"
    with pytest.raises(ActionError, match="already prints 'O'"):
        game.apply({"type": "correct_cell", "cell": [0, 1], "symbol": "O"})
    with pytest.raises(ActionError, match="off the 10x10 board"):
        game.apply({"type": "correct_cell", "cell": [10, 1], "symbol": "O"})


def test_overrule_accepts_a_refused_placement():
    game = new()
    game.apply(FIRST)
    far = {"shape": "I", "cells": [[9, 0], [9, 1], [9, 2], [9, 3]]}
    placed, turn = game.apply({"type": "overrule", **far})
    assert placed["type"] == "placed" and placed["overruled"] == "not_touching"
    assert placed["message"].startswith("Overruled by the players")
    assert turn["player"] == "Ann"
    assert game.actions[-1] == {"type": "overrule", **far}
    assert Game.replay(game.setup, game.actions).view() == game.view()


def test_overrule_cannot_make_a_non_piece_count():
    game = new()
    game.apply(FIRST)
    with pytest.raises(ActionError, match="cannot overrule not_a_tetromino"):
        game.apply({"type": "overrule", "shape": "I", "cells": [[5, 3], [5, 4], [5, 5]]})
    with pytest.raises(ActionError, match="cannot overrule overlap"):
        game.apply({"type": "overrule", **{k: v for k, v in FIRST.items() if k != "type"}})


def test_overrule_of_a_legal_placement_is_a_plain_placement():
    game = new()
    game.apply({**FIRST, "type": "overrule"})
    assert game.actions == [FIRST]


def test_supply_setting():
    game = new(settings={"supply": 1})
    game.apply(FIRST)
    assert game.view()["supply"] == {"L": 1, "I": 0, "T": 1, "S": 1}
    assert all(m.shape != "I" for m in game.legal_moves())
    (event,) = game.apply(
        {"type": "place", "shape": "I", "cells": [[3, 3], [3, 4], [3, 5], [3, 6]]}
    )
    assert event["reason"] == "shape_exhausted"


def test_view_is_plain_json():
    game = new()
    game.apply(FIRST)
    view = game.view()
    assert json.loads(json.dumps(view)) == view
    assert set(view) >= {
        "rows",
        "layout",
        "players",
        "turn",
        "supply",
        "last_placement",
        "score",
        "over",
        "winner",
        "why",
        "legal_moves",
    }


def test_str_is_the_position_text():
    game = new()
    game.apply(FIRST)
    assert str(game).splitlines() == game.view()["rows"]
    assert str(game).splitlines()[0] == example("before.txt")[0]
