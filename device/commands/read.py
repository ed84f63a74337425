"""``tilewatch read IMAGE``: find the board in one photo and report what it shows.

Contract (DESIGN.md): with ``--json`` one object ``{"found", "game", "grid",
"corners", "cells", "confidence", "score"}`` (plus ``"unsure"``: the cells
that read ``?``, as [row, col]); exit 0 when the grid was found, 3 when it
was not (still printing ``"found": false``), 2 on bad arguments or an
unreadable file.

Without ``--profile`` the palette is fitted to the photo itself (no set-up:
"point the camera at a finished board"). A BITS board is turned so that row
0 is the ramp's top: the tiles rest at the bottom.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.orientation import turn_corners
from calibration.palette import PaletteError, bundled_palettes, load_palette
from calibration.profile import Profile, ProfileError
from device.cli import EXIT_NOT_FOUND, EXIT_OK, CliError, print_json
from device.commands.score import load_cards
from device.doctor import framing
from engine.bits import Board, load_settings, score_board
from vision.annotate import draw_reading
from vision.draw import draw_grid, draw_miss
from vision.gridfit import GridFit
from vision.orientation import gravity_quarters
from vision.palette import Palette
from vision.photo import read_photo
from vision.rules import ruled_reading

GAME_GRIDS = {"bits": (6, 6), "lits": (10, 10)}


def parse_grid(text: str) -> tuple[int, int]:
    """``"6x6"`` -> ``(6, 6)``; rows first."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not m or not (1 <= int(m[1]) <= 40 and 1 <= int(m[2]) <= 40):
        raise CliError(f"--grid wants ROWSxCOLS with 1..40 each, e.g. 6x6, not {text!r}")
    return int(m[1]), int(m[2])


def parse_corners(text: str) -> np.ndarray:
    """``"x1,y1,x2,y2,x3,y3,x4,y4"`` (UL UR LR LL) -> ``(4, 2)`` float array."""
    try:
        values = [float(v) for v in re.split(r"[,\s]+", text.strip())]
    except ValueError:
        values = []
    if len(values) != 8 or not all(np.isfinite(values)):
        raise CliError(
            "--corners wants 8 numbers x1,y1,...,x4,y4 "
            "(upper-left, upper-right, lower-right, lower-left)"
        )
    return np.array(values, dtype=np.float64).reshape(4, 2)


def load_image(path: Path) -> np.ndarray:
    """The photo as BGR uint8, or a CliError saying why not."""
    if not path.is_file():
        raise CliError(f"no such file: {path}")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CliError(f"not a readable image: {path}")
    return image


def manual_corners(image: np.ndarray, text: str) -> np.ndarray:
    """``--corners`` checked against the image."""
    corners = parse_corners(text)
    h, w = image.shape[:2]
    if np.any(corners < -w) or np.any(corners > 2 * max(h, w)):
        raise CliError("--corners lie far outside the image")
    return corners


def result(fit: GridFit | None, game: str, rows: int, cols: int) -> dict[str, Any]:
    """The ``read --json`` object for a fit (cells are filled by the colour reader)."""
    return {
        "found": fit is not None,
        "game": game,
        "grid": [rows, cols],
        "corners": []
        if fit is None
        else [[round(float(x), 2), round(float(y), 2)] for x, y in fit.corners],
        "cells": [],
        "confidence": [],
        "score": {},
    }


def choose_palette(args: argparse.Namespace, profile: Profile | None) -> Palette:
    """The profile's learnt colours, else ``--palette``, else the game's palette."""
    if profile is not None:
        return profile.palette
    try:
        return load_palette(args.palette or args.game)
    except PaletteError as err:
        raise CliError(str(err)) from None


def load_profile(path: str | None) -> Profile | None:
    if path is None:
        return None
    try:
        return Profile.load(path)
    except ProfileError as err:
        raise CliError(str(err)) from None


def oriented(fit: GridFit, profile: Profile | None, game_board: bool, codes: np.ndarray) -> int:
    """Clockwise quarter turns that put row 0 at the board's top.

    With a profile: the turn whose corners land nearest the calibrated ones.
    A BITS board of the game's size: gravity (tiles rest at the bottom).
    Otherwise the image's own upright order is kept."""
    if profile is not None and profile.corners is not None and fit.rows == fit.cols:
        errors = [
            np.linalg.norm(turn_corners(fit.corners, k) - profile.corners, axis=1).sum()
            for k in range(4)
        ]
        return int(np.argmin(errors))
    if game_board and fit.rows == fit.cols:
        return gravity_quarters(codes != ".")[0]
    return 0


def score(game: str, cells: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """The ``score`` object of the contract; ``{}`` when there is nothing to score."""
    if game == "lits":
        return {s: sum(row.count(s) for row in cells) for s in ("X", "O")}
    if not args.card:
        return {}
    if any("?" in row for row in cells):
        return {}  # an unsure cell could change any block; say nothing rather than guess
    try:
        board = Board.from_text("\n".join(cells), name=args.image)
    except ValueError:
        return {}  # not a BITS board (another palette's codes)
    cards = load_cards(args.card, args.catalogue)
    return dict(score_board(board, cards, load_settings()).to_json())


def run(args: argparse.Namespace) -> int:
    rows, cols = parse_grid(args.grid) if args.grid else GAME_GRIDS[args.game]
    image = load_image(Path(args.image))
    profile = load_profile(args.profile)
    palette = choose_palette(args, profile)
    if profile is not None and (profile.rows, profile.cols) != (rows, cols):
        raise CliError(
            f"the profile is for a {profile.rows}x{profile.cols} grid, not {rows}x{cols}"
        )
    corners = None if args.corners is None else manual_corners(image, args.corners)
    # The profile says how to find the grid (search, markers, manual corners).
    grid = profile.find_grid(image) if corners is None and profile is not None else None
    photo = read_photo(
        image,
        rows,
        cols,
        palette,
        grid=grid,
        corners=corners,
        gains=None if profile is None else profile.gains,
        # a profile that never saw the board's print cannot read it: fitted, as without one
        fit_palette=profile is None or not profile.knows_board,
        seen=None if profile is None else profile.corners,
    )
    fit = None if photo is None else photo.fit
    out = result(fit, args.game, rows, cols)
    picture = None
    if photo is not None:
        tight = framing(photo.fit, image) if photo.fit.method == "search" else None
        if tight is not None:
            print(f"warning: {tight}", file=sys.stderr)
        reading = photo.reading
        game_board = (
            palette.game == "bits" and (rows, cols) == GAME_GRIDS["bits"] and corners is None
        )
        k = oriented(photo.fit, profile, game_board, reading.codes)
        # The pieces' own rules: BITS tiles rest in dominoes, LITS pieces
        # are whole tetrominoes coloured by shape on paired symbols.
        lits_board = palette.game == "lits" and (rows, cols) == GAME_GRIDS["lits"]
        rules = "bits" if game_board else "lits" if lits_board else ""
        layout = None if profile is None else profile.layout
        codes, conf = ruled_reading(rules, reading, k, layout)
        cells = ["".join(row) for row in codes.tolist()]
        out["corners"] = [
            [round(float(x), 2), round(float(y), 2)] for x, y in turn_corners(photo.fit.corners, k)
        ]
        out["cells"] = cells
        out["confidence"] = [[round(float(v), 3) for v in row] for row in conf]
        out["unsure"] = [[int(r), int(c)] for r, c in np.argwhere(codes == "?")]
        out["score"] = score(args.game, cells, args)
        if args.debug_image:
            picture = draw_reading(
                draw_grid(image, photo.fit),
                photo.fit,
                reading.codes,
                reading.confidence,
                reading.lab,
                reading.highlight,
            )
    if args.debug_image:
        if picture is None:
            picture = draw_miss(image, f"no {rows}x{cols} grid found")
        if not cv2.imwrite(str(args.debug_image), picture):
            raise CliError(f"cannot write the debug image {args.debug_image}")
    if args.json:
        print_json(out)
    elif fit is None:
        print(f"no {rows}x{cols} grid found in {args.image}")
    else:
        print("\n".join(out["cells"]))
        if out["unsure"]:
            where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in out["unsure"])
            print(f"unsure: {where}")
        if out["score"]:
            print(f"score: {json.dumps(out['score'])}")
    return EXIT_OK if fit is not None else EXIT_NOT_FOUND


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("read", help="find the board in one photo and read it")
    p.add_argument("image", help="photo file (JPEG, PNG, ...)")
    p.add_argument(
        "--game",
        choices=sorted(GAME_GRIDS),
        default="bits",
        help="which game's board (default bits)",
    )
    p.add_argument(
        "--grid",
        metavar="RxC",
        help="grid size, rows x columns (default: the game's, 6x6 or 10x10)",
    )
    p.add_argument(
        "--corners",
        metavar="X1,Y1,...,X4,Y4",
        help="the grid's outer corners in pixels (upper-left, upper-right, lower-right, "
        "lower-left) instead of searching",
    )
    p.add_argument(
        "--debug-image",
        metavar="OUT.png",
        help="write the photo with the found grid and every cell's reading drawn on it",
    )
    p.add_argument(
        "--profile",
        metavar="FILE",
        help="a calibration profile (tilewatch calibrate); without one the palette is "
        "fitted to this photo",
    )
    p.add_argument(
        "--palette",
        metavar="NAME|FILE",
        help=f"colours to read with (bundled: {', '.join(bundled_palettes())}; or a .toml "
        "file); default: the game's",
    )
    p.add_argument(
        "--card",
        action="append",
        default=[],
        metavar="CARD",
        help="BITS: a task card to score the board against (repeat; see tilewatch score --help)",
    )
    p.add_argument("--catalogue", type=Path, help="BITS: a TOML file of your own task cards")
    p.add_argument("--json", action="store_true", help="print one JSON object (the read contract)")
    p.set_defaults(func=run)
