"""Fitting the palette to one photo: the board's print is learnt, one-to-one colours."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.synth import Light, render_board
from vision.palette import Entry, Palette
from vision.palette_fit import clusters, seen_variants
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
