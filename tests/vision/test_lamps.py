"""Lamps glow along the black-body locus: a fit's gains that add a green or
magenta cast are not a lamp's, and a single photo is read under a lamp's."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.simtable import read_sim_table
from tests.vision.synth import Light, render_board
from vision.lamps import lamp_rgb, lamps_through, locus_axis, tint
from vision.reader import read_cells

BITS = load_palette("bits")


def test_a_black_body_runs_from_red_through_white_to_blue():
    # CIE: 6500 K is (nearly) the sRGB white point; warmer is redder, cooler bluer.
    white = lamp_rgb(6500.0)
    assert np.allclose(white / white.max(), 1.0, atol=0.08)
    warm, cool = lamp_rgb(2700.0), lamp_rgb(10000.0)
    assert warm[0] > warm[1] > warm[2]
    assert cool[2] > cool[1] > cool[0]


@pytest.mark.parametrize("camera", [2700.0, 4000.0, 5000.0, 6500.0])
@pytest.mark.parametrize("lamp", [2500.0, 3000.0, 4000.0, 6500.0, 10000.0])
def test_gains_between_any_two_household_lamps_carry_no_tint(camera, lamp):
    # A camera balanced for one lamp, lit by another: the correction is
    # warmer or cooler, never greener (within a tenth of a log unit).
    undo = np.log(lamp_rgb(camera) / lamp_rgb(lamp))
    assert tint(undo) < 0.1


def test_a_green_or_magenta_cast_is_measured_in_log_units():
    axis = locus_axis()
    # the direction across the locus within the colour plane (zero mean)
    across = np.cross(axis, np.ones(3) / np.sqrt(3))
    for size in (0.3, 1.0, 2.0):
        for sign in (1, -1):
            assert tint(sign * size * across) == pytest.approx(size, rel=1e-6)
    # exposure is not a tint
    assert tint(np.log([2.0, 2.0, 2.0])) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("kelvin", [2000.0, 2900.0, 4500.0, 9000.0])
def test_two_channels_of_a_grey_name_its_lamp(kelvin):
    # Red clipped: green and blue alone say which black body lights the
    # board; exposure (2.5x) comes out too.
    undo = np.log(lamp_rgb(6500.0) / lamp_rgb(kelvin)) + np.log(2.5)
    clipped_red = undo + np.array([-1.0, 0.0, 0.0])  # what red "said" is wrong
    line, curve = lamps_through(clipped_red, np.array([False, True, True]))
    assert np.allclose(np.log(curve), undo, atol=0.02)
    assert tint(np.log(line)) == pytest.approx(0.0, abs=1e-9)
    assert lamps_through(undo, np.array([False, False, True])) == []


# No black tile and no grey one, only colours, on a dark print, under a
# warm bulb: the board's only near-neutral cells are the print itself.
# Gains that make the red tiles "black" turn the print green, which no lamp
# does.
COLOURS_ONLY = ["......", "......", "....R.", "R...RY", "YR..BR", "RRYBRR"]


@pytest.mark.parametrize("kelvin", [2700.0, 3000.0])
def test_red_tiles_under_a_warm_bulb_stay_red_on_a_dark_board(kelvin):
    pal = BITS.with_lab(
        np.where(np.array([c == "." for c in BITS.codes])[:, None], [[18.0, 0.0, -3.0]], BITS.lab)
    )
    image = render_board(COLOURS_ONLY, pal, Light(kelvin=kelvin), noise=2, seed=5)
    reading = read_cells(image, 6, 6, BITS, fit=True)
    assert reading.rows == COLOURS_ONLY
    assert tint(np.log(reading.gains)) < 0.15


def test_a_simulated_table_under_a_warm_lamp_is_read_with_a_lamps_gains():
    # A whole rendered photo (ramp, tray, wooden table) of a dark-printed
    # board with red, yellow, blue and purple tiles under a 2600 K lamp,
    # half balanced by the camera: the fit once "corrected" it until the
    # red tiles were black and the board green.
    read = read_sim_table("bits", 3172, BITS)
    codes, truth = read.codes, read.truth
    red = truth == "R"
    assert red.sum() >= 4
    assert (codes[red] == "R").all()
    assert (codes == truth).mean() > 0.9
    assert tint(np.log(read.gains)) < 0.15


def test_a_clipped_ivory_board_still_names_the_lamp():
    # An ivory board bright enough under a warm bulb that its red channel
    # clips, and no grey tile: the board's green and blue still say which
    # lamp it is, and the tiles are read under that lamp's gains.
    ivory = ["......", "......", "....R.", "Y...RY", "YR..BR", "RPYBRP"]
    light = Light(kelvin=2900.0, exposure=1.25)
    image = render_board(ivory, BITS, light, noise=2, seed=9)
    assert (image[..., 2] >= 250).mean() > 0.3  # the board's red is clipped
    reading = read_cells(image, 6, 6, BITS, fit=True)
    assert reading.rows == ivory
    assert tint(np.log(reading.gains)) < 0.15
