"""``tilewatch serve``: the companion itself (camera, referee, phone page)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from device.cli import CliError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the companion: camera, tracking, game record and the phone page",
        description="Runs until stopped (Ctrl-C or SIGTERM). Under systemd it reports "
        "READY once the camera and the page are up, and pings the watchdog from the "
        "camera loop.",
    )
    parser.add_argument("--config", help="TOML config (default: built-in defaults)")
    parser.add_argument("--camera", help="override camera.source: picam, usb:0, sim, a file...")
    parser.add_argument("--host", help="override server.host")
    parser.add_argument("--port", type=int, help="override server.port")
    parser.add_argument("--state", help="override where the game record and profile live")
    parser.set_defaults(func=run)


def setup_logging() -> None:
    # journald adds its own time stamps; a terminal user wants them short.
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )


def load(args: argparse.Namespace) -> Any:
    """The config with the command line's overrides applied."""
    from pathlib import Path

    from device.config import ConfigError, load_config

    try:
        cfg = load_config(args.config)
    except ConfigError as err:
        raise CliError(str(err)) from err
    if args.camera:
        cfg.camera.source = args.camera
    if args.host:
        cfg.server.host = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise CliError(f"--port {args.port} is not a port")
        cfg.server.port = args.port
    if args.state:
        state = Path(args.state)
        cfg.storage.path = str(state / "tilewatch.sqlite")
        cfg.calibration.profile = str(state / "profile.toml")
    return cfg


def start(app: Any) -> int:
    from device.store import StoreError

    try:
        app.start()
    except StoreError as err:
        raise CliError(str(err)) from err
    except OSError as err:  # the port is taken, most often
        app.stop()
        raise CliError(f"cannot serve the page: {err}") from err
    print(app.server.banner(), flush=True)
    try:
        app.wait()
    finally:
        app.stop()
    return 0


def run(args: argparse.Namespace) -> int:
    from device.appliance import Appliance

    setup_logging()
    return start(Appliance(load(args)))
