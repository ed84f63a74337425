"""The simulator as a frame source: deterministic, complete, end to end."""

from __future__ import annotations

import numpy as np
import pytest

from device.sim.conditions import Conditions
from device.sim.games import lits_game
from device.sources.open import open_source
from device.sources.simulated import SimulatedSource


def _frames(source: SimulatedSource, count: int) -> list:
    return [source.read() for _ in range(count)]


@pytest.fixture(scope="module")
def short_lits():
    return lits_game(5, moves=2)


def test_same_seed_same_frames_and_truth(short_lits) -> None:
    conditions = Conditions.random(11, "lits")
    a = SimulatedSource(short_lits, fps=4, conditions=conditions, seed=3, size=(200, 150))
    b = SimulatedSource(short_lits, fps=4, conditions=conditions, seed=3, size=(200, 150))
    count = min(a.frame_count, 14)
    for fa, fb in zip(_frames(a, count), _frames(b, count), strict=True):
        assert np.array_equal(fa.image, fb.image)
        assert fa.meta == fb.meta
    # another noise seed changes the pixels, not the truth
    c = SimulatedSource(short_lits, fps=4, conditions=conditions, seed=4, size=(200, 150))
    fc = c.read()
    a2 = SimulatedSource(short_lits, fps=4, conditions=conditions, seed=3, size=(200, 150)).read()
    assert not np.array_equal(fc.image, a2.image)
    assert fc.meta["board"] == a2.meta["board"]


def test_a_whole_script_plays_out_with_events_in_order(short_lits) -> None:
    source = SimulatedSource(short_lits, fps=5, size=(160, 120))
    frames = list(source)
    assert len(frames) == source.frame_count
    times = [f.t for f in frames]
    assert times == sorted(times) and times[1] == pytest.approx(0.2)
    events = [e for f in frames for e in f.meta["events"]]
    assert [e["kind"] for e in events] == ["hand_in", "placed", "hand_out"] * 2
    placed = [e for e in events if e["kind"] == "placed"]
    # each placement shows in the board truth from its event's frame on
    for event in placed:
        at = next(f for f in frames if event in f.meta["events"])
        for r, c in event["cells"]:
            assert at.meta["board"][r][c] == event["shape"]
        before = frames[at.index - 1]
        assert any(before.meta["board"][r][c] != event["shape"] for r, c in event["cells"])
    # hands come and go; when one is in view something usually moves
    assert any(f.meta["hand"] for f in frames) and not frames[0].meta["hand"]
    assert not frames[-1].meta["hand"] and not frames[-1].meta["moving"]
    assert source.read() is None


def test_loop_restarts_the_script() -> None:
    source = SimulatedSource(lits_game(1, moves=1), fps=2, size=(80, 60), loop=True)
    n = source.frame_count
    frames = _frames(source, n + 2)
    assert frames[n].meta["board"] == frames[0].meta["board"]
    assert frames[n].t == pytest.approx(n / 2)  # stream time keeps counting


def test_open_source_sim_spec() -> None:
    source = open_source("sim:lits,seed=2,fps=4,size=96x72,conditions=random:3")
    frame = source.read()
    assert frame.image.shape == (72, 96, 3)
    assert frame.meta["game"] == "lits" and frame.meta["grid"] == [10, 10]
    assert source.conditions == Conditions.random(3, "lits")
    bits = open_source("sim:bits,players=3,player=2,size=64x48")
    assert bits.script.info["players"] == ["Player 1", "Player 2", "Player 3"]
    assert bits.script.info["watched"] == 2
    assert bits.read().meta["events"][0]["kind"] == "round_started"
    with pytest.raises(ValueError, match="unknown sim option"):
        open_source("sim:bits,colour=red")
    with pytest.raises(ValueError, match="no simulated game"):
        open_source("sim:chess")


def test_realtime_paces_reads_on_the_stream_clock(monkeypatch) -> None:
    """With ``realtime`` each frame waits until it is due (a fake clock here,
    so the test measures the pacing, not the machine)."""
    import device.sources.simulated as simulated

    clock = {"now": 100.0}
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock["now"] += seconds

    monkeypatch.setattr(simulated.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(simulated.time, "sleep", sleep)
    source = SimulatedSource(lits_game(2, moves=1), fps=4, size=(64, 48), realtime=True)
    for _ in range(4):
        source.read()
    assert sleeps == pytest.approx([0.25, 0.25, 0.25])
    clock["now"] += 1.0  # a slow consumer: no waiting, frames are already due
    source.read()
    assert len(sleeps) == 3
