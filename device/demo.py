"""The built-in demo: the simulated camera playing seeded games, one after
another, each with hands over the board, a lamp switched on part way, and at
least one placement that breaks a rule, so a newcomer sees every part of the
live page work without a Pi, a camera or the game itself.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from device.sim.script import Script
from device.sources.base import FrameSource
from device.sources.simulated import SimulatedSource
from device.track.scenarios import Lamp, LampLight, sim_game, table_setup

log = logging.getLogger(__name__)

# Seeds tried after the requested one until a game has an illegal placement.
SEED_SEARCH = 50


def _breaks_a_rule(script: Script) -> bool:
    return any(e["kind"] == "placed" and not e.get("legal", True) for e in script.events)


@dataclass
class DemoGames:
    """Deals the demo's games: each call to :meth:`next_source` sets up the
    next game on the table and returns the camera that watches it."""

    table: Any
    game: str = "bits"
    seed: int = 1
    realtime: bool = True
    fps: float = 15.0
    size: tuple[int, int] = (640, 480)
    played: int = 0

    def _script(self) -> tuple[int, Script]:
        for seed in range(self.seed, self.seed + SEED_SEARCH):
            script = sim_game(self.game, seed)
            if _breaks_a_rule(script):
                return seed, script
        return self.seed, sim_game(self.game, self.seed)

    def next_source(self) -> FrameSource:
        seed, script = self._script()
        self.seed = seed + 1
        name, setup = table_setup(script)
        self.table.new_game(name, setup, source="demo")
        self.played += 1
        log.info("demo: %s game %d (seed %d), %.0f s", name, self.played, seed, script.duration)
        camera = SimulatedSource(
            script,
            fps=self.fps,
            seed=seed,
            conditions=f"random:{seed}",
            size=self.size,
            realtime=self.realtime,
        )
        # The lamp comes on about 40% of the way through: the page shows
        # "light changed" and the reading carries on.
        lamp = LampLight(at=script.duration * 0.4, x=0.85, y=0.1)
        return Lamp(camera, lamp)
