"""Running scripted simulated play through the real tracking loop, onto a
real table (SQLite in a temporary folder), for the tests."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.sim.conditions import Conditions
from device.sim.script import Script
from device.sources.base import Frame, FrameSource
from device.sources.simulated import SimulatedSource
from device.store import Store
from device.table import Table
from device.track.loop import LoopSettings, run_loop


@dataclass
class Run:
    """What a run of the loop produced: tracking events, the camera
    statuses the table published, the table itself (still open)."""

    table: Table
    events: list[dict[str, Any]]
    statuses: list[str] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)

    def kinds(self) -> list[str]:
        return [e["type"] for e in self.events]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


def camera(script: Script, art: str = "", fps: float = 10.0, **conditions: Any) -> SimulatedSource:
    cond = Conditions(art=art, **conditions)
    return SimulatedSource(script, fps=fps, conditions=cond, seed=1)


def run(
    tmp_path: Path,
    source: FrameSource | Any,
    game: str,
    setup: dict[str, Any],
    answer: bool = True,
    keep_frames: bool = False,
    boards: list[Any] | None = None,
) -> Run:
    """Track ``source`` (a frame source, or a factory of sources) to its end.
    With ``answer``, unsure alerts are answered with the true cells, as
    players would."""
    table = Table(Store(tmp_path / "table.sqlite"), pin="1234")
    table.new_game(game, setup)
    result = Run(table, [])
    table.listen(lambda m: result.statuses.append(m.data["status"]) if m.kind == "camera" else None)
    truth: list[list[str]] = [[]]

    def on_frame(frame: Frame, _: list[dict[str, Any]]) -> None:
        truth[0] = list(frame.meta.get("board", []))
        if keep_frames:
            result.frames.append(frame)

    def on_event(event: dict[str, Any]) -> None:
        result.events.append(event)
        if answer and event["type"] == "unsure" and truth[0]:
            codes = [truth[0][r][c] for r, c in event["cells"]]
            if game == "lits":
                codes = [c if c in "LITS" else "." for c in codes]
            table.resolve_alert(event["alert"], "confirm", codes)

    factory = (
        source if callable(source) and not isinstance(source, FrameSource) else (lambda: source)
    )
    run_loop(
        factory,
        table,
        threading.Event(),
        boards=boards,
        settings=LoopSettings(until_end=True, snapshot_s=None, retry_s=0.01),
        on_event=on_event,
        on_frame=on_frame,
    )
    return result
