"""BITS orientation from where the tiles rest."""

import numpy as np
import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer
from device.sim.scene import Scene
from vision.locate import locate_grid
from vision.orientation import (
    bits_orientation,
    frame_widths,
    gravity_quarters,
    support_score,
    top_edge,
)
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


@pytest.mark.parametrize(
    ("art", "roll"), [("classic", 0), ("classic", -90), ("ivory", 180), ("slate", 90)]
)
def test_the_ramp_frame_is_widest_at_its_top(art, roll):
    # An empty ramp: no tile says which way is up, the frame does. Its top
    # (where a tile is put down before it slides) reaches about two cells
    # beyond the grid; the rails and the lip, under one.
    board = BoardSpec.bits()
    renderer = Renderer(board, Conditions(art=art, roll_deg=roll, tilt_deg=12, seed=7), (640, 480))
    shot = renderer.render(Scene.from_text(board, "\n".join(["......"] * 6)))
    fit = locate_grid(shot.image, 6, 6)
    assert fit is not None
    widths, measured = frame_widths(shot.image, fit.homography, 6, 6)
    edge, sure = top_edge(widths, measured)
    assert sure > 0
    # turning the located corners by that edge puts the ramp's true
    # upper-left corner first (numpy.rot90 order: the new upper-left is
    # the old upper-right for one turn)
    truth = np.array(shot.truth["corners"])
    turned = np.roll(fit.corners, -edge, axis=0)
    assert np.max(np.linalg.norm(turned - truth, axis=1)) < 0.03 * fit.side_px()
    assert 1.5 < widths[edge] < 3.0
    assert np.all(np.delete(widths, edge) < 1.5)


def _framed(reach: tuple[float, float, float, float], frame, table, size=300, cell=20):
    """A flat picture of a 6x6 grid (cells 20 px, centred) with a frame
    reaching ``reach`` cells beyond its upper, right, lower and left edge,
    on a table; and its homography (image pixels -> grid cells)."""
    image = np.full((size, size, 3), table, np.uint8)
    x0 = (size - 6 * cell) // 2
    top, right, bottom, left = reach
    image[
        round(x0 - top * cell) : round(x0 + (6 + bottom) * cell),
        round(x0 - left * cell) : round(x0 + (6 + right) * cell),
    ] = frame
    image[x0 : x0 + 6 * cell, x0 : x0 + 6 * cell] = (60, 60, 60)  # the grid
    homography = np.array([[1 / cell, 0, -x0 / cell], [0, 1 / cell, -x0 / cell], [0, 0, 1.0]])
    return image, homography


def test_the_frame_widths_of_a_drawn_ramp():
    image, homography = _framed((0.9, 0.9, 0.7, 2.4), (40, 40, 40), (60, 120, 170))
    widths, measured = frame_widths(image, homography, 6, 6)
    assert measured.all()
    np.testing.assert_allclose(widths, [0.9, 0.9, 0.7, 2.4], atol=0.13)
    assert top_edge(widths, measured) == (3, 1.0)


def test_a_frame_like_the_table_says_nothing():
    image, homography = _framed((2.4, 0.9, 0.7, 0.9), (60, 120, 170), (62, 118, 172))
    widths, measured = frame_widths(image, homography, 6, 6)
    assert np.isnan(widths).all()
    assert top_edge(widths, measured)[1] == 0.0


def test_a_frame_cut_off_by_the_view():
    # The picture ends 1.1 cells below the grid, hardly past the lip (1.0):
    # the lower edge's frame might be the wide one, so the top is less sure.
    image, homography = _framed((2.4, 0.9, 1.0, 0.9), (40, 40, 40), (60, 120, 170))
    widths, measured = frame_widths(image[:232], homography, 6, 6)
    assert measured.tolist() == [True, True, False, True]
    assert widths[2] == pytest.approx(1.1, abs=0.13)  # as far as it was seen
    assert top_edge(widths, measured) == (0, 0.5)
    # cut off right at the lip: the lower edge is not seen at all, its width
    # unknown as the one seen a little way; a ramp has one wide edge, and
    # the three seen name it, half sure (simulated BITS 2758)
    widths, measured = frame_widths(image[:215], homography, 6, 6)
    assert np.isnan(widths[2]) and not measured[2]
    assert top_edge(widths, measured) == (0, 0.5)
    # the same cut with the top no wider than the rails: nothing said
    image, homography = _framed((1.0, 0.9, 1.0, 0.9), (40, 40, 40), (60, 120, 170))
    widths, measured = frame_widths(image[:215], homography, 6, 6)
    assert top_edge(widths, measured)[1] == 0.0


def test_something_board_like_beyond_every_reach_is_not_the_top():
    # The ramp's top reaches 2.4 cells beyond the right edge; below the
    # grid the lip is followed by the wall's shadow on the table, as dark
    # as the frame and running on past where the table should show
    # (simulated game 1507, the camera rolled 50 degrees: the shadow was
    # taken for the top, and the first tile recorded a quarter turn off).
    image, homography = _framed((0.9, 2.4, 4.5, 0.9), (40, 40, 40), (60, 120, 170), size=400)
    widths, measured = frame_widths(image, homography, 6, 6)
    assert measured.tolist() == [True, True, False, True]
    assert widths[2] == pytest.approx(3.0)  # board-like as far as it looked
    assert top_edge(widths, measured) == (1, 0.5)  # the drop zone, half sure


def test_a_frame_in_shadow_beside_the_grid_is_measured_by_the_others():
    # The strip left of the grid lies in a shadow as dark as the table,
    # the frame beyond it in the light (simulated BITS 2008: that edge went
    # unmeasured, the top's clear lead counted for nothing, and the first
    # tile, flat in a corner, was recorded a quarter turn off).
    image, homography = _framed((2.4, 0.9, 0.7, 0.9), (40, 40, 40), (60, 120, 170))
    x0 = (300 - 6 * 20) // 2
    image[x0 : x0 + 120, x0 - 10 : x0] = (62, 118, 172)  # half a cell of shadow
    widths, measured = frame_widths(image, homography, 6, 6)
    assert measured.all()
    np.testing.assert_allclose(widths, [2.4, 0.9, 0.7, 0.9], atol=0.13)
    assert top_edge(widths, measured) == (0, 1.0)


def test_a_wide_grid_line_is_not_taken_for_the_frame():
    # The grid's outer line, seen large or blurred, reaches 0.4 cells out;
    # beyond it the frame is a light beige a little darker than the table
    # (simulated BITS 2122: the colour just past the grid was the line's,
    # the beige drop zone looked more like the table than like that, and
    # the first tile, flat in a corner, was recorded a quarter turn off).
    frame, table = (150, 170, 180), (200, 205, 210)
    image, homography = _framed((2.4, 0.9, 1.0, 0.9), frame, table)
    x0, line = (300 - 6 * 20) // 2, 8
    image[x0 - line : x0 + 120 + line, x0 - line : x0 + 120 + line] = (60, 60, 60)
    image[x0 : x0 + 120, x0 : x0 + 120] = (230, 235, 235)  # empty cells
    widths, measured = frame_widths(image, homography, 6, 6)
    assert measured.all()
    np.testing.assert_allclose(widths, [2.4, 0.9, 1.0, 0.9], atol=0.13)
    assert top_edge(widths, measured) == (0, 1.0)


def test_a_shadow_band_over_the_table_beside_a_rail_is_table():
    # A band of shadow over the left rail and the table beyond it, as far
    # as the view reaches: the table there is darker than elsewhere and
    # near the rail's own shadowed colour, but it is the table (simulated
    # BITS 3652: the band was measured as two cells of frame, the top no
    # longer led, and the first tile was recorded a quarter turn off).
    image, homography = _framed((2.4, 0.9, 0.7, 0.9), (170, 200, 215), (120, 120, 120))
    x0 = (300 - 6 * 20) // 2
    image[:, :x0] = (image[:, :x0] * 0.55).astype(np.uint8)
    widths, measured = frame_widths(image, homography, 6, 6)
    assert measured.all()
    np.testing.assert_allclose(widths, [2.4, 0.9, 0.7, 0.9], atol=0.13)
    assert top_edge(widths, measured) == (0, 1.0)


def test_a_ramp_like_the_table_is_not_measured_against_its_grid_line():
    # An ivory ramp on a white table: no edge's frame stands apart from the
    # table but the left one, where a blurred grid line was taken for the
    # frame. Measured against the line, every other edge looked narrow but
    # the right, where the rail's shadow falls (simulated BITS 3638: the
    # right named the top surely, and the first tile was recorded a quarter
    # turn off). Nothing can be said.
    image, homography = _framed((2.4, 0.9, 0.7, 0.9), (200, 212, 218), (206, 214, 220))
    x0 = (300 - 6 * 20) // 2
    for i, v in enumerate((40, 40, 80, 80, 60, 60, 110, 110, 150, 150, 190, 190)):
        image[x0 - 20 : x0 + 140, x0 - 1 - i] = v
    image[x0 - 18 : x0 + 134, x0 + 138 : x0 + 145] = (120, 125, 130)  # the rail's shadow
    widths, measured = frame_widths(image, homography, 6, 6)
    assert top_edge(widths, measured)[1] == 0.0
