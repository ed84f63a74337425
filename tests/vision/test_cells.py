"""Robust cell colour: glare and printed symbols stay out of the estimate."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cells import SAMPLES, cell_bgr, cell_linear, patch_share, robust_bgr, sample_patches


def board(rows: int, cols: int, px: int, colour) -> np.ndarray:
    img = np.zeros((rows * px, cols * px, 3), np.uint8)
    img[:] = colour
    return img


def test_uniform_cells_read_exactly():
    img = board(2, 3, 40, (30, 60, 200))
    assert np.allclose(cell_bgr(img, 2, 3), (30, 60, 200))


def test_cells_are_addressed_row_major():
    img = board(2, 3, 40, (0, 0, 0))
    img[40:80, 80:120] = (255, 0, 0)  # row 1, col 2
    out = cell_bgr(img, 2, 3)
    assert out[1, 2].tolist() == [255, 0, 0]
    assert out[0, 2].tolist() == [0, 0, 0]


def test_glare_spot_is_ignored():
    img = board(1, 1, 100, (40, 40, 190))  # a red tile
    cv2.circle(img, (45, 45), 22, (250, 250, 255), -1)  # a specular highlight, ~15% of the cell
    assert np.abs(cell_bgr(img, 1, 1)[0, 0] - (40, 40, 190)).max() < 3


def test_printed_symbol_is_ignored():
    img = board(1, 1, 100, (30, 190, 230))  # a yellow tile
    cv2.circle(img, (50, 50), 16, (18, 115, 140), -1)  # the darker moulded symbol
    cv2.line(img, (30, 70), (70, 30), (255, 255, 255), 3)  # and a light stroke
    assert np.abs(cell_bgr(img, 1, 1)[0, 0] - (30, 190, 230)).max() < 3


def test_noise_averages_out():
    rng = np.random.default_rng(0)
    img = board(3, 3, 60, (100, 120, 140)).astype(np.float64)
    img = np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    assert np.abs(cell_bgr(img, 3, 3) - (100, 120, 140)).max() < 2.5


def test_grid_lines_outside_the_inner_patch():
    img = board(2, 2, 50, (200, 200, 200))
    for i in (0, 49, 50, 99):
        img[i, :] = 0
        img[:, i] = 0
    assert np.allclose(cell_bgr(img, 2, 2), 200)


def test_linear_is_rgb_order_and_linear_light():
    img = board(1, 1, 30, (0, 0, 255))  # pure red in BGR
    assert np.allclose(cell_linear(img, 1, 1)[0, 0], (1.0, 0.0, 0.0))
    grey = board(1, 1, 30, (128, 128, 128))
    assert cell_linear(grey, 1, 1)[0, 0, 0] == pytest.approx(0.2158605, abs=1e-6)


def test_patch_sampling_shape_and_errors():
    img = board(6, 6, 20, (1, 2, 3))
    assert sample_patches(img, 6, 6, samples=10).shape == (6, 6, 100, 3)
    assert sample_patches(img, 6, 6).shape == (6, 6, SAMPLES**2, 3)
    with pytest.raises(ValueError, match="BGR"):
        sample_patches(img[:, :, 0], 6, 6)
    with pytest.raises(ValueError, match="too small"):
        sample_patches(img[:3, :3], 6, 6)


def test_all_glare_falls_back_to_median():
    patch = np.full((1, 50, 3), 100.0)
    assert np.allclose(robust_bgr(patch), 100.0)


@pytest.mark.parametrize("side", ["top", "right", "bottom", "left"])
def test_a_band_along_a_side_is_not_print_but_a_symbol_is(side):
    # Three empty cells (light print) and a tile between them. Seen at a tilt,
    # a tall neighbour's wall or shadow covers a third of an empty cell along
    # one side: that is no symbol. A centred symbol, as small, still is.
    from vision.cells import cell_features

    px = 48
    img = board(1, 3, px, (200, 205, 205))
    band = np.zeros((px, px), bool)
    depth = px // 3
    {
        "top": lambda: band.__setitem__((slice(0, depth), slice(None)), True),
        "bottom": lambda: band.__setitem__((slice(px - depth, px), slice(None)), True),
        "left": lambda: band.__setitem__((slice(None), slice(0, depth)), True),
        "right": lambda: band.__setitem__((slice(None), slice(px - depth, px)), True),
    }[side]()
    img[:, :px][band] = (110, 110, 115)  # the band on cell 0
    cv2.circle(img, (px + px // 2, px // 2), px // 6, (110, 110, 115), -1)  # a symbol on cell 1
    img[:, 2 * px :] = (40, 40, 190)  # a plain red tile, cell 2
    _, printed = cell_features(img, 1, 3, inset=0.15)
    assert printed[0, 0] < 0.06  # classify.PRINT_MIN: no print at all
    assert printed[0, 1] > 0.15  # classify.PRINT_FULL: clear print
    assert printed[0, 2] == 0.0


def test_a_large_symbol_on_a_small_cell_is_measured_around():
    # A LITS O on a 19 px cell, blurred as a camera sees it, darkens a third
    # of the samples and more, and the kept samples' mean with them. With
    # ``around`` the colour is first measured on the patch's outer ring.
    from vision.cells import cell_features
    from vision.colour import srgb_to_linear

    px, ground = 19, (150, 215, 235)
    img = board(1, 1, px, ground)
    cv2.circle(img, (px // 2, px // 2), 4, (40, 60, 90), 2)
    img = cv2.GaussianBlur(img, (3, 3), 0.8)
    assert (sample_patches(img, 1, 1, 0.15)[..., 1] < 150).mean() > 0.25  # a large symbol
    want = srgb_to_linear(np.array(ground[::-1]) / 255.0)
    around, _ = cell_features(img, 1, 1, inset=0.15, around=np.ones((1, 1), bool))
    overall, _ = cell_features(img, 1, 1, inset=0.15)
    off_around = np.abs(around[0, 0] - want).max()
    off_overall = np.abs(overall[0, 0] - want).max()
    assert off_around < 0.05
    assert off_overall > 2 * off_around  # why the ring is needed


def test_a_light_symbol_filling_the_middle_of_a_small_black_tile_is_print_not_glare():
    # A black tile seen 25 px a side: its light symbol, blurred, covers most
    # of the patch's middle, as a highlight would. What tells them apart is
    # the ring around the middle: the symbol ends before it, a highlight that
    # large fades out over it. On the classic (near-black) ramp print the
    # symbol is all that says a black tile lies there.
    from vision.cells import cell_features

    px = 25
    img = board(1, 2, px, (34, 34, 36))
    cv2.rectangle(img, (7, 7), (15, 15), (125, 125, 127), -1)  # the symbol, cell 0
    y, x = np.mgrid[0:px, 0:px]
    spot = 140 * np.exp(-((x - 12) ** 2 + (y - 12) ** 2) / (2 * 5.0**2))  # a highlight, cell 1
    img[:, px:] = np.clip(img[:, px:] + spot[..., None], 0, 255).astype(np.uint8)
    img = cv2.GaussianBlur(img, (3, 3), 0.6)
    lit = sample_patches(img, 1, 2, 0.15)[0, 0, :, 1].reshape(SAMPLES, SAMPLES) > 64
    assert lit[1:-1, 1:-1].mean() > 0.6 and lit.mean() < 0.5  # most of the middle, under half
    _, printed = cell_features(img, 1, 2, inset=0.15)
    assert printed[0, 0] > 0.15  # classify.PRINT_FULL: clear print
    assert printed[0, 1] < 0.06  # classify.PRINT_MIN: no print at all


def test_a_shadows_sharp_edge_across_an_empty_cell_is_not_print():
    # A wall's shadow on the table ends in a straight, sharp edge; across an
    # empty cell it leaves a lit corner and a shaded rest, both the board.
    # Print would read the cell as a tile (the board never carries print):
    # simulated BITS 5015, an empty cell read as a grey tile. A symbol sits
    # in the middle, ringed by the colour; the edge runs out to the ring.
    # (A single photo reads so; frames of play do not, see cell_features.)
    from vision.cells import cell_features

    px = 60
    img = board(1, 2, px, (150, 152, 150))  # the shaded board
    lit = np.array([[0, 0], [52, 0], [0, 52]], np.int32)  # lit: a corner of cell 0
    cv2.fillPoly(img, [lit], (185, 185, 183))
    cv2.circle(img, (px + 30, 30), 10, (60, 60, 60), -1)  # cell 1: a symbol on the same ground
    _, printed = cell_features(img, 1, 2, inset=0.15, steps=True)
    assert printed[0, 0] < 0.06  # classify.PRINT_MIN: no print at all
    assert printed[0, 1] > 0.15  # classify.PRINT_FULL: clear print


def test_a_symbol_off_centre_touching_the_ring_is_still_print():
    # At a tilt the tiles' tops stand off the printed lattice, so a symbol
    # can sit off the patch's centre with an arm reaching its outer ring
    # (simulated BITS 5015, a black tile's cross). An arm is a sample or two
    # of the ring, a step across the cell far more.
    from vision.cells import cell_features

    px = 60
    img = board(1, 1, px, (30, 30, 32))  # a black tile
    cv2.rectangle(img, (10, 25), (38, 33), (110, 110, 112), -1)  # the cross, shifted left
    cv2.rectangle(img, (20, 14), (28, 44), (110, 110, 112), -1)
    patch = sample_patches(img, 1, 1, 0.15)[0, 0, :, 1].reshape(SAMPLES, SAMPLES) > 70
    assert patch[:, 0].any()  # the arm reaches the ring
    _, printed = cell_features(img, 1, 1, inset=0.15, steps=True)
    assert printed[0, 0] > 0.15  # classify.PRINT_FULL: clear print


def test_patch_share_counts_the_masked_part_of_each_cells_patch():
    # A 2x3 board of 20 px cells: the whole of cell (0, 1) masked, and the
    # left half of cell (1, 2) (its patch spans the middle 60% of the cell,
    # so half of it lies left of the cell's centre line).
    mask = np.zeros((40, 60), bool)
    mask[0:20, 20:40] = True
    mask[20:40, 40:50] = True
    share = patch_share(mask, 2, 3)
    assert share.shape == (2, 3)
    assert share[0, 1] == 1.0 and abs(share[1, 2] - 0.5) < 0.1
    assert share.sum() - share[0, 1] - share[1, 2] == 0.0
    three = np.repeat(mask[..., None], 3, axis=-1)
    three[..., 2] = False  # the red plane of a BGR mask
    assert patch_share(three, 2, 3)[0, 1].tolist() == [1.0, 1.0, 0.0]
