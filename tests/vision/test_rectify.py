import numpy as np
import pytest

from vision.rectify import (
    apply_homography,
    corners_from_homography,
    grid_to_pixels,
    homography_from_corners,
    order_corners,
    rectify,
)


def test_homography_maps_corners_to_grid_coordinates():
    corners = np.array([[102.0, 40.5], [400.0, 62.0], [380.0, 300.0], [90.0, 280.0]])
    H = homography_from_corners(corners, rows=6, cols=8)
    got = apply_homography(H, corners)
    assert np.allclose(got, [[0, 0], [8, 0], [8, 6], [0, 6]], atol=1e-6)
    assert np.allclose(corners_from_homography(H, 6, 8), corners, atol=1e-6)


def test_rectify_puts_each_cell_in_its_own_block():
    # A 2x3 grid drawn axis-aligned at 10 px per cell, offset by (5, 7):
    # cell (r, c) is filled with the value 10*r + c + 1.
    image = np.zeros((40, 50), np.uint8)
    for r in range(2):
        for c in range(3):
            image[7 + 10 * r : 17 + 10 * r, 5 + 10 * c : 15 + 10 * c] = 10 * r + c + 1
    corners = [[4.5, 6.5], [34.5, 6.5], [34.5, 26.5], [4.5, 26.5]]  # pixel edges
    H = homography_from_corners(corners, rows=2, cols=3)
    top = rectify(image, H, 2, 3, cell_px=4, interpolation=0)  # nearest neighbour
    assert top.shape == (8, 12)
    expected = np.kron(np.array([[1, 2, 3], [11, 12, 13]], np.uint8), np.ones((4, 4), np.uint8))
    assert np.array_equal(top, expected)


def test_rectify_with_margin_and_colour():
    frame = np.zeros((30, 30, 3), np.uint8)
    H = homography_from_corners([[0, 0], [30, 0], [30, 30], [0, 30]], 3, 3)
    assert rectify(frame, H, 3, 3, 8, margin_cells=0.5).shape == (32, 32, 3)
    with pytest.raises(ValueError):
        rectify(frame, H, 3, 3, 0)


def test_grid_to_pixels_puts_cell_edges_on_pixel_edges():
    S = grid_to_pixels(10)
    # Grid x = 0 (the left edge) is the left edge of pixel 0, i.e. x = -0.5.
    assert np.allclose(apply_homography(S, [[0, 0], [1, 1]]), [[-0.5, -0.5], [9.5, 9.5]])


@pytest.mark.parametrize("roll", [0, 20, -20, 40, -40])
def test_order_corners_keeps_upper_left_under_roll(roll):
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)
    a = np.radians(roll)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pts = square @ rot.T * 50 + 200
    shuffled = pts[[2, 0, 3, 1]]
    assert np.allclose(order_corners(shuffled), pts)
