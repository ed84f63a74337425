"""The locator's second chances: combs along each axis, line families, and the
lattice checks that keep a half-pitch or symbol-fed lattice from winning."""

import cv2
import numpy as np
import pytest

from tests.vision.boards import camera_homography, flat_board, shot
from vision import comb, families, lattice
from vision.rectify import (
    apply_homography,
    corners_from_homography,
    grid_corners,
    homography_from_corners,
)


def photographed(board, corners, tilt=25.0, roll=10.0, size=(640, 480)):
    """The board seen by a tilted camera over a plain table; its corners there."""
    H = camera_homography((board.shape[1], board.shape[0]), size, tilt, roll, fill=0.8)
    image = cv2.warpPerspective(board, H, size, borderValue=(90, 110, 130))
    return image, apply_homography(H, corners)


def corner_error_cells(H, truth_corners, rows, cols):
    """How far (cells, worst corner) the lattice ``H`` puts the true corners."""
    return float(np.abs(apply_homography(H, truth_corners) - grid_corners(rows, cols)).max())


def crosses_board(rows=6, cols=6, cell=40):
    """Ruled board with a printed cross in every cell's middle (tile symbols)."""
    board, corners = flat_board(rows, cols, cell_px=cell, line_px=2)
    m = int(corners[0, 0])
    for r in range(rows):
        for c in range(cols):
            cx, cy = m + c * cell + cell // 2, m + r * cell + cell // 2
            cv2.line(board, (cx - 7, cy), (cx + 7, cy), (30, 30, 160), 4)
            cv2.line(board, (cx, cy - 7), (cx, cy + 7), (30, 30, 160), 4)
    return board, corners


def test_best_combs_find_evenly_spaced_lines_and_not_half_of_them():
    on = np.zeros(240)
    on[[30, 50, 70, 90, 110, 130, 150]] = 6.0  # six cells, 20 px apart
    on[10] = 9.0  # a strong edge one pitch before (a header's rim)
    (o, p), *_ = comb.best_combs(on, np.zeros(240), 6, 16.0, keep=2)
    assert (round(o), round(p)) in {(30, 20), (10, 20)}
    # With the rim counted the best comb may start there; the true one is
    # among the choices handed on (the best moved a tooth either way).
    moved = comb._with_neighbours([(o, p)], 240, 6)
    assert any(abs(a - 30) < 1 and abs(b - 20) < 0.5 for a, b in moved)


def test_recombs_find_the_grid_inside_an_outline_that_includes_a_header():
    board, corners = flat_board(6, 6, cell_px=40, margin=0.6)
    header = np.full((100, board.shape[1], 3), 60, np.uint8)  # dark header band
    cv2.putText(header, "BITS", (90, 70), cv2.FONT_HERSHEY_SIMPLEX, 2, (200, 220, 240), 4)
    board = np.vstack([header, board])
    corners = corners + np.array([0.0, 100.0])
    image, truth = photographed(board, corners, tilt=25, roll=-12)
    # The outline of the whole printed area: six rows stretched over header and grid.
    top = np.array([[corners[0, 0], 0.0], [corners[1, 0], 0.0]])
    outline = np.vstack([top, corners[2:]])
    H_board = camera_homography((board.shape[1], board.shape[0]), (640, 480), 25, -12, 0.8)
    start = homography_from_corners(apply_homography(H_board, outline), 6, 6)
    pyramid = lattice.Pyramid(image)
    assert corner_error_cells(start, truth, 6, 6) > 1.5
    errors = []
    for H in comb.recombs(pyramid, start, 6, 6):
        refined, _ = lattice.refine(pyramid, H, 6, 6)
        errors.append(corner_error_cells(refined, truth, 6, 6))
    assert min(errors) < 0.05


def test_line_families_point_at_the_grids_vanishing_points():
    s = shot(6, 6, tilt=35, roll=20, seed=4)
    value = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY)
    segs = families.segments(value)
    found = families.vanishing_points(segs)
    assert len(found) >= 2
    # The true vanishing points: the images of the grid's two directions.
    to_image = np.linalg.inv(homography_from_corners(s.corners, 6, 6))
    centre = s.corners.mean(axis=0)

    def heading(point):
        v = point[:2] - centre * point[2]
        return np.degrees(np.arctan2(v[1], v[0])) % 180

    for direction in ([1.0, 0, 0], [0, 1.0, 0]):
        want = heading(to_image @ np.array(direction))
        got = [heading(f.point) for f in found[:3]]
        assert min(abs((g - want + 90) % 180 - 90) for g in got) < 2.0


def test_lattices_from_line_families_lead_to_the_grid():
    s = shot(6, 6, tilt=35, roll=-25, tiles=18, seed=7)
    pyramid = lattice.Pyramid(s.image)
    value = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY)
    segs = families.segments(value)
    rough = families.lattices(segs, families.vanishing_points(segs), 6, 6)
    assert rough
    best = np.inf
    for start in rough:
        for H in comb.recombs(pyramid, start, 6, 6, pitches=(0.35, 1.6)):
            refined, _ = lattice.refine(pyramid, H, 6, 6)
            found = corners_from_homography(refined, 6, 6)
            # Any turn of the names will do here.
            err = min(np.abs(np.roll(found, -k, axis=0) - s.corners).max() for k in range(4))
            best = min(best, err / s.side())
    assert best < 0.02


def test_symbols_in_cell_middles_make_no_half_way_lines():
    board, corners = crosses_board()
    image, truth = photographed(board, corners)
    pyramid = lattice.Pyramid(image)
    H = homography_from_corners(truth, 6, 6)
    right = lattice.support(lattice.look(pyramid, H, 6, 6))
    assert right.between == 0 and right.value > 0.9
    # The lattice at half the pitch across: its odd lines run through the crosses.
    half = np.diag([2.0, 1.0, 1.0]) @ H
    wrong = lattice.support(lattice.look(pyramid, half, 6, 6))
    assert wrong.every_other < lattice.EVERY_OTHER
    assert wrong.value < right.value - 0.4


@pytest.mark.parametrize("axis", [0, 1])
def test_a_lattice_a_row_off_loses_to_the_true_one(axis):
    board, corners = crosses_board()
    image, truth = photographed(board, corners, tilt=30, roll=5)
    pyramid = lattice.Pyramid(image)
    H = homography_from_corners(truth, 6, 6)
    shift = np.eye(3)
    shift[axis, 2] = 1.0  # the grid one cell further along x or y: a row of margin
    right = lattice.support(lattice.look(pyramid, H, 6, 6)).value
    wrong = lattice.support(lattice.look(pyramid, shift @ H, 6, 6)).value
    assert wrong < right - 0.2
