"""The ``tilewatch`` command line.

Each subcommand lives in its own module under ``device/commands/`` and exposes
``register(subparsers)``; this file only finds them, so adding a command never
means editing a shared list.

Exit codes (DESIGN.md): 0 success, 2 bad arguments or unreadable input (one
line on stderr), 3 "looked but found nothing" where a command defines it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

from device import commands

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_NOT_FOUND = 3


class CliError(Exception):
    """A problem the user can fix; printed as one line, exit code 2 by default."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, separators=(",", ": "))
    sys.stdout.write("\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilewatch",
        description="A camera referee and scorekeeper for BITS and Battle of LITS.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        code = args.func(args)
    except CliError as err:
        print(f"tilewatch {args.command}: {err}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours. Point
        # stdout at /dev/null so Python's exit flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    # Run through the importable module, not this __main__ copy, so that the
    # CliError the commands raise is the class main() catches.
    from device.cli import main as _main

    sys.exit(_main())
