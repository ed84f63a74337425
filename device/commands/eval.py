"""``tilewatch eval NAME``: measure a part of the product on labelled data.

Each evaluation is a module in ``device/evals/`` with ``register(subparsers)``
(``locate``, ``read``, ``track``, ...), found at start-up like the commands.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from typing import Any

from device import evals


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval", help="measure accuracy on labelled photos, renders or simulated games"
    )
    sub = parser.add_subparsers(dest="evaluation", metavar="NAME")
    for info in sorted(pkgutil.iter_modules(evals.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{evals.__name__}.{info.name}").register(sub)
    parser.set_defaults(func=lambda args: _missing(parser, args))


def _missing(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    parser.print_help()
    return 2
