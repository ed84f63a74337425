"""Square cells through a lens: the check that rejects stretched lattices."""

from __future__ import annotations

import numpy as np
import pytest

from vision.rectify import homography_from_corners
from vision.squares import square_misfit


def project(tilt_deg: float, turn_deg: float, hfov_deg: float, size=(640, 480), side=0.3):
    """Image corners of a square board ``side`` metres wide, 0.6 m from a
    pinhole camera, tilted ``tilt_deg`` about one axis and turned in its plane."""
    w, h = size
    f = (w / 2) / np.tan(np.radians(hfov_deg) / 2)
    t, a = np.radians(tilt_deg), np.radians(turn_deg)
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * side / 2
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    xy = square @ turn.T
    world = np.c_[xy[:, 0], xy[:, 1] * np.cos(t), 0.6 + xy[:, 1] * np.sin(t)]
    return np.c_[f * world[:, 0] / world[:, 2] + w / 2, f * world[:, 1] / world[:, 2] + h / 2]


@pytest.mark.parametrize("tilt", [0, 20, 40, 55])
@pytest.mark.parametrize("hfov", [40, 62, 100])
def test_a_square_board_seen_by_any_camera_fits(tilt, hfov):
    corners = project(tilt, 17, hfov)
    assert square_misfit(homography_from_corners(corners, 6, 6), (640, 480)) < 0.02


@pytest.mark.parametrize("tilt", [0, 30])
def test_half_a_board_stretched_over_the_grid_does_not(tilt):
    # The left half of the board's outline taken for the whole 6x6 grid:
    # cells twice as tall as wide, whatever the lens.
    full = project(tilt, 0, 62)
    half = full.copy()
    half[1] = (full[0] + full[1]) / 2
    half[2] = (full[3] + full[2]) / 2
    assert square_misfit(homography_from_corners(half, 6, 6), (640, 480)) > 0.5


def test_a_singular_lattice_never_fits():
    assert square_misfit(np.zeros((3, 3)), (640, 480)) == float("inf")
