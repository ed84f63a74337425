"""Grid geometry in a profile: the three modes find the same grid."""

import numpy as np
import pytest

from calibration.geometry import GridGeometry, find_grid
from tests.vision.boards import shot
from tests.vision.test_markers import LAYOUT, marked_board
from vision.markers import MarkerLayout


def test_modes_round_trip_and_bad_data_is_refused():
    g = GridGeometry(6, 6, "markers", markers=LAYOUT)
    assert GridGeometry.from_dict(g.as_dict()) == g
    with pytest.raises(ValueError):
        GridGeometry(6, 6, "manual")  # no corners
    with pytest.raises(ValueError):
        GridGeometry(6, 6, "psychic")
    with pytest.raises(ValueError):
        GridGeometry.from_dict({"mode": "auto"})


def test_auto_and_manual_and_markers_agree():
    s = shot(6, 6, tilt=25, roll=10, tiles=6, seed=8)
    auto = find_grid(s.image, GridGeometry(6, 6))
    assert auto is not None and s.corner_error(auto.corners).max() < 0.015
    manual = find_grid(s.image, GridGeometry(6, 6, "manual", corners=tuple(map(tuple, s.corners))))
    assert np.allclose(manual.corners, s.corners)
    image, truth = marked_board()
    by_markers = find_grid(image, GridGeometry(6, 6, "markers", markers=LAYOUT))
    by_search = find_grid(image, GridGeometry(6, 6))
    side = np.mean(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1))
    assert np.max(np.linalg.norm(by_markers.corners - truth, axis=1)) < 0.005 * side
    assert np.max(np.linalg.norm(by_search.corners - truth, axis=1)) < 0.015 * side
    assert (
        find_grid(image, GridGeometry(6, 6, "markers", markers=MarkerLayout(ids=(4, 5, 6, 7))))
        is None
    )
