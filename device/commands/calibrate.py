"""``tilewatch calibrate``: make a calibration profile from one frame, one confirmation.

The board is read with no set-up (the palette fitted to this frame) and
shown; the person confirms it, or types the cells that are wrong
(``3,4=R``: row 3, column 4, counted from 1 and from the board's top-left).
Every cell whose colour is then known becomes a palette sample; the white
balance, where the grid is and which way up it is go into the same
human-readable TOML file (``--out``). For scripts and tests, ``--yes``
accepts without asking and ``--fix`` gives the corrections up front.

Exit 0 when the profile was written, 3 when no grid was found, 2 on bad
arguments, an unreadable frame, a refused confirmation or a file that cannot
be written (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.geometry import GridGeometry
from calibration.orientation import turn, turn_corners
from calibration.palette import PaletteError, load_palette
from calibration.profile import CAMERA_CONTROLS, Profile
from calibration.wizard import FixError, build_profile, confirmed_codes, parse_fixes
from device.cli import EXIT_NOT_FOUND, EXIT_OK, CliError, print_json
from device.commands.read import GAME_GRIDS, load_image, manual_corners, parse_grid
from device.doctor import framing
from vision.annotate import draw_reading
from vision.draw import draw_grid
from vision.gridfit import GridFit
from vision.markers import locate_markers
from vision.orientation import gravity_quarters
from vision.photo import PhotoReading, read_photo
from vision.reader import Reading

DEFAULT_OUT = "tilewatch-profile.toml"


def grab_frame(args: argparse.Namespace) -> tuple[np.ndarray, dict[str, Any], str]:
    """The frame to calibrate on, the camera controls it was taken with, and its name."""
    if args.image and args.source:
        raise CliError("give a photo or --source, not both")
    if args.image:
        return load_image(Path(args.image)), {}, str(args.image)
    if not args.source:
        raise CliError("give a photo of the board, or --source CAMERA (sim, picam, usb:0, ...)")
    from device.sources.base import SourceGone
    from device.sources.open import open_source

    try:
        with open_source(args.source) as source:
            frame = source.read()
    except (SourceGone, ValueError) as err:
        raise CliError(f"camera {args.source}: {err}") from None
    if frame is None:
        raise CliError(f"camera {args.source} gave no frame")
    controls = frame.meta.get("controls", {}) or {}
    camera = {k: _plain(controls[k]) for k in CAMERA_CONTROLS if k in controls}
    return frame.image, camera, args.source


def _plain(value: Any) -> Any:
    """Camera metadata as TOML-friendly numbers, lists and booleans."""
    if isinstance(value, bool | int | float | str):
        return value
    try:
        return [float(v) for v in value]
    except TypeError:
        return str(value)


def turned(reading: Reading, k: int) -> Reading:
    """The reading turned ``k`` quarter turns clockwise (row 0 = the board's top)."""
    return replace(
        reading,
        codes=turn(reading.codes, k),
        confidence=turn(reading.confidence, k),
        lab=turn(reading.lab, k),
        entry=turn(reading.entry, k),
        distance=turn(reading.distance, k),
        margin=turn(reading.margin, k),
        scores=turn(reading.scores, k),
        field=turn(reading.field, k),
    )


def board_lines(codes: np.ndarray) -> list[str]:
    """The board as people read it: column numbers on top, row numbers left."""
    cols = codes.shape[1]
    head = "    " + " ".join(str((c + 1) % 10) for c in range(cols))
    return [head] + [f"{r + 1:>3} " + " ".join(row) for r, row in enumerate(codes.tolist())]


def ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not sys.stdin.isatty():
        print()  # the answer came from a pipe: end the prompt's line
    if not line:
        raise CliError("no answer (end of input); nothing written")
    return line.strip()


def confirm(
    reading: Reading, args: argparse.Namespace, alphabet: str
) -> dict[tuple[int, int], str]:
    """The person's one confirmation: the fixes to apply (none = as read)."""
    rows, cols = reading.codes.shape
    try:
        fixes = parse_fixes(" ".join(args.fix), rows, cols, alphabet)
    except FixError as err:
        raise CliError(str(err)) from None
    if args.yes:
        return fixes
    if not sys.stdin.isatty() and not args.interactive:
        raise CliError("nobody to confirm the board: run in a terminal, or pass --yes (and --fix)")
    print("\n".join(board_lines(confirmed_codes(reading, fixes))))
    unsure = [(r, c) for r, c in reading.unsure() if (r, c) not in fixes]
    if unsure:
        where = ", ".join(f"{r + 1},{c + 1}" for r, c in unsure)
        print(f"unsure (?): {where} - fix them, or they teach nothing")
    answer = ask("Is this the board? Enter = yes; or type fixes like 3,4=R; q = quit: ")
    if answer.lower() in ("q", "quit", "n", "no"):
        raise CliError("calibration cancelled; nothing written")
    if answer and answer.lower() not in ("y", "yes"):
        try:
            fixes.update(parse_fixes(answer, rows, cols, alphabet))
        except FixError as err:
            raise CliError(str(err)) from None
    return fixes


def locate(image: np.ndarray, rows: int, cols: int, args: argparse.Namespace) -> GridFit | None:
    if args.corners is not None:
        return GridFit.from_corners(manual_corners(image, args.corners), rows, cols)
    if args.markers:
        return locate_markers(image, rows, cols)
    return None  # read_photo searches


def run(args: argparse.Namespace) -> int:
    rows, cols = parse_grid(args.grid) if args.grid else GAME_GRIDS[args.game]
    try:
        palette = load_palette(args.palette or args.game)
    except PaletteError as err:
        raise CliError(str(err)) from None
    image, camera, source = grab_frame(args)
    grid = locate(image, rows, cols, args)
    if args.markers and grid is None:
        print("no markers found", file=sys.stderr)
        return EXIT_NOT_FOUND
    photo: PhotoReading | None = read_photo(image, rows, cols, palette, grid=grid)
    if photo is None:
        print(f"no {rows}x{cols} grid found in {source}", file=sys.stderr)
        return EXIT_NOT_FOUND
    if args.corners is None:
        tight = framing(photo.fit, image)
        if tight is not None:
            print(f"warning: {tight}", file=sys.stderr)
    k = 0
    if palette.game == "bits" and (rows, cols) == GAME_GRIDS["bits"] and args.corners is None:
        k = gravity_quarters(photo.reading.codes != ".")[0]
    reading = turned(photo.reading, k)
    corners = turn_corners(photo.fit.corners, k)
    if args.debug_image:
        picture = draw_reading(
            draw_grid(image, photo.fit),
            photo.fit,
            photo.reading.codes,
            photo.reading.confidence,
            photo.reading.lab,
        )
        if not cv2.imwrite(str(args.debug_image), picture):
            raise CliError(f"cannot write the debug image {args.debug_image}")
    fixes = confirm(reading, args, palette.cell_codes.replace("?", ""))
    mode = "manual" if args.corners else "markers" if args.markers else "auto"
    geometry = GridGeometry(
        rows, cols, mode, corners=tuple(map(tuple, corners)) if mode == "manual" else None
    )
    profile: Profile = build_profile(
        reading,
        fixes,
        corners=corners,
        image_size=(image.shape[1], image.shape[0]),
        camera=camera,
        source=source,
        nominal=palette,
    )
    profile.geometry = geometry
    profile.quarter_turns = k
    out = Path(args.out)
    try:
        profile.save(out)
    except OSError as err:
        raise CliError(f"cannot write {out}: {err.strerror or err}") from None
    codes = confirmed_codes(reading, fixes)
    learnt = {
        name: int(n) for name, n in zip(profile.palette.names, profile.samples, strict=True) if n
    }
    if args.json:
        print_json(
            {
                "profile": str(out),
                "cells": ["".join(row) for row in codes.tolist()],
                "fixes": [[r, c, code] for (r, c), code in sorted(fixes.items())],
                "unsure": [[r, c] for r, c in np.argwhere(codes == "?").tolist()],
                "learnt": learnt,
                "gains": [round(float(g), 5) for g in profile.gains],
                "quarter_turns": k,
                "layout": None if profile.layout is None else list(profile.layout),
            }
        )
    else:
        taught = ", ".join(f"{name} {n}" for name, n in learnt.items())
        print(f"wrote {out}: {len(fixes)} cell(s) fixed; learnt from {taught}")
        if profile.layout is not None:
            seen = sum(len(row) - row.count("?") for row in profile.layout)
            print(f"the board's printed symbols: {seen} of {rows * cols} cells known")
    return EXIT_OK


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="make a calibration profile from one frame and one confirmation",
        description=(__doc__ or "").split("\n\n")[1] if __doc__ else None,
    )
    p.add_argument("image", nargs="?", help="a photo of the board (or use --source)")
    p.add_argument("--source", metavar="CAMERA", help="take the frame from a camera: sim, picam...")
    p.add_argument("--game", choices=sorted(GAME_GRIDS), default="bits", help="default bits")
    p.add_argument("--grid", metavar="RxC", help="grid size (default: the game's)")
    p.add_argument("--palette", metavar="NAME|FILE", help="colours to start from (default: game's)")
    p.add_argument(
        "--corners", metavar="X1,Y1,...,X4,Y4", help="the grid's corners (manual geometry)"
    )
    p.add_argument("--markers", action="store_true", help="find the grid by its ArUco markers")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"profile file (default {DEFAULT_OUT})")
    p.add_argument("--yes", action="store_true", help="accept the reading without asking")
    p.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="ROW,COL=CODE",
        help="a correction, counted from 1 (repeat); with --yes for scripts",
    )
    p.add_argument("--interactive", action="store_true", help="ask even when stdin is not a TTY")
    p.add_argument(
        "--debug-image", metavar="OUT.png", help="write the frame with the reading drawn"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
