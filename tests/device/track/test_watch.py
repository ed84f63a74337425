"""A board watch turning the ramp the way the game has it, with the real
engine and a real table (SQLite in a temporary folder); observations are
written out by hand as in test_tracker.py."""

from __future__ import annotations

import numpy as np
import pytest

from device.store import Store
from device.table import Table
from device.track.rules import BitsReferee
from device.track.tracker import BoardTracker
from device.track.watch import SAME_PLACE_S, BoardWatch
from vision.gridfit import GridFit
from vision.motion import fit_light

from .test_tracker import EMPTY6, observe, start_tile


@pytest.fixture
def table(tmp_path):
    t = Table(Store(tmp_path / "t.sqlite"), pin="1234")
    yield t
    t.close()


def watch_of(table: Table) -> BoardWatch:
    table.new_game("bits", {"players": ["P0"], "seed": 4, "tasks": ["square"]})
    tracker = BoardTracker("A", BitsReferee(lambda: table.game, 0), table)
    return BoardWatch(tracker, 6, 6, "bits")


def test_a_corrected_board_that_matches_only_turned_turns_the_ramp(table):
    # the camera took the ramp for upright, the first tile went down as
    # lying in the bottom row; the players put the game right on the phone:
    # the tile stands in column 0. Only turned does what lies there match.
    watch = watch_of(table)
    tile = start_tile(table)
    standing = [*EMPTY6[:4], tile[0] + ".....", tile[1] + "....."]
    table.apply({"type": "place", "player": 0, "rows": standing})
    lying = [*EMPTY6[:5], "...." + tile[1] + tile[0]]  # the same tile, seen a quarter off
    assert (
        np.rot90(np.array([list(r) for r in lying]) != ".", 3)
        == (np.array([list(r) for r in standing]) != ".")
    ).all()
    assert watch._game_turn(observe(lying)) == 3
    # seen as the game has it: nothing to turn
    assert watch._game_turn(observe(standing)) == 0


def test_a_corrected_board_matches_turned_beside_the_next_tile_and_a_misread_cell(table):
    # Simulated BITS 1738: the corrected game has the first tile standing
    # in column 0; the next look shows it lying, a quarter off, with the
    # next tile just put down (two cells the game does not hold yet) and a
    # cell of the ramp's edge read grey. Three cells off even turned, and
    # the way up must still be put right, or every verdict after is wrong.
    watch = watch_of(table)
    tile = start_tile(table)
    standing = [*EMPTY6[:4], tile[0] + ".....", tile[1] + "....."]
    table.apply({"type": "place", "player": 0, "rows": standing})
    seen = ["......", "......", "N.....", "......", "......", "..RR" + tile[1] + tile[0]]
    assert watch._game_turn(observe(seen)) == 3


def test_cells_read_unsure_never_turn_the_ramp(table):
    # Simulated BITS 1902: a lamp came on; the bottom row of black tiles
    # read unsure as the ramp, and cells at the top unsure as tiles. The
    # unsure look matched the game's board half turned better than as it
    # is, the ramp was turned mid-game, and every tile after was judged in
    # the wrong place. Only what is read surely may turn it.
    watch = watch_of(table)
    tile = start_tile(table)
    standing = [*EMPTY6[:4], tile[0] + ".....", tile[1] + "....."]
    table.apply({"type": "place", "player": 0, "rows": standing})
    seen = [".....N", ".....N", *EMPTY6[:4]]
    doubts = {(0, 5): "N.", (1, 5): "N.", (4, 0): "." + tile[0], (5, 0): "." + tile[1]}
    assert watch._game_turn(observe(seen, unsure=doubts)) == 0
    # read surely so, the ramp is the other way up: turned
    assert watch._game_turn(observe(seen)) == 2


def test_a_look_that_differs_by_the_new_tile_and_a_misread_does_not_turn_the_ramp(table):
    # Simulated BITS 1902, its look at 96.8 s: the game's board is nearly
    # the same half turned. The look differs from it as it is in the purple
    # tile just put down and one cell (an illegal tile's half, taken back,
    # still read black under the new lamp); half turned, in no cell read
    # surely. Neither says the ramp was the other way up all game.
    watch = watch_of(table)
    start_tile(table)
    game = ["...KK.", ".K..R.", ".B..Y.", ".K..P.", ".Y.KP.", ".KKKK."]
    for r, row in enumerate(game):
        for c, code in enumerate(row):
            table.apply({"type": "correct_cell", "player": 0, "cell": [r, c], "code": code})
    assert watch.tracker.referee.accepted() == game
    seen = [".PPKK.", ".K..R.", ".B..Y.", ".K..P.", ".Y..P.", "......"]
    sure = ["ussuus", "uuuusu", "usuusu", "uusssu", "ssssss", "suuuus"]
    doubts = {
        (r, c): seen[r][c] + ("." if seen[r][c] != "." else "K")
        for r in range(6)
        for c in range(6)
        if sure[r][c] == "u"
    }
    assert watch._game_turn(observe(seen, unsure=doubts)) == 0


def test_an_empty_ramp_never_turns(table):
    watch = watch_of(table)
    lying = [*EMPTY6[:5], "RR...."]
    assert watch._game_turn(observe(lying)) == 0


def test_something_over_the_board_is_judged_against_the_tables_own_noise(table):
    # A noisy camera over a dark print (a night LITS board on a dark cloth,
    # JPEG): the ring fits one smooth light change only to about 0.07 with
    # nothing over it, above the 0.06 that says "an arm". Judged against
    # that, every still frame would wait for an arm that is not there. After
    # enough looks the limit is twice the table's floor (the 25th percentile
    # of its recent fits): 0.14 here; an arm (0.5) is still an arm. A quiet
    # table keeps the setting.
    watch = watch_of(table)
    assert watch._unclear() == watch.settings.unclear
    watch._scales.extend([0.07] * 90 + [0.5] * 10)
    assert watch._unclear() == pytest.approx(0.14)
    assert 0.5 > watch._unclear() > 0.078
    quiet = watch_of(table)
    quiet._scales.extend([0.01] * 100)
    assert quiet._unclear() == quiet.settings.unclear


def test_two_new_places_seen_on_each_look_are_both_remembered(table):
    # After a knock the search and the picture's own shift may each point
    # somewhere (simulated BITS 1815: 77 and 42 px off). Both are asked
    # about on every look; remembering only the last, each made the watch
    # forget the other, and neither was ever "found there before".
    watch = watch_of(table)
    square = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    watch.fit = GridFit.from_corners(square, 6, 6)
    searched, carried = square + np.array([77, 0]), square + np.array([0, 42])
    for t in (10.0, 11.0):
        assert not watch._found_there_before(searched, t)
        assert not watch._found_there_before(carried, t)
    later = 10.0 + SAME_PLACE_S
    assert watch._found_there_before(searched, later)
    assert watch._found_there_before(carried, later)
    # a place seen only now is not
    assert not watch._found_there_before(square - np.array([60, 0]), later)


def test_an_arm_across_the_ring_stands_out_where_a_new_exposure_does_not(table):
    # Simulated BITS 1830: a noisy webcam (JPEG, sensor noise), a black
    # tile put down by the ramp's edge, and the camera's exposure moved by
    # a fifth. The ring then fits one smooth light change a little worse
    # than the table's usual (0.09 against a limit of 0.07) but no ring
    # cell stands out of the noise; taken for an arm resting across the
    # ring, the new look was waited out for four seconds. An arm (BITS 12:
    # 10 of 28 ring cells far off, the fit 0.15) still is one.
    watch = watch_of(table)
    square = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    watch.fit = GridFit.from_corners(square, 6, 6)
    rng = np.random.default_rng(5)
    before = rng.uniform(40, 200, (8, 8, 3))  # the cells' means, ring included
    watch._clear_ring = (watch.fit, before)
    watch._scales.extend([0.035] * 100)  # this table's looks: a noisy one
    exposed = before * 1.2 * np.exp(rng.normal(0, 0.08, (8, 8, 1)))
    assert fit_light(before, exposed, use=watch._ring).scale > watch._unclear()
    assert not watch._arm_across(exposed, 10.0)
    arm = before.copy()
    across = [(0, c) for c in range(8)] + [(r, 0) for r in range(1, 6)]
    for k, (r, c) in enumerate(across):
        arm[r, c] *= 0.5 if k % 2 else 1.8  # the sleeve's shade, the lit skin
    assert watch._arm_across(arm, 10.0)


def test_a_lamps_spot_on_an_empty_ramp_does_not_make_its_first_look_read_tiles():
    # Simulated BITS game 1120 opens on an empty ivory ramp under a warm
    # lamp whose spot shines near the top (the board as the tracker saw it
    # at its first look, rectified, 24 px a cell). The look balanced on the
    # nominal colours fits the known-empty cells badly, so the palette is
    # fitted to the picture; what that look took for the highlight spans the
    # whole board, and taken off it left the lower rows reading as tiles,
    # which the profile then learnt (the game went on with 15 false
    # verdicts). The game knows the ramp is empty: the reading that explains
    # that best is kept.
    from pathlib import Path

    import cv2

    from calibration.palette import load_palette
    from device.track.watch import _first_reading
    from vision.gridfit import GridFit

    board = cv2.imread(str(Path(__file__).parent / "data" / "bits1120_first_look.png"))
    pad, side = 12, board.shape[0]
    image = cv2.copyMakeBorder(board, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    square = [[pad, pad], [pad + side, pad], [pad + side, pad + side], [pad, pad + side]]
    fit = GridFit.from_corners(np.array(square, np.float64), 6, 6)
    reading = _first_reading(image, fit, load_palette("bits"), EMPTY6)
    assert reading.rows[2:] == EMPTY6[2:]  # the rows that had read as tiles
    off = {(int(r), int(c)) for r, c in zip(*np.nonzero(reading.codes != "."), strict=True)}
    assert off <= {(0, 3), (1, 3)}, reading.rows  # at most the two cells under the spot


def test_a_hand_resting_early_in_the_game_does_not_become_the_tables_noise(table):
    # Simulated BITS 3304: five quiet looks a second apart (the ring fits to
    # 0.02), then a hand rests over the ramp's left edge for 1.6 s and every
    # still frame is looked at (0.25: something across the ring). Counted
    # per look, the hand was 15 of the first 20 scales, the "floor" 0.25 and
    # the limit twice that: the hand was read as tiles. Counted once a
    # second, the hand is two scales of seven and the setting holds.
    watch = watch_of(table)
    for t in range(5):
        watch._note_scale(0.02, float(t))
    for i in range(16):
        watch._note_scale(0.25, 5.9 + 0.1 * i)
    assert len(watch._scales) == 7
    assert watch._unclear() == watch.settings.unclear
