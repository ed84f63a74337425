"""The capture loop around the tracker: a camera that goes away and comes
back, frames that fail, stream time across a reconnection, the systemd
watchdog, and stopping from another thread. Frames come from the real
simulator; the table is real (SQLite in a temporary folder)."""

from __future__ import annotations

import itertools
import socket
import threading

import numpy as np

from device.notify import Notifier
from device.sources.base import Frame, FrameSource, SourceGone
from device.track.loop import LoopSettings, run_loop
from device.track.scenarios import bits_scene

from .helpers import camera, run


class Unplugged(FrameSource):
    """A camera whose cable is pulled after ``frames`` frames: every later
    read raises SourceGone, like a USB webcam that vanished."""

    def __init__(self, source: FrameSource, frames: int) -> None:
        self.source = source
        self.left = frames

    def read(self) -> Frame | None:
        if self.left <= 0:
            raise SourceGone("the camera is gone (cable pulled)")
        self.left -= 1
        return self.source.read()


class Replugged:
    """A factory: the first camera is unplugged mid-game, the next two tries
    find nothing, then the camera is back and its clock starts at 0 again
    (a fresh device), continuing the same game."""

    def __init__(self, script, cut: int) -> None:
        self.script = script
        self.cut = cut
        self.opened = 0
        self.tries = 0

    def __call__(self) -> FrameSource:
        self.tries += 1
        if self.tries == 1:
            self.opened += 1
            return Unplugged(camera(self.script, art="ivory"), self.cut)
        if self.tries <= 3:
            raise SourceGone("no camera on /dev/video0")
        self.opened += 1
        return _Restarted(camera(self.script, art="ivory"), self.cut)


class _Restarted(FrameSource):
    """The same scene from frame ``skip`` on, its clock counting from 0."""

    def __init__(self, source: FrameSource, skip: int) -> None:
        self.source = source
        for _ in range(skip):
            source.read()
        self.t0: float | None = None

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is None:
            return None
        if self.t0 is None:
            self.t0 = frame.t
        return Frame(frame.image, frame.t - self.t0, frame.index, frame.meta)


def test_the_device_unplugged_and_back(tmp_path):
    script, setup = bits_scene(5, ["drop", ("wait", 1.0), "drop", "drop"])
    placed = [e["t"] for e in script.events if e["kind"] == "placed"]
    cut = int(placed[1] * 10) + 8  # pulled right after the second tile came to rest
    factory = Replugged(script, cut)
    result = run(tmp_path, factory, "bits", setup, keep_frames=True)
    assert factory.opened == 2 and factory.tries == 4
    assert result.statuses[:2] == ["starting", "ok"]
    assert "gone" in result.statuses and result.statuses[-1] == "ok"
    assert result.statuses.index("gone") < len(result.statuses) - 1
    # stream time never ran backwards across the reconnection
    times = [f.t for f in result.frames]
    assert all(b > a for a, b in itertools.pairwise(times))
    # all three tiles were recorded, before and after the camera was away
    board = result.table.game.view()["players"][0]["board"]
    truth = list(script.scene_at(script.duration).board_text(script.board).splitlines())
    assert board == truth
    assert len(result.of("placed")) == 3
    result.table.close()


class Flaky(FrameSource):
    """Some frames fail to decode (an exception), some are not images."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.n = 0

    def read(self) -> Frame | None:
        self.n += 1
        if self.n % 7 == 3:
            raise ValueError("corrupt JPEG data: premature end of data segment")
        frame = self.source.read()
        if frame is not None and self.n % 11 == 5:
            return Frame(np.zeros((4, 4), np.uint8), frame.t, frame.index, frame.meta)
        return frame


def test_frames_that_fail_are_skipped_and_the_game_goes_on(tmp_path):
    script, setup = bits_scene(6, ["drop", "drop"])
    result = run(tmp_path, Flaky(camera(script, art="ivory")), "bits", setup)
    assert len(result.of("placed")) == 2
    assert "gone" not in result.statuses
    result.table.close()


def test_watchdog_pings_and_stop_from_another_thread(tmp_path):
    from device.store import Store
    from device.table import Table

    script, setup = bits_scene(7, [("wait", 30.0)])
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    notifier = Notifier(path)
    notifier.watchdog_interval = 0.1
    table = Table(Store(tmp_path / "t.sqlite"), pin="1234")
    table.new_game("bits", setup)
    stop = threading.Event()
    seen: list[Frame] = []

    def on_frame(frame: Frame, _: list) -> None:
        seen.append(frame)
        if len(seen) == 40:
            stop.set()  # as serve does on shutdown

    source = camera(script, art="ivory")
    stats = run_loop(
        lambda: source,
        table,
        stop,
        notifier=notifier,
        settings=LoopSettings(watchdog_s=0.2, snapshot_s=0.5),
        on_frame=on_frame,
    )
    assert stats.frames == 40
    assert sock.recv(64) == b"WATCHDOG=1"
    # the page got an annotated picture of the board
    snap = table.snapshot()
    assert snap is not None and snap[0].startswith(b"\xff\xd8")
    sock.close()
    table.close()
