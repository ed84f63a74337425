"""Everything one camera watches, against one table.

A :class:`CameraTracker` holds a :class:`~device.track.watch.BoardWatch` per
board in view (one LITS board, or 1 to 4 BITS ramps, one per player) and
keeps them in step with the table's game: a new game (maybe of the other
game, with another grid) rebuilds them; an answer from the phones ("these
cells are ...") reaches the board that asked; any change from a phone
re-bases the boards. Messages from the table arrive on other threads; they
wait in a queue and are handled at the start of the next frame, so all
tracking happens on the capture thread.

Several cameras at one table: one ``CameraTracker`` per camera, each given
the players whose ramps it sees (``boards``).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.profile import Profile
from device.hub import Message
from device.sources.base import Frame
from device.track.observe import find_boards
from device.track.rules import referee_for
from device.track.tracker import BoardTracker
from device.track.watch import BoardWatch, WatchSettings

log = logging.getLogger(__name__)

Event = dict[str, Any]
GRIDS = {"bits": (6, 6), "lits": (10, 10)}


@dataclass(frozen=True)
class BoardSpec:
    """One board in this camera's view: a name for events, the BITS player
    whose ramp it is, and where it is (corners in board order, UL UR LR
    LL) if known."""

    name: str = "A"
    player: int = 0
    corners: Sequence[Sequence[float]] | None = None


class CameraTracker:
    """See the module docstring. ``boards``: the boards this camera sees
    (default: one board, BITS player 0); ``profile``: the calibration to read
    colours with (shared by the boards; learnt from the first look when
    None)."""

    def __init__(
        self,
        table: Any,
        boards: Sequence[BoardSpec] | None = None,
        profile: Profile | None = None,
        settings: WatchSettings | None = None,
    ) -> None:
        self.table = table
        self.specs = list(boards or [BoardSpec()])
        if not 1 <= len(self.specs) <= 4:
            raise ValueError("one camera watches 1 to 4 boards")
        self.profile = profile
        self.settings = settings or WatchSettings()
        self.watches: list[BoardWatch] = []
        self.game_name: str | None = None
        self._inbox: queue.SimpleQueue[Message] = queue.SimpleQueue()
        self._found_all = False
        self._closed = False
        table.listen(self._receive)
        self._build()

    # --- boards ------------------------------------------------------------------
    def _build(self) -> None:
        """(Re)make the board watches for the table's current game."""
        name = self.table.game_name
        self.game_name = name
        self.watches = []
        self._found_all = False
        if name not in GRIDS:
            return
        rows, cols = GRIDS[name]
        specs = self.specs if name == "bits" else self.specs[:1]
        for spec in specs:
            referee = referee_for(name, lambda: self.table.game, spec.player)
            tracker = BoardTracker(spec.name, referee, self.table, self.profile)
            corners = None if spec.corners is None else np.asarray(spec.corners, np.float64)
            watch = BoardWatch(tracker, rows, cols, name, self.profile, corners, self.settings)
            self.watches.append(watch)
        self._found_all = all(w.fit is not None for w in self.watches)

    def _find_all(self, frame: Frame) -> None:
        """Several boards and none placed yet: find them all in one go and
        hand them out left to right."""
        self._found_all = True
        if len(self.watches) < 2 or any(w.fit is not None for w in self.watches):
            return
        w0 = self.watches[0]
        fits = find_boards(frame.image, w0.rows, w0.cols, len(self.watches))
        if len(fits) < len(self.watches):
            self._found_all = False  # try again on a later frame
            return
        for watch, fit in zip(self.watches, fits, strict=True):
            watch.fit = fit

    # --- messages from the table ---------------------------------------------------
    def _receive(self, message: Message) -> None:
        """Called by the table, on whatever thread made the change."""
        if not self._closed:
            self._inbox.put(message)

    def close(self) -> None:
        """Stop taking the table's messages, and let the table forget this
        tracker (each run of the loop makes a new one)."""
        self._closed = True
        self.table.unlisten(self._receive)

    def camera_reopened(self) -> None:
        """The camera came back: the previous frame says nothing about motion."""
        for watch in self.watches:
            watch.gate.reset()

    def _handle(self, message: Message, t: float) -> list[Event]:
        data = message.data
        if message.kind == "game" and data.get("change") == "new":
            self._build()
            return [{"type": "new_game", "t": t, "game": self.game_name}]
        if message.kind == "game" and data.get("source") != "camera":
            return [e for w in self.watches for e in w.tracker.sync(t)]
        if (
            message.kind == "alert"
            and data.get("change") == "resolved"
            and data.get("decision") == "accept"
        ):
            for w in self.watches:
                w.tracker.dismissed()
            return []
        if message.kind == "confirm":
            alert = data.get("alert")
            codes = data.get("codes") or []
            for w in self.watches:
                pending = w.tracker.pending
                if isinstance(alert, int) and pending is not None and pending.alert == alert:
                    return w.tracker.confirm(alert, list(codes), t)
        return []

    def drain(self, t: float) -> list[Event]:
        """Handle the table's messages that arrived since the last frame."""
        events: list[Event] = []
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                return events
            try:
                events += self._handle(message, t)
            except Exception:  # a bad message must not stop the camera
                log.exception("could not handle table message %s", message.kind)

    # --- frames ----------------------------------------------------------------------
    def process(self, frame: Frame) -> list[Event]:
        """Track one frame on every board; returns the events, in order."""
        events = self.drain(frame.t)
        if self.table.game_name != self.game_name:
            self._build()
        if not self._found_all:
            self._find_all(frame)
        for watch in self.watches:
            events += watch.step(frame.image, frame.t)
        return events

    def corners(self) -> list[np.ndarray | None]:
        """Where each board is in the picture (board order), None if not found."""
        return [None if w.fit is None else w.fit.corners for w in self.watches]
