"""The ground truth matches the pixels: measured on the rendered images
with plain image analysis, never with the renderer's own bookkeeping."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer
from device.sim.scene import HandPose, Scene

EMPTY_BITS = "\n".join(["......"] * 6)

# Lens, tilt and roll cases, noise off so the measurement sees the geometry.
GEOMETRIES = [
    Conditions(),
    Conditions(tilt_deg=38, tilt_azimuth_deg=0, roll_deg=-12, hfov_deg=70),
    Conditions(tilt_deg=25, tilt_azimuth_deg=90, roll_deg=170, hfov_deg=95, barrel=0.9, fill=0.7),
    Conditions(
        tilt_deg=30, tilt_azimuth_deg=-140, roll_deg=35, hfov_deg=80, barrel=0.5, shift_x=0.1
    ),
]


def _edge_offsets(gray: np.ndarray, renderer: Renderer, bright_line: bool) -> list[float]:
    """For points along the grid's outer edges, the offset (pixels, across
    the edge) of the printed line's intensity peak from the projected edge."""
    board = renderer.board
    camera = renderer.camera
    corners = board.grid_corners_mm()
    signal = gray.astype(np.float64) if bright_line else 255.0 - gray
    offsets = []
    for k in range(4):
        a = np.array(corners[k])
        b = np.array(corners[(k + 1) % 4])
        for f in np.linspace(0.08, 0.92, 25):
            p = a + (b - a) * f
            # the across-edge direction in the image, from two projected points
            n_mm = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a)
            uv = camera.project(np.array([[*p, 0.0], [*(p + n_mm), 0.0]]))
            centre, normal = uv[0], (uv[1] - uv[0]) / np.linalg.norm(uv[1] - uv[0])
            steps = np.arange(-5.0, 5.01, 0.25)
            pts = centre + steps[:, None] * normal
            values = cv2.remap(
                signal.astype(np.float32),
                pts[:, 0].astype(np.float32).reshape(1, -1),
                pts[:, 1].astype(np.float32).reshape(1, -1),
                cv2.INTER_LINEAR,
            ).ravel()
            # centre of the bright run around the peak, at half its height
            peak = int(np.argmax(values))
            half = (values[peak] + np.median(values)) / 2
            lo = peak
            while lo > 0 and values[lo - 1] >= half:
                lo -= 1
            hi = peak
            while hi < len(values) - 1 and values[hi + 1] >= half:
                hi += 1
            offsets.append(float((steps[lo] + steps[hi]) / 2))
    return offsets


@pytest.mark.parametrize("conditions", GEOMETRIES, ids=["plain", "steep", "wide-rolled", "side"])
def test_projected_corners_sit_on_the_printed_grid_edge(conditions: Conditions) -> None:
    renderer = Renderer(BoardSpec.bits(), conditions, (640, 480))
    shot = renderer.render(Scene.from_text(renderer.board, EMPTY_BITS))
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    offsets = np.abs(_edge_offsets(gray, renderer, bright_line=True))
    # the printed frame line is centred on the grid edge: its brightest
    # point lies on the projected edge to well under a pixel
    assert np.median(offsets) <= 0.5
    assert np.percentile(offsets, 90) <= 1.0
    # the reported corners are those of the same projection, in UL UR LR LL order
    corners = np.array(shot.truth["corners"])
    assert corners.shape == (4, 2)
    expected = renderer.camera.project(
        np.array([[x, y, 0.0] for x, y in renderer.board.grid_corners_mm()])
    )
    assert np.allclose(corners, expected, atol=0.01)


def test_corners_follow_the_board_not_the_image_when_the_camera_is_upside_down() -> None:
    renderer = Renderer(BoardSpec.bits(), Conditions(roll_deg=180), (320, 240))
    corners = np.array(renderer.render(Scene()).truth["corners"])
    ul, ur, lr, ll = corners
    # rolled half a turn: the board's upper-left corner is at the image's lower right
    assert ul[0] > lr[0] and ul[1] > lr[1]
    assert ur[0] < ul[0] and ll[1] < ul[1]


def test_lits_grid_edge_dark_lines() -> None:
    conditions = Conditions(tilt_deg=20, roll_deg=8, art="print")
    renderer = Renderer(BoardSpec.lits(), conditions, (640, 480))
    shot = renderer.render(Scene())
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    offsets = np.abs(_edge_offsets(gray, renderer, bright_line=False))
    assert np.median(offsets) <= 0.5


def _cell_patches(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Mean BGR of the central patch of each cell, via the corner homography."""
    side = 40
    target = np.array(
        [[0, 0], [cols * side, 0], [cols * side, rows * side], [0, rows * side]], np.float32
    )
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    top_down = cv2.warpPerspective(image, homography, (cols * side, rows * side))
    means = np.zeros((rows, cols, 3))
    for r in range(rows):
        for c in range(cols):
            patch = top_down[r * side + 12 : r * side + 28, c * side + 12 : c * side + 28]
            means[r, c] = patch.reshape(-1, 3).mean(axis=0)
    return means


def _colour_name(bgr: np.ndarray) -> str:
    """Name a colour from HSV by hand-set hue bands (independent of the paint file)."""
    hsv = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2HSV_FULL)[0, 0].astype(
        float
    )
    hue, sat, val = hsv[0] * 360 / 256, hsv[1] / 255, hsv[2] / 255
    if val < 0.25:
        return "black"
    if sat < 0.2:
        return "grey"
    if hue < 20 or hue > 340:
        return "red"
    if 35 <= hue <= 65:
        return "yellow"
    if 90 <= hue <= 160:
        return "green"
    if 195 <= hue <= 235:
        return "blue"
    if 250 <= hue <= 300:
        return "purple"
    return f"hue {hue:.0f}"


BITS_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "P": "purple", "K": "black", "N": "grey"}


def test_labelled_bits_cells_show_their_colour_under_neutral_light() -> None:
    text = "\n".join(["......", "......", "Y.....", "B..PP.", "RRYBNK", "KYRPNB"])
    board = BoardSpec.bits()
    renderer = Renderer(board, Conditions(tile_symbols=False, noise=2.0), (640, 480))
    shot = renderer.render(Scene.from_text(board, text, symbol="star"))
    means = _cell_patches(shot.image, np.array(shot.truth["corners"]), 6, 6)
    for r, row in enumerate(shot.truth["board"]):
        for c, code in enumerate(row):
            if code != ".":
                assert _colour_name(means[r, c]) == BITS_NAMES[code], (r, c, code, means[r, c])
    # the truth's board is the text we put down
    assert shot.truth["board"] == text.splitlines()


def test_lits_pieces_show_their_colours_and_uncovered_cells_do_not() -> None:
    board = BoardSpec.lits()
    rows = ["." * 10] * 10
    rows[2] = "LLL......."
    rows[3] = "L...IIII.."
    rows[6] = "...TTT...."
    rows[7] = "....T..SS."
    rows[8] = "......SS.."
    renderer = Renderer(board, Conditions(art="print"), (640, 480))
    shot = renderer.render(Scene.from_text(board, "\n".join(rows)))
    means = _cell_patches(shot.image, np.array(shot.truth["corners"]), 10, 10)
    names = {"L": "red", "I": "yellow", "T": "green", "S": "blue", ".": "grey"}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            name = _colour_name(means[r, c])
            if code == ".":
                assert name not in ("red", "yellow", "green", "blue"), (r, c, name)
            else:
                assert name == names[code], (r, c, code, name)


def test_occluded_cells_are_the_ones_the_hand_covers() -> None:
    board = BoardSpec.bits()
    text = "\n".join(["......", "......", "......", "......", "YY....", "RRBBPP"])
    conditions = Conditions(tilt_deg=20, light_elevation_deg=89)
    renderer = Renderer(board, conditions, (640, 480))
    resting = Scene.from_text(board, text).resting
    # reaching in from the left, over the upper rows
    hand = HandPose(60.0, 30.0, 50.0, (-450.0, 20.0), (120, 150, 200), (90, 60, 40), curl=0.2)
    bare = renderer.render(Scene(resting)).image.astype(int)
    shot = renderer.render(Scene(resting, hands=(hand,)))
    changed = np.abs(shot.image.astype(int) - bare).max(axis=2) > 40
    # per cell, the share of its pixels that changed
    corners = np.array(shot.truth["corners"], np.float32)
    side = 40
    target = np.array([[0, 0], [6 * side, 0], [6 * side, 6 * side], [0, 6 * side]], np.float32)
    top = cv2.warpPerspective(
        changed.astype(np.uint8) * 255,
        cv2.getPerspectiveTransform(corners, target),
        (6 * side, 6 * side),
    )
    share = top.reshape(6, side, 6, side).mean(axis=(1, 3)) / 255
    occluded = {tuple(cell) for cell in shot.truth["occluded"]}
    assert occluded, "the hand is over the board"
    assert shot.truth["hand"] and shot.truth["hand_over_board"]
    for r in range(6):
        for c in range(6):
            if (r, c) in occluded:
                assert share[r, c] > 0.02, (r, c, share[r, c])
            if share[r, c] > 0.5:
                assert (r, c) in occluded, (r, c, share[r, c])
            if share[r, c] == 0:
                assert (r, c) not in occluded
    # the bottom row is far from the hand and arm
    assert not any(r == 5 for r, _ in occluded)
