"""``tilewatch simulate``: write a simulated game to disk for anyone to replay.

An image folder (``frame00000.png`` ...) or a video file, plus ``truth.json``
(next to a video: ``<video>.json``) with the conditions, the event list and
the ground truth of every frame (board, grid corners UL/UR/LR/LL in pixels,
occluded cells, hand, moving). Replay the folder with ``--camera DIR``.

    tilewatch simulate --game lits --seed 4 --conditions random --out run/
    tilewatch simulate --game bits --video bits.mp4 --seconds 20 --set kelvin=2700
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from device.cli import CliError, print_json
from device.sim.games import GAMES, script_for
from device.sources.simulated import SimulatedSource, conditions_from

TRUTH_KEYS = ("t", "board", "corners", "occluded", "hand", "hand_over_board", "moving")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="render a simulated game (frames + ground truth) to a folder or a video",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("--game", choices=GAMES, default="bits")
    parser.add_argument("--seed", type=int, default=0, help="game, motion and noise seed")
    parser.add_argument("--players", type=int, default=2, help="BITS players (1-4)")
    parser.add_argument(
        "--player", type=int, default=0, help="BITS: whose ramp the camera watches (from 0)"
    )
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument(
        "--conditions", default="plain", help="plain, random or random:N (a conditions seed)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one condition, e.g. --set kelvin=2700 --set tilt_deg=30",
    )
    parser.add_argument("--size", default="640x480", help="frame size WxH")
    parser.add_argument("--seconds", type=float, help="stop after this much stream time")
    parser.add_argument("--frames", type=int, help="stop after this many frames")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", type=Path, help="folder for frames and truth.json")
    out.add_argument("--video", type=Path, help="video file (.mp4 or .avi); truth beside it")
    parser.add_argument("--format", choices=("png", "jpg"), default="png", help="frame files")
    parser.add_argument("--json", action="store_true", help="print a summary object")
    parser.set_defaults(func=run)


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise CliError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 640x480")
    size = (int(w), int(h))
    if not (16 <= size[0] <= 4096 and 16 <= size[1] <= 4096):
        raise CliError(f"--size {text}: each side must be 16..4096 pixels")
    return size


def run(args: argparse.Namespace) -> int:
    if args.fps <= 0:
        raise CliError("--fps must be positive")
    size = _size(args.size)
    overrides: dict[str, str] = {}
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--set {item!r}: expected NAME=VALUE")
        overrides[name.strip()] = value.strip()
    try:
        conditions = conditions_from(args.conditions, args.seed, args.game).with_overrides(
            overrides
        )
        script = script_for(args.game, args.seed, players=args.players, player=args.player)
        source = SimulatedSource(script, args.fps, conditions, args.seed, size)
    except ValueError as err:
        raise CliError(str(err)) from None
    limit = source.frame_count
    if args.frames is not None:
        limit = min(limit, max(args.frames, 0))
    if args.seconds is not None:
        limit = min(limit, int(args.seconds * args.fps) + 1)

    writer = None
    if args.video:
        truth_path = args.video.with_suffix(args.video.suffix + ".json")
        args.video.parent.mkdir(parents=True, exist_ok=True)
        codec = "MJPG" if args.video.suffix.lower() == ".avi" else "mp4v"
        fourcc = cv2.VideoWriter.fourcc(*codec)
        writer = cv2.VideoWriter(str(args.video), fourcc, args.fps, size)
        if not writer.isOpened():
            raise CliError(f"cannot write video {args.video} (try .avi)")
    else:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CliError(f"cannot create {args.out}: {err.strerror}") from None
        truth_path = args.out / "truth.json"

    frames: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    try:
        for _ in range(limit):
            frame = source.read()
            if frame is None:
                break
            entry = {"index": frame.index, **{k: frame.meta[k] for k in TRUTH_KEYS}}
            if writer is not None:
                writer.write(frame.image)
            else:
                name = f"frame{frame.index:05d}.{args.format}"
                if not cv2.imwrite(str(args.out / name), frame.image):
                    raise CliError(f"cannot write {args.out / name}")
                entry["file"] = name
            frames.append(entry)
            events.extend(frame.meta["events"])
    finally:
        if writer is not None:
            writer.release()
    truth = {
        "game": script.board.game,
        "grid": [script.board.rows, script.board.cols],
        "fps": args.fps,
        "seed": args.seed,
        "size": list(size),
        "corner_order": ["UL", "UR", "LR", "LL"],
        "conditions": conditions.as_dict(),
        "script": script.info,
        "events": events,
        "frames": frames,
    }
    truth_path.write_text(json.dumps(truth, indent=1), encoding="utf-8")
    summary = {
        "game": script.board.game,
        "frames": len(frames),
        "seconds": round(len(frames) / args.fps, 3),
        "events": len(events),
        "placed": sum(1 for e in events if e["kind"] == "placed"),
        "output": str(args.video or args.out),
        "truth": str(truth_path),
    }
    if args.json:
        print_json(summary)
    else:
        print(
            f"wrote {summary['frames']} frames ({summary['seconds']} s, "
            f"{summary['placed']} placements) to {summary['output']}; truth in {truth_path}"
        )
    return 0
