"""``tilewatch read IMAGE``: find the board in one photo and report what it shows.

Contract (DESIGN.md): with ``--json`` one object ``{"found", "game", "grid",
"corners", "cells", "confidence", "score"}``; exit 0 when the grid was found,
3 when it was not (still printing ``"found": false``), 2 on bad arguments or an
unreadable file.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.cli import EXIT_NOT_FOUND, EXIT_OK, CliError, print_json
from vision.draw import draw_grid, draw_miss
from vision.gridfit import GridFit
from vision.locate import locate_grid

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


def find_grid(image: np.ndarray, rows: int, cols: int, args: argparse.Namespace) -> GridFit | None:
    """Manual corners when given, else the automatic search."""
    if args.corners is not None:
        corners = parse_corners(args.corners)
        h, w = image.shape[:2]
        if np.any(corners < -w) or np.any(corners > 2 * max(h, w)):
            raise CliError("--corners lie far outside the image")
        return GridFit.from_corners(corners, rows, cols)
    return locate_grid(image, rows, cols)


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


def run(args: argparse.Namespace) -> int:
    rows, cols = parse_grid(args.grid) if args.grid else GAME_GRIDS[args.game]
    image = load_image(Path(args.image))
    fit = find_grid(image, rows, cols, args)
    out = result(fit, args.game, rows, cols)
    if args.debug_image:
        picture = draw_grid(image, fit) if fit else draw_miss(image, f"no {rows}x{cols} grid found")
        if not cv2.imwrite(str(args.debug_image), picture):
            raise CliError(f"cannot write the debug image {args.debug_image}")
    if args.json:
        print_json(out)
    elif fit is None:
        print(f"no {rows}x{cols} grid found in {args.image}")
    else:
        print(fit)
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
        "--debug-image", metavar="OUT.png", help="write the photo with the found grid drawn on it"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (the read contract)")
    p.set_defaults(func=run)
