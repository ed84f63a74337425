"""The game flow, driven only through the JSON interface the table uses."""

import json

import pytest

from engine.bits import Board, Game, Tile, legal_drops, load_catalogue
from engine.bits.deck import shuffled
from engine.errors import ActionError


def setup(**extra):
    return {"players": ["Ann", "Bob"], "seed": 11, "tasks": ["square"], **extra}


def board_of(game, player):
    return Board.from_rows(game.view()["players"][player]["board"])


def place(game, player, tile, vertical, column):
    """Drop a tile as a player would and show the camera's after-board."""
    before = board_of(game, player)
    (drop,) = [
        d
        for d in legal_drops(before, Tile(tile))
        if d.vertical == vertical and d.column == column and d.first + d.second == tile
    ]
    return game.apply({"type": "place", "player": player, "rows": list(before.after(drop).rows())})


def types(events):
    return [event["type"] for event in events]


def start_tiles(game):
    return [p["start_tile"] for p in game.view()["players"]]


def lay_starting_tiles(game):
    for player, tile in enumerate(start_tiles(game)):
        place(game, player, tile, False, 0)


# --- setup -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"players": []}, "1 to 4 names"),
        ({"players": ["A", "B", "C", "D", "E"]}, "1 to 4 names"),
        ({"players": ["A", "A"]}, "must differ"),
        ({"deck": "cards"}, "deck is one of"),
        ({"colour": "red"}, "unknown setup key"),
        ({"settings": {"mirrors": True}}, "unknown BITS setting 'mirrors'"),
        ({"settings": {"mirror": "yes"}}, "must be bool"),
        ({"tasks": ["pair"]}, "round 1 turns over a pile-1 card"),
        ({"tasks": ["square", "blue-corner", "pair", "plus"]}, "4 cards for a 3-round game"),
        ({"tasks": ["square", "blue-corner", "corner"]}, "same shape as round 2's card"),
        ({"seed": "x"}, "seed is a whole number"),
        ({"game_tiles": ["RY", "NN"]}, "may not hold the neutral"),
    ],
)
def test_bad_setups_are_refused_with_the_reason(bad, message):
    with pytest.raises(ActionError, match=message):
        Game.new(setup(**bad))


def test_a_missing_seed_is_chosen_and_kept_in_the_setup():
    game = Game.new({"players": ["Ann"]})
    assert isinstance(game.setup["seed"], int)
    assert Game.replay(game.setup, game.actions) == game


# --- a round ------------------------------------------------------------------


def test_opening_deals_the_task_and_different_starting_tiles():
    game = Game.new(setup())
    assert types(game.opening_events) == [
        "round_started",
        "task_revealed",
        "start_dealt",
        "start_dealt",
    ]
    view = game.view()
    assert (view["round"], view["rounds"], view["phase"]) == (1, 3, "start")
    assert view["tasks"][0]["name"] == "square"
    tiles = start_tiles(game)
    assert len(set(tiles)) == 2
    assert all(Tile(t) in game.tileset.starting_tiles for t in tiles)


def test_starting_tiles_then_building_cards_from_the_seeded_deck():
    game = Game.new(setup())
    first, second = start_tiles(game)
    events = place(game, 0, first, False, 0)
    assert types(events) == ["placed"]
    assert game.view()["card"] is None  # waits for Bob
    events = place(game, 1, second, True, 5)
    assert types(events) == ["placed", "card_revealed"]
    expected = shuffled(game.tileset.game_tiles, 11, "round1:building")
    assert events[-1]["tile"] == str(expected[0]) == game.view()["card"]
    place(game, 0, str(expected[0]), True, 2)
    events = place(game, 1, str(expected[0]), True, 2)
    assert events[-1] == {"type": "card_revealed", "index": 2, "tile": str(expected[1])}


def test_the_wrong_starting_tile_and_the_neutral_instead_of_it_are_refused():
    game = Game.new(setup())
    first, second = start_tiles(game)
    events = place(game, 0, second, False, 0)
    assert events[0]["type"] == "illegal" and events[0]["reason"] == "wrong_tile"
    events = place(game, 0, "NN", False, 0)
    assert events[0]["reason"] == "wrong_tile"
    assert game.view()["players"][0]["refused"]["reason"] == "wrong_tile"
    assert board_of(game, 0) == Board.empty()
    place(game, 0, first, False, 0)
    assert game.view()["players"][0]["refused"] is None


def test_neutral_once_per_round_and_again_next_round():
    game = Game.new(setup())
    lay_starting_tiles(game)
    events = place(game, 0, "NN", True, 3)
    assert events[0]["type"] == "placed" and events[0]["neutral"]
    card = game.view()["card"]
    place(game, 1, card, True, 3)
    events = place(game, 0, "NN", True, 4)
    assert events[0]["type"] == "illegal" and events[0]["reason"] == "second_neutral"
    assert events[0]["cells"] == [[4, 4], [5, 4]]  # column 5 is empty
    game.apply({"type": "end_round"})
    lay_starting_tiles(game)
    assert place(game, 0, "NN", True, 3)[0]["type"] == "placed"


def test_a_second_tile_for_the_same_card_is_refused():
    game = Game.new(setup())
    lay_starting_tiles(game)
    card = game.view()["card"]
    place(game, 0, card, True, 3)
    events = place(game, 0, card, True, 4)
    assert events[0]["reason"] == "already_placed"


# Ann's plan to fill her board after a starting tile across columns 1-2: three
# upright tiles in each of columns 3-6, two in columns 1 and 2, one across the
# top of columns 1-2: 17 building cards, 36 cells.
FILL = [(True, c) for c in (2, 3, 4, 5) for _ in range(3)] + [(True, 0), (True, 0)]
FILL += [(True, 1), (True, 1), (False, 0)]


def test_a_player_who_declares_out_may_not_place_again():
    game = Game.new(setup())
    lay_starting_tiles(game)
    events = game.apply({"type": "drop_out", "player": "Bob"})
    assert events[0] == {
        "type": "dropped_out",
        "player": 1,
        "name": "Bob",
        "declared": True,
        "could_place": True,
    }
    events = place(game, 1, game.view()["card"], True, 0)
    assert events[0]["type"] == "illegal" and events[0]["reason"] == "dropped_out"
    with pytest.raises(ActionError, match="already dropped out"):
        game.apply({"type": "drop_out", "player": 1})


def test_a_full_board_drops_out_and_the_round_ends_when_nobody_can_place():
    game = Game.new(setup(tasks=["square", "blue-corner"]))
    lay_starting_tiles(game)
    game.apply({"type": "drop_out", "player": 1})
    for step, (vertical, column) in enumerate(FILL):
        card = game.view()["card"]
        events = place(game, 0, card, vertical, column)
        assert events[0]["type"] == "placed", (step, events)
    assert board_of(game, 0).occupied.bit_count() == 0  # a new round has begun
    assert types(events) == [
        "placed",
        "card_revealed",
        "dropped_out",
        "round_ended",
        "round_started",
        "task_revealed",
        "start_dealt",
        "start_dealt",
    ]
    assert events[2]["declared"] is False and events[3]["why"] == "no_room"
    full = events[3]
    assert full["round"] == 1
    assert "." not in "".join(game.view()["history"][0]["boards"][0])
    assert game.view()["round"] == 2 and len(game.view()["tasks"]) == 2


def test_the_round_ends_when_the_deck_runs_out():
    game = Game.new(setup(game_tiles=["RY", "KK"]))
    lay_starting_tiles(game)
    for _ in range(2):
        card = game.view()["card"]
        place(game, 0, card, True, 3)
        events = place(game, 1, card, True, 3)
    assert types(events)[:3] == ["placed", "round_ended", "round_started"]
    assert events[1]["why"] == "deck_empty"


def red_game(players, tasks, **extra):
    """Every starting tile black-black, every building card red-red: the
    boards below are then fixed by the columns chosen."""
    return Game.new(
        {
            "players": players,
            "seed": 3,
            "tasks": tasks,
            "starting_tiles": ["KK"] * 5,
            "game_tiles": ["RR"] * 20,
            **extra,
        }
    )


def test_scores_per_card_round_and_game_with_the_tie_break():
    game = red_game(["Ann", "Bob"], ["square", "blue-corner", "pair"])
    # Round 1 (square: +2, other 4-blocks +1). Ann: a red square (+2).
    # Bob: a red upright line of 4 in column 6 (+1).
    lay_starting_tiles(game)
    for _ in range(2):
        place(game, 0, "RR", False, 2)
        place(game, 1, "RR", True, 5)
    assert [p["score"]["round"] for p in game.view()["players"]] == [2, 1]
    events = game.apply({"type": "end_round"})
    ended = events[0]
    assert ended["type"] == "round_ended" and ended["why"] == "called"
    assert [s["total"] for s in ended["scores"]] == [2, 1]
    assert ended["scores"][0]["cards"][0]["blocks"] == [[[4, 2], [4, 3], [5, 2], [5, 3]]]
    # Round 2 (+ blue corner, which red tiles never make). Ann: a square again
    # (+2), then she gives up. Bob: a square (+2) and a line of 4 (+1).
    lay_starting_tiles(game)
    for _ in range(2):
        place(game, 0, "RR", False, 2)
        place(game, 1, "RR", False, 2)
    game.apply({"type": "drop_out", "player": 0})
    for _ in range(2):
        place(game, 1, "RR", True, 5)
    view = game.view()
    assert [p["score"]["round"] for p in view["players"]] == [2, 3]
    assert [p["score"]["total"] for p in view["players"]] == [4, 4]
    game.apply({"type": "end_round"})
    # Round 3 (+ pair, -2): the black starting tile is a 2-cell block.
    lay_starting_tiles(game)
    events = game.apply({"type": "end_round"})
    assert [s["total"] for s in events[0]["scores"]] == [-2, -2]
    over = events[-1]
    # 2+2-2 = 2 each: Bob's best round (3) beats Ann's (2).
    assert over == {
        "type": "game_over",
        "totals": [2, 2],
        "winners": [1],
        "tie_break": "best_round",
        "solo_rank": None,
    }
    view = game.view()
    assert view["over"] and view["winners"] == [1] and view["tie_break"] == "best_round"
    assert [p["score"]["rounds"] for p in view["players"]] == [[2, 2, -2], [1, 3, -2]]
    with pytest.raises(ActionError, match="game is over"):
        place(game, 0, "RR", True, 0)


def test_solo_game_gets_a_rank():
    game = red_game(["Sol"], ["square", "blue-corner", "pair"])
    for _ in range(3):
        lay_starting_tiles(game)
        events = game.apply({"type": "end_round"})
    assert events[-1]["totals"] == [-2] and events[-1]["solo_rank"] == "clean-up crew"
    assert game.view()["solo_rank"] == "clean-up crew"


def test_advanced_game_has_a_fourth_round_from_pile_4():
    game = Game.new({"players": ["Ann"], "seed": 2, "advanced": True})
    for _ in range(4):
        assert game.view()["phase"] == "start"
        game.apply({"type": "end_round"})
    view = game.view()
    assert view["over"] and [t["pile"] for t in view["tasks"]] == [1, 2, 3, 4]


def test_round_3_redraws_a_card_with_round_2s_shape():
    catalogue = load_catalogue()
    corner = catalogue["blue-corner"].shape
    seed = next(
        s for s in range(100) if shuffled(catalogue.pile(3), s, "pile3")[0].shape.same_as(corner)
    )
    order = shuffled(catalogue.pile(3), seed, "pile3")
    expected = next(card for card in order if not card.shape.same_as(corner))
    game = Game.new({"players": ["Ann"], "seed": seed, "tasks": ["square", "blue-corner"]})
    game.apply({"type": "end_round"})
    game.apply({"type": "end_round"})
    third = game.view()["tasks"][2]
    assert third["name"] == expected.name and third["shape"] != order[0].shape.text()


def test_physical_deck_announced_task_inferred_cards_and_announced_cards():
    game = Game.new({"players": ["Ann", "Bob"], "deck": "physical"})
    assert types(game.opening_events) == ["round_started", "awaiting_task"]
    with pytest.raises(ActionError, match="needs its task card"):
        place(game, 0, "RR", True, 0)
    with pytest.raises(ActionError, match="pile-1 card"):
        game.apply({"type": "task", "card": "pair"})
    events = game.apply({"type": "task", "card": "shape=##/##,points=2,pile=1"})
    assert types(events) == ["task_revealed"]
    # Starting tiles: any unused one; two players may not both have the same.
    place(game, 0, "YY", True, 0)
    refused = place(game, 1, "YY", True, 0)[0]
    assert (
        refused["reason"] == "wrong_tile" and "not on any card still possible" in refused["message"]
    )
    place(game, 1, "PP", True, 0)
    assert game.view()["players"][1]["start_tile"] == "PP"
    assert game.view()["card"] is None  # not seen: inferred from the first tile
    events = place(game, 0, "BK", True, 3)
    assert events[0]["could_be"] == ["BK"] and game.view()["card"] == "BK"
    assert place(game, 1, "RY", True, 3)[0]["reason"] == "wrong_tile"
    place(game, 1, "KB", True, 3)
    # The next card is announced before anyone plays it.
    with pytest.raises(ActionError, match="no building card showing BK is left"):
        game.apply({"type": "next_card", "tile": "KB"})
    assert game.apply({"type": "next_card", "tile": "YR"})[0]["tile"] == "RY"
    with pytest.raises(ActionError, match="already known"):
        game.apply({"type": "next_card", "tile": "RR"})
    assert place(game, 0, "BK", True, 4)[0]["reason"] == "wrong_tile"


def test_virtual_deck_refuses_announced_cards():
    game = Game.new(setup())
    lay_starting_tiles(game)
    with pytest.raises(ActionError, match="companion deals"):
        game.apply({"type": "next_card", "tile": "RY"})


def test_undo_takes_back_the_last_placement_and_what_it_triggered():
    game = Game.new(setup())
    first, second = start_tiles(game)
    place(game, 0, first, False, 0)
    before = game.state_json()
    events = place(game, 1, second, False, 0)
    assert types(events) == ["placed", "card_revealed"]
    events = game.undo()
    assert events[0]["type"] == "undone" and events[0]["player"] == 1
    assert game.state_json() == before
    assert game.actions[-1] == {"type": "undo"}
    assert Game.replay(game.setup, game.actions) == game
    game.undo()
    assert board_of(game, 0) == Board.empty()
    with pytest.raises(ActionError, match="no placement to undo"):
        game.undo()


def test_overrule_accepts_a_refused_board():
    game = Game.new(setup())
    first, _second = start_tiles(game)
    # Ann's tile in mid-air (the camera saw it there; the table says it is fine).
    rows = ["......"] * 3 + [first + "....", "......", "......"]
    events = game.apply({"type": "place", "player": 0, "rows": rows})
    assert events[0]["reason"] == "mid_air"
    events = game.apply({"type": "overrule", "player": 0})
    assert events[0]["type"] == "placed" and events[0]["overruled"]
    assert game.view()["players"][0]["board"] == rows
    with pytest.raises(ActionError, match="no refused board"):
        game.apply({"type": "overrule", "player": 0})


def test_correct_a_misread_cell():
    game = Game.new(setup())
    place(game, 0, start_tiles(game)[0], False, 0)
    events = game.apply({"type": "correct_cell", "player": 0, "cell": [5, 1], "code": "B"})
    assert events == [{"type": "board_corrected", "player": 0, "cell": [5, 1], "code": "B"}]
    assert game.view()["players"][0]["board"][5][1] == "B"


@pytest.mark.parametrize(
    "action",
    [
        {},
        {"type": "fly"},
        {"type": "place", "player": 7, "rows": ["......"] * 6},
        {"type": "place", "player": "Cy", "rows": ["......"] * 6},
        {"type": "place", "player": 0},
        {"type": "place", "player": 0, "rows": ["......"] * 6},  # nothing new
        {"type": "place", "player": 0, "rows": ["......"] * 5 + ["R?...."]},
        {"type": "place", "player": 0, "rows": "RY"},
        {"type": "place", "player": 0, "drop": {"tile": "RY", "orientation": "up", "column": 0}},
        {
            "type": "place",
            "player": 0,
            "drop": {"tile": "RN", "orientation": "vertical", "column": 0},
        },
        {"type": "correct_cell", "player": 0, "cell": [6, 0], "code": "R"},
        {"type": "correct_cell", "player": 0, "cell": [0, 0], "code": "?"},
        {"type": "task", "card": "square"},
    ],
)
def test_bad_actions_raise_and_change_nothing(action):
    game = Game.new(setup())
    before, count = game.state_json(), len(game.actions)
    with pytest.raises(ActionError):
        game.apply(action)
    assert game.state_json() == before and len(game.actions) == count


def test_judge_is_pure_and_matches_apply():
    game = Game.new(setup())
    tile = start_tiles(game)[0]
    rows = ["......"] * 5 + [tile + "...."]
    before = game.state_json()
    verdict, drop = game.judge("Ann", rows)
    assert verdict.legal and str(drop) == f"{tile} horizontal in columns 1-2, row 6"
    assert game.state_json() == before and game.actions == []
    assert game.apply({"type": "place", "player": "Ann", "rows": rows})[0]["type"] == "placed"
    with pytest.raises(ActionError, match="unreadable"):
        game.judge(0, ["?....."] + ["......"] * 5)


def test_explicit_drop_that_does_not_fit_is_outside_the_grid():
    game = Game.new(setup())
    tile = start_tiles(game)[0]
    events = game.apply(
        {
            "type": "place",
            "player": 0,
            "drop": {"tile": tile, "orientation": "horizontal", "column": 5},
        }
    )
    assert events[0]["reason"] == "outside_grid"


def test_everything_at_the_edges_is_plain_json():
    game = Game.new(setup())
    lay_starting_tiles(game)
    game.apply({"type": "place", "player": 0, "rows": ["R....."] + ["......"] * 5})
    text = json.dumps([game.view(), game.state_json(), game.actions, game.opening_events])
    assert json.loads(text)[0] == game.view()
