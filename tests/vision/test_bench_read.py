"""Benchmarks of the colour reader (``make bench``; the suite runs them once, untimed).

The tracker reads every still frame: 36 cells of a rectified 640x480 board,
white balance checked against the frame's own greys, shading field, '?' rules.
Target: median under 1 ms on one core of the development machine.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.palette import load_palette
from tests.vision.synth import Light, render_board
from vision.reader import read_cells

BITS = load_palette("bits")
BOARD = ["......", "......", "..R...", ".YYB..", "PKRBN.", "RRYYKP"]


def frame(light: Light) -> np.ndarray:
    board = render_board(BOARD, BITS, light, cell_px=80, noise=3, seed=7)
    return cv2.resize(board, (640, 480), interpolation=cv2.INTER_AREA)


def test_read_36_cells_per_frame(benchmark):
    image = frame(Light(kelvin=4000, gradient=0.2))
    last = read_cells(image, 6, 6, BITS)  # the tracker passes the last frame's light
    reading = benchmark(read_cells, image, 6, 6, BITS, gains=last.gains, field=last.field)
    assert reading.rows == BOARD


def test_read_36_cells_measuring_the_field(benchmark):
    image = frame(Light(kelvin=4000, gradient=0.2))
    start = read_cells(image, 6, 6, BITS).gains
    reading = benchmark(read_cells, image, 6, 6, BITS, gains=start)
    assert reading.rows == BOARD


def test_read_single_photo_with_palette_fit(benchmark):
    image = frame(Light(kelvin=3000))
    reading = benchmark.pedantic(
        read_cells, args=(image, 6, 6, BITS), kwargs={"fit": True}, rounds=5, iterations=1
    )
    assert reading.rows == BOARD


def test_read_36_cells_measuring_the_field_across_a_shadows_edge(benchmark):
    # A still frame whose field is measured afresh with a hard shadow's edge
    # across it: the edge is found, placed on the picture and lifted.
    image = frame(Light(kelvin=4000, shadow=0.5, shadow_deg=60.0, shadow_at=0.6))
    start = read_cells(image, 6, 6, BITS).gains
    reading = benchmark(read_cells, image, 6, 6, BITS, gains=start)
    assert reading.rows == BOARD
