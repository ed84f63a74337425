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
