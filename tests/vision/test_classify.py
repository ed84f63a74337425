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
