"""``tilewatch soak``: the demo at full speed; memory and threads over time."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from device.cli import CliError, print_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "soak",
        help="run the demo at full speed and report memory and threads over stream time",
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="stream minutes (10)")
    parser.add_argument("--game", choices=("bits", "lits"), default="bits")
    parser.add_argument("--every", type=float, default=60.0, help="stream seconds per sample")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.soak import soak, summary

    if args.minutes <= 0 or args.every <= 0:
        raise CliError("--minutes and --every must be positive")
    logging.basicConfig(level=logging.WARNING)
    result = summary(soak(args.minutes, args.game, args.every))
    if args.json:
        print_json(result)
        return 0
    print(f"{'stream s':>9} {'wall s':>7} {'RSS MB':>7} {'threads':>7} {'files':>6} {'games':>5}")
    for s in result["samples"]:
        print(
            f"{s['stream_s']:>9} {s['wall_s']:>7} {s['rss_mb']:>7} "
            f"{s['threads']:>7} {s['open_files']:>6} {s['games']:>5}"
        )
    rss = result["rss_mb"]
    threads = result["threads"]
    print(
        f"{result['stream_minutes']} stream minutes in {result['wall_seconds']} s wall, "
        f"{result['games']} games; RSS after warm-up {rss['min']}-{rss['max']} MB, "
        f"trend {rss['trend_mb_per_hour']} MB per stream hour; "
        f"threads {threads['after_warmup']} -> {threads['end']}"
    )
    return 0
