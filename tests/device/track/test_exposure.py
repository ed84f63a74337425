"""The first recorded tiles settle the exposure an empty ramp could not."""

from __future__ import annotations

import numpy as np

from calibration.palette import load_palette
from calibration.profile import Profile
from device.track.exposure import ExposureCheck, luminance, re_expose, scale_lab

BITS = load_palette("bits")


def seen(code: str, factor: float) -> np.ndarray:
    return scale_lab(BITS.lab[BITS.index(code)], factor)


def test_tiles_read_too_dark_say_by_how_much():
    # Every tile reads at 40% of its nominal luminance: the gains must be
    # multiplied by 1/0.4 = 2.5, and only once two placements agree.
    check = ExposureCheck(BITS)
    assert check.add({(5, 0): ("R", seen("R", 0.4)), (5, 1): ("B", seen("B", 0.4))}) is None
    factor = check.add({(5, 2): ("Y", seen("Y", 0.4)), (5, 3): ("P", seen("P", 0.4))})
    assert factor is not None and abs(factor - 2.5) < 1e-6


def test_a_small_error_is_left_to_the_palette():
    check = ExposureCheck(BITS)
    check.add({(5, 0): ("R", seen("R", 0.9)), (5, 1): ("B", seen("B", 0.9))})
    assert check.add({(5, 2): ("Y", seen("Y", 0.9)), (5, 3): ("P", seen("P", 0.9))}) is None


def test_cells_that_disagree_change_nothing():
    # A highlight on half the tiles: ratios all over the place, no correction.
    check = ExposureCheck(BITS)
    check.add({(5, 0): ("R", seen("R", 0.3)), (5, 1): ("B", seen("B", 1.0))})
    assert check.add({(5, 2): ("Y", seen("Y", 3.0)), (5, 3): ("P", seen("P", 0.6))}) is None


def test_black_grey_board_and_highlights_do_not_count():
    check = ExposureCheck(BITS)
    for i in range(3):
        out = check.add(
            {
                (i, 0): ("K", seen("K", 0.3)),  # black: too dark to say anything
                (i, 1): (".", seen(".", 0.3)),  # the board is what was guessed from
                (i, 2): ("Y", np.array([120.0, -10.0, 100.0])),  # brighter than white
            }
        )
        assert out is None
    assert check.ratios == []


def test_one_tile_read_brighter_than_white_alike_says_the_gains_are_too_high():
    # A slate print taken for the light one (simulated BITS 1111): the gains
    # are far too high and the first blue tile reads far brighter than
    # white (L* 145 and 135, as there), both halves alike. No highlight
    # shines both halves alike, so the gains come down at once (by the most
    # one step allows), before a black tile is read as grey.
    check = ExposureCheck(BITS)
    factor = check.add({(5, 0): ("B", seen("B", 30.0)), (5, 1): ("B", seen("B", 25.0))})
    assert factor is not None and abs(factor - 0.25) < 1e-9


def test_a_tile_under_the_known_highlight_says_nothing():
    check = ExposureCheck(BITS)
    cells = {(5, 0): ("B", seen("B", 30.0)), (5, 1): ("B", seen("B", 25.0))}
    assert check.add(cells, shining={(5, 0), (5, 1)}) is None
    assert check.ratios == []


def test_one_half_far_brighter_than_the_other_is_a_highlight():
    # A spot is brighter at its centre: halves read 40x and 16x too bright
    # (both brighter than white) disagree, and both are dropped.
    check = ExposureCheck(BITS)
    assert check.add({(5, 0): ("B", seen("B", 40.0)), (5, 1): ("B", seen("B", 16.0))}) is None
    assert check.ratios == []


def test_the_check_closes_once_the_tiles_are_known():
    check = ExposureCheck(BITS)
    for i in range(6):
        check.add({(i, 0): ("R", seen("R", 1.0)), (i, 1): ("R", seen("R", 1.0))})
    assert check.closed
    assert check.add({(0, 5): ("B", seen("B", 0.2)), (1, 5): ("B", seen("B", 0.2))}) is None


def test_re_exposing_keeps_the_board_the_board_and_leaves_nominal_colours():
    # The board was learnt at L* 35 under gains 2.5x too high; with the gains
    # divided by 2.5 it reads 2.5x darker, and the profile says so; red was
    # never seen and keeps its nominal colour.
    p = Profile.start(BITS, 6, 6)
    board = np.array([35.0, 0.0, -4.0])
    p.learn([(".", board)] * 36, trusted=True)
    re_expose(p, 1 / 2.5)
    now = p.palette.lab[BITS.index(".")]
    assert abs(float(luminance(now)) * 2.5 - float(luminance(board))) < 1e-9
    assert np.allclose(p.palette.lab[BITS.index("R")], BITS.lab[BITS.index("R")])


def test_a_watch_corrects_its_gains_then_learns_the_tiles_as_they_really_look():
    from types import SimpleNamespace

    from device.track.watch import BoardWatch

    watch = BoardWatch(SimpleNamespace(board="A"), 6, 6, "bits")  # type: ignore[arg-type]
    watch.profile = Profile.start(BITS, 6, 6)
    watch.profile.learn([(".", np.array([35.0, 0.0, -4.0]))] * 36, trusted=True)
    watch.gains = np.array([2.0, 2.0, 2.0])
    watch._exposure = ExposureCheck(BITS)
    lab = np.zeros((6, 6, 3))
    lab[5, 0], lab[5, 1] = seen("R", 0.4), seen("B", 0.4)
    watch.learn_reading(lab, {(5, 0): "R", (5, 1): "B"})
    assert np.allclose(watch.gains, 2.0)  # one placement is not enough
    lab[5, 2], lab[5, 3] = seen("Y", 0.4), seen("P", 0.4)
    watch.learn_reading(lab, {(5, 2): "Y", (5, 3): "P"})
    assert np.allclose(watch.gains, 5.0)
    # the second tile was learnt as it reads under the corrected gains: nominal
    y = BITS.index("Y")
    assert np.allclose(watch.profile.palette.lab[y], BITS.lab[y], atol=1e-6)


def test_a_whole_piece_brighter_than_white_says_the_gains_are_too_high():
    # A dark LITS board taken for a light one: the gains came out 3x too
    # high and the first piece, a yellow I, reads brighter than white in
    # all four cells. That is no highlight (a highlight is smaller than a
    # piece): divide the gains by 3.
    from calibration.palette import load_palette as load

    lits = load("lits")
    check = ExposureCheck(lits)
    y = lits.lab[lits.index("I")]
    read = scale_lab(y, 3.0)
    assert read[0] > 100
    factor = check.add({(0, c): ("I", read) for c in range(4)})
    assert factor is not None and abs(factor - 1 / 3) < 1e-6


def test_one_piece_read_darker_than_any_exposure_error_waits_for_the_next():
    # The first LITS piece lies in a hard shadow across the board's foot and
    # reads six times too dark (simulated LITS 1023). No exposure is that
    # far off: one piece alone changes nothing. The next piece, in the
    # open, reads as nominal; the two disagree, and nothing is corrected.
    from calibration.palette import load_palette as load

    lits = load("lits")
    check = ExposureCheck(lits)
    lab = lits.lab[lits.index("L")]
    assert check.add({(7, c): ("L", scale_lab(lab, 1 / 6)) for c in range(4)}) is None
    assert check.add({(2, c): ("L", scale_lab(lab, 1.0)) for c in range(4)}) is None


def test_two_pieces_both_far_too_dark_are_corrected_by_the_most_one_step_allows():
    # The whole board is that dark (a night board taken for a light one):
    # the second piece, elsewhere, agrees, and the gains go up by the most
    # one correction allows.
    from calibration.palette import load_palette as load
    from device.track.exposure import MAX_FACTOR

    lits = load("lits")
    check = ExposureCheck(lits)
    lab = lits.lab[lits.index("L")]
    assert check.add({(7, c): ("L", scale_lab(lab, 1 / 6)) for c in range(4)}) is None
    factor = check.add({(2, c): ("L", scale_lab(lab, 1 / 6)) for c in range(4)})
    assert factor == MAX_FACTOR
