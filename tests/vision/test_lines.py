"""Printed grid lines: empty cells show them, tiles hide them (vision.lines)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.synth import Light, render_board
from vision.lines import line_evidence
from vision.reader import read_cells

BITS = load_palette("bits")
BOARD = ["......", "......", "..K...", ".YKB..", "PKRBN.", "RKYYKP"]
EMPTY = np.array([[c == "." for c in row] for row in BOARD])


def dark_print(palette=BITS):
    """The BITS palette with a dark board print (L* 21) a few ΔE from the black tile."""
    lab = palette.lab.copy()
    lab[palette.index(".")] = (21.0, -0.5, -3.0)
    return palette.with_lab(lab)


@pytest.mark.parametrize("line_lab", [(25.0, 0.0, 0.0), (85.0, 0.0, 2.0)], ids=["dark", "light"])
def test_empty_cells_show_lines_and_tiles_hide_them(line_lab):
    pal = BITS if line_lab[0] < 50 else dark_print()
    image = render_board(
        BOARD, pal, Light(kelvin=3000), cell_px=48, noise=3, seed=4, line_lab=line_lab
    )
    lines = line_evidence(image, 6, 6, empty=EMPTY)
    assert lines.polarity == (1.0 if line_lab[0] > 50 else -1.0)
    assert (lines.second[EMPTY] > 0.5).mean() >= 0.9
    # A tile beside an empty cell may show that cell's half of the line on one
    # side, never on two; most tiles show none at all.
    assert (lines.second[~EMPTY] < 0.5).all()
    assert (lines.most[~EMPTY] < 0.35).mean() >= 0.75


def test_a_board_without_lines_gives_no_evidence():
    flat = np.full((240, 240, 3), 128, np.uint8)
    lines = line_evidence(flat, 6, 6)
    assert not lines.most.any() and not lines.second.any()


def test_lines_tell_black_tiles_from_a_dark_print_without_symbols():
    # No symbol on the tiles and the board's print is nearly black: colour
    # alone cannot say which cells are empty; the light grid lines can.
    pal = dark_print()
    light = Light(kelvin=3500, exposure=0.8)
    image = render_board(
        BOARD,
        pal,
        light,
        cell_px=48,
        noise=2,
        seed=5,
        line_lab=(85.0, 0.0, 2.0),
        tile_symbols=False,
    )
    assert read_cells(image, 6, 6, pal).rows == BOARD
