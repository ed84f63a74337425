"""BITS orientation from where the tiles rest."""

import numpy as np
import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer
from device.sim.scene import Scene
from vision.locate import locate_grid
from vision.orientation import bits_orientation, gravity_quarters, support_score
from vision.rectify import rectify

PILE = ["......", "......", "......", "..Y...", "R.YB..", "RKBBPP"]


def cells(rows):
    return np.array([list(r) for r in rows]) != "."


def test_a_pile_rests_and_a_hanging_one_does_not():
    assert support_score(cells(PILE)) > 0.9
    assert support_score(cells(PILE[::-1])) < 0  # upside down: everything hangs
    # A lying tile may overhang a hole: both halves count as resting.
    assert support_score(cells(["....", "....", ".RR.", ".B.."])) == pytest.approx(
        1.0 + 0.25 * (1 / 4)
    )


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_gravity_turns_any_view_back(k):
    seen = np.rot90(cells(PILE), k)  # the camera saw the board turned k times anticlockwise
    quarters, confidence = gravity_quarters(seen)
    assert quarters == k and confidence > 0.3
    assert np.array_equal(np.rot90(seen, -quarters), cells(PILE))


def test_an_empty_board_says_nothing():
    assert gravity_quarters(np.zeros((6, 6), bool))[1] == 0.0


@pytest.mark.parametrize("roll", [0, 90, 180, -90])
def test_orientation_of_a_rendered_ramp_from_its_pixels(roll):
    board = BoardSpec.bits()
    renderer = Renderer(board, Conditions(roll_deg=roll, tilt_deg=15, seed=4), (640, 480))
    shot = renderer.render(Scene.from_text(board, "\n".join(PILE)))
    fit = locate_grid(shot.image, 6, 6)
    assert fit is not None
    quarters, confidence = bits_orientation(rectify(shot.image, fit.homography, 6, 6, 32))
    assert confidence > 0.2
    # Turning the reading puts the ramp's true upper-left corner first.
    truth = np.array(shot.truth["corners"])
    turned = np.roll(fit.corners, quarters, axis=0)
    assert np.max(np.linalg.norm(turned - truth, axis=1)) < 0.03 * fit.side_px()
