"""Per-frame check and tracking: hold through light and new tiles, notice a bump."""

import dataclasses

import cv2
import numpy as np
import pytest

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.renderer import Renderer
from device.sim.scene import Scene
from tests.vision.boards import shot
from vision.locate import locate_grid
from vision.track import HOLD, GridTracker, Probe


@pytest.fixture(scope="module")
def board():
    s = shot(6, 6, tilt=25, roll=10, tiles=4, seed=3)
    fit = locate_grid(s.image, 6, 6)
    assert fit is not None
    return s, fit


def test_probe_holds_through_light_changes_and_new_tiles(board):
    s, fit = board
    probe = Probe.from_fit(s.image, fit)
    assert probe.check(s.image) == 1.0
    dim = cv2.convertScaleAbs(s.image, alpha=0.6, beta=10)
    assert probe.check(dim) > 0.9
    fuller = shot(6, 6, tilt=25, roll=10, tiles=14, seed=3)  # same camera, more tiles
    assert probe.check(fuller.image) > 0.8


@pytest.mark.parametrize("dx, dy", [(0, 8), (8, 0), (6, 6)])
def test_probe_fails_when_the_view_slides(board, dx, dy):
    s, fit = board
    probe = Probe.from_fit(s.image, fit)
    moved = np.roll(s.image, (dy, dx), axis=(0, 1))  # about a fifth of a cell
    assert probe.check(moved) < HOLD


def test_probe_fails_when_the_view_turns(board):
    s, fit = board
    probe = Probe.from_fit(s.image, fit)
    h, w = s.image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 3.0, 1.0)
    assert probe.check(cv2.warpAffine(s.image, turn, (w, h))) < HOLD


def test_tracker_finds_holds_hides_and_notices_a_move():
    first = shot(6, 6, tilt=20, roll=5, tiles=6, seed=11)
    tracker = GridTracker(6, 6)
    r = tracker.update(first.image)
    assert r.status == "found" and first.corner_error(r.fit.corners).max() < 0.015
    assert tracker.update(first.image).status == "held"

    covered = first.image.copy()
    centre = first.corners.mean(axis=0).astype(int)
    cv2.circle(covered, tuple(int(v) for v in centre), int(0.45 * first.side()), (90, 120, 170), -1)
    r = tracker.update(covered)
    assert r.status == "hidden" and r.fit is tracker.fit
    assert tracker.update(first.image).status == "held"

    bumped = shot(6, 6, tilt=20, roll=9, tiles=6, seed=11, shift=(0.06, 0.03))
    r = tracker.update(bumped.image)
    assert r.status == "moved"
    assert bumped.corner_error(r.fit.corners).max() < 0.015
    assert tracker.update(bumped.image).status == "held"


def test_tracker_on_a_simulated_bump():
    board = BoardSpec.bits()
    renderer = Renderer(board, Conditions(tilt_deg=20, seed=2), (640, 480))
    scene = Scene.from_text(board, "\n".join(["......"] * 4 + ["..YY..", "RRB.K."]))
    still = renderer.render(scene).image
    knocked = renderer.render(dataclasses.replace(scene, bump=(6, -4, 0, 0, 0, 2.5))).image
    tracker = GridTracker(6, 6)
    assert tracker.update(still).status == "found"
    assert tracker.update(still).status == "held"
    assert tracker.update(knocked).status == "moved"
