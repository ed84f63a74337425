"""``tilewatch lits ...``: the Battle of LITS referee on position text files.

- ``moves POSITION``: every legal placement;
- ``check BEFORE AFTER``: judge one move (exit 0 legal, 1 illegal);
- ``score POSITION``: uncovered X and O, and the winner once no piece fits;
- ``decode POSITION``: the pieces of a whole board (exit 0 clean, 1 problems);
- ``layout [NAME | --random SEED | --file FILE | --list]``: show a layout.

Files hold position text (10 lines; see ``docs/CONTRACTS.md``); ``-`` reads
standard input. Every command has ``--json``; bad input is one line on stderr
and exit 2. Cells are counted from 1 in text output, from 0 in JSON.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from device.cli import CliError, print_json
from engine.boardtext import BoardTextError
from engine.lits import (
    DEFAULT_LAYOUT,
    LETTERS,
    SUPPLY,
    Layout,
    LayoutError,
    Placement,
    Position,
    PositionError,
    builtin_names,
    decode,
    judge,
    read_rows,
    winner,
)
from engine.verdict import Verdict

EXIT_ILLEGAL = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lits", help="Battle of LITS: legal moves, judge a move, score, decode, layouts"
    )
    sub = parser.add_subparsers(dest="lits_command", metavar="SUBCOMMAND")

    moves = sub.add_parser("moves", help="list every legal placement of a position")
    _position_arg(moves)
    moves.add_argument("--shape", choices=list(LETTERS), help="only placements of this shape")
    moves.set_defaults(func=_moves)

    check = sub.add_parser("check", help="judge the move from BEFORE to AFTER (exit 1: illegal)")
    check.add_argument("before", help="position text file before the move ('-' = stdin)")
    check.add_argument("after", help="position text file after the move")
    _common(check)
    check.set_defaults(func=_check)

    score = sub.add_parser("score", help="uncovered X and O; the winner once no piece fits")
    _position_arg(score)
    score.add_argument(
        "--last", choices=["X", "O"], help="who placed the last piece (decides a tie)"
    )
    score.set_defaults(func=_score)

    dec = sub.add_parser("decode", help="the pieces of a whole board (exit 1: problems)")
    _position_arg(dec)
    dec.set_defaults(func=_decode)

    layout = sub.add_parser("layout", help="show a built-in, random or file layout")
    layout.add_argument("name", nargs="?", help=f"a built-in: {', '.join(builtin_names())}")
    layout.add_argument("--random", type=int, metavar="SEED", help="the seeded random layout")
    layout.add_argument("--file", help="a layout text file (10 lines of X O .)")
    layout.add_argument("--list", action="store_true", help="list the built-in layouts")
    layout.add_argument("--json", action="store_true", help="print one JSON object")
    layout.set_defaults(func=_layout)

    parser.set_defaults(func=lambda args: _help(parser))


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--supply", type=int, default=SUPPLY, help=f"pieces of each shape (default {SUPPLY})"
    )


def _position_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="position text file ('-' = stdin)")
    _common(parser)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


# -- reading input -------------------------------------------------------------


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"cannot read {path}: {err}") from None


def _rows(path: str) -> tuple[str, ...]:
    try:
        return read_rows(_read_text(path), name=path)
    except BoardTextError as err:
        raise CliError(str(err)) from None


def _position(path: str) -> Position:
    rows = _rows(path)
    try:
        return Position.from_rows(rows, name=path)
    except PositionError as err:
        raise CliError(f"{path}: {err}") from None


def _supply(args: argparse.Namespace) -> int:
    if not 1 <= args.supply <= 25:
        raise CliError(f"--supply is 1 to 25 pieces of each shape, not {args.supply}")
    return int(args.supply)


def _cells(cells: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{r + 1},{c + 1}" for r, c in cells)


# -- the subcommands -----------------------------------------------------------


def _moves(args: argparse.Namespace) -> int:
    position = _position(args.position)
    found = position.legal_moves(_supply(args))
    by_shape = {letter: sum(1 for m in found if m.shape == letter) for letter in LETTERS}
    shown = [m for m in found if args.shape in (None, m.shape)]
    if args.json:
        print_json(
            {
                "count": len(found),
                "by_shape": by_shape,
                "moves": [m.to_json() for m in shown],
            }
        )
        return 0
    counts = ", ".join(f"{letter} {n}" for letter, n in by_shape.items())
    if not found:
        print("0 legal placements: no piece fits, the game is over.")
        return 0
    print(f"{len(found)} legal placements ({counts}); cells as row,column from 1:")
    for move in shown:
        print(_move_line(move))
    return 0


def _move_line(move: Placement) -> str:
    return f"{move.shape}  {_cells(move.cells)}"


def _check(args: argparse.Namespace) -> int:
    before = _position(args.before)
    after = _rows(args.after)
    verdict, piece = judge(before, after, _supply(args))
    if args.json:
        print_json({**verdict.to_json(), "placement": None if piece is None else piece.to_json()})
    else:
        print(_verdict_line(verdict))
    return 0 if verdict.legal else EXIT_ILLEGAL


def _verdict_line(verdict: Verdict) -> str:
    head = "legal" if verdict.legal else f"illegal ({verdict.reason})"
    cells = f" [cells {_cells(verdict.cells)}]" if verdict.cells else ""
    return f"{head}: {verdict.message}{cells}"


def _score(args: argparse.Namespace) -> int:
    rows = _rows(args.position)
    supply = _supply(args)
    decoded = decode(rows, supply)
    score = {
        "X": sum(row.count("X") for row in rows),
        "O": sum(row.count("O") for row in rows),
    }
    legal: int | None = None
    try:
        legal = len(Position.from_rows(rows).legal_moves(supply))
    except PositionError:
        legal = None  # not a set of whole pieces: say so, but still count symbols
    over = legal == 0
    won, why = winner(score, args.last) if over else (None, None)
    if args.json:
        print_json(
            {
                **score,
                "legal_moves": legal,
                "over": over,
                "winner": won,
                "why": why,
                "problems": [v.to_json() for v in decoded.problems],
            }
        )
        return 0
    print(f"X {score['X']}, O {score['O']}")
    if legal is None:
        print("the board is not a set of whole pieces, so whether the game is over is unknown:")
    elif over:
        print(f"game over, no piece fits. {why}")
    else:
        print(f"{legal} legal placements left: the game goes on.")
    for problem in decoded.problems:
        print(f"  {_verdict_line(problem)}")
    return 0


def _decode(args: argparse.Namespace) -> int:
    decoded = decode(_rows(args.position), _supply(args))
    if args.json:
        print_json(decoded.to_json())
    else:
        problems = len(decoded.problems)
        print(
            f"{len(decoded.pieces)} pieces, "
            + (f"{problems} problem{'s' if problems != 1 else ''}" if problems else "no problems")
        )
        for piece in decoded.pieces:
            print(f"  {_move_line(piece)}")
        for problem in decoded.problems:
            print(f"  {_verdict_line(problem)}")
    return 0 if decoded.ok else EXIT_ILLEGAL


def _layout(args: argparse.Namespace) -> int:
    if args.list:
        names = builtin_names()
        if args.json:
            print_json({"builtin": names})
        else:
            print("\n".join(names))
        return 0
    chosen = [x for x in (args.name, args.random, args.file) if x is not None]
    if len(chosen) > 1:
        raise CliError("give one of NAME, --random SEED, --file FILE")
    try:
        if args.random is not None:
            layout = Layout.random(args.random)
        elif args.file is not None:
            layout = Layout.parse(_read_text(args.file), args.file)
        else:
            layout = Layout.builtin(args.name or DEFAULT_LAYOUT)
    except (LayoutError, BoardTextError) as err:
        raise CliError(str(err)) from None
    if args.json:
        print_json(
            {
                "name": layout.name,
                "rows": list(layout.rows()),
                "X": layout.count("X"),
                "O": layout.count("O"),
                "notes": layout.notes(),
            }
        )
        return 0
    print(layout)
    print(f"{layout.name}: {layout.count('X')} X, {layout.count('O')} O")
    for note in layout.notes():
        print(f"note: {note}")
    return 0
