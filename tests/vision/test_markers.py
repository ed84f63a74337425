"""Marker mode: the printed sheet, and finding the grid from four markers."""

import cv2
import numpy as np
import pytest

from tests.vision.boards import camera_homography, flat_board, table
from vision.markers import MarkerLayout, find_markers, locate_markers, marker_sheet


def test_sheet_markers_are_readable_and_the_stated_size():
    dpi, size_mm = 150, 35
    sheet = marker_sheet(size_mm, dpi)
    found = find_markers(sheet)
    assert sorted(found) == [0, 1, 2, 3]
    expected = size_mm * dpi / 25.4
    for quad in found.values():
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        assert np.all(np.abs(sides - expected) < 2.0)
    # Laid out as on the board: 0 upper-left, 1 upper-right, 2 lower-right, 3 lower-left.
    c = {i: q.mean(axis=0) for i, q in found.items()}
    assert c[0][0] < c[1][0] and c[0][1] < c[3][1] and c[2][0] > c[3][0] and c[2][1] > c[1][1]


def test_sheet_rejects_sizes_that_do_not_fit():
    with pytest.raises(ValueError):
        marker_sheet(150, 300)
    with pytest.raises(ValueError):
        marker_sheet(30, 300, paper="a0")


GAP = 0.3  # cells between each marker's inner corner and the grid's corner, diagonally
LAYOUT = MarkerLayout(anchors=((-GAP, -GAP), (6 + GAP, -GAP), (6 + GAP, 6 + GAP), (-GAP, 6 + GAP)))


def marked_board(turn_first: int = 0, drop: int | None = None, tilt: float = 30, roll: float = 15):
    """A 6x6 board with the four markers just outside its corners, photographed."""
    cell = 50
    board, corners = flat_board(6, 6, cell_px=cell, margin=1.6, tiles=8, seed=2)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = cell  # markers one cell wide
    outward = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)])
    gap = round(GAP * cell)
    for i, (corner, (sx, sy)) in enumerate(zip(corners.astype(int), outward, strict=True)):
        if i == drop:
            continue
        marker = cv2.aruco.generateImageMarker(dictionary, i, side, borderBits=1)
        if i == 0 and turn_first:
            marker = np.rot90(marker, turn_first).copy()
        # The inner corner's pixel edge lands on corner + gap * outward.
        cx, cy = corner + gap * np.array([sx, sy])
        x0 = cx - side if sx < 0 else cx
        y0 = cy - side if sy < 0 else cy
        board[y0 - 8 : y0 + side + 8, x0 - 8 : x0 + side + 8] = 255  # quiet zone
        board[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]
    size = (640, 480)
    H = camera_homography((board.shape[1], board.shape[0]), size, tilt, roll, fill=0.7)
    image = table(size, seed=5)
    warped = cv2.warpPerspective(board, H, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), H, size)
    image[mask > 127] = warped[mask > 127]
    truth = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H).reshape(4, 2)
    return image, truth


def _side(truth: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1)))


def test_grid_from_markers_to_a_fraction_of_a_percent():
    image, truth = marked_board()
    fit = locate_markers(image, 6, 6, LAYOUT)
    assert fit is not None and fit.method == "markers"
    assert np.max(np.linalg.norm(fit.corners - truth, axis=1)) < 0.005 * _side(truth)


def test_a_marker_stuck_turned_still_marks_its_corner():
    image, truth = marked_board(turn_first=1)
    fit = locate_markers(image, 6, 6, LAYOUT)
    assert fit is not None
    assert np.max(np.linalg.norm(fit.corners - truth, axis=1)) < 0.005 * _side(truth)


def test_three_markers_are_not_enough():
    image, _ = marked_board(drop=2)
    assert locate_markers(image, 6, 6, LAYOUT) is None


def test_without_anchors_the_grid_spans_the_markers_inner_corners():
    image, truth = marked_board()
    fit = locate_markers(image, 6, 6)  # anchors default to the grid's own corners
    assert fit is not None
    # The grid then reaches GAP further out on every side: 6 + 2 * GAP cells wide.
    assert _side(fit.corners) > _side(truth) * (6 + 1.5 * GAP) / 6
    assert MarkerLayout.from_dict(LAYOUT.as_dict()) == LAYOUT
