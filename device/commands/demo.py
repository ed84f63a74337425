"""``tilewatch demo``: the whole companion on the simulated camera."""

from __future__ import annotations

import argparse
import tempfile
from typing import Any

from device.commands.serve import load, setup_logging, start


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run the companion on the simulated camera playing seeded games",
        description="Serves the live page (http://localhost:8080 by default) while the "
        "simulated camera plays one seeded game after another: hands over the board, a "
        "lamp switched on, and a placement that breaks a rule.",
    )
    parser.add_argument("--game", choices=("bits", "lits"), default="bits")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument(
        "--fast", action="store_true", help="play as fast as frames render, not in real time"
    )
    parser.add_argument("--config", help="TOML config (the camera is always the simulator)")
    parser.add_argument("--host", default=None, help="default: server.host (0.0.0.0)")
    parser.add_argument("--port", type=int, default=None, help="default: server.port (8080)")
    parser.add_argument(
        "--state", help="folder for the demo's game record (default: a fresh temp folder)"
    )
    parser.set_defaults(func=run, camera=None)


def run(args: argparse.Namespace) -> int:
    from device.appliance import Appliance
    from device.demo import DemoGames

    setup_logging()
    with tempfile.TemporaryDirectory(prefix="tilewatch-demo-") as scratch:
        args.state = args.state or scratch
        cfg = load(args)
        cfg.camera.source = "sim"
        demo = DemoGames(table=None, game=args.game, seed=args.seed, realtime=not args.fast)
        return start(Appliance(cfg, demo=demo))
