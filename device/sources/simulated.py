"""The simulated camera as a frame source.

``SimulatedSource(script, fps, conditions, seed)`` renders a script (a game
from :mod:`device.sim.games`, or any :class:`~device.sim.script.Script`)
frame by frame, with the ground truth of each frame in ``Frame.meta``:

- ``game``, ``grid`` ([rows, cols]), ``t`` (stream seconds);
- ``board``: the pieces at rest, as board text rows;
- ``corners``: the grid's outer corners in pixels, UL, UR, LR, LL;
- ``occluded``: cells covered by a hand, an arm or a piece in motion;
- ``hand`` (a hand is in view), ``hand_over_board``, ``moving`` (a hand, a
  piece or the camera is moving);
- ``events``: the script's events since the previous frame (``placed`` with
  cells and verdict, ``hand_in``, ``hand_out``, ``bump``).

>>> with SimulatedSource("lits", fps=5, seed=1, size=(160, 120)) as source:
...     frame = source.read()
>>> frame.image.shape, frame.meta["grid"], len(frame.meta["corners"])
((120, 160, 3), [10, 10], 4)
"""

from __future__ import annotations

import time
from typing import Any

from device.sim.conditions import Conditions
from device.sim.games import script_for
from device.sim.renderer import Renderer
from device.sim.script import Script
from device.sources.base import Frame, FrameSource


def conditions_from(spec: Conditions | str | None, seed: int, game: str) -> Conditions:
    """``None``/"plain" = the easy default; "random" (or "random:N") = varied
    conditions drawn from the seed (or N)."""
    if isinstance(spec, Conditions):
        return spec
    if spec is None or spec in ("", "plain", "neutral"):
        return Conditions(seed=seed)
    name, _, number = spec.partition(":")
    if name == "random":
        try:
            return Conditions.random(int(number) if number else seed, game)
        except ValueError:
            raise ValueError(f"conditions {spec!r}: random:N needs a whole number") from None
    raise ValueError(f"unknown conditions {spec!r}: use plain, random or random:N")


class SimulatedSource(FrameSource):
    """Frames of ``script`` at ``fps``; ``None`` after its last frame, or
    over again from the start when ``loop``. With ``realtime`` each read
    waits until its frame is due, as a live camera would."""

    def __init__(
        self,
        script: Script | str = "bits",
        fps: float = 10.0,
        conditions: Conditions | str | None = None,
        seed: int = 0,
        size: tuple[int, int] = (640, 480),
        realtime: bool = False,
        loop: bool = False,
        players: int = 2,
        player: int = 0,
    ) -> None:
        if fps <= 0:
            raise ValueError("fps must be positive")
        if isinstance(script, str):
            script = script_for(script, seed, players=players, player=player)
        self.script = script
        game = self.script.board.game
        self.conditions = conditions_from(conditions, seed, game)
        self.fps = float(fps)
        self.seed = seed
        self.realtime = realtime
        self.loop = loop
        self.renderer = Renderer(self.script.board, self.conditions, size, seed)
        self.name = f"sim:{game}"
        self._index = 0
        self._lap = 0
        self._started: float | None = None

    @property
    def frame_count(self) -> int:
        """Frames in one pass of the script."""
        return int(self.script.duration * self.fps) + 1

    def read(self) -> Frame | None:
        index = self._index
        lap_index = index - self._lap * self.frame_count
        if lap_index >= self.frame_count:
            if not self.loop:
                return None
            self._lap += 1
            lap_index = 0
            self.renderer.reset()
        t = index / self.fps
        script_t = lap_index / self.fps
        if self.realtime:
            now = time.monotonic()
            if self._started is None:
                self._started = now - t
            delay = self._started + t - now
            if delay > 0:
                time.sleep(delay)
        self._index += 1
        return self.frame_at(script_t, index, t)

    def frame_at(self, script_t: float, index: int, t: float | None = None) -> Frame:
        """Render the script at ``script_t`` (stream time ``t``, default the same)."""
        stream_t = script_t if t is None else t
        scene = self.script.scene_at(script_t)
        shot = self.renderer.render(scene, stream_t, index)
        _, moment = self.script.moment_at(script_t)
        previous = script_t - 1.0 / self.fps if index > 0 else -1.0
        events = self.script.events_between(previous, script_t)
        meta: dict[str, Any] = {
            "game": self.script.board.game,
            "grid": [self.script.board.rows, self.script.board.cols],
            "t": stream_t,
            **shot.truth,
            # something visibly moves: a piece, a hand in view, the camera
            "moving": bool(moment.moving)
            or (moment.in_motion and (shot.truth["hand"] or not moment.hands)),
            "events": events,
        }
        return Frame(image=shot.image, t=stream_t, index=index, meta=meta)


def open_simulated(arg: str = "", **options: Any) -> SimulatedSource:
    """``open_source("sim:lits")``: the argument is the game ("bits" by
    default), optionally with ``,key=value`` settings: ``seed``, ``fps``,
    ``conditions`` (plain, random, random:N), ``size`` (WxH), ``realtime``,
    ``loop``, BITS ``players`` and the watched ``player``; e.g.
    ``sim:bits,seed=3,conditions=random,realtime=1``."""
    game, *pairs = [part.strip() for part in (arg or "bits").split(",")]
    settings: dict[str, Any] = dict(options)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"sim option {pair!r} is not key=value")
        if key in ("seed", "players", "player"):
            settings[key] = int(value)
        elif key == "fps":
            settings[key] = float(value)
        elif key in ("realtime", "loop"):
            settings[key] = value.lower() in ("1", "true", "yes", "on")
        elif key == "size":
            w, _, h = value.lower().partition("x")
            settings[key] = (int(w), int(h))
        elif key == "conditions":
            settings[key] = value
        else:
            raise ValueError(
                f"unknown sim option {key!r}: seed, fps, conditions, size, realtime, loop,"
                " players, player"
            )
    return SimulatedSource(game or "bits", **settings)
