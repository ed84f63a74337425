"""Following the view across a knock (vision.follow) on rendered tables."""

from __future__ import annotations

import numpy as np

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.motion import Choreographer
from device.sim.scene import Piece
from device.sim.script import Script
from device.sources.base import Frame
from device.sources.simulated import SimulatedSource
from vision.follow import carried, view_shift


def _knocked_full_ramp(seed: int) -> tuple[Frame, Frame]:
    """Frames before and after a knock of a ramp filled but for its top row,
    turned and small in the picture: the printed lines the locator looks for
    are nearly all covered (simulated BITS game 313, late in a round)."""
    board = BoardSpec.bits()
    script = Script(board)
    table = Choreographer(script, seed=seed)
    colours = "RYBPK"
    for r in range(5, 0, -1):
        for c in range(0, 6, 2):
            code = colours[(r + c) % 5]
            table.drop(Piece(((r, c), (r, c + 1)), (code, code)), push=False)
    table.wait(0.5)
    knocked_at = script.duration
    table.knock(shift_mm=(9.0, 10.0, 1.5), turn_deg=(1.0, 2.8, 3.3))
    table.wait(1.0)
    conditions = Conditions(tilt_deg=20.0, roll_deg=60.0, fill=0.45, seed=seed)
    source = SimulatedSource(script, fps=10, size=(640, 480), conditions=conditions)
    before = source.frame_at(knocked_at - 0.1, 0)
    after = source.frame_at(script.duration - 0.1, 1)
    assert not before.meta["moving"] and not after.meta["moving"]
    return before, after


def test_a_knock_is_followed_by_how_the_whole_picture_moved() -> None:
    before, after = _knocked_full_ramp(seed=7)
    was, now = np.array(before.meta["corners"]), np.array(after.meta["corners"])
    assert np.abs(now - was).max() > 10  # pixels: the view really moved
    shift = view_shift(before.image, after.image)
    assert shift is not None
    # the ramp stands a little above the table: a few pixels of parallax
    assert np.abs(carried(was, shift) - now).max() < 3.0


def test_a_mirrored_picture_is_no_knock() -> None:
    # A mirror image matches many corners (the grid is symmetric), but no
    # knock of a camera turns the picture over.
    before, _ = _knocked_full_ramp(seed=7)
    assert view_shift(before.image, np.ascontiguousarray(before.image[::-1])) is None
