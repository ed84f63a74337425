"""Motion and light over time: knocks, slides, auto-exposure, lamp colour."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.motion import Choreographer
from device.sim.renderer import Renderer
from device.sim.scene import Piece, Scene
from device.sim.script import Script
from device.sources.simulated import SimulatedSource


def _grid_line_response(image: np.ndarray, corners: np.ndarray) -> float:
    """Mean brightness along the quadrilateral through ``corners`` minus the
    mean 3 px inside it: high when the printed frame line is exactly there."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    centre = corners.mean(axis=0)
    on, off = [], []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        for f in np.linspace(0.1, 0.9, 30):
            p = a + (b - a) * f
            inward = (centre - p) / np.linalg.norm(centre - p)
            for store, q in ((on, p), (off, p + 3.5 * inward)):
                store.append(cv2.getRectSubPix(gray, (1, 1), (float(q[0]), float(q[1])))[0, 0])
    return float(np.mean(on) - np.mean(off))


def test_a_knocked_camera_stays_knocked_and_the_truth_follows() -> None:
    board = BoardSpec.bits()
    script = Script(board)
    table = Choreographer(script, seed=2)
    table.wait(0.5)
    table.knock(shift_mm=(10.0, -8.0, 0.0), turn_deg=(2.0, -1.5, 3.0))
    table.wait(2.0)
    source = SimulatedSource(script, fps=10, size=(640, 480))
    frames = list(source)
    before, shaking, after, later = frames[2], frames[7], frames[12], frames[-1]
    assert not before.meta["moving"] and shaking.meta["moving"] and not after.meta["moving"]
    moved = np.abs(np.array(after.meta["corners"]) - np.array(before.meta["corners"])).max()
    assert moved > 10  # pixels: the view really shifted
    assert after.meta["corners"] == later.meta["corners"]  # and stays
    assert [e["kind"] for e in script.events] == ["bump"]
    for frame in (before, after):
        corners = np.array(frame.meta["corners"])
        assert _grid_line_response(frame.image, corners) > 60
    # the old corners no longer sit on the line
    assert _grid_line_response(after.image, np.array(before.meta["corners"])) < 30


def test_a_sliding_tile_hides_the_cells_it_passes() -> None:
    board = BoardSpec.bits()
    script = Script(board)
    table = Choreographer(script, seed=5)
    rest = table.drop(Piece(((4, 3), (5, 3)), ("B", "B")), push=False)
    renderer = Renderer(board, Conditions(light_elevation_deg=89), (640, 480))
    side = 40
    target = np.array([[0, 0], [6 * side, 0], [6 * side, 6 * side], [0, 6 * side]], np.float32)
    seen_rows = set()
    for t in np.arange(0.0, rest, 0.01):
        scene = script.scene_at(float(t))
        if not scene.moving:
            continue
        shot = renderer.render(scene)
        without = renderer.render(replace(scene, moving=()))
        # cells where the tile (and nothing else) changed the picture
        changed = np.abs(shot.image.astype(int) - without.image.astype(int)).max(axis=2) > 30
        homography = cv2.getPerspectiveTransform(
            np.array(shot.truth["corners"], np.float32), target
        )
        top = cv2.warpPerspective(changed.astype(np.uint8) * 255, homography, (6 * side, 6 * side))
        share = top.reshape(6, side, 6, side).mean(axis=(1, 3)) / 255
        occluded = {tuple(c) for c in shot.truth["occluded"]}
        for r, c in zip(*np.nonzero(share > 0.3), strict=True):
            assert (r, c) in occluded, (t, r, c)
            seen_rows.add(int(r))
        assert shot.truth["board"][5][3] == "."
    assert {0, 1, 2, 3, 4} <= seen_rows  # it slid all the way down


def test_auto_exposure_reacts_to_a_dark_arm_and_locked_exposure_does_not() -> None:
    board = BoardSpec.bits()
    script = Script(board)
    table = Choreographer(script, seed=1)
    table.sleeve = (20, 20, 20)  # a black sleeve darkens the frame
    table.skin = (60, 80, 110)
    table.wait(0.5)
    table.rest_hand(3.0, cell=(3, 3))
    patch = (slice(2, 30), slice(2, 30))  # table corner, away from the hand
    levels = {}
    for ae in (0.0, 1.0):
        conditions = Conditions(auto_exposure=ae, fill=0.6, table="white")
        source = SimulatedSource(script, fps=10, conditions=conditions, size=(320, 240))
        frames = list(source)
        assert frames[30].meta["hand"]
        levels[ae] = (frames[2].image[patch].mean(), frames[30].image[patch].mean())
    assert levels[0.0][0] == levels[0.0][1]
    assert levels[1.0][1] > levels[1.0][0] + 3


def test_lamp_colour_temperature_tints_a_grey_tile() -> None:
    board = BoardSpec.bits()
    scene = Scene.from_text(board, "\n".join(["......"] * 5 + ["..NN.."]))
    ratios = {}
    for kelvin in (2700.0, 6500.0):
        renderer = Renderer(board, Conditions(kelvin=kelvin, tile_symbols=False), (320, 240))
        shot = renderer.render(scene)
        corners = np.array(shot.truth["corners"])
        # centre of cell (5, 2): interpolate the grid's corners
        ul, ur, lr, ll = corners
        u, v = 2.5 / 6, 5.5 / 6
        p = (1 - v) * ((1 - u) * ul + u * ur) + v * ((1 - u) * ll + u * lr)
        b, _, r = (
            shot.image[int(p[1]) - 2 : int(p[1]) + 3, int(p[0]) - 2 : int(p[0]) + 3]
            .reshape(-1, 3)
            .mean(axis=0)
        )
        ratios[kelvin] = r / b
    assert abs(ratios[6500.0] - 1.0) < 0.08  # grey under daylight
    assert ratios[2700.0] > 1.5  # orange under a tungsten lamp, camera locked at daylight
