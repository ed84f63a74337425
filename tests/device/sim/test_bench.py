"""Rendering speed (``make bench``): frames of a real game, hands and all."""

from __future__ import annotations

import itertools

import cv2
import pytest

from device.sim.conditions import Conditions
from device.sim.games import bits_game
from device.sources.simulated import SimulatedSource


@pytest.fixture
def one_core():
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(threads)


@pytest.mark.parametrize("conditions", ["plain", "random"])
def test_render_speed_640x480(benchmark, one_core, conditions) -> None:
    """One frame of a BITS game at 10 fps; the game has still stretches and
    hand-and-slide stretches in its natural mix."""
    spec = (
        Conditions()
        if conditions == "plain"
        else Conditions.random(4).with_overrides({"jpeg_quality": "85"})
    )
    source = SimulatedSource(bits_game(2, max_drops=4), fps=10, conditions=spec, seed=1)
    frames = itertools.cycle(range(source.frame_count))
    for i in range(source.frame_count):  # warm the caches once, as a running source has
        source.frame_at(i / 10, i)
    frame = benchmark(lambda: source.frame_at((i := next(frames)) / 10, i))
    assert frame.image.shape == (480, 640, 3)
