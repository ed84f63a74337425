"""Rendering speed (``make bench``): frames of a real game, hands and all."""

from __future__ import annotations

import itertools

import cv2
import pytest

from device.sim.conditions import Conditions
from device.sim.games import bits_game
from device.sources.simulated import SimulatedSource

FPS = 10


@pytest.fixture
def one_core():
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(threads)


@pytest.mark.parametrize(
    ("conditions", "only_motion"),
    [("plain", False), ("random", False), ("random", True)],
    ids=["plain-game", "random-game", "random-motion-only"],
)
def test_render_speed_640x480(benchmark, one_core, conditions, only_motion) -> None:
    """One 640x480 frame of a BITS game at 10 fps: the game's natural mix of
    still stretches and hand-and-slide stretches, or its moving frames only
    (the worst case: hand, arm, shadow and sliding tile redrawn)."""
    spec = (
        Conditions()
        if conditions == "plain"
        else Conditions.random(4).with_overrides({"jpeg_quality": "85", "noise": "3"})
    )
    source = SimulatedSource(bits_game(2, max_drops=4), fps=FPS, conditions=spec, seed=1)
    indices = []
    for i in range(source.frame_count):  # warm the caches once, as a running source has
        if source.frame_at(i / FPS, i).meta["moving"] or not only_motion:
            indices.append(i)
    assert indices
    frames = itertools.cycle(indices)
    frame = benchmark(lambda: source.frame_at((i := next(frames)) / FPS, i))
    assert frame.image.shape == (480, 640, 3)
