"""``tilewatch eval locate``: how often and how exactly the markerless locator
finds the grid, on labelled photos and on simulated frames.

Corner error is the distance from each found corner to the labelled one, as
a fraction of the grid's side (the mean of its four sides); a photo counts as
*found* when the locator answers at all, and its error is reported whatever
it is. Photos: ``../shared/data/sudoku-grids`` (9x9, labelled corners), split
into two halves by row order (even rows / odd rows) so a figure tuned on one
half can be checked on the other. Simulated frames: random tables, lights and
lenses from the simulator (seeds from ``--first-seed``, so tuning and
reporting can use different tables), at a moment when no hand is over the board, with
the renderer's exact corners; the board's own upper-left is not known to a
generic search, so the corner order that fits best is used.
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.cli import EXIT_OK, CliError, print_json
from device.evals._data import shared_data_dir
from vision import lattice
from vision.corners import frame_corners
from vision.locate import as_bgr_or_gray, locate_grid
from vision.orientation import frame_widths, top_edge


@dataclass
class Item:
    """One picture's result: errors are fractions of the grid's side."""

    name: str
    found: bool
    mean: float = float("nan")
    max: float = float("nan")
    frame_mean: float = float("nan")  # corners moved to the outside of the frame line
    ms: float = 0.0
    quality: float = 0.0
    # BITS: the ramp's top told by its frame (vision.orientation.top_edge):
    # "right", "wrong" (sure), "wrong-half" (half sure) or "unsure"
    top: str = ""

    def row(self) -> dict[str, Any]:
        def r(v: float) -> float | None:
            return None if np.isnan(v) else round(float(v), 5)

        return {
            "name": self.name,
            "found": self.found,
            "mean": r(self.mean),
            "max": r(self.max),
            "frame_mean": r(self.frame_mean),
            "ms": round(self.ms, 2),
            "quality": round(self.quality, 3),
            **({"top": self.top} if self.top else {}),
        }


def corner_errors(found: np.ndarray, truth: np.ndarray, any_order: bool = False) -> np.ndarray:
    """Per-corner distance over the truth's mean side; with ``any_order`` the
    cyclic order of ``found`` that fits best (a turned board)."""
    side = float(np.mean(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1)))
    shifts = range(4) if any_order else range(1)
    errs = [np.linalg.norm(np.roll(found, -k, axis=0) - truth, axis=1) / side for k in shifts]
    return min(errs, key=lambda e: float(e.mean()))


def measure(
    image: np.ndarray,
    truth: np.ndarray,
    rows: int,
    cols: int,
    name: str,
    any_order: bool = False,
    frame: bool = False,
    top: bool = False,
) -> Item:
    start = time.perf_counter()
    fit = locate_grid(image, rows, cols)
    ms = (time.perf_counter() - start) * 1e3
    if fit is None:
        return Item(name, False, ms=ms)
    err = corner_errors(fit.corners, truth, any_order)
    item = Item(name, True, float(err.mean()), float(err.max()), ms=ms, quality=fit.quality)
    if top:
        item.top = ramp_top(image, fit.homography, fit.corners, truth, rows, cols)
    if frame:
        pyramid = lattice.Pyramid(as_bgr_or_gray(image))
        outside = frame_corners(pyramid, fit.homography, fit.corners, rows, cols)
        item.frame_mean = float(corner_errors(outside, truth, any_order).mean())
    return item


def ramp_top(
    image: np.ndarray,
    homography: np.ndarray,
    corners: np.ndarray,
    truth: np.ndarray,
    rows: int,
    cols: int,
) -> str:
    """Whether the ramp's frame names the right edge of the found grid as
    the top (the truth's upper edge, ``truth`` ``UL UR LR LL``): what turns
    the first tile, flat in a corner, the right way up. Edge ``k`` is the
    top when the corners rolled by ``-k`` put the truth's upper-left first."""
    errors = [corner_errors(np.roll(corners, -k, axis=0), truth).mean() for k in range(4)]
    want = int(np.argmin(errors))
    edge, sure = top_edge(*frame_widths(image, homography, rows, cols))
    if sure == 0:
        return "unsure"
    if edge == want:
        return "right"
    return "wrong" if sure == 1 else "wrong-half"


def summary(items: list[Item]) -> dict[str, Any]:
    found = [i for i in items if i.found]
    means = np.array([i.mean for i in found])
    maxes = np.array([i.max for i in found])
    frames = np.array([i.frame_mean for i in found if not np.isnan(i.frame_mean)])
    out: dict[str, Any] = {
        "n": len(items),
        "found": len(found),
        "found_rate": round(len(found) / len(items), 4) if items else 0.0,
        "mean_error": round(float(means.mean()), 5) if len(found) else None,
        "max_error": round(float(maxes.max()), 5) if len(found) else None,
        "p95_error": round(float(np.percentile(maxes, 95)), 5) if len(found) else None,
        "over_5pct": int(np.sum(maxes > 0.05)),
        "median_ms": round(float(np.median([i.ms for i in items])), 1) if items else None,
    }
    if len(frames):
        out["frame_mean_error"] = round(float(frames.mean()), 5)
    tops = [i.top for i in found if i.top]
    if tops:
        out["top"] = {k: tops.count(k) for k in ("right", "wrong", "wrong-half", "unsure")}
    return out


def photo_items(folder: Path, limit: int | None) -> list[Item]:
    """The labelled sudoku photos (9x9); every row of ``corners.csv``."""
    table = folder / "corners.csv"
    if not table.is_file():
        raise CliError(f"no labelled photos at {folder} (corners.csv missing)")
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    items = []
    for row in rows[:limit]:
        image = cv2.imread(str(folder / row["filepath"]))
        if image is None:
            raise CliError(f"cannot read {folder / row['filepath']}")
        truth = np.array([[float(row[f"p{i}_{a}"]) for a in "xy"] for i in range(1, 5)])
        items.append(measure(image, truth, 9, 9, row["filepath"], frame=True))
    return items


def sim_frames(
    game: str, frames: int, size: tuple[int, int], first_seed: int = 0
) -> Iterator[tuple[str, np.ndarray, np.ndarray, int, int]]:
    """``(name, image, corners, rows, cols)`` of ``frames`` simulated frames of
    ``game``, one random table each (seeds ``first_seed`` onwards: tune on
    one range, report on another), each at a still moment with no hand over
    the board (a table with none in 40 tries is skipped)."""
    from device.sources.simulated import SimulatedSource  # only when asked: it is heavy

    for seed in range(first_seed, first_seed + frames):
        source = SimulatedSource(game, fps=4, conditions=f"random:{seed}", seed=seed, size=size)
        rng = random.Random(f"eval-locate:{game}:{seed}")
        for _ in range(40):
            frame = source.frame_at(rng.uniform(0, source.script.duration), seed)
            if not frame.meta["hand_over_board"] and not frame.meta["moving"]:
                rows, cols = frame.meta["grid"]
                truth = np.array(frame.meta["corners"], np.float64)
                yield f"{game}#{seed}", frame.image, truth, rows, cols
                break


def sim_items(game: str, frames: int, size: tuple[int, int], first_seed: int = 0) -> list[Item]:
    """The locator measured on :func:`sim_frames` (any corner order: the
    board's own upper-left is not known to a generic search)."""
    return [
        measure(image, truth, rows, cols, name, any_order=True, top=game == "bits")
        for name, image, truth, rows, cols in sim_frames(game, frames, size, first_seed)
    ]


def _table(title: str, items: list[Item]) -> None:
    print(f"\n{title}")
    print(f"{'name':<28} {'found':>5} {'mean%':>7} {'max%':>7} {'frame%':>7} {'ms':>7} {'q':>5}")

    def pct(v: float) -> str:
        return "" if np.isnan(v) else f"{100 * v:.2f}"

    for i in items:
        print(
            f"{i.name:<28} {'yes' if i.found else 'NO':>5} {pct(i.mean):>7} {pct(i.max):>7} "
            f"{pct(i.frame_mean):>7} {i.ms:>7.1f} {i.quality:>5.2f}"
        )


def _line(title: str, s: dict[str, Any]) -> None:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:.2f}%"

    frame = (
        f", outside-of-frame mean {pct(s['frame_mean_error'])}" if "frame_mean_error" in s else ""
    )
    top = ""
    if "top" in s:
        t = s["top"]
        top = (
            f"; the ramp's top from its frame {t['right']} right, {t['wrong']} wrong,"
            f" {t['wrong-half']} wrong half sure, {t['unsure']} unsure"
        )
    print(
        f"{title}: found {s['found']}/{s['n']} ({100 * s['found_rate']:.1f}%), corner error "
        f"mean {pct(s['mean_error'])}, p95 {pct(s['p95_error'])}, max {pct(s['max_error'])}, "
        f"{s['over_5pct']} over 5%{frame}; median {s['median_ms']} ms{top}"
    )


def run(args: argparse.Namespace) -> int:
    sets: dict[str, list[Item]] = {}
    if not args.no_photos:
        folder = Path(args.photos) if args.photos else shared_data_dir() / "sudoku-grids"
        sets["photos"] = photo_items(folder, args.limit)
    for game in args.sim:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        if len(size) != 2:
            raise CliError("--size wants WIDTHxHEIGHT, e.g. 640x480")
        sets[f"sim-{game}"] = sim_items(game, args.frames, (size[0], size[1]), args.first_seed)
    result: dict[str, Any] = {}
    for name, items in sets.items():
        result[name] = summary(items)
        if name == "photos":
            result["photos-even-rows"] = summary(items[0::2])
            result["photos-odd-rows"] = summary(items[1::2])
        if args.verbose:
            result[name]["items"] = [i.row() for i in items]
    if args.json:
        print_json(result)
        return EXIT_OK
    for name, items in sets.items():
        if args.verbose:
            _table(name, items)
    print()
    for name, s in result.items():
        _line(name, s)
    return EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "locate", help="markerless grid search: detection rate and corner error"
    )
    p.add_argument(
        "--photos", metavar="DIR", help="labelled photos (default ../shared/data/sudoku-grids)"
    )
    p.add_argument("--no-photos", action="store_true", help="skip the labelled photos")
    p.add_argument(
        "--sim",
        action="append",
        choices=["bits", "lits"],
        default=[],
        help="also measure simulated frames of this game (repeatable)",
    )
    p.add_argument(
        "--frames", type=int, default=100, help="simulated frames per game (default 100)"
    )
    p.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="first simulated table (default 0; tune on 0-199, report on e.g. 1000-1199)",
    )
    p.add_argument("--size", default="640x480", help="simulated frame size (default 640x480)")
    p.add_argument("--limit", type=int, help="only the first N photos")
    p.add_argument("--verbose", action="store_true", help="a row per picture")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
