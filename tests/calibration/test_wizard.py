"""One-confirm calibration: fixes become samples; a new lamp changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from calibration.wizard import FixError, build_profile, confirmed_codes, parse_fixes, propose
from tests.vision.synth import Light, render_board
from vision.reader import read_cells

BITS = load_palette("bits")
BOARD = ["......", "......", "..R...", ".YYB..", "PKRBN.", "RRYYKP"]
LATER = ["......", "..B...", "..RP..", ".YYBK.", "PKRBNR", "RRYYKP"]


def test_parse_fixes():
    assert parse_fixes("", 6, 6, ".RYBPKN") == {}
    assert parse_fixes("3,4=R; 6,1=.", 6, 6, ".RYBPKN") == {(2, 3): "R", (5, 0): "."}
    for bad, says in [("3,4", "ROW,COL=CODE"), ("7,1=R", "row must be 1..6"), ("1,1=Z", "not a")]:
        with pytest.raises(FixError, match=says):
            parse_fixes(bad, 6, 6, ".RYBPKN")


def test_fixes_become_samples_and_unsure_cells_teach_nothing():
    image = render_board(BOARD, BITS, noise=2, seed=3)
    reading = propose(image, 6, 6, BITS)
    assert reading.rows == BOARD
    forced = dict(reading.__dict__)
    forced["codes"] = reading.codes.copy()
    forced["codes"][0, 0] = "?"  # pretend one cell was unsure...
    unsure = type(reading)(**forced)
    profile = build_profile(unsure, {(2, 2): "R"}, nominal=BITS)  # ...and one was confirmed
    # 35 cells teach: the unsure one does not.
    assert profile.samples.sum() == 35
    assert profile.samples[BITS.index("R")] == 4
    assert confirmed_codes(unsure, {(0, 0): "."})[0, 0] == "."


@pytest.mark.parametrize("kelvin", [2700, 3500, 8000])
def test_calibrate_in_daylight_play_under_another_lamp(kelvin):
    # Calibrate under 6500 K on one board; read a later board under the lamp.
    calib = render_board(BOARD, BITS, Light(kelvin=6500), noise=2, seed=1)
    profile = build_profile(propose(calib, 6, 6, BITS), {}, nominal=BITS)
    play = render_board(LATER, BITS, Light(kelvin=kelvin, gradient=0.2), noise=2, seed=2)
    reading = read_cells(play, 6, 6, profile.palette, gains=profile.gains)
    assert reading.rows == LATER
    assert reading.confidence.min() > 0.5
    # Under 2700 K the camera's red channel clips on the board: still read right.
    assert np.isfinite(reading.lab).all()


def test_light_change_without_the_constancy_would_fail():
    # The same 2700 K frame read with the daylight gains frozen and no per-frame
    # balance: many cells go wrong or unsure. This is what constancy buys.
    calib = render_board(BOARD, BITS, Light(kelvin=6500), noise=2, seed=1)
    profile = build_profile(propose(calib, 6, 6, BITS), {}, nominal=BITS)
    play = render_board(LATER, BITS, Light(kelvin=2700), noise=2, seed=2)
    from vision.cells import cell_linear
    from vision.classify import match
    from vision.colour import linear_to_lab

    frozen = match(linear_to_lab(cell_linear(play, 6, 6) * profile.gains), profile.palette)
    codes = ["".join(row) for row in frozen.codes().tolist()]
    wrong = sum(a != b for a, b in zip("".join(codes), "".join(LATER), strict=True))
    assert wrong >= 10


def test_an_empty_dark_ramp_seen_warm_expects_the_unseen_tiles_warm_too():
    # Measured on simulated BITS table 46 (a slate ramp under a 2700 K lamp,
    # the camera's white balance barely on): the empty ramp learns as
    # L 30.6 a 4.1 b 19.1 with no balance of its own, and the first blue
    # tile then shows L 31.3 a -13.4 b -8.1. Against the daylight blue that
    # is nearer black; against blue under the ramp's warm cast, blue.
    from calibration.profile import Profile
    from calibration.wizard import _unseen_from_nominal
    from vision.colour import lab_distance

    profile = Profile.start(BITS, 6, 6)
    profile.learn([(".", (30.6, 4.1, 19.1))] * 36, trusted=True)
    palette = _unseen_from_nominal(profile, BITS)
    tile = np.array([31.3, -13.4, -8.1])
    w = BITS.thresholds.lightness_weight
    blue, black = (palette.lab[BITS.index(code)] for code in "BK")
    assert lab_distance(tile, blue, w) < lab_distance(tile, black, w)
    nominal_blue, nominal_black = (BITS.lab[BITS.index(code)] for code in "BK")
    assert lab_distance(tile, nominal_blue, w) > lab_distance(tile, nominal_black, w)
    # a warm cast: the expected blue is yellower than daylight blue, as light
    assert palette.lab[BITS.index("B")][2] > nominal_blue[2] + 10
    assert abs(palette.lab[BITS.index("B")][0] - nominal_blue[0]) < 10


# The classic BITS ramp: a near-black print (L* 21) with light lines, a few
# L* from the black tile and far from the palette's ivory guess.
CLASSIC_PRINT = (20.6, -0.7, -3.1)
CLASSIC_LINES = (86.5, -1.2, 3.4)
FULL = ["RBYYRP", "RBKYPP", "BYKKKB", "PYNKBR", "KRNKBB", "KKPYRY"]  # as simulated 5477


def test_a_full_board_teaches_no_print_so_its_empty_cells_are_fitted_in_play():
    # Calibrated on a board with no empty cell, the profile's print is the
    # palette's ivory guess. Read with it as it is, the dark empty cells
    # match the black tile (the balance then makes them match it exactly);
    # a profile that does not know its board is read with its colours
    # fitted to the photo, as tilewatch read and the evaluation read it.
    from vision.photo import read_photo

    classic = BITS.with_lab(np.where(BITS.board[:, None], CLASSIC_PRINT, BITS.lab))
    calib = render_board(FULL, classic, line_lab=CLASSIC_LINES, noise=2, seed=1)
    reading = propose(calib, 6, 6, BITS)
    fixes = {
        (r, c): FULL[r][c] for r in range(6) for c in range(6) if reading.rows[r][c] != FULL[r][c]
    }
    profile = build_profile(reading, fixes, nominal=BITS)
    assert not profile.knows_board
    assert profile.palette.lab[BITS.index(".")][0] > 80  # still the guess

    corners = [[0, 0], [240, 0], [240, 240], [0, 240]]
    for later in (BOARD, ["......"] * 4 + ["K.....", "K.BB.."]):
        play = render_board(
            later,
            classic,
            Light(kelvin=4000, exposure=0.8, gradient=0.2),
            cell_px=40,
            line_lab=CLASSIC_LINES,
            noise=2,
            seed=2,
        )
        guessed = read_photo(
            play, 6, 6, profile.palette, corners=corners, gains=profile.gains, fit_palette=False
        )
        assert guessed is not None and "." not in "".join(guessed.reading.rows)
        photo = read_photo(
            play,
            6,
            6,
            profile.palette,
            corners=corners,
            gains=profile.gains,
            fit_palette=not profile.knows_board,
        )
        assert photo is not None and photo.reading.rows == later

    # Calibrated on a board that shows empty cells, the print is learnt.
    seen = build_profile(
        propose(render_board(BOARD, classic, line_lab=CLASSIC_LINES, noise=2, seed=1), 6, 6, BITS),
        {},
        nominal=BITS,
    )
    assert seen.knows_board
