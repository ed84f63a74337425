"""``tilewatch score BOARD --card ...``: score a BITS board against task cards.

Prints each card's points and the blocks that earned them, then the total.
With ``--json``: ``{"total": int, "cards": [{"name", "points", "blocks":
[[[row, col], ...], ...], "scored": [...], "card": {...}}], "mirror": bool}``
(cells from 0). Bad files and cards: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from device.cli import CliError, print_json
from engine.bits import (
    Board,
    CardError,
    Catalogue,
    TaskCard,
    load_catalogue,
    load_settings,
    load_tileset,
    parse_card,
    score_board,
)

CARD_SYNTAX = """\
cards:
  --card NAME            a card from the catalogue (below, or --catalogue FILE)
  --card KEY=VALUE,...   a card written inline; keys:
      shape=ROWS   required: rows of # (or X) and . split by /   e.g. ##/##
      colour=C     R Y B P K or a colour name; leave out for any colour
      points=N     signed points per matching block (default 2; pile 3: -2)
      pile=N       1..4 (default 1)
      fours=N      points for every OTHER block of exactly 4 cells
                   (the pile-1 rule; default 1 on pile 1, else 0)
      name=TEXT    optional
  examples:  --card square
             --card 'shape=##/##,points=2,pile=1'
             --card 'shape=#./##,colour=B,points=2,pile=2'
             --card 'shape=##,points=-2,pile=3'
  Quote inline cards in the shell ('#' after a space starts a comment).
"""


def _catalogue_text() -> str:
    lines = ["catalogue (data/cards.toml; status known / derived / guessed):"]
    lines += [f"  {card.describe()} [{card.status}]" for card in load_catalogue()]
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a BITS board against task cards",
        description="Score a BITS board (6 lines of 6 codes: . R Y B P K N) against task"
        " cards. Rows and columns count from 1 in the text output, from 0 in JSON.",
        epilog=CARD_SYNTAX + "\n" + _catalogue_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("board", nargs="?", help="board text file ('-' = standard input)")
    parser.add_argument(
        "--card",
        action="append",
        default=[],
        metavar="CARD",
        help="a task card by name or inline (repeat for several; see below)",
    )
    parser.add_argument("--catalogue", type=Path, help="a TOML file of your own task cards")
    parser.add_argument(
        "--no-mirror",
        action="store_true",
        help="mirror images of a shape do not match (default: they do)",
    )
    parser.add_argument("--list-cards", action="store_true", help="list the catalogue and exit")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def read_board(path: str) -> Board:
    """A board text file (or '-' for standard input); CliError when unusable."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    try:
        return Board.from_text(text, name=path)
    except ValueError as err:
        raise CliError(str(err)) from None


def load_cards(specs: list[str], catalogue_path: Path | None) -> list[TaskCard]:
    try:
        catalogue = load_catalogue()
        if catalogue_path is not None:
            catalogue = Catalogue([*catalogue, *Catalogue.from_file(catalogue_path)])
        return [parse_card(spec, catalogue) for spec in specs]
    except CardError as err:
        raise CliError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    if args.list_cards:
        print(_catalogue_text())
        return 0
    if not args.board:
        raise CliError("give a board file (or --list-cards)")
    if not args.card:
        raise CliError("give at least one --card (see tilewatch score --help)")
    board = read_board(args.board)
    cards = load_cards(args.card, args.catalogue)
    settings = load_settings().with_changes({"mirror": not args.no_mirror})
    score = score_board(board, cards, settings)
    if args.json:
        print_json({**score.to_json(), "mirror": settings.mirror})
        return 0
    names = load_tileset()
    print(board)
    print()
    for card in score.cards:
        print(f"{card.card.describe()}: {card.points:+d}")
        for block in card.blocks:
            where = " ".join(f"r{r + 1}c{c + 1}" for r, c in block.cells)
            kind = "shape" if block.why == "shape" else "other 4-block"
            print(f"  {block.points:+d}  {names.name(block.code)} {kind}: {where}")
    print(f"total: {score.total:+d}")
    return 0
