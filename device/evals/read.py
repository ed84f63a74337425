"""``tilewatch eval read``: how often every cell of a board is read right.

Two kinds of data, both read end to end (the real locator finds the grid,
the colour reader reads it):

- real photos: ``../shared/data/cube-6x6``, six faces of a 6x6x6 cube under
  a bright cool light, read uncalibrated with the six-colour palette
  ``cube6`` and compared with the dataset's derived labels (squares 67 and
  115 are flagged there as white/yellow borderline; they are counted anyway
  and listed);
- simulated frames: one random table each (board art, lamp colour, white
  balance, exposure, falloff, shadow, glare, noise, blur, JPEG, lens), at a
  still moment of a simulated game, compared with the renderer's truth.
  *uncalibrated*: the palette is fitted to that one frame. *calibrated*: a
  profile is made first from another moment of the same table (a daylight
  frame of the board, confirmed with its true cells as a person would, the
  grid's corners given by hand if the search put it in the wrong place), and
  the test frame is read with it under the table's own random light, the
  grid found as ``tilewatch read --profile`` finds it (the search, starting
  where calibration saw it).

A board counts as fully right only if it was found and every cell matches;
per-cell error is over the boards that were found (the locator's misses are
reported apart, by ``tilewatch eval locate``'s standards). The orientation of
a square board is taken from the truth corners (a profile fixes it in play),
except BITS's gravity check which is reported on its own: how often gravity
picked the true way up, and how many boards would be fully right turned by
it, as ``tilewatch read`` without a profile turns them.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.orientation import turn, turn_corners
from calibration.palette import load_palette
from calibration.profile import Profile
from calibration.wizard import build_profile
from device.cli import EXIT_OK, CliError, print_json
from device.evals._data import shared_data_dir
from device.evals.locate import corner_errors
from vision.orientation import gravity_quarters
from vision.palette import Palette
from vision.photo import read_photo
from vision.rules import ruled_reading

CUBE_FACES = "ULFRBD"
CUBE_CODES = {"white": "W", "yellow": "Y", "red": "R", "orange": "O", "blue": "B", "green": "G"}


@dataclass
class Board:
    """One board's outcome."""

    name: str
    found: bool
    cells: int = 0
    wrong: list[tuple[int, int, str, str]] = field(default_factory=list)  # r, c, truth, read
    unsure: int = 0
    ms: float = 0.0
    tags: dict[str, Any] = field(default_factory=dict)
    upright: bool | None = None  # BITS: gravity picked the true orientation

    @property
    def right(self) -> bool:
        return self.found and not self.wrong


def compare(name: str, truth: list[str], read: list[str], ms: float, **tags: Any) -> Board:
    wrong = [
        (r, c, t, s)
        for r, (trow, srow) in enumerate(zip(truth, read, strict=True))
        for c, (t, s) in enumerate(zip(trow, srow, strict=True))
        if t != s
    ]
    unsure = sum(row.count("?") for row in read)
    return Board(name, True, len(truth) * len(truth[0]), wrong, unsure, ms, tags)


def summary(boards: list[Board]) -> dict[str, Any]:
    found = [b for b in boards if b.found]
    cells = sum(b.cells for b in found)
    wrong = sum(len(b.wrong) for b in found)
    upright = [b.upright for b in boards if b.upright is not None]
    return {
        "boards": len(boards),
        "found": len(found),
        "cells": cells,
        "cell_errors": wrong,
        "cell_error_rate": wrong / cells if cells else None,
        "unsure_cells": sum(b.unsure for b in found),
        "boards_fully_right": sum(b.right for b in boards),
        "board_right_rate": sum(b.right for b in boards) / len(boards) if boards else None,
        "median_ms": float(np.median([b.ms for b in found])) if found else None,
        "gravity_upright": None if not upright else f"{sum(upright)}/{len(upright)}",
        # What ``tilewatch read`` without a profile reports: it turns a BITS
        # board by gravity, so a wrong turn makes the whole board wrong.
        "boards_right_by_gravity": None
        if not upright
        else sum(b.right and bool(b.upright) for b in boards),
    }


# --- real photos -------------------------------------------------------------
def cube_boards(folder: Path) -> tuple[list[Board], list[str]]:
    labels_file = folder / "6x6x6-random-01.colors.derived.json"
    if not labels_file.is_file():
        raise CliError(f"no cube labels at {labels_file} (set TILEWATCH_SHARED_DATA)")
    data = json.loads(labels_file.read_text())
    labels, ambiguous = data["labels"], data.get("ambiguous_squares", [])
    palette = load_palette("cube6")
    boards = []
    for f, face in enumerate(CUBE_FACES):
        path = folder / "6x6x6-random-01" / f"rubiks-side-{face}.png"
        image = _imread(path)
        truth = [
            "".join(CUBE_CODES[labels[str(f * 36 + r * 6 + c + 1)]] for c in range(6))
            for r in range(6)
        ]
        t0 = time.perf_counter()
        photo = read_photo(image, 6, 6, palette)
        if photo is None:
            boards.append(Board(face, False))
            continue
        ms = (time.perf_counter() - t0) * 1000
        boards.append(compare(face, truth, photo.reading.rows, ms))
    return boards, ambiguous


def _imread(path: Path) -> np.ndarray:
    import cv2

    image = cv2.imread(str(path))
    if image is None:
        raise CliError(f"cannot read {path}")
    return image


# --- simulated frames --------------------------------------------------------
@dataclass
class SimFrame:
    image: np.ndarray
    board: list[str]
    corners: np.ndarray
    conditions: Any


def still_frames(
    game: str, seed: int, count: int, moments: str = "test", **overrides: Any
) -> Iterator[SimFrame]:
    """Still moments of one simulated table (conditions ``random:seed``, with
    ``overrides``); ``moments`` names an independent draw of times."""
    from device.sim.conditions import Conditions
    from device.sources.simulated import SimulatedSource  # heavy: only when asked

    conditions = replace(Conditions.random(seed, game), **overrides)
    source = SimulatedSource(game, fps=4, conditions=conditions, seed=seed, size=(640, 480))
    rng = random.Random(f"eval-read:{game}:{seed}:{moments}")
    made = tries = 0
    while made < count and tries < 60:
        tries += 1
        frame = source.frame_at(rng.uniform(0.15, 1.0) * source.script.duration, seed * 100 + tries)
        meta = frame.meta
        if meta["hand_over_board"] or meta["moving"] or meta["occluded"]:
            continue
        made += 1
        yield SimFrame(frame.image, list(meta["board"]), np.array(meta["corners"]), conditions)


# A person calibrating sees a grid this far off (cells, worst corner) and
# gives its corners instead.
MISPLACED = 0.5


def misplaced(found: np.ndarray, truth: np.ndarray, rows: int) -> bool:
    """Whether a found grid's worst corner lies over ``MISPLACED`` cells from
    the true one's, whichever way round it was named."""
    return bool(corner_errors(found, truth, any_order=True).max() * rows > MISPLACED)


def truth_turns(found: np.ndarray, truth: np.ndarray) -> int:
    errors = [np.linalg.norm(turn_corners(found, k) - truth, axis=1).sum() for k in range(4)]
    return int(np.argmin(errors))


def _tags(c: Any) -> dict[str, Any]:
    return {
        "art": c.art,
        "kelvin": round(c.kelvin),
        "white_balance": round(c.white_balance, 2),
        "shadow": round(c.shadow, 2),
        "glare": round(c.glare, 2),
        "gradient": round(c.gradient, 2),
        "noise": round(c.noise, 1),
        "tilt": round(c.tilt_deg),
        "barrel": round(c.barrel, 2),
        "symbols": c.tile_symbols,
    }


# Condition groups for the per-condition table (--by): a name, a key on a
# board's tags and the upper edges of its bins (a name-valued key has none).
CONDITION_BINS: dict[str, tuple[float, ...]] = {
    "glare": (0.0, 0.5, 0.7, 1.5),
    "kelvin": (3300.0, 4500.0, 5700.0, 10000.0),
    "white_balance": (0.3, 0.6, 1.0),
    "tilt": (10.0, 25.0, 45.0),
    "barrel": (0.15, 0.4, 1.0),
    "shadow": (0.0, 0.4, 0.9),
    "gradient": (0.0, 0.25, 0.9),
    "noise": (3.0, 6.0),
    "art": (),
    "symbols": (),
}


def condition_bin(name: str, value: Any) -> str:
    """The bin a condition's value falls in, as a label (``"glare 0.5-0.7"``).

    >>> condition_bin("glare", 0.0), condition_bin("glare", 0.62), condition_bin("art", "slate")
    ('glare 0', 'glare 0.5-0.7', 'art slate')
    """
    edges = CONDITION_BINS[name]
    if not edges:
        return f"{name} {value}"
    lo = None
    for hi in edges:
        if value <= hi:
            if lo is None:
                return f"{name} <={hi:g}" if hi else f"{name} 0"
            return f"{name} {lo:g}-{hi:g}"
        lo = hi
    return f"{name} >{edges[-1]:g}"


def by_condition(boards: list[Board], names: list[str]) -> dict[str, dict[str, Any]]:
    """Summaries of the boards grouped by each condition's bins, in bin order."""
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        groups: dict[str, list[Board]] = {}
        for b in boards:
            if name in b.tags:
                groups.setdefault(condition_bin(name, b.tags[name]), []).append(b)
        for label in sorted(groups, key=lambda k: _bin_order(name, k)):
            out[label] = summary(groups[label])
    return out


def _bin_order(name: str, label: str) -> tuple[int, str]:
    edges = CONDITION_BINS[name]
    if not edges:
        return (0, label)
    for i, hi in enumerate(edges):
        if condition_bin(name, hi) == label:
            return (i, label)
    return (len(edges), label)


def sim_board(
    game: str,
    seed: int,
    frame: SimFrame,
    palette: Palette,
    profile: Profile | None,
    truth_corners: bool = False,
) -> Board:
    rows, cols = len(frame.board), len(frame.board[0])
    name = f"{game}#{seed}"
    t0 = time.perf_counter()
    # With a profile, the grid is found as `tilewatch read --profile` finds it.
    grid = None if profile is None or truth_corners else profile.find_grid(frame.image)
    if profile is not None and grid is None and not truth_corners:
        return Board(name, False, tags=_tags(frame.conditions))
    photo = read_photo(
        frame.image,
        rows,
        cols,
        palette,
        grid=grid,
        corners=frame.corners if truth_corners else None,
        gains=None if profile is None else profile.gains,
        # a profile that never saw the board's print cannot read it: fitted, as without one
        fit_palette=profile is None or not profile.knows_board,
        seen=None if profile is None else profile.corners,
    )
    if photo is None:
        return Board(name, False, tags=_tags(frame.conditions))
    ms = (time.perf_counter() - t0) * 1000
    reading, fit = photo.reading, photo.fit
    k = truth_turns(fit.corners, frame.corners)
    # as tilewatch read does: the pieces' own rules, the profile's layout
    codes, _ = ruled_reading(game, reading, k, None if profile is None else profile.layout)
    cells = ["".join(r) for r in codes.tolist()]
    board = compare(name, frame.board, cells, ms, **_tags(frame.conditions))
    if game == "bits":
        board.upright = (gravity_quarters(reading.codes != ".")[0] - k) % 4 == 0
    return board


def calibrate_on(
    game: str, seed: int, palette: Palette, truth_corners: bool = False
) -> Profile | None:
    """A profile from a daylight frame of this table, confirmed with the truth
    as a person would: the cells read wrong are fixed, and a grid found in the
    wrong place (or not at all) is given by its corners instead."""
    daylight = {"kelvin": 6500.0, "white_balance": 1.0, "shadow": 0.0, "glare": 0.0}
    frame = next(still_frames(game, seed, 1, moments="calibration", **daylight), None)
    if frame is None:
        return None
    rows, cols = len(frame.board), len(frame.board[0])
    photo = None if truth_corners else read_photo(frame.image, rows, cols, palette)
    by_hand = photo is None or misplaced(photo.fit.corners, frame.corners, rows)
    if by_hand:
        photo = read_photo(frame.image, rows, cols, palette, corners=frame.corners)
    if photo is None:
        return None
    reading, fit = photo.reading, photo.fit
    k = truth_turns(fit.corners, frame.corners)
    truth = turn(np.array([list(r) for r in frame.board]), -k)  # truth in the reading's order
    fixes = {
        (r, c): str(truth[r, c])
        for r in range(rows)
        for c in range(cols)
        if truth[r, c] != reading.codes[r, c]
    }
    # The profile's grid is found by the search, starting where calibration
    # saw it (the corners given by hand, if so): the tables' cameras get
    # bumped between the two moments, which fixed corners would not follow.
    profile = build_profile(reading, fixes, corners=turn_corners(fit.corners, k), nominal=palette)
    if profile.layout is not None:
        # the right way up, as the profile's corners (`tilewatch calibrate`
        # turns the reading it shows before it learns; the colours are learnt
        # here in the reading's order, as every calibrated figure was measured)
        up = turn(np.array([list(row) for row in profile.layout]), k)
        profile.layout = tuple("".join(row) for row in up.tolist())
    return profile


def sim_boards(
    game: str, tables: int, calibrated: bool, first_seed: int = 0, truth_corners: bool = False
) -> list[Board]:
    """One board per table, seeds ``first_seed`` .. ``first_seed + tables - 1``."""
    palette = load_palette(game)
    boards = []
    for seed in range(first_seed, first_seed + tables):
        profile = calibrate_on(game, seed, palette, truth_corners) if calibrated else None
        if calibrated and profile is None:
            continue
        for frame in still_frames(game, seed, 1):
            use = palette if profile is None else profile.palette
            boards.append(sim_board(game, seed, frame, use, profile, truth_corners))
    return boards


# --- report ------------------------------------------------------------------
def _pct(v: float | None, digits: int = 2) -> str:
    return "-" if v is None else f"{100 * v:.{digits}f}%"


def _line(title: str, s: dict[str, Any]) -> None:
    print(
        f"{title:<28} boards {s['found']}/{s['boards']} found, "
        f"{s['boards_fully_right']} fully right ({_pct(s['board_right_rate'], 1)}); "
        f"cells {s['cell_errors']}/{s['cells']} wrong ({_pct(s['cell_error_rate'])}), "
        f"{s['unsure_cells']} unsure; median {s['median_ms'] or 0:.0f} ms"
        + (
            f"; gravity upright {s['gravity_upright']}, "
            f"{s['boards_right_by_gravity']} fully right turned by it"
            if s["gravity_upright"]
            else ""
        )
    )


def _errors(boards: list[Board]) -> None:
    # Every wrong board: a long list is the honest answer, and the one asked for.
    for b in boards:
        if not b.found:
            print(f"    {b.name}: grid not found  {b.tags}")
        elif b.wrong:
            cells = " ".join(f"r{r + 1}c{c + 1}:{t}->{s}" for r, c, t, s in b.wrong[:8])
            more = f" (+{len(b.wrong) - 8})" if len(b.wrong) > 8 else ""
            print(f"    {b.name}: {cells}{more}  {b.tags}")


def _conditions_table(boards: list[Board], names: list[str]) -> None:
    for label, s in by_condition(boards, names).items():
        print(
            f"    {label:<22} {s['boards_fully_right']:>3}/{s['boards']:<3} fully right "
            f"({_pct(s['board_right_rate'], 0):>4}); cells {s['cell_errors']:>3}/{s['cells']:<5}"
            f" wrong ({_pct(s['cell_error_rate'])}); {s['boards'] - s['found']} not found"
        )


def _condition_names(text: str) -> list[str]:
    if text in ("", "none"):
        return []
    names = list(CONDITION_BINS) if text == "all" else [n for n in text.split(",") if n]
    unknown = [n for n in names if n not in CONDITION_BINS]
    if unknown:
        raise CliError(f"--by: unknown condition {unknown[0]!r} ({', '.join(CONDITION_BINS)})")
    return names


def run(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {}
    by = _condition_names(args.by)
    sections: list[tuple[str, list[Board]]] = []
    if not args.skip_photos:
        boards, ambiguous = cube_boards(Path(args.data or shared_data_dir()) / "cube-6x6")
        report["cube_uncalibrated"] = {**summary(boards), "ambiguous_squares": ambiguous}
        sections.append(("cube-6x6 photos, uncalibrated", boards))
    games = [g for g in args.games.split(",") if g]
    for game in games:
        if game not in ("bits", "lits"):
            raise CliError(f"--games: unknown game {game!r} (bits, lits)")
        if args.tables > 0:
            modes = ("uncalibrated", "calibrated") if args.calibrated else ("uncalibrated",)
            for mode in modes:
                boards = sim_boards(
                    game,
                    args.tables,
                    mode == "calibrated",
                    args.first_seed,
                    args.corners == "truth",
                )
                report[f"sim_{game}_{mode}"] = summary(boards)
                if by:
                    report[f"sim_{game}_{mode}"]["by_condition"] = by_condition(boards, by)
                sections.append((f"simulated {game}, {mode}", boards))
    if args.json:
        print_json(report)
        return EXIT_OK
    for title, boards in sections:
        _line(title, summary(boards))
        if by and title.startswith("simulated"):
            _conditions_table(boards, by)
        if args.errors:
            _errors(boards)
    return EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "read",
        help="per-cell and whole-board accuracy of the colour reader",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("--data", metavar="DIR", help="the shared data folder (default ../shared/data)")
    p.add_argument("--tables", type=int, default=40, help="simulated tables per game (default 40)")
    p.add_argument("--games", default="bits,lits", help="simulated games (default bits,lits)")
    p.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="first simulated table (default 0): tune on some seeds, report on others",
    )
    p.add_argument("--calibrated", action="store_true", help="also read with a profile per table")
    p.add_argument(
        "--corners",
        choices=["found", "truth"],
        default="found",
        help="simulated frames: grid from the locator (default) or the renderer's true corners "
        "(the reader alone)",
    )
    p.add_argument(
        "--by",
        default="",
        metavar="NAMES",
        help="per-condition table for simulated boards: all, or some of "
        + ",".join(CONDITION_BINS),
    )
    p.add_argument("--skip-photos", action="store_true", help="leave out the real cube photos")
    p.add_argument("--errors", action="store_true", help="list the boards read wrong")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
