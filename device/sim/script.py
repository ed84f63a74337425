"""A script: what happens on the table over time, as scenes and events.

A script is a list of clips laid end to end. Each clip knows the pieces at
rest while it runs and draws the moving parts (a tile sliding, a hand, a
knocked camera) from its local time. Events (a tile came to rest, a hand
entered, the camera was knocked) carry their stream time and whatever the
game adds (player, verdict), so a tracker can be scored against them.

>>> from device.sim.board import BoardSpec
>>> board = BoardSpec.bits()
>>> script = Script.still(board, "\\n".join(["......"] * 6), seconds=2.0)
>>> script.duration, script.scene_at(1.0).resting
(2.0, ())
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device.sim.board import BoardSpec
from device.sim.scene import NO_BUMP, Bump, HandPose, Piece, Placed, Scene

Motion = Callable[[float], "Moment"]


@dataclass(frozen=True)
class Moment:
    """The moving parts of one instant of a clip."""

    moving: tuple[Placed, ...] = ()
    hands: tuple[HandPose, ...] = ()
    bump: Bump = NO_BUMP
    in_motion: bool = False  # anything moving (a still resting hand is not)


@dataclass(frozen=True)
class Clip:
    start: float
    seconds: float
    resting: tuple[Piece, ...]
    motion: Motion | None = None

    def moment(self, t: float) -> Moment:
        if self.motion is None:
            return Moment()
        return self.motion(min(max(t - self.start, 0.0), self.seconds))


@dataclass
class Script:
    board: BoardSpec
    clips: list[Clip] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # about the whole run (game, seed, ...)
    bump: Bump = NO_BUMP  # where the camera sits after the last knock

    @classmethod
    def still(
        cls, board: BoardSpec, text: str, seconds: float = 1.0, symbol: str | None = None
    ) -> Script:
        """A board that just sits there (for single-frame tests and locators)."""
        scene = Scene.from_text(board, text, symbol)
        return cls(board, [Clip(0.0, seconds, scene.resting)], info={"kind": "still"})

    @property
    def duration(self) -> float:
        return self.clips[-1].start + self.clips[-1].seconds if self.clips else 0.0

    def _clip_at(self, t: float) -> Clip:
        starts = [clip.start for clip in self.clips]
        i = max(0, bisect.bisect_right(starts, t) - 1)
        return self.clips[i]

    def moment_at(self, t: float) -> tuple[Clip, Moment]:
        clip = self._clip_at(t)
        return clip, clip.moment(t)

    def scene_at(self, t: float) -> Scene:
        clip, moment = self.moment_at(t)
        return Scene(clip.resting, moment.moving, moment.hands, moment.bump)

    def events_between(self, t0: float, t1: float) -> list[dict[str, Any]]:
        """Events with ``t0 < t <= t1``."""
        return [e for e in self.events if t0 < e["t"] <= t1]

    def add_clip(
        self, seconds: float, resting: tuple[Piece, ...], motion: Motion | None = None
    ) -> float:
        """Append a clip; returns its start time."""
        start = self.duration
        self.clips.append(Clip(start, seconds, resting, motion))
        return start

    def add_event(self, t: float, kind: str, **fields: Any) -> None:
        self.events.append({"t": t, "kind": kind, **fields})
