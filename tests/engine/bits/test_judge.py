"""One test per illegal-placement reason, on small hand-drawn boards."""

import pytest

from engine.bits import NEUTRAL_TILE, Board, Drop, Tile, Turn, card_candidates, infer, judge

# Column 1 holds a black double upright; a blue double lies across columns
# 1-2 on top of it, so column 2 has a two-cell hole under the blue half.
BEFORE = Board.from_rows(
    [
        "......",
        "......",
        "......",
        "BB....",
        "K.....",
        "K.....",
    ]
)
RY = Turn(tiles=(Tile("RY"),))


def after(*changes):
    """BEFORE with some cells set: after((r, c, code), ...)."""
    rows = [list(row) for row in BEFORE.rows()]
    for r, c, code in changes:
        rows[r][c] = code
    return Board.from_rows(["".join(row) for row in rows])


def check(board, turn=RY):
    verdict, drop = judge(BEFORE, board, turn)
    return verdict, drop


def test_legal_drop_gives_the_drop():
    verdict, drop = check(after((4, 3, "Y"), (5, 3, "R")))
    assert verdict.legal and verdict.reason == "ok"
    assert drop == Drop("Y", "R", True, 3, 4)
    assert verdict.cells == ((4, 3), (5, 3))


def test_no_change():
    assert check(BEFORE)[0].reason == "no_change"


def test_placed_after_dropping_out():
    verdict, _ = check(after((4, 3, "Y"), (5, 3, "R")), Turn(tiles=(Tile("RY"),), dropped_out=True))
    assert (verdict.reason, verdict.cells) == ("dropped_out", ((4, 3), (5, 3)))


def test_tiles_removed():
    verdict, _ = check(after((4, 0, "."), (5, 0, ".")))
    assert (verdict.reason, verdict.cells) == ("tiles_moved", ((4, 0), (5, 0)))
    assert "removed" in verdict.message


def test_tiles_moved_to_another_place():
    # The blue tile slid one column right: (3,0) emptied, (3,2) filled.
    verdict, _ = check(after((3, 0, "."), (3, 2, "B")))
    assert (verdict.reason, verdict.cells) == ("tiles_moved", ((3, 0),))


def test_a_second_tile_for_the_same_card():
    verdict, _ = check(after((4, 3, "Y"), (5, 3, "R")), Turn(tiles=(Tile("RY"),), placed=True))
    assert verdict.reason == "already_placed"


def test_two_tiles_at_once():
    verdict, _ = check(after((4, 3, "Y"), (5, 3, "R"), (4, 5, "R"), (5, 5, "Y")))
    assert verdict.reason == "two_tiles" and len(verdict.cells) == 4
    # Two new cells that do not touch are not one tile either.
    assert check(after((5, 3, "R"), (5, 5, "Y")))[0].reason == "two_tiles"


def test_tile_sticking_out_of_the_grid():
    # Column 6 filled up to row 2: an upright tile shows only its lower half.
    tall = Board.from_rows(["......", ".....K", ".....K", ".....K", ".....K", ".....K"])
    sticking = Board.from_rows([".....R", ".....K", ".....K", ".....K", ".....K", ".....K"])
    verdict, drop = judge(tall, sticking, RY)
    assert (verdict.reason, verdict.cells, drop) == ("outside_grid", ((0, 5),), None)


def test_not_a_whole_tile():
    assert check(after((5, 3, "R")))[0].reason == "not_a_tile"  # lone cell, not at an edge
    half_neutral = check(after((4, 3, "N"), (5, 3, "R")))[0]
    assert half_neutral.reason == "not_a_tile" and "half neutral" in half_neutral.message


def test_wrong_tile_for_the_card():
    verdict, drop = check(after((4, 3, "B"), (5, 3, "B")))
    assert verdict.reason == "wrong_tile"
    assert "red-yellow" in verdict.message and "blue double" in verdict.message
    assert drop == Drop("B", "B", True, 3, 4)  # what was placed, for the phones


def test_neutral_may_not_replace_the_starting_tile():
    start = Turn(tiles=(Tile("RR"),), neutral=False, card="your starting card")
    verdict, _ = check(after((4, 3, "N"), (5, 3, "N")), start)
    assert verdict.reason == "wrong_tile" and "starting card" in verdict.message


def test_neutral_once_per_round():
    neutral = after((4, 3, "N"), (5, 3, "N"))
    assert check(neutral)[0].legal
    second = check(neutral, Turn(tiles=(Tile("RY"),), neutral_used=True))[0]
    assert second.reason == "second_neutral"


def test_pushed_under_an_overhang():
    # Upright red-yellow slid into the hole under the blue tile's right half.
    verdict, _ = check(after((4, 1, "R"), (5, 1, "Y")))
    assert verdict.reason == "under_overhang"
    assert verdict.cells == ((3, 1), (4, 1), (5, 1))  # the tile and the overhang


def test_resting_in_mid_air():
    verdict, _ = check(after((1, 3, "R"), (2, 3, "Y")))
    assert verdict.reason == "mid_air"
    # The tile, and the empty cells down to where it would have landed.
    assert verdict.cells == ((1, 3), (2, 3), (3, 3), (4, 3), (5, 3))
    assert "slide down to column 4, rows 5-6" in verdict.message
    horizontal, _ = check(after((1, 0, "R"), (1, 1, "Y")))
    assert horizontal.reason == "mid_air"
    assert horizontal.cells == ((1, 0), (1, 1), (2, 0), (2, 1))


def test_a_horizontal_tile_resting_on_one_half_is_legal():
    verdict, drop = check(after((2, 1, "R"), (2, 2, "Y")))
    assert verdict.legal and drop == Drop("R", "Y", False, 1, 2)


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        (Turn(tiles=(Tile("BB"),), dropped_out=True), "dropped_out"),
        (Turn(tiles=(Tile("BB"),), placed=True), "already_placed"),
        (Turn(tiles=(Tile("BB"),)), "wrong_tile"),
    ],
)
def test_the_first_broken_rule_is_reported(turn, reason):
    # Red-yellow in mid-air, and the wrong tile, after dropping out...
    assert check(after((1, 3, "R"), (2, 3, "Y")), turn)[0].reason == reason


def test_infer_finds_the_drop_and_the_cards_it_could_answer():
    drop = infer(BEFORE, after((4, 3, "Y"), (5, 3, "R")))
    assert drop == Drop("Y", "R", True, 3, 4)
    deck = [Tile("RY"), Tile("BB"), Tile("RY"), Tile("PK")]
    assert card_candidates(drop, deck) == (Tile("RY"),)
    assert infer(BEFORE, after((1, 3, "R"), (2, 3, "Y"))) is None  # mid-air is no drop
    neutral = infer(BEFORE, after((4, 3, "N"), (5, 3, "N")))
    assert neutral.tile == NEUTRAL_TILE
    assert set(card_candidates(neutral, deck)) == {Tile("RY"), Tile("BB"), Tile("PK")}
