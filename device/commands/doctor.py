"""``tilewatch doctor``: check camera, light, grid, calibration and disk."""

from __future__ import annotations

import argparse
from typing import Any

from device.cli import CliError, print_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check camera, light, grid, calibration and disk; say what to fix",
        description="Looks at the set-up as the service will and prints what to fix. "
        "Exit 0 when nothing needs fixing, 1 when something does.",
    )
    parser.add_argument("--config", help="the service's config file (default: all defaults)")
    parser.add_argument("--game", choices=("bits", "lits"), default="bits")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.config import ConfigError, load_config
    from device.doctor import as_json, run_checks

    try:
        cfg = load_config(args.config)
    except ConfigError as err:
        raise CliError(str(err)) from err
    findings = run_checks(cfg, args.game)
    if args.json:
        print_json(as_json(findings))
    else:
        for finding in findings:
            print(finding.line())
    return 0 if all(f.status != "fix" for f in findings) else 1
