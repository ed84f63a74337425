"""``tilewatch replay SOURCE``: run the live tracker on a recording and print
what it saw: placements, refusals, questions, a moved view, a new lamp.

SOURCE is anything ``--camera`` takes: a video file, a folder of images, or
a simulated game (``sim:bits,seed=3``, ``sim:lits,seed=2,conditions=random``).
The tracker judges against a real game on a table whose record lives in a
temporary file (or ``--store FILE`` to keep it), exactly as ``serve`` does.

The game: a simulated one brings its own set-up (the same cards, the same
LITS layout); for a recording say which game it is (``--game``, ``--players``,
``--seed`` for the virtual deck, ``--layout`` for LITS), or give the folder's
``truth.json`` from ``tilewatch simulate``, which carries it.

    tilewatch replay sim:bits,seed=3
    tilewatch replay run/ --json            # a folder from tilewatch simulate
    tilewatch replay game.mp4 --game lits --layout crossfire
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from device.cli import CliError, print_json
from device.sources.base import Frame, FrameSource, SourceGone
from device.sources.open import open_source
from device.store import Store, StoreError
from device.table import Table, TableError
from device.track.camera import BoardSpec
from device.track.loop import LoopSettings, run_loop
from device.track.scenarios import setup_from_info, table_setup

# Seconds of stream time between progress updates on stderr.
PROGRESS_S = 5.0


def _open(spec: str) -> FrameSource:
    options: dict[str, Any] = {}
    if spec.strip().startswith("sim"):
        options["players"] = 1  # the camera sees every ramp of a solo game
    try:
        return open_source(spec, **options)
    except (SourceGone, ValueError) as err:
        raise CliError(str(err)) from None


def _truth_file(spec: str) -> Path | None:
    path = Path(spec)
    for candidate in (path / "truth.json", path.with_name(path.name + ".json")):
        if candidate.is_file():
            return candidate
    return None


def game_setup(args: argparse.Namespace, source: FrameSource) -> tuple[str, dict[str, Any]]:
    """The game to judge against: the simulated game's own, the truth file's,
    or the one the options describe."""
    script = getattr(source, "script", None)
    if script is not None:
        return table_setup(script)
    truth = _truth_file(args.source)
    if truth is not None and args.game is None:
        try:
            info = json.loads(truth.read_text(encoding="utf-8")).get("script") or {}
        except (OSError, ValueError) as err:
            raise CliError(f"cannot read {truth}: {err}") from None
        if info.get("game") in ("bits", "lits"):
            return setup_from_info(info)
    game = args.game or "bits"
    if game == "lits":
        setup: dict[str, Any] = {"players": _players(args.players, 2)}
        setup["layout"] = args.layout or "crossfire"
        return game, setup
    setup = {"players": _players(args.players, 1), "deck": args.deck}
    if args.seed is not None:
        setup["seed"] = args.seed
    return game, setup


def _players(text: str | None, default: int) -> list[str]:
    if not text:
        return [f"Player {i + 1}" for i in range(default)]
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise CliError("--players is a comma-separated list of names")
    return names


class _Progress:
    """A one-line progress bar on stderr for long input (a terminal only)."""

    def __init__(self, total_s: float | None, enabled: bool) -> None:
        self.total_s = total_s
        self.enabled = enabled and sys.stderr.isatty()
        self.next = 0.0

    def __call__(self, frame: Frame) -> None:
        if not self.enabled or frame.t < self.next:
            return
        self.next = frame.t + PROGRESS_S
        if self.total_s:
            share = min(frame.t / self.total_s, 1.0)
            bar = "#" * int(share * 30)
            sys.stderr.write(f"\r[{bar:<30}] {frame.t:6.1f}/{self.total_s:.0f} s")
        else:
            sys.stderr.write(f"\r{frame.t:7.1f} s")
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def describe(event: dict[str, Any]) -> str:
    """One line for a person."""
    kind = event["type"]
    where = " ".join(f"{r + 1},{c + 1}" for r, c in event.get("cells", []))
    head = f"{event['t']:8.2f}s  board {event.get('board', '-')}  {kind}"
    if kind == "placed":
        settled = " (settled by the game)" if event.get("settled") else ""
        return f"{head} {event.get('codes')} at {where}{settled}"
    if kind == "illegal":
        return f"{head} {event.get('reason')} at {where}: {event.get('message', '')}"
    if kind == "unsure":
        options = " ".join("/".join(c) for c in event.get("candidates", []))
        return f"{head} at {where}: could be {options}"
    if kind == "view_moved":
        return f"{head}" + ("" if event.get("found") else " (grid not found; searching)")
    if kind == "light_changed":
        return f"{head} gain {event.get('gain')}"
    return head


def run(args: argparse.Namespace) -> int:
    source = _open(args.source)
    game, setup = game_setup(args, source)
    profile = None
    if args.profile:
        from calibration.profile import Profile, ProfileError

        try:
            profile = Profile.load(args.profile)
        except ProfileError as err:
            raise CliError(str(err)) from None
    total = getattr(source, "frame_count", None)
    fps = getattr(source, "fps", None)
    progress = _Progress(total / fps if total and fps else None, not args.quiet)
    events: list[dict[str, Any]] = []

    def on_event(event: dict[str, Any]) -> None:
        events.append(event)
        if not args.json:
            print(describe(event), flush=True)

    with tempfile.TemporaryDirectory(prefix="tilewatch-replay-") as folder:
        path = Path(args.store) if args.store else Path(folder) / "replay.sqlite"
        try:
            table = Table(Store(path), pin="0000")
            table.new_game(game, setup, source="replay")
        except (StoreError, TableError) as err:
            raise CliError(str(err)) from None
        boards = [BoardSpec(name="A", player=args.player)]
        stats = run_loop(
            lambda: source,
            table,
            threading.Event(),
            profile=profile,
            boards=boards,
            settings=LoopSettings(until_end=True, snapshot_s=None),
            on_event=on_event,
            on_frame=lambda frame, _: progress(frame),
        )
        progress.done()
        view = table.game.view() if table.game is not None else None
        table.close()
        table.store.close()
    if args.json:
        print_json(
            {
                "game": game,
                "setup": setup,
                "frames": stats.frames,
                "skipped": stats.skipped,
                "seconds": round(stats.seconds, 3),
                "events": events,
                "view": view,
            }
        )
    else:
        print(
            f"{stats.frames} frames, {stats.seconds:.1f} s of stream time,"
            f" {sum(e['type'] in ('placed', 'illegal') for e in events)} verdicts"
        )
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "replay",
        help="run the tracker on a video, an image folder or a simulated game; print the events",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("source", help="video file, image folder, or sim:bits / sim:lits,seed=N")
    p.add_argument("--game", choices=("bits", "lits"), help="the game on the recording")
    p.add_argument("--players", help="player names, comma-separated")
    p.add_argument("--player", type=int, default=0, help="BITS: whose ramp is filmed (from 0)")
    p.add_argument("--seed", type=int, help="BITS virtual deck: the seed the game was dealt with")
    p.add_argument(
        "--deck", choices=("virtual", "physical"), default="virtual", help="BITS card deck"
    )
    p.add_argument("--layout", help="LITS: the board's layout name (default crossfire)")
    p.add_argument("--profile", help="calibration profile (TOML) to read colours with")
    p.add_argument("--store", help="keep the game record in this SQLite file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="one JSON object with every event")
    p.set_defaults(func=run)
