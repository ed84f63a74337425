"""Fitting the palette to one photo: the board's print is learnt, one-to-one colours."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.simtable import read_sim_table
from tests.vision.synth import Light, render_board
from vision.classify import LINE_PENALTY
from vision.colour import lab_to_linear
from vision.palette import Entry, Palette
from vision.palette_fit import _Assigner, clusters, fit_palette, seen_variants
from vision.reader import read_cells

BITS = load_palette("bits")
BOARD = ["......", "......", "..R...", ".YYB..", "PKRBN.", "RRYYKK"]


def with_board(lab) -> Palette:
    """The BITS palette as a printing whose empty board is ``lab`` (the reader is not told)."""
    out = BITS.lab.copy()
    out[BITS.index(".")] = lab
    return BITS.with_lab(out)


@pytest.mark.parametrize(
    "board_lab",
    [(20.0, 0.0, -3.0), (33.0, -1.0, -7.0), (88.0, 1.0, 9.0)],
    ids=["dark print", "slate print", "ivory print"],
)
def test_the_board_print_is_learnt_from_the_photo(board_lab):
    # A dark board is nearly the colour of a black tile: the tiles' symbols
    # (and the bare board) tell them apart.
    image = render_board(BOARD, with_board(board_lab), Light(kelvin=4000), noise=2, seed=3)
    reading = read_cells(image, 6, 6, BITS, fit=True)
    assert reading.rows == BOARD
    learnt = reading.palette.lab[reading.palette.index(".")]
    assert abs(learnt[0] - board_lab[0]) < 6


def test_complete_linkage_keeps_every_pair_close():
    pts = np.array([[0.0], [4.0], [8.0], [12.0]])
    labels = clusters(pts, 5.0)
    for c in set(labels.tolist()):
        members = pts[labels == c, 0]
        assert members.max() - members.min() <= 5.0


def test_unseen_variants_of_a_seen_code_are_dropped():
    pal = Palette.from_entries(
        "v",
        [
            Entry(".", "dark print", (20.0, 0.0, 0.0)),
            Entry(".", "ivory print", (88.0, 0.0, 8.0)),
            Entry("R", "red", (45.0, 60.0, 40.0)),
            Entry("B", "blue", (36.0, 18.0, -53.0)),
        ],
    )
    keep = seen_variants(pal, np.array([0, 0, 2]))
    assert keep.tolist() == [True, False, True, True]  # blue unseen: its only variant stays


def _cells(labs: list[tuple[float, float, float]], counts: list[int], seed: int = 2) -> np.ndarray:
    """Linear RGB cells: ``counts[i]`` cells scattered (1 ΔE) around ``labs[i]``."""
    rng = np.random.default_rng(seed)
    lab = np.concatenate(
        [np.array(c) + rng.normal(0, 1.0, (n, 3)) for c, n in zip(labs, counts, strict=True)]
    )
    return lab_to_linear(lab)


def test_cells_showing_lines_are_never_clustered_with_cells_hiding_them():
    # A dark print (L* 20) and black tiles (L* 15), no symbols: by colour one
    # cluster. The print shows its lines on two sides, the tiles hide them.
    pal = with_board((20.0, 0.0, -3.0))
    cells = _cells([(20.0, 0.0, -3.0), (15.0, 1.0, -3.0), (44.0, 62.0, 40.0)], [14, 10, 12])
    lined = np.arange(36) < 14
    # The lines' penalties, as the reader adds them (vision.classify.line_penalty).
    board = np.array(pal.board, dtype=np.float64)
    penalty = LINE_PENALTY * np.where(lined[:, None], 1.0 - board, board)
    fit = fit_palette(cells, pal, penalty=penalty, lined=lined)
    codes = np.array(pal.codes)[fit.assignment]
    assert set(codes[:14]) == {"."} and set(codes[14:24]) == {"K"}
    # Without the lines, print and tiles share a cluster.
    together = fit_palette(cells, pal, penalty=penalty)
    assert len(set(together.cluster[:24].tolist())) == 1
    assert len(set(fit.cluster[:24].tolist())) >= 2


def test_a_black_tile_stays_grey_whatever_light_is_tried():
    # Black and grey tiles are grey after white balance under any lamp, so
    # a black that drifted blue to take a cluster of blue tiles (a photo
    # read under a dim light: B as K, K as N) costs as much as a cluster
    # many spreads from its colour, not a few ΔE's worth.
    blue = np.tile([[25.0 * BITS.thresholds.lightness_weight, 14.0, -42.0]], (6, 1))
    y = np.repeat(blue[:, None, :], len(BITS), axis=1)
    scale = np.array([BITS.thresholds.lightness_weight, 1.0, 1.0])
    assigner = _Assigner(y, np.zeros(6, int), BITS.lab * scale, BITS)
    members = np.array([True])
    black = assigner.entry_cost(BITS.index("K"), members)
    assert black > 4 * assigner.entry_cost(BITS.index("B"), members)
    assert black > 25


def test_black_tiles_on_a_dark_print_under_glare_are_not_read_as_the_print():
    # A rendered photo (classic dark print, no symbols, a highlight): black
    # tiles and the print look alike; the lines each cell shows keep them
    # apart while the palette is fitted.
    read = read_sim_table("bits", 3147, BITS)
    black, empty = read.truth == "K", read.truth == "."
    assert black.sum() >= 6 and empty.sum() >= 12
    assert (read.codes[black] == "K").all()
    assert not (read.codes[empty] == "K").any()


def test_blue_tiles_under_a_highlight_are_not_taken_for_black():
    # A rendered photo (ivory print, a strong highlight): a fit that dims
    # the light would make the blue tiles black and the black tiles grey.
    read = read_sim_table("bits", 6, BITS)
    assert (read.codes[read.truth == "B"] == "B").all()
    assert (read.codes[read.truth == "K"] == "K").all()


def assert_each_read_as_itself(read, least: dict[str, int]) -> None:
    """Every cell of each code in ``least`` reads as that code, and the
    table holds at least that many of them (so the case is really there)."""
    for code, count in least.items():
        here = read.truth == code
        assert here.sum() >= count, code
        assert (read.codes[here] == code).all(), code


def test_black_tiles_beside_empty_cells_on_a_dark_print_are_read_by_their_colour():
    # A rendered photo (classic dark print, no symbols, no glare): black
    # tiles read 1.0 from black and 5.5 from the print, as tight a group as
    # the print's own cells, yet a black tile beside two empty cells shows
    # their printed line along two of its sides, as an empty cell does, and
    # was taken for the print. Colour that clearly says tile outweighs it.
    assert_each_read_as_itself(read_sim_table("bits", 4183, BITS), {"K": 5, ".": 12})


def test_a_highlight_on_one_blue_tile_does_not_swap_blue_and_purple():
    # A rendered photo (ivory print, a cool camera balance, a highlight):
    # the blue tiles read dimmer than nominal, one of them with its blue
    # channel clipped under the lamp's core (a lower bound once the spot is
    # off). Explained by each colour's own value, that bound made the blue
    # cluster look tighter as purple, and every blue and purple cell swapped.
    # The cluster's measured cells say what the bound cell is.
    assert_each_read_as_itself(read_sim_table("bits", 4078, BITS), {"B": 6, "P": 4})


@pytest.mark.parametrize("seed", [4022, 4077], ids=["bright ivory print", "dim slate print"])
def test_grey_tiles_are_as_light_as_the_other_tiles_say(seed):
    # Rendered photos with no black tile on the board: a lone pair of grey
    # tiles, darker than nominal grey under this exposure, was taken for
    # black (no cell claimed black, so nothing held it back). The other
    # tiles agree on how dim the exposure is, and at that exposure the
    # pair is grey.
    read = read_sim_table("bits", seed, BITS)
    grey = read.truth == "N"
    assert grey.sum() == 2
    assert (read.codes[grey] == "N").all()
    assert not (read.codes[read.truth != "N"] == "N").any()


def test_one_exposure_lights_every_tile():
    # Tiles whose lightness agrees on one exposure cost nothing; a grey
    # cluster taken for black under that exposure costs many spreads.
    # By hand: every (L + 16) at 0.7 of nominal (red 43.7 -> 25.8, yellow
    # 82.3 -> 52.8, grey 58.3 -> 36.0). Taken for black (nominal 13.9) the
    # grey's ratio is log(52 / 29.9) = +0.553 against red's and yellow's
    # log(0.7) = -0.357; mean -0.053, squared deviations 0.092 + 0.092 +
    # 0.367, each cluster of two weighing 2/3: 0.367 / 0.15^2 = 16.3.
    lw = BITS.thresholds.lightness_weight
    seen = {"R": (25.8, 60.0, 38.0), "Y": (52.8, 1.0, 70.0), "N": (36.0, 0.0, 0.0)}
    lab = np.array([seen[c] for c in "RRYYNN"]) * np.array([lw, 1.0, 1.0])
    y = np.repeat(lab[:, None, :], len(BITS), axis=1)
    assigner = _Assigner(y, np.array([0, 0, 1, 1, 2, 2]), BITS.lab * [lw, 1, 1], BITS)
    right = np.array([BITS.index(c) for c in "RYN"])
    wrong = np.array([BITS.index(c) for c in "RYK"])
    assert assigner.exposure_cost(right) < 0.1
    assert assigner.exposure_cost(wrong) == pytest.approx(16.3, abs=0.1)
    assert assigner.exposure(right) == pytest.approx(np.log(0.7), abs=0.01)


@pytest.mark.parametrize(
    "seed, code",
    [(5093, "P"), (5174, "K"), (5181, "K")],
    ids=["purple on a dark print", "lone black on a classic print", "black on a slate print"],
)
def test_a_starting_tile_is_read_by_its_colour_though_it_carries_no_symbol(seed, code):
    # Rendered photos whose tiles carry symbols, but not the starting tile
    # (a double, one per round). Its cells sit on their colour (0.3-1.9
    # from it, 8-12 from the print), and a bare cell's penalty on tile
    # colours that can pass for the print (10) made them unsure. Colour
    # that clearly says tile outweighs a missing symbol; in 5174 the double
    # is the only black on the board, a group of two.
    read = read_sim_table("bits", seed, BITS)
    assert_each_read_as_itself(read, {code: 2, ".": 2})


def test_more_grey_cells_than_two_grey_tiles_cost_as_cells_nothing_explains():
    # A ramp holds one grey tile (two cells); a second, dropped against the
    # rules, must still be read for the engine to flag. Beyond four cells
    # each one costs as a cell no colour explains, (30 / 6)^2 = 25: six
    # cells at exactly the grey's nominal colour cost 2 * 25, four nothing.
    lw = BITS.thresholds.lightness_weight
    grey = BITS.lab[BITS.index("N")] * np.array([lw, 1.0, 1.0])
    y = np.repeat(np.repeat(grey[None, None, :], len(BITS), axis=1), 6, axis=0)
    assigner = _Assigner(y, np.arange(6), BITS.lab * [lw, 1, 1], BITS)
    n = BITS.index("N")
    assert assigner.entry_cost(n, np.arange(6) < 6) == pytest.approx(50.0)
    assert assigner.entry_cost(n, np.arange(6) < 4) == pytest.approx(0.0)


def test_empty_slate_cells_are_not_taken_for_a_wall_of_grey_tiles():
    # Simulated table 21240 (fresh; the slate print, a glare): the empty
    # cells split in two clusters under the uneven light, and the fit gave
    # the grey tile's colour to six of them (L* 29-36, the grey fitted at
    # 31, next to the print at 34). Six grey cells are three grey tiles.
    from device.evals.read import sim_board, still_frames

    frame = next(still_frames("bits", 21240, 1))
    board = sim_board("bits", 21240, frame, BITS, None)
    assert board.found and board.wrong == [], board.wrong
