"""The capture and tracking loop: camera frames in, verdicts on the table.

``run_loop`` is what ``tilewatch serve`` runs in a thread (one per camera),
and what ``replay`` and ``eval track`` run to the end of a recording::

    stop = threading.Event()
    thread = threading.Thread(
        target=run_loop,
        args=(lambda: open_source("picam"), table, stop),
        kwargs={"notifier": notifier, "profile": profile},
        daemon=True,
    )
    thread.start()
    ...
    stop.set(); thread.join()

It survives what a table does to a camera: an unplugged camera
(``SourceGone``: the page says "gone", the loop retries with back-off and
says "ok" when frames return), a frame that fails to decode or to track
(skipped and counted), a knocked camera or a new lamp (the page is told).
Stream time never runs backwards across a reconnection, so the stillness
gate keeps its meaning. ``WATCHDOG=1`` goes to systemd from this loop, so a
hung camera gets the service restarted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.profile import Profile
from device.notify import Notifier
from device.sources.base import Frame, FrameSource, SourceGone
from device.track.camera import BoardSpec, CameraTracker
from device.track.watch import WatchSettings
from vision.draw import draw_grid

log = logging.getLogger(__name__)

Event = dict[str, Any]
EventHook = Callable[[Event], None]


@dataclass(frozen=True)
class LoopSettings:
    """``retry_s``/``retry_max_s``: first and longest wait before reopening a
    lost camera (doubling in between); ``until_end``: return when a finite
    source ends (a recording) instead of reopening it (a camera);
    ``snapshot_s``: stream seconds between annotated snapshots for the page
    (None: none); ``light_status_s``: how long the page shows "light
    changed"; ``bad_frames``: failures in a row after which the camera is
    treated as gone; ``watchdog_s``: wall seconds between watchdog pings."""

    retry_s: float = 0.5
    retry_max_s: float = 10.0
    until_end: bool = False
    snapshot_s: float | None = 1.0
    light_status_s: float = 3.0
    bad_frames: int = 25
    watchdog_s: float = 1.0
    watch: WatchSettings = field(default_factory=WatchSettings)


@dataclass
class LoopStats:
    """What a run of the loop did (returned by :func:`run_loop`)."""

    frames: int = 0
    skipped: int = 0
    reconnects: int = 0
    events: int = 0
    seconds: float = 0.0  # stream time covered


class _Clock:
    """Stream time that never runs backwards: a reopened camera may start
    counting from 0 again."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.last: float | None = None
        self._rebase = False

    def reopened(self) -> None:
        self._rebase = True

    def __call__(self, t: float) -> float:
        if self.last is not None and (self._rebase or t + self.offset < self.last):
            self.offset = self.last + 0.001 - t
        self._rebase = False
        self.last = t + self.offset
        return self.last


def _valid(frame: Frame) -> bool:
    image = frame.image
    return (
        isinstance(image, np.ndarray)
        and image.dtype == np.uint8
        and image.ndim == 3
        and image.shape[2] == 3
        and min(image.shape[:2]) >= 16
    )


class _Status:
    """The camera status on the table, published only when it changes."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.current: str | None = None
        self.until: float | None = None

    def set(self, status: str, message: str = "", t: float | None = None) -> None:
        if status != self.current:
            self.table.camera_status(status, message)
            self.current = status
        self.until = None

    def hold(self, status: str, message: str, until: float) -> None:
        self.set(status, message)
        self.until = until

    def tick(self, t: float) -> None:
        if self.until is not None and t >= self.until:
            self.set("ok")

    def after(self, events: list[Event], t: float, hold_s: float) -> None:
        for event in events:
            kind = event["type"]
            if kind == "view_moved":
                self.set("view_moved", "the board moved in the picture; looking for it")
            elif kind == "view_found":
                self.set("ok")
            elif kind == "light_changed" and self.current in (None, "ok", "light_changed"):
                self.hold("light_changed", "the light changed; colours re-balanced", t + hold_s)


def _snapshot(frame: Frame, tracker: CameraTracker) -> bytes | None:
    image = frame.image
    for watch in tracker.watches:
        if watch.fit is not None:
            image = draw_grid(image, watch.fit, label=f"board {watch.board}")
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return bytes(data) if ok else None


def run_loop(
    source_factory: Callable[[], FrameSource],
    table: Any,
    stop: threading.Event,
    notifier: Notifier | None = None,
    profile: Profile | None = None,
    boards: Sequence[BoardSpec] | None = None,
    settings: LoopSettings | None = None,
    on_event: EventHook | None = None,
    on_frame: Callable[[Frame, list[Event]], None] | None = None,
) -> LoopStats:
    """Track frames from ``source_factory()`` onto ``table`` until ``stop``
    is set (or, with ``settings.until_end``, the source ends).

    ``table``: a :class:`device.table.Table`; ``notifier``: systemd's
    (watchdog pings); ``profile``: the calibration to read colours with
    (learnt from the first look when None); ``boards``: what this camera
    sees (default: one board; BITS player 0); ``on_event``: called with
    every tracking event (dicts, see :mod:`device.track.watch`);
    ``on_frame``: called after every tracked frame with its events (for
    tools that compare with ground truth). Returns :class:`LoopStats`.
    """
    s = settings or LoopSettings()
    stats = LoopStats()
    tracker = CameraTracker(table, boards, profile, s.watch)
    status = _Status(table)
    status.set("starting")
    clock = _Clock()
    retry = s.retry_s
    last_ping = float("-inf")
    next_snapshot = float("-inf")
    source: FrameSource | None = None
    failures = 0

    def ping() -> None:
        nonlocal last_ping
        now = time.monotonic()
        if notifier is not None and now - last_ping >= s.watchdog_s:
            notifier.watchdog()
            last_ping = now

    def lost(why: str) -> None:
        nonlocal source, retry
        if source is not None:
            try:
                source.close()
            except Exception:  # closing a dead device may fail too
                log.exception("closing the camera failed")
            source = None
        status.set("gone", why)
        log.warning("camera gone: %s (retrying in %.1f s)", why, retry)
        stop.wait(retry)
        retry = min(retry * 2, s.retry_max_s)

    try:
        while not stop.is_set():
            ping()
            if source is None:
                try:
                    source = source_factory()
                except SourceGone as err:
                    lost(str(err))
                    continue
                if stats.frames:
                    stats.reconnects += 1
                    clock.reopened()
                    tracker.camera_reopened()
            try:
                frame = source.read()
            except SourceGone as err:
                lost(str(err))
                continue
            except Exception as err:  # a frame that fails to decode: skip it
                failures += 1
                stats.skipped += 1
                log.warning("could not read a frame (%s)", err)
                if failures >= s.bad_frames:
                    lost(f"{failures} bad frames in a row")
                    failures = 0
                continue
            if frame is None:
                if s.until_end:
                    break
                lost("the camera stopped giving frames")
                continue
            if not _valid(frame):
                stats.skipped += 1
                failures += 1
                continue
            failures = 0
            retry = s.retry_s
            t = clock(frame.t)
            if t != frame.t:
                frame = Frame(frame.image, t, frame.index, frame.meta)
            if status.current in ("starting", "gone"):
                status.set("ok")
            try:
                events = tracker.process(frame)
            except Exception:  # one bad frame must not stop the referee
                log.exception("tracking failed on frame %s", frame.index)
                stats.skipped += 1
                continue
            stats.frames += 1
            stats.seconds = t
            stats.events += len(events)
            status.after(events, t, s.light_status_s)
            status.tick(t)
            for event in events:
                if on_event is not None:
                    on_event(event)
            if on_frame is not None:
                on_frame(frame, events)
            if s.snapshot_s is not None and t >= next_snapshot:
                next_snapshot = t + s.snapshot_s
                jpeg = _snapshot(frame, tracker)
                if jpeg is not None:
                    table.set_snapshot(jpeg, t)
    finally:
        tracker.close()
        if source is not None:
            source.close()
    return stats
