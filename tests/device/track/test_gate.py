"""The stillness gate on block means with a webcam's kinds of noise."""

from __future__ import annotations

import numpy as np

from device.evals.track import run_game
from device.track.gate import StillnessGate

SHAPE = (24, 24, 3)  # a board and its ring, in blocks, as the watch feeds it


def jpeg_flicker(rng: np.random.Generator, base: np.ndarray) -> np.ndarray:
    """One frame of a still board through strong JPEG compression, as LITS
    table 456 (quality 56) showed it frame to frame: most blocks within a
    level or so, a tenth off by more than 2.7, and at a place or two by
    symbol edges, two neighbouring blocks (one 8x8 JPEG block spans two)
    off by 4 to 6.5 levels."""
    frame = base + rng.laplace(0.0, 0.6, base.shape)
    for _ in range(rng.poisson(1.5)):
        r, c = rng.integers(0, SHAPE[0]), rng.integers(0, SHAPE[1] - 1)
        frame[r, c : c + 2] += rng.choice([-1.0, 1.0]) * rng.uniform(4.0, 6.5)
    return frame.astype(np.float32)


def flickering(gate: StillnessGate, seed: int, frames: int = 150) -> list[bool]:
    rng = np.random.default_rng(seed)
    base = rng.uniform(60, 200, SHAPE)
    return [gate.update(jpeg_flicker(rng, base), i / 10) for i in range(frames)]


def test_strong_jpeg_flicker_on_a_still_board_is_learnt_as_noise():
    # LITS table 456: the gate saw the still board moving for the 1.3 s
    # between two players' hands, and the I piece put down then was missed.
    # Learnt from the still frames' largest changes, the flicker is noise
    # after the first seconds of play.
    moving = flickering(StillnessGate(), seed=7)
    assert sum(moving[120:]) <= 6
    # by the sigma rule alone (a Gaussian's), it moves in most frames
    alone = StillnessGate()
    alone.TAIL_TIMES = 0.0
    assert sum(flickering(alone, seed=7)[120:]) >= 20


def test_a_hand_is_still_seen_through_the_flicker():
    gate = StillnessGate()
    flickering(gate, seed=8)
    rng = np.random.default_rng(8)
    hand = jpeg_flicker(rng, rng.uniform(60, 200, SHAPE))
    hand[6:14, 8:16] = 90.0  # skin over a quarter of the board
    assert gate.update(hand, 10.0)
    assert gate.still_for(10.0) == 0.0


def test_a_tile_sliding_by_the_flicker_is_seen_moving():
    # A tile's edge changes its blocks by tens of levels, far above the
    # flicker the gate learnt.
    gate = StillnessGate()
    flickering(gate, seed=9)
    rng = np.random.default_rng(9)
    slid = jpeg_flicker(rng, rng.uniform(60, 200, SHAPE))
    slid[10:12, 10:12] -= 40.0
    assert gate.update(slid, 10.0)


def test_a_clean_cameras_limit_is_unchanged_by_its_tail():
    # Sensor noise alone: the largest changes of a still frame stay below
    # the sigma rule, so the gate is as sensitive as before.
    rng = np.random.default_rng(10)
    base = rng.uniform(60, 200, SHAPE)
    gate = StillnessGate()
    for i in range(100):
        gate.update((base + rng.normal(0.0, 0.5, SHAPE)).astype(np.float32), i / 10)
    assert gate.TAIL_TIMES * gate.tail < max(gate.settings.k * gate.sigma, gate.settings.floor)


def test_the_piece_put_down_between_two_hands_on_a_flickering_webcam_is_judged():
    result = run_game("lits", 456, lamp=True, moves=5)
    assert result.missed == 0, result.problems
    assert result.right == result.placements == 5
