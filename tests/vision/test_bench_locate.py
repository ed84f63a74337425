"""Benchmarks (``make bench``): search from scratch and the per-frame check.

Targets (DESIGN/issue 4): search under 30 ms at 640x480 on one core, the
check under 1 ms. With ``--benchmark-disable`` (the normal suite) each runs
once as a plain test of the same code path.
"""

import cv2
import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer
from device.sim.scene import Scene
from vision.locate import locate_grid
from vision.track import Probe

PILE = "\n".join(["......", "......", "......", "..Y...", "R.YB..", "RKBBPP"])


def bits_frame(size):
    board = BoardSpec.bits()
    conditions = Conditions(tilt_deg=25, roll_deg=12, barrel=0.3, noise=2.0, seed=6)
    return Renderer(board, conditions, size).render(Scene.from_text(board, PILE)).image


def lits_frame(size):
    board = BoardSpec.lits()
    position = "\n".join(
        ["LLL.......", "L.........", "....IIII..", ".........."]
        + [".........."] * 2
        + [".T........", "TTT...S...", ".....SS...", ".....S...."]
    )
    conditions = Conditions(tilt_deg=25, roll_deg=-8, barrel=0.3, noise=2.0, seed=7)
    return Renderer(board, conditions, size).render(Scene.from_text(board, position)).image


@pytest.fixture(scope="module", autouse=True)
def one_core():
    # The target is for one core of the development machine: no OpenCV threads.
    before = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(before)


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)], ids=["640x480", "1280x720"])
def test_bench_search_simulated_ramp(benchmark, size):
    image = bits_frame(size)
    fit = benchmark(locate_grid, image, 6, 6)
    assert fit is not None


def test_bench_search_from_a_profiles_hint(benchmark):
    # As a profile finds the grid at start-up: from where calibration saw
    # it (here, where the search found it; the camera has not moved).
    image = bits_frame((640, 480))
    seen = locate_grid(image, 6, 6)
    assert seen is not None
    fit = benchmark(locate_grid, image, 6, 6, hint=seen.corners)
    assert fit is not None and abs(fit.corners - seen.corners).max() < 2.0


def test_bench_search_simulated_lits_board(benchmark):
    image = lits_frame((640, 480))
    assert benchmark(locate_grid, image, 10, 10) is not None


def test_bench_search_real_photo(benchmark, shared_data):
    image = cv2.imread(str(shared_data / "sudoku-grids" / "images" / "image96.jpg"))
    assert image.shape[:2] == (480, 640)
    assert benchmark(locate_grid, image, 9, 9) is not None


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)], ids=["640x480", "1280x720"])
def test_bench_per_frame_check(benchmark, size):
    image = bits_frame(size)
    fit = locate_grid(image, 6, 6)
    probe = Probe.from_fit(image, fit)
    assert benchmark(probe.check, image) > 0.9
