"""White balance per frame from the cells known to be neutral."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.synth import illuminant_gains
from vision.colour import lab_to_linear
from vision.constancy import balance, gains_between

BITS = load_palette("bits")


def cells_of(codes: str, lamp: np.ndarray) -> np.ndarray:
    lab = BITS.lab[[BITS.index(c) for c in codes]]
    return np.minimum(lab_to_linear(lab) * lamp, 1.0)  # the sensor clips


def lamp_at(kelvin: float) -> np.ndarray:
    """A lamp of that colour, as bright as daylight was (auto exposure keeps the level)."""
    g = illuminant_gains(kelvin)
    return g / float(g @ [0.2126729, 0.7151522, 0.0721750])


@pytest.mark.parametrize("kelvin", [2700, 3000, 4000, 5000, 6500, 8000])
def test_lamp_colour_is_undone(kelvin):
    lamp = lamp_at(kelvin)
    cells = cells_of("......RYBPKN..RRYY", lamp)
    b = balance(cells, BITS)
    assert np.allclose(b.gains * lamp, 1.0, rtol=0.02)
    assert b.match.codes().tolist() == list("......RYBPKN..RRYY")


def test_start_close_to_the_answer_is_refined_without_search():
    lamp = np.array([0.9, 1.0, 1.05])
    b = balance(cells_of(".....RY", lamp), BITS, start=np.ones(3))
    assert not b.searched
    assert np.allclose(b.gains * lamp, 1.0, rtol=0.01)


def test_far_start_triggers_the_search():
    lamp = lamp_at(2700)
    b = balance(cells_of("....RB", lamp), BITS, start=np.ones(3))
    assert b.searched
    assert np.allclose(b.gains * lamp, 1.0, rtol=0.02)


def test_grey_tiles_alone_set_the_balance():
    # A full board, no empty cell: the grey (neutral) tiles carry the balance.
    lamp = lamp_at(3000)
    b = balance(cells_of("RRYYBBPPNKRYBN", lamp), BITS)
    assert np.allclose(b.gains * lamp, 1.0, rtol=0.03)
    assert b.neutral_cells == 2


def test_dim_empty_board_reads_as_board_not_grey_tiles():
    # 60% of the light: the board is as dark as a grey tile in daylight. The
    # prior (gains near the start) decides: a board under dimmer light.
    b = balance(cells_of("." * 12, np.full(3, 0.6)), BITS)
    assert b.match.codes().tolist() == ["."] * 12


def test_gains_between_ignores_one_misread_cell():
    obs = np.array([[0.5, 0.4, 0.2]] * 4 + [[0.9, 0.1, 0.1]])
    tgt = np.full((5, 3), 0.5)
    assert np.allclose(gains_between(obs, tgt), [1.0, 1.25, 2.5])


def test_every_cell_clipped_keeps_the_start_instead_of_crashing():
    # A board washed out by a lamp straight into the lens: every channel of
    # every cell clipped, so no cell can propose a balance. The reader must
    # still answer (with the gains it had), not raise.
    cells = np.ones((12, 3))
    start = np.array([1.1, 1.0, 0.9])
    b = balance(cells, BITS, start=start)
    assert b.gains.shape == (3,)
    assert np.allclose(b.gains, start)


def test_a_light_board_with_red_clipped_everywhere_is_still_balanced():
    # An ivory board under a 2800 K lamp, exposed so the red channel of every
    # cell sits at full scale (as a Pi camera on auto exposure shows it):
    # green and blue still say what the light is. The balance must find it,
    # not give up and read every cell "?".
    lamp = lamp_at(2800) * 1.4
    cells = cells_of("." * 36, lamp)
    assert (cells[:, 0] >= 1.0).all() and (cells[:, 1:] < 0.955).all()
    b = balance(cells, BITS)
    assert b.match.codes().tolist() == ["."] * 36
    # green and blue undone; red only as far as the clipped value allows
    assert np.allclose(b.gains[1:] * lamp[1:], 1.0, rtol=0.03)


def test_a_lamp_on_a_light_board_does_not_send_the_balance_off_to_no_light_at_all():
    # Cells of a simulated game's frame (tests/vision/data): a light board,
    # two purple tiles, a warm lamp just switched on. Red and green are
    # clipped on nearly every cell, so only blue and two tiles speak. The
    # search once refined a one-cell guess into gains that cut blue forty
    # times ("every cell is yellow"); no lamp does that to a board that was
    # balanced a moment ago. The balance may doubt, but not run away.
    data = np.load(Path(__file__).parent / "data" / "lamp_on_light_board.npz")
    learnt = BITS.with_lab(data["lab"], data["spread"])  # the game's learnt colours
    start = data["start"]
    b = balance(
        data["linear"], learnt, start=start, clipped=data["clipped"], penalty=data["penalty"]
    )
    assert b.searched
    assert (np.abs(np.log(b.gains / start)) < np.log(4)).all()


def _exposure_slip(codes: str) -> tuple[np.ndarray, np.ndarray]:
    """Cells of ``codes`` under full light, and start gains three times too
    low (the last frame's balance, taken while the camera's auto exposure
    chased a hand): under them the empty board is exactly a grey tile."""
    board, grey = BITS.linear[BITS.index(".")], BITS.linear[BITS.index("N")]
    return cells_of(codes, np.ones(3)), grey / board


def test_empty_ramp_under_a_slipped_start_reads_as_grey_tiles_when_nothing_else_is_known():
    # The ambiguity itself: an empty ramp is grey tiles under a brighter light
    # (a palette that does not say how many grey cells a board can show).
    cells, start = _exposure_slip("." * 36)
    unbounded = replace(BITS, most=np.full(len(BITS), np.inf))
    b = balance(cells, unbounded, start=start)
    assert b.match.codes().tolist() == ["N"] * 36


def test_no_ramp_holds_more_grey_cells_than_the_grey_tiles_cover():
    # RULES.md: one neutral tile a player, so a BITS board shows at most two
    # grey cells; 36 of them are an empty ramp under another light.
    assert BITS.most[BITS.index("N")] == 2
    cells, start = _exposure_slip("." * 36)
    b = balance(cells, BITS, start=start)
    assert b.match.codes().tolist() == ["."] * 36
    assert np.allclose(b.gains, 1.0, rtol=0.02)


def test_the_two_grey_cells_of_a_neutral_tile_still_read_grey():
    codes = "." * 20 + "NN" + "RRYYBBPPKKRYBP"
    b = balance(cells_of(codes, lamp_at(3000)), BITS)
    assert "".join(b.match.codes()) == codes


def test_what_the_game_knows_decides_the_light_when_the_cells_cannot():
    cells, start = _exposure_slip("." * 36)
    b = balance(cells, BITS, start=start, expected=np.zeros(36, np.int64))
    assert b.match.codes().tolist() == ["."] * 36
    assert np.allclose(b.gains, 1.0, rtol=0.02)


def test_a_start_that_contradicts_the_game_is_searched_anew():
    # The grey-tile reading fits every cell closely, so the cells alone keep
    # the start; the game knows the ramp holds one purple tile and is empty
    # elsewhere, which the start contradicts at 34 cells.
    codes = "." * 34 + "PP"
    cells, start = _exposure_slip(codes)
    known = np.array([BITS.index(c) for c in codes])
    assert not balance(cells, BITS, start=start).searched
    b = balance(cells, BITS, start=start, expected=known)
    assert b.searched
    assert "".join(b.match.codes()) == codes


def test_a_new_tile_on_a_cell_known_empty_still_reads_as_the_tile():
    # What the game knows only chooses the light: the cells are read as they
    # look, so a tile dropped since (two cells the game has as empty) shows.
    codes = "." * 30 + "RRYYKK"
    known = np.array([BITS.index(c) for c in "." * 34 + "KK"])
    b = balance(cells_of(codes, np.ones(3)), BITS, start=np.ones(3), expected=known)
    assert "".join(b.match.codes()) == codes


def test_refining_does_not_walk_off_on_the_few_cells_a_warm_lamp_leaves_unclipped():
    # A warm lamp clips red on every light cell: red's gain can only come
    # from the darker tiles, and a highlight taken off the blue and black
    # ones (estimated a little high) left them no red at all (the removal
    # stops at zero). Those channels say nothing about red's gain (as seen
    # on tuning game 829, red's gain went from 0.58 to 85 and every light
    # cell read yellow).
    lamp = np.array([1.6, 1.0, 0.6])
    codes = "." * 16 + "BBBBBBBBKKRRNN"
    cells = cells_of(codes, lamp)
    dark = np.array([c in "BK" for c in codes])
    cells[dark, 0] = 0.0
    b = balance(cells, BITS, start=1 / lamp)
    assert np.allclose(b.gains * lamp, 1.0, rtol=0.05)
    assert "".join(b.match.codes()) == codes
