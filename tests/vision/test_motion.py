"""Motion, light and view checks on small board patches (vision.motion).

The frames are drawn with OpenCV: a grid of cells on a table, a lamp as a
smooth gain field, a hand as a skin-coloured blob, a bump as a shift."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.motion import (
    block_changes,
    block_means,
    block_noise,
    board_patch,
    cell_looks,
    cell_means,
    cell_texture,
    exposure_gain,
    faint_beside,
    fit_light,
    patch_shape,
    structure,
    structure_similarity,
    texture_changes,
)
from vision.rectify import homography_from_corners

ROWS = COLS = 6
CORNERS = np.array([[170, 90], [470, 90], [470, 390], [170, 390]], float)
H = homography_from_corners(CORNERS, ROWS, COLS)


def board(tiles: dict[tuple[int, int], tuple[int, int, int]] | None = None) -> np.ndarray:
    """A 640x480 frame: wood-brown table, light board, dark grid lines, tiles."""
    image = np.full((480, 640, 3), (60, 100, 150), np.uint8)
    cv2.rectangle(image, (150, 70), (490, 410), (200, 215, 225), -1)
    for (r, c), colour in (tiles or {}).items():
        x, y = 170 + 50 * c, 90 + 50 * r
        cv2.rectangle(image, (x + 3, y + 3), (x + 47, y + 47), colour, -1)
    for i in range(7):
        cv2.line(image, (170 + 50 * i, 90), (170 + 50 * i, 390), (40, 40, 40), 2)
        cv2.line(image, (170, 90 + 50 * i), (470, 90 + 50 * i), (40, 40, 40), 2)
    return image


def lamp(image: np.ndarray, strength: float = 0.4) -> np.ndarray:
    """A warm lamp at the upper right: brighter there, redder everywhere."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    falloff = 1.0 / (1.0 + 2.5 * ((xx / w - 0.9) ** 2 + (yy / h - 0.1) ** 2))
    gain = 1.0 + strength * falloff[..., None] * np.array([0.7, 1.0, 1.2])
    return np.clip(image * gain * 0.8, 0, 255).astype(np.uint8)


def patch_of(image: np.ndarray) -> np.ndarray:
    return board_patch(image, H, ROWS, COLS, px=8, margin=1)


def test_patch_is_the_board_and_its_ring_from_above():
    p = patch_of(board({(5, 0): (30, 40, 200)}))
    assert p.shape == (*patch_shape(ROWS, COLS, 8, 1), 3) == (64, 64, 3)
    assert p.dtype == np.float32
    cells = cell_means(p, ROWS + 2, COLS + 2)
    # the red tile is the lower-left cell of the grid (row 6 of 8 with the ring)
    assert cells[6, 1, 2] > 150 and cells[6, 1, 0] < 80
    # the other cells are the light board, the ring corners the board's frame
    assert abs(cells[3, 3] - [200, 215, 225]).max() < 8


def test_exposure_gain_ignores_the_few_pixels_a_hand_changes():
    a = patch_of(board())
    b = a * np.float32(1.25)
    b[10:20, 10:30] = (90, 140, 200)  # a hand
    assert exposure_gain(a, b) == pytest.approx([1.25, 1.25, 1.25], abs=0.02)


def test_noise_is_not_motion_and_a_moving_tile_is():
    rng = np.random.default_rng(3)
    still = board({(5, 2): (160, 60, 30)})
    a = block_means(patch_of(still), 4)
    noisy = np.clip(still + rng.normal(0, 5, still.shape), 0, 255).astype(np.uint8)
    b = block_means(patch_of(noisy), 4)
    sigma = block_noise(a, b)
    assert 0 < sigma < 3
    limit = max(6 * sigma, 4.0)  # as the stillness gate's defaults
    assert not (block_changes(a, b) > limit).any()
    moved = block_means(patch_of(board({(4, 2): (160, 60, 30)})), 4)
    assert (block_changes(a, moved) > limit).sum() >= 4


def test_a_lamp_is_light_not_change_and_a_new_tile_stands_out():
    before = cell_means(patch_of(board()), ROWS + 2, COLS + 2)
    lit = cell_means(patch_of(lamp(board({(5, 3): (40, 180, 230)}))), ROWS + 2, COLS + 2)
    ring = np.ones((8, 8), bool)
    ring[1:7, 1:7] = False
    fit = fit_light(before, lit, use=ring)
    assert fit.change > 0.15  # the light did change
    changed = fit.residual > max(0.12, 5 * fit.scale)
    assert changed[6, 4]  # the yellow tile at row 5, column 3 (with the ring: 6, 4)
    assert changed.sum() == 1
    assert not changed[ring].any()


def test_a_lamp_that_clips_the_light_cells_is_still_light():
    # A light board under a lamp switched on: every light cell's brightest
    # channels clip at full scale, so their ratio falls short of the lamp's
    # gain. Clipped values are bounds: the light fits as well as it would
    # unclipped, and a dark tile put down on a cell that clipped before
    # still stands out.
    rng = np.random.default_rng(5)
    light, tiles = [150.0, 205.0, 238.0] * 2, [60.0, 90.0, 120.0] * 2
    looks = np.where(rng.random((8, 8, 1)) < 0.6, light, tiles)  # the print, tiles
    before = np.clip(looks + rng.normal(0.0, 2.0, (8, 8, 6)), 0, 255)
    lit = np.minimum(before * 1.35, 255.0)
    lit[4, 4] = [40.0, 40.0, 45.0] * 2  # a black tile
    fit = fit_light(before, lit)
    assert fit.scale == pytest.approx(0.02)  # the floor: nothing but light
    changed = fit.residual > max(0.12, 5 * fit.scale)
    assert np.argwhere(changed).tolist() == [[4, 4]]


def test_an_arm_across_the_ring_is_not_explained_by_light():
    before = cell_means(patch_of(board()), ROWS + 2, COLS + 2)
    arm = board()
    cv2.rectangle(arm, (300, 250), (360, 480), (120, 160, 220), -1)
    now = cell_means(patch_of(arm), ROWS + 2, COLS + 2)
    ring = np.ones((8, 8), bool)
    ring[1:7, 1:7] = False
    fit = fit_light(before, now, use=ring)
    crossed = fit.residual > max(0.12, 5 * fit.scale)
    assert crossed[ring].any()


def test_edges_survive_a_lamp_but_not_a_bump():
    a = structure(patch_of(board()))
    assert structure_similarity(a, a) == pytest.approx(1.0)
    assert structure_similarity(a, structure(patch_of(lamp(board())))) > 0.9
    bumped = np.roll(board(), (14, 18), axis=(0, 1))
    assert structure_similarity(a, structure(patch_of(bumped))) < 0.6


def dark_board(symbol_radius: int = 0) -> np.ndarray:
    """A dark board; with a black tile at row 5, column 2 carrying a light
    round symbol in its middle (``symbol_radius`` pixels) when asked."""
    image = np.full((480, 640, 3), (60, 100, 150), np.uint8)
    cv2.rectangle(image, (150, 70), (490, 410), (60, 60, 60), -1)
    if symbol_radius:
        x, y = 170 + 50 * 2, 90 + 50 * 5
        cv2.rectangle(image, (x + 3, y + 3), (x + 47, y + 47), (15, 15, 15), -1)
        cv2.circle(image, (x + 25, y + 25), symbol_radius, (200, 200, 200), -1)
    for i in range(7):
        cv2.line(image, (170 + 50 * i, 90), (170 + 50 * i, 390), (40, 40, 40), 2)
        cv2.line(image, (170, 90 + 50 * i), (470, 90 + 50 * i), (40, 40, 40), 2)
    return image


def test_a_black_tile_whose_symbol_averages_to_the_dark_boards_grey_still_stands_out():
    ring = np.ones((8, 8), bool)
    ring[1:7, 1:7] = False
    empty, tile = patch_of(dark_board()), patch_of(dark_board(symbol_radius=7))
    # by its mean colour alone the tile passes for the empty cell ...
    by_mean = fit_light(cell_means(empty, 8, 8), cell_means(tile, 8, 8), use=ring)
    assert not (by_mean.residual > max(0.12, 5 * by_mean.scale)).any()
    # ... most of its pixels are black, though: the median grey shows it
    fit = fit_light(cell_looks(empty, 8, 8), cell_looks(tile, 8, 8), use=ring)
    changed = fit.residual > max(0.12, 5 * fit.scale)
    assert changed[6, 3] and changed.sum() == 1


def test_a_lamp_moves_the_median_colour_with_the_mean_colour():
    before = cell_looks(patch_of(board()), ROWS + 2, COLS + 2)
    lit = cell_looks(patch_of(lamp(board())), ROWS + 2, COLS + 2)
    assert before.shape == (8, 8, 6)
    fit = fit_light(before, lit)
    assert fit.change > 0.15
    assert fit.residual.max() < 0.05


def dark_board_with_symbol(radius: int, grey: int) -> np.ndarray:
    """The dark board with a tile of the board's own colour at row 5,
    column 2: all that shows of it is its round symbol."""
    image = dark_board()
    cv2.circle(image, (170 + 50 * 2 + 25, 90 + 50 * 5 + 25), radius, (grey,) * 3, -1)
    return image


def test_a_tile_the_colour_of_the_print_shows_by_its_symbols_texture():
    ring = np.ones((8, 8), bool)
    ring[1:7, 1:7] = False
    empty, tile = patch_of(dark_board()), patch_of(dark_board_with_symbol(4, 150))
    # mean and median alike pass it for the print ...
    fit = fit_light(cell_looks(empty, 8, 8), cell_looks(tile, 8, 8), use=ring)
    assert not (fit.residual > max(0.12, 5 * fit.scale)).any()
    # ... the symbol makes the cell uneven where the print is flat
    changed = texture_changes(cell_texture(empty, 8, 8), cell_texture(tile, 8, 8))
    assert changed[6, 3] and changed.sum() == 1


def test_noise_and_a_lamp_do_not_change_texture():
    rng = np.random.default_rng(5)
    tiles = {(5, 1): (30, 40, 200), (2, 4): (40, 180, 230)}

    def noisy(image: np.ndarray) -> np.ndarray:
        return np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)

    a = cell_texture(patch_of(noisy(board(tiles))), 8, 8)
    b = cell_texture(patch_of(noisy(board(tiles))), 8, 8)
    assert not texture_changes(a, b).any()
    lit = cell_texture(patch_of(lamp(board(tiles), strength=1.0)), 8, 8)
    assert not texture_changes(cell_texture(patch_of(board(tiles)), 8, 8), lit).any()


def test_two_weak_signs_together_are_a_change():
    # A black tile under a lamp's glare on the dark print: its symbol half
    # washed out (texture 5 -> 14 levels: with the noise floor 4 added, a
    # ratio of 18/9 = 2, under the 2.5 that alone is a change), its colour
    # 8 % off the print's (under the 12 % that alone is a change, over half
    # of it). Either sign alone is no change.
    reference = np.ones((8, 8))
    current = np.ones((8, 8))
    residual = np.zeros((8, 8))
    reference[2, 3], current[2, 3], residual[2, 3] = 5.0, 14.0, 0.08  # both signs
    reference[4, 4], current[4, 4], residual[4, 4] = 5.0, 14.0, 0.02  # texture only
    residual[5, 5] = 0.10  # colour only
    assert not texture_changes(reference, current).any()
    changed = texture_changes(reference, current, residual, limit=0.12)
    assert np.argwhere(changed).tolist() == [[2, 3]]


def test_one_weak_sign_beside_a_clear_change_is_a_faint_change():
    # A black double dropped standing under a lamp's glare (simulated BITS
    # game 318): its lower half changed clearly, its upper half under the
    # highlight only by 7 % in colour where 12 % alone is a change, as the
    # print's sheen already lit that cell. Beside the clear change the weak
    # sign is a faint change; the same sign far from any change is nothing.
    texture = np.ones((6, 6))
    residual = np.zeros((6, 6))
    changed = np.zeros((6, 6), bool)
    changed[1, 3] = True  # the lower half: clearly changed
    residual[1, 3] = 0.3
    residual[0, 3] = 0.07  # the upper half under the highlight
    residual[4, 0] = 0.07  # the same sign alone, far off
    residual[1, 4] = 0.03  # noise beside the change: under half the limit
    faint = faint_beside(changed, texture, texture, residual, limit=0.12)
    assert np.argwhere(faint).tolist() == [[0, 3]]


def test_both_halves_of_a_tile_gaining_texture_together_are_a_change():
    # Simulated BITS 904 (slate print, its marks give the flattest cells a
    # texture of ~7 levels, so the noise floor added is 14): a black double
    # with symbols dropped on the dark print; each half's texture grew from
    # 11 to 29 levels, (29 + 14) / (11 + 14) = 1.7, under the 2.5 that alone
    # is a change, and its colour moved by 5 % (under half the 12 % limit).
    # The two halves together are a tile; one such cell alone is not.
    reference = np.full((8, 8), 7.0)
    current = np.full((8, 8), 7.0)
    residual = np.full((8, 8), 0.05)
    reference[4, 5:7], current[4, 5:7] = 11.0, 29.0  # the double, lying
    reference[1, 1], current[1, 1] = 11.0, 29.0  # one cell alone
    # Beside a tile that clearly came (BITS 313: a standing tile's edge,
    # seen from below, over the cell above it) texture grows without a drop:
    # no pair there.
    residual[7, 2] = 0.3
    reference[6, 2:4], current[6, 2:4] = 11.0, 29.0
    changed = texture_changes(reference, current, residual, limit=0.12)
    assert np.argwhere(changed).tolist() == [[4, 5], [4, 6]]


def test_a_lamp_raising_texture_in_one_corner_is_no_pair_of_halves():
    # A lamp close by, 2.5 times the light over a corner of the board,
    # scales the texture there with it: the light's own gain is divided out,
    # no tile.
    reference = np.full((8, 8), 7.0)
    reference[:3, :3] = 11.0
    gain = np.ones((8, 8))
    gain[:3, :3] = 2.5
    current = reference * gain
    residual = np.full((8, 8), 0.02)
    assert texture_changes(reference, current, residual, limit=0.12).any()  # the gain ignored
    assert not texture_changes(reference, current, residual, limit=0.12, gain=gain).any()
