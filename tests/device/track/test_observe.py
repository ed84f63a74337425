"""Which way up a BITS ramp is, from the first tile and the ramp's frame
(:func:`device.track.observe.slide_turn`), and whether later tiles say the
choice was wrong (:func:`device.track.observe.wrong_way`). Boards are drawn
as text in the picture's frame; quarter turns follow ``numpy.rot90``."""

from __future__ import annotations

import numpy as np

from device.track.observe import slide_turn, tiles_seen, wrong_way

from .test_tracker import observe

EMPTY = np.zeros((6, 6), bool)


def cells(*rows: str) -> np.ndarray:
    return np.array([list(r) for r in rows]) != "."


# The first tile stands in the picture's upper-right corner. Turned 3 times
# (the picture's left edge up) it lies flat on the bottom row; turned twice
# (the picture's bottom edge up) it stands against the left wall.
CORNER = cells("#.....", "#.....", "......", "......", "......", "......")[:, ::-1]


def track_from_below() -> np.ndarray:
    """The tile's colour seen only under it in the picture (rows 2-5 of its
    column, with the ring: an 8x8 array), as an arm's shadow on a dark ramp
    can fake it."""
    track = np.zeros((8, 8))
    track[3:7, 6] = 9
    return track


def test_a_corner_tile_keeps_the_other_way_up_for_the_next_tiles():
    turn, others = slide_turn(EMPTY, CORNER, track_from_below(), 1)
    assert turn == 2  # the faked track decides between two equal rests
    assert others == [3]  # but the flat tile stays in mind


def test_the_ramp_frame_settles_a_corner_tile_against_a_faked_track():
    turn, others = slide_turn(EMPTY, CORNER, track_from_below(), 1, top=(3, 1.0))
    assert (turn, others) == (3, [2])


def test_a_frame_half_seen_still_beats_the_picture_upright():
    # a corner tile in the picture's lower left: flat on the bottom row as
    # the picture has it, standing against the right wall turned once
    lower_left = cells("......", "......", "......", "......", "......", "##....")
    assert slide_turn(EMPTY, lower_left, np.zeros((8, 8)), 1)[0] == 0
    assert slide_turn(EMPTY, lower_left, np.zeros((8, 8)), 1, top=(1, 0.5)) == (1, [0])


def test_the_frame_does_not_make_a_tile_hang_in_the_air():
    # flat in the middle of the bottom row: turned any other way it hangs
    middle = cells("......", "......", "......", "......", "......", "..##..")
    for top in range(1, 4):
        assert slide_turn(EMPTY, middle, np.zeros((8, 8)), 1, top=(top, 1.0)) == (0, [])


def test_later_tiles_resting_only_the_other_way_say_the_turn_was_wrong():
    # The truth: one tile flat in the bottom-left corner, the next one
    # standing on the bottom row. Taken the wrong way up (turned a quarter
    # too far), the first tile stood against the right wall; the second
    # now lies across the ramp in mid-air.
    truth = cells("......", "......", "......", "......", "...#..", "##.#..")
    seen = np.rot90(truth, 1)
    assert wrong_way(seen, 3) >= 1.0
    assert wrong_way(truth, 1) <= -1.0  # seen the right way up, the other way is wrong
    # the first tile alone rests both ways: no sign yet
    first = cells("......", "......", "......", "......", "......", "##....")
    assert abs(wrong_way(np.rot90(first, 1), 3)) < 1.0


def test_past_the_first_tiles_the_way_up_is_no_longer_in_question():
    # A ramp emptied for a new round shows one tile that hangs as the board
    # was taken: after a round of tiles that rested, it does not turn it.
    hanging = cells("......", "......", "......", "......", "###...", "......")
    assert wrong_way(hanging, 1) >= 1.0
    full_round = ["######"] * 4 + ["......"] * 2
    assert wrong_way(hanging, 1, full_round) == float("-inf")
    three_tiles = ["......"] * 5 + ["######"]
    assert wrong_way(hanging, 1, three_tiles) >= 1.0


def test_a_lone_cell_read_as_a_tile_does_not_say_the_way_up():
    # Simulated BITS 1896: the start tile flat in the bottom-right corner
    # (the frame says the picture is upright), and the lamp's glare in the
    # top-right corner read as a tile's cell. Counted, that cell rested
    # only turned a quarter, and the whole game was judged turned.
    seen = observe([".....R", "......", "......", "......", "......", "....YY"])
    held = ["......"] * 5 + ["....YY"]
    assert wrong_way((seen.codes != "."), 3, held) >= 1.0  # what went wrong
    filled = tiles_seen(seen, held)
    assert filled.tolist() == cells(*held).tolist()
    assert wrong_way(filled, 3, held) < 1.0
    # a new tile (two cells, one read unsure) counts: it may say the way up
    doubted = observe([*held[:4], "....NN", "....YY"], unsure={(4, 4): "N."})
    assert tiles_seen(doubted, held)[4, 4:].all()
    # a lone cell beside a tile the game holds is no tile either
    lone = observe([*held[:4], "....N.", "....YY"])
    assert not tiles_seen(lone, held)[4, 4]
