"""``tilewatch eval track``: the live tracker on seeded simulated games,
against their ground truth.

Every game runs the real loop (:func:`device.track.loop.run_loop`) on the
simulated camera, onto a real :class:`~device.table.Table` with its SQLite
record in a temporary folder, exactly as ``tilewatch serve`` would. The
simulated players drop tiles and pieces (some breaking a rule, then taking
them back), rest a hand on the board, knock the camera; every third game a
lamp is switched on half way. When the tracker asks the players about
cells it could not read, the evaluation answers with the true codes (as a
player would) and counts the question.

Measured, per placement the simulator made (its script's ``placed`` events):

- *judged right*: the first verdict after it (before the next placement)
  is the true one: ``placed`` with the true cells and codes for a legal
  placement, ``illegal`` for a refused one (the reason is compared too);
- *false placements*: verdicts that match no placement, or say something
  else than the truth (a move that did not happen, a wrong verdict);
- *delay*: from the hand leaving the board (the first frame after the
  placement with no hand over the grid) to the verdict, in stream seconds;
  placements settled by a question are left out;
- *unsure prompts* per game.

    tilewatch eval track                 # 50 BITS + 20 LITS games
    tilewatch eval track --games 2       # a quick look: 2 of each
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from device.cli import CliError, print_json
from device.sources.base import Frame, FrameSource
from device.sources.simulated import SimulatedSource
from device.store import Store
from device.table import Table, TableError
from device.track.loop import LoopSettings, run_loop
from device.track.scenarios import Lamp, LampLight, sim_game, table_setup
from engine.errors import ActionError

VERDICTS = ("placed", "illegal")
# Players notice a placement the phones did not show after this long.
MISSED_S = 4.0
# The camera keeps watching after the game's last tile (the players read
# the final score): a game script ends with the last card, which may come
# less than a settle time after the last tile went down.
AFTER_GAME_S = 2.0


@dataclass
class Truth:
    """One placement the simulated player made."""

    t: float
    cells: dict[tuple[int, int], str]
    legal: bool
    reason: str


@dataclass
class GameResult:
    """One game's score (see the module docstring)."""

    game: str
    seed: int
    placements: int = 0
    right: int = 0
    reason_right: int = 0
    illegal_truth: int = 0
    missed: int = 0
    false: int = 0
    unsure: int = 0
    asked: list[list[tuple[int, int]]] = field(default_factory=list)  # each question's cells
    delays: list[float] = field(default_factory=list)
    view_moved: int = 0
    light_changed: int = 0
    lamp: bool = False
    bumps: int = 0
    rests: int = 0
    frames: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    fixes: int = 0  # wrong verdicts the emulated players put right on the phone
    problems: list[str] = field(default_factory=list)


def _codes(game: str, rows: Sequence[str]) -> list[str]:
    """Board text as the tracker's codes (LITS: any uncovered cell is '.')."""
    if game == "lits":
        return ["".join(ch if ch in "LITS" else "." for ch in row) for row in rows]
    return list(rows)


def _truths(script: Any) -> list[Truth]:
    out = []
    for e in script.events:
        if e["kind"] != "placed":
            continue
        cells = {
            (int(r), int(c)): code for (r, c), code in zip(e["cells"], e["codes"], strict=True)
        }
        out.append(Truth(float(e["t"]), cells, bool(e.get("legal", True)), str(e.get("reason"))))
    return out


def _verdict_cells(event: dict[str, Any]) -> dict[tuple[int, int], str]:
    return {
        (int(r), int(c)): code for (r, c), code in zip(event["cells"], event["codes"], strict=True)
    }


def run_game(
    game: str,
    seed: int,
    fps: float = 10.0,
    conditions: str | None = "random",
    lamp: bool = False,
    size: tuple[int, int] = (640, 480),
    moves: int | None = None,
) -> GameResult:
    """Play one seeded simulated game through the tracker and score it
    (``moves``: cut the game short after that many placements)."""
    script = sim_game(game, seed, moves)
    played = script.duration
    if script.clips:
        script.add_clip(AFTER_GAME_S, script.clips[-1].resting)
    name, setup = table_setup(script)
    cond = f"{conditions}:{seed}" if conditions == "random" else conditions
    source: FrameSource = SimulatedSource(script, fps=fps, seed=seed, conditions=cond, size=size)
    result = GameResult(game, seed, lamp=lamp)
    if lamp:
        at = played * (0.35 + 0.3 * ((seed * 7919) % 100) / 100)
        source = Lamp(source, LampLight(at=at, x=(seed % 3) / 2, y=0.1))
    truths = _truths(script)
    result.placements = len(truths)
    result.illegal_truth = sum(not tr.legal for tr in truths)
    result.bumps = sum(e["kind"] == "bump" for e in script.events)
    hands: list[tuple[float, bool]] = []
    board_now: list[list[str]] = [[]]
    events: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tilewatch-eval-") as folder:
        table = Table(Store(Path(folder) / "eval.db"), pin="0000")
        table.new_game(name, setup, source="replay")

        answered: set[int] = set()
        verdicts: list[dict[str, Any]] = []

        def on_frame(frame: Frame, _: list[dict[str, Any]]) -> None:
            hands.append((frame.t, bool(frame.meta.get("hand_over_board"))))
            board_now[0] = _codes(game, frame.meta.get("board", []))
            _players_read(game, table, verdicts, truths, answered, result)
            verdicts.clear()
            # A placement the camera let pass: the players enter it by hand.
            for i, truth in enumerate(truths):
                if i in answered or frame.t < truth.t + MISSED_S:
                    continue
                answered.add(i)
                if truth.legal:
                    result.fixes += _enter_by_hand(table, game, truth)

        def on_event(event: dict[str, Any]) -> None:
            events.append(event)
            if event["type"] == "unsure":
                # a player answers with what is really there
                rows = board_now[0]
                codes = [rows[r][c] for r, c in event["cells"]] if rows else []
                table.resolve_alert(int(event["alert"]), "confirm", codes, source="replay")
            elif event["type"] in VERDICTS:
                verdicts.append(event)  # settled with the look's others, on_frame

        start = time.perf_counter()
        stats = run_loop(
            lambda: source,
            table,
            threading.Event(),
            settings=LoopSettings(until_end=True, snapshot_s=None),
            on_event=on_event,
            on_frame=on_frame,
        )
        result.wall = time.perf_counter() - start
        table.close()
        table.store.close()
    result.frames = stats.frames
    result.seconds = stats.seconds
    _score(result, truths, events, hands)
    return result


def _players_read(
    game: str,
    table: Table,
    verdicts: Sequence[dict[str, Any]],
    truths: list[Truth],
    answered: set[int],
    result: GameResult,
) -> None:
    """The players read one look's verdicts together, as the phone shows
    them, and put wrong ones right (:func:`_players_fix`). Two tiles placed
    in one look (two quick drops seen after a knock) are two right
    verdicts in whichever order the camera recorded them, not a missed
    tile and a second verdict about a settled one: answering the first
    alone, they would undo the second and leave the game a card behind.
    ``answered``: truths already settled, updated."""
    claimed = {
        j
        for e in verdicts
        if e["type"] == "placed"
        for j, tr in enumerate(truths)
        if j not in answered and tr.legal and tr.cells == _verdict_cells(e)
    }
    for event in verdicts:
        truth = _judged(truths, event, answered)
        missed: list[Truth] = []
        if truth is not None and truths.index(truth) in answered:
            truth = None  # a second verdict about a placement already settled
        if truth is not None:
            index = truths.index(truth)
            claimed.discard(index)
            missed = [
                tr for j, tr in enumerate(truths[:index]) if j not in answered and j not in claimed
            ]
            answered.update(j for j in range(index + 1) if j not in claimed)
        _players_fix(game, table, event, truth, result, missed)


def _latest(truths: list[Truth], t: float) -> Truth | None:
    """The last placement made before ``t``."""
    before = [tr for tr in truths if tr.t <= t + 0.05]
    return before[-1] if before else None


def _judged(truths: list[Truth], event: dict[str, Any], answered: set[int]) -> Truth | None:
    """The placement a verdict is about: a placement not yet answered with
    exactly the cells the verdict recorded (a late verdict), else the last
    one made before it."""
    latest = _latest(truths, event["t"])
    if latest is None or event["type"] != "placed":
        return latest
    cells = _verdict_cells(event)
    for j in range(truths.index(latest), -1, -1):
        if j not in answered and truths[j].legal and truths[j].cells == cells:
            return truths[j]
    return latest


def _enter_by_hand(table: Table, game: str, truth: Truth) -> bool:
    """The placement as players would enter it on the phone; False when the
    game refuses it (the phone says why and they leave it: no alert stays)."""
    cells = [list(c) for c in sorted(truth.cells)]
    if game == "lits":
        shape = next(iter(truth.cells.values()))
        action: dict[str, Any] = {"type": "place", "shape": shape, "cells": cells}
    else:
        assert table.game is not None
        rows = [list(r) for r in table.game.view()["players"][0]["board"]]
        for (r, c), code in truth.cells.items():
            rows[r][c] = code
        action = {"type": "place", "player": 0, "rows": ["".join(r) for r in rows]}
    before = {a["id"] for a in table.alerts()}
    try:
        events = table.apply(action, source="replay")
    except (ActionError, TableError):  # the game is elsewhere: nothing to enter
        return False
    if any(e.get("type") == "placed" for e in events):
        return True
    for alert in table.alerts():
        if alert["id"] not in before:
            with contextlib.suppress(TableError):
                table.resolve_alert(alert["id"], "accept", source="replay")
    return False


def _players_fix(
    game: str,
    table: Table,
    event: dict[str, Any],
    truth: Truth | None,
    result: GameResult,
    missed: Sequence[Truth] = (),
) -> None:
    """Players at a real table put a wrong verdict right on their phones:
    a placement that should not count is undone (and the one really made
    entered instead), a refusal of a legal placement is overruled (where
    the rules let players do that). ``missed``: earlier placements the
    camera let pass without a verdict; the phone still shows their card
    (a BITS refusal says "the card shows ..."), so the players enter them
    first, in order, and then the placement just judged: overruling the
    refusal instead would record the new tile on the missed tile's card
    and leave the game a card behind the table for the rest of the round.
    Each fix is counted; the game then goes on as it really is."""
    missed = [tr for tr in missed if tr.legal]  # a refused tile was taken back
    if event["type"] == "placed":
        right = truth is not None and truth.legal and _verdict_cells(event) == truth.cells
        if right and not missed:
            return
        table.undo(source="replay")
        result.fixes += 1
        for tr in missed:
            result.fixes += _enter_by_hand(table, game, tr)
        if truth is not None and truth.legal:
            # and enter what was really placed, as they would on the phone
            _enter_by_hand(table, game, truth)
        return
    for tr in missed:
        result.fixes += _enter_by_hand(table, game, tr)
    if truth is not None and not truth.legal:
        return
    if missed and truth is not None:
        # entering the missed tiles settled the refusal (it was judged
        # against the wrong card): enter the placement just made too
        result.fixes += _enter_by_hand(table, game, truth)
        return
    for alert in reversed(table.alerts()):
        if alert["kind"] != "illegal":
            continue
        if truth is None:
            # a refusal of a move nobody made: they dismiss it; overruling
            # would record the phantom tile and spend the card on it
            table.resolve_alert(alert["id"], "accept", source="replay")
        elif alert["can_overrule"]:
            table.resolve_alert(alert["id"], "overrule", source="replay")
        else:
            # a rule the phone cannot overrule (a LITS refusal): they enter
            # the placement really made by hand, which settles the alert
            _enter_by_hand(table, game, truth)
        result.fixes += 1
        return


def _hand_left(hands: list[tuple[float, bool]], after: float) -> float | None:
    """The first frame time at or after ``after`` with no hand over the grid."""
    for t, over in hands:
        if t >= after and not over:
            return t
    return None


def _score(
    result: GameResult,
    truths: list[Truth],
    events: list[dict[str, Any]],
    hands: list[tuple[float, bool]],
) -> None:
    result.unsure = sum(e["type"] == "unsure" for e in events)
    result.asked = [
        [(int(r), int(c)) for r, c in e.get("cells", [])] for e in events if e["type"] == "unsure"
    ]
    result.view_moved = sum(e["type"] == "view_moved" for e in events)
    result.light_changed = sum(e["type"] == "light_changed" for e in events)
    verdicts = [e for e in events if e["type"] in VERDICTS]
    late = _late(truths, verdicts)
    used: set[int] = set(late.values())
    for i, truth in enumerate(truths):
        end = truths[i + 1].t if i + 1 < len(truths) else float("inf")
        window = [
            (k, e)
            for k, e in enumerate(verdicts)
            if truth.t - 0.05 <= e["t"] < end and k not in used
        ]
        if i in late:
            window = [(late[i], verdicts[late[i]])]
        asked = any(e["type"] == "unsure" and truth.t - 0.05 <= e["t"] < end for e in events)
        if not window:
            result.missed += 1
            result.problems.append(f"missed at {truth.t:.1f}s: {_show(truth)}")
            continue
        k, verdict = window[0]
        used.add(k)
        if truth.legal:
            good = verdict["type"] == "placed" and _verdict_cells(verdict) == truth.cells
        else:
            good = verdict["type"] == "illegal"
            if good and verdict.get("reason") == truth.reason:
                result.reason_right += 1
        if good:
            result.right += 1
            left = _hand_left(hands, truth.t)
            if left is not None and not asked:
                result.delays.append(round(max(0.0, verdict["t"] - left), 3))
        else:
            result.false += 1
            result.problems.append(
                f"wrong at {verdict['t']:.1f}s: said {_said(verdict)}, truth {_show(truth)}"
            )
    for k, verdict in enumerate(verdicts):
        if k not in used:
            result.false += 1
            result.problems.append(f"extra at {verdict['t']:.1f}s: said {_said(verdict)}")


def _late(truths: list[Truth], verdicts: list[dict[str, Any]]) -> dict[int, int]:
    """Placements judged right but late, after the next one was made:
    truth index -> verdict index. As the players see it (:func:`_judged`):
    a legal placement with no verdict of its own, then a "placed" with
    exactly its cells before they would have entered it by hand."""
    out: dict[int, int] = {}
    for i, truth in enumerate(truths[:-1]):
        end = truths[i + 1].t
        if not truth.legal or any(truth.t - 0.05 <= v["t"] < end for v in verdicts):
            continue
        for k, v in enumerate(verdicts):
            if k in out.values() or not end <= v["t"] < truth.t + MISSED_S:
                continue
            if v["type"] == "placed" and _verdict_cells(v) == truth.cells:
                out[i] = k
                break
    return out


def _show(truth: Truth) -> str:
    cells = " ".join(f"{r},{c}={code}" for (r, c), code in sorted(truth.cells.items()))
    return f"{'legal' if truth.legal else truth.reason} {cells}"


def _said(event: dict[str, Any]) -> str:
    cells = " ".join(f"{r},{c}" for r, c in event.get("cells", []))
    if event["type"] == "placed":
        return f"placed {event.get('codes')} at {cells}"
    return f"illegal {event.get('reason')} at {cells}"


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary(results: list[GameResult]) -> dict[str, Any]:
    """Totals over games, per game kind and overall."""
    out: dict[str, Any] = {}
    for kind in ("bits", "lits", "all"):
        rs = [r for r in results if kind == "all" or r.game == kind]
        if not rs:
            continue
        placements = sum(r.placements for r in rs)
        delays = [d for r in rs for d in r.delays]
        out[kind] = {
            "games": len(rs),
            "placements": placements,
            "illegal_placements": sum(r.illegal_truth for r in rs),
            "judged_right": sum(r.right for r in rs),
            "judged_right_pct": round(100.0 * sum(r.right for r in rs) / placements, 2)
            if placements
            else None,
            "illegal_reason_right": sum(r.reason_right for r in rs),
            "missed": sum(r.missed for r in rs),
            "false_placements": sum(r.false for r in rs),
            "unsure_prompts": sum(r.unsure for r in rs),
            "player_fixes": sum(r.fixes for r in rs),
            "unsure_per_game": round(sum(r.unsure for r in rs) / len(rs), 2),
            "delay_median_s": None if not delays else round(statistics.median(delays), 3),
            "delay_p95_s": _percentile(delays, 0.95),
            "bumps": sum(r.bumps for r in rs),
            "view_moved_events": sum(r.view_moved for r in rs),
            "lamp_games": sum(r.lamp for r in rs),
            "light_changed_events": sum(r.light_changed for r in rs),
            "frames": sum(r.frames for r in rs),
            "stream_s": round(sum(r.seconds for r in rs), 1),
            "wall_s": round(sum(r.wall for r in rs), 1),
        }
    return out


ROWS = (
    ("games", "games"),
    ("placements", "placements (of them illegal)"),
    ("judged_right_pct", "judged right, %"),
    ("false_placements", "false placements"),
    ("missed", "missed placements"),
    ("player_fixes", "wrong verdicts put right by players"),
    ("unsure_per_game", "unsure prompts per game"),
    ("delay_median_s", "delay hand-off to verdict, median s"),
    ("delay_p95_s", "delay hand-off to verdict, p95 s"),
    ("bumps", "camera bumps (view moved events)"),
    ("lamp_games", "lamp switched on (light changed events)"),
    ("frames", "frames (stream seconds)"),
)


def table_text(totals: dict[str, Any]) -> str:
    kinds = [k for k in ("bits", "lits", "all") if k in totals]
    lines = [f"{'':44}" + "".join(f"{k.upper():>14}" for k in kinds)]
    for key, label in ROWS:
        cells = []
        for k in kinds:
            v = totals[k]
            if key == "placements":
                text = f"{v['placements']} ({v['illegal_placements']})"
            elif key == "bumps":
                text = f"{v['bumps']} ({v['view_moved_events']})"
            elif key == "lamp_games":
                text = f"{v['lamp_games']} ({v['light_changed_events']})"
            elif key == "frames":
                text = f"{v['frames']} ({v['stream_s']:.0f})"
            else:
                text = "-" if v[key] is None else f"{v[key]}"
            cells.append(f"{text:>14}")
        lines.append(f"{label:44}" + "".join(cells))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    bits = args.bits if args.games is None else args.games
    lits = args.lits if args.games is None else args.games
    if bits < 0 or lits < 0 or bits + lits == 0:
        raise CliError("give a positive number of games")
    if args.fps <= 0:
        raise CliError("--fps must be positive")
    if args.moves is not None and args.moves < 1:
        raise CliError("--moves must be at least 1")
    size = _size(args.size)
    plan = [("bits", args.seed + i) for i in range(bits)] + [
        ("lits", args.seed + i) for i in range(lits)
    ]
    results = []
    for n, (game, seed) in enumerate(plan, start=1):
        lamp = args.lamp_every > 0 and n % args.lamp_every == 0
        r = run_game(game, seed, args.fps, args.conditions, lamp, size, args.moves)
        results.append(r)
        print(
            f"[{n}/{len(plan)}] {game} seed {seed}{' (lamp)' if lamp else ''}:"
            f" {r.right}/{r.placements} right,"
            f" {r.false} false, {r.unsure} unsure, {r.wall:.1f}s",
            file=sys.stderr,
        )
        for problem in r.problems[: args.show]:
            print(f"    {problem}", file=sys.stderr)
    totals = summary(results)
    if args.json:
        print_json({"summary": totals, "games": [asdict(r) for r in results]})
    else:
        print(table_text(totals))
    return 0


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise CliError(f"--size is WIDTHxHEIGHT, e.g. 640x480, not {text!r}")
    return int(w), int(h)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "track",
        help="the live tracker on seeded simulated games, against their ground truth",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("--bits", type=int, default=50, help="BITS games (default 50)")
    p.add_argument("--lits", type=int, default=20, help="LITS games (default 20)")
    p.add_argument("--games", type=int, help="this many games of each (overrides the two above)")
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--fps", type=float, default=10.0, help="camera frames per second (default 10)")
    p.add_argument(
        "--conditions",
        default="random",
        help="plain, or random (each game's conditions drawn from its seed; default)",
    )
    p.add_argument("--size", default="640x480", help="frame size (default 640x480)")
    p.add_argument("--moves", type=int, help="cut every game short after this many placements")
    p.add_argument(
        "--lamp-every", type=int, default=3, help="switch a lamp on in every Nth game (0: never)"
    )
    p.add_argument("--show", type=int, default=5, help="problems listed per game on stderr")
    p.add_argument("--json", action="store_true", help="one JSON object with every game")
    p.set_defaults(func=run)
