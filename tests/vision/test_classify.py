"""Classification with confidence, margin and the '?' rules."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classify import match, scores_linear
from vision.colour import lab_to_linear
from vision.palette import Entry, Palette, Thresholds

PAL = Palette.from_entries(
    "t",
    [
        Entry(".", "board", (90.0, 0.0, 2.0), neutral=True),
        Entry("R", "red", (45.0, 62.0, 40.0)),
        Entry("O", "orange", (60.0, 50.0, 65.0)),
        Entry("B", "blue", (36.0, 18.0, -53.0)),
    ],
    Thresholds(max_distance=30, min_margin=5, lightness_weight=0.5, spread=6),
)


def test_clear_cells_read_with_high_confidence():
    m = match(PAL.lab, PAL)
    assert m.codes().tolist() == [".", "R", "O", "B"]
    assert np.all(m.confidence > 0.99)
    assert np.allclose(m.distance, 0)


def test_between_two_colours_is_unsure():
    mid = (PAL.lab[1] + PAL.lab[2]) / 2
    m = match(mid[None], PAL)
    assert m.codes().tolist() == ["?"]
    assert m.margin[0] < 5
    assert 0.4 < m.confidence[0] < 0.6  # a coin toss


def test_far_from_everything_is_unsure():
    m = match(np.array([[50.0, -60.0, 60.0]]), PAL)  # green: not in this palette
    assert m.codes().tolist() == ["?"]
    assert m.distance[0] > 30
    assert m.confidence[0] == 0.0


def test_distance_is_weighted_delta_e():
    # 10 L* darker red: 5 ΔE with L* weighted by 1/2.
    m = match(np.array([[35.0, 62.0, 40.0]]), PAL)
    assert m.distance[0] == pytest.approx(5.0)
    assert m.codes().tolist() == ["R"]


def test_variants_of_one_code_never_make_a_cell_unsure():
    pal = Palette.from_entries(
        "v",
        [
            Entry(".", "dark board", (20.0, 0.0, 0.0)),
            Entry(".", "mid board", (26.0, 0.0, 0.0)),
            Entry("R", "red", (45.0, 62.0, 40.0)),
        ],
    )
    m = match(np.array([[23.0, 0.0, 0.0]]), pal)
    assert m.codes().tolist() == ["."]
    assert m.confidence[0] > 0.99


def test_a_learnt_wide_spread_widens_acceptance():
    wide = PAL.with_lab(PAL.lab, spread=np.array([6.0, 6.0, 12.0, 6.0]))
    lab = PAL.lab[2] + [0, 0, 16.0]  # 16 ΔE off orange: 8 in its own spread units
    assert match(lab[None], wide).distance[0] == pytest.approx(8.0)


def test_clipped_channel_matches_what_the_entry_would_show():
    # A white board under a warm lamp: red clipped. Balanced naively it looks cyan.
    pal = Palette.from_entries(
        "w",
        [Entry(".", "white", (95.0, 0.0, 0.0), neutral=True), Entry("B", "cyan", (90.0, -30, -10))],
    )
    lamp = np.array([2.2, 1.0, 0.25])
    seen = np.minimum(lab_to_linear(pal.lab[0]) * lamp, 1.0)
    s = scores_linear(seen[None], 1 / lamp, pal)
    assert s[0].argmin() == 0
    assert s[0, 0] < 1.0


# A dark board whose tiles carry symbols. The board entry as a palette fit
# under a lamp's glare may leave it: 30 L* above the black tiles, farther
# than BARE_NEAR, though the empty cells themselves are as dark as black.
DARK = Palette.from_entries(
    "d",
    [
        Entry(".", "board", (44.0, 0.0, 0.0), plain=True, board=True),
        Entry("Y", "yellow", (80.0, 5.0, 75.0)),
        Entry("B", "blue", (36.0, 18.0, -53.0)),
        Entry("K", "black", (14.0, 0.0, 0.0)),
    ],
    Thresholds(max_distance=30, min_margin=5, lightness_weight=0.5, spread=6),
)


def _symbol_board() -> tuple[np.ndarray, np.ndarray]:
    """Four sure tiles showing print, one bare cell between board and black
    (L* 25: ΔE 19 from the board entry, 11 from black), and one bare yellow
    cell (a starting tile)."""
    lab = np.array(
        [DARK.lab[1], DARK.lab[2], DARK.lab[3], DARK.lab[2], (25.0, 0.0, 0.0), DARK.lab[1]]
    )
    printed = np.array([0.3, 0.3, 0.3, 0.3, 0.0, 0.0])
    return lab, printed


def test_a_bare_cell_that_fits_black_hardly_better_than_the_board_is_not_a_black_tile():
    from vision.classify import BARE_PENALTY, bare_penalty

    lab, printed = _symbol_board()
    first = match(lab, DARK)
    assert first.codes().tolist() == ["Y", "B", "K", "B", "K", "Y"]
    # by the palette alone the board and black are ΔE 30 apart: no tile
    # could pass for the board; cell 4 can, and black gets the penalty
    penalty = bare_penalty(printed, first)
    assert penalty is not None
    assert penalty[4].tolist() == [0.0, 0.0, 0.0, BARE_PENALTY]
    assert penalty[5].sum() == 0.0  # a bare yellow starting tile stays yellow
    again = match(lab, DARK, penalty=penalty)
    assert again.codes()[4] != "K"
