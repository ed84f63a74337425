"""``tilewatch check BEFORE AFTER``: was the placement from BEFORE to AFTER a
legal BITS drop? Exit 0 legal, 1 illegal, 2 bad input.

With ``--json``: ``{"legal": bool, "reason": str, "message": str, "cells":
[[row, col], ...], "drop": {...} | null, "tiles": [...]}`` (cells from 0;
``tiles``: the tiles the placement could have been, e.g. for a physical deck).
"""

from __future__ import annotations

import argparse
from typing import Any

from device.cli import CliError, print_json
from device.commands.score import read_board
from engine.bits import Tile, Turn, judge, load_tileset

EXIT_ILLEGAL = 1

REASONS = """\
reasons (stable codes, checked in this order):
  no_change  dropped_out  tiles_moved  already_placed  two_tiles  outside_grid
  not_a_tile  wrong_tile  second_neutral  under_overhang  mid_air
example:
  tilewatch check before.txt after.txt --tile RY
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="judge one BITS placement from two board files (exit 1: illegal)",
        description="Judge the placement that turned BEFORE into AFTER (board text files:"
        " 6 lines of 6 codes . R Y B P K N). Without --tile any tile is accepted and the"
        " output says which tile it was.",
        epilog=REASONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("before", help="board text file before ('-' = standard input)")
    parser.add_argument("after", help="board text file after")
    parser.add_argument(
        "--tile",
        action="append",
        default=[],
        metavar="TILE",
        help="the tile the card shows, e.g. RY (repeat if several were possible)",
    )
    parser.add_argument(
        "--start", action="store_true", help="it is the starting tile: no neutral instead"
    )
    parser.add_argument(
        "--neutral-used", action="store_true", help="the neutral tile was already played"
    )
    parser.add_argument("--dropped-out", action="store_true", help="the player had dropped out")
    parser.add_argument(
        "--placed", action="store_true", help="the player already placed for this card"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.before == "-" and args.after == "-":
        raise CliError("only one of BEFORE and AFTER can be standard input")
    try:
        tiles = tuple(Tile.parse(text) for text in args.tile) or None
    except ValueError as err:
        raise CliError(str(err)) from None
    before, after = read_board(args.before), read_board(args.after)
    turn = Turn(
        tiles=tiles,
        neutral=not args.start,
        neutral_used=args.neutral_used,
        dropped_out=args.dropped_out,
        placed=args.placed,
        card="the starting card" if args.start else "the building card",
    )
    verdict, drop = judge(before, after, turn)
    if args.json:
        print_json(
            {
                **verdict.to_json(),
                "drop": drop.to_json() if drop else None,
                "tiles": [str(drop.tile)] if drop else [],
            }
        )
    elif verdict.legal:
        assert drop is not None
        print(f"legal: {drop} ({load_tileset().describe(drop.tile)})")
    else:
        where = " ".join(f"r{r + 1}c{c + 1}" for r, c in verdict.cells)
        print(f"illegal ({verdict.reason}): {verdict.message}")
        if where:
            print(f"cells: {where}")
    return 0 if verdict.legal else EXIT_ILLEGAL
