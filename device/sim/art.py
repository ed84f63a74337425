"""The flat, printed things: the table top and the board's print.

Nothing here stands up from the plane, so this texture does not depend on
where the camera is and is drawn once per renderer. Raised things (ramp
rails, tiles) come later with parallax (:mod:`device.sim.solids`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from device.sim.board import BoardSpec
from device.sim.canvas import Canvas
from device.sim.paint import BGR, load_paint


def _lattice_values(ix: np.ndarray, iy: np.ndarray, seed: int, salt: int) -> np.ndarray:
    """A random value in -1..1 for every integer lattice point, from a hash
    of its coordinates: any patch of the lattice comes out the same."""
    h = (ix.astype(np.uint32) * np.uint32(0x9E3779B1)) ^ (
        iy.astype(np.uint32) * np.uint32(0x85EBCA77)
    )
    h ^= np.uint32((seed * 0x27D4EB2F + salt * 0x165667B1) & 0xFFFFFFFF)
    h ^= h >> np.uint32(15)
    h *= np.uint32(0x2C1B3C6D)
    h ^= h >> np.uint32(12)
    h *= np.uint32(0x297A2D39)
    h ^= h >> np.uint32(15)
    return (h.astype(np.float64) / 2**31 - 1.0).astype(np.float32)


def _lattice_noise(
    xs: np.ndarray, ys: np.ndarray, spacing: tuple[float, float], seed: int, salt: int
) -> np.ndarray:
    """Smooth noise in about -1..1 at board-plane mm (xs, ys), from a random
    lattice fixed in mm: the same table comes out at any resolution."""
    gx, gy = xs / spacing[0], ys / spacing[1]
    ix0, iy0 = int(np.floor(gx.min())) - 2, int(np.floor(gy.min())) - 2
    ix1, iy1 = int(np.ceil(gx.max())) + 3, int(np.ceil(gy.max())) + 3
    jx, jy = np.meshgrid(np.arange(ix0, ix1), np.arange(iy0, iy1))
    lattice = _lattice_values(jx, jy, seed, salt)
    mx = (gx - ix0).astype(np.float32)
    my = (gy - iy0).astype(np.float32)
    return cv2.remap(lattice, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)


def table_texture(
    variant: str, rect_mm: tuple[float, float, float, float], ppm: float, seed: int
) -> np.ndarray:
    """A table top covering ``rect_mm`` at ``ppm`` pixels per mm: wood
    planks, cloth, or plain laminate. Defined in mm, so a detailed patch
    under the board matches a coarse one of the whole table."""
    x0, y0, x1, y1 = rect_mm
    w = max(1, round((x1 - x0) * ppm))
    h = max(1, round((y1 - y0) * ppm))
    xs = np.broadcast_to(x0 + np.arange(w, dtype=np.float32)[None, :] / ppm, (h, w))
    ys = np.broadcast_to(y0 + np.arange(h, dtype=np.float32)[:, None] / ppm, (h, w))
    rng = np.random.default_rng([seed, 101])
    base = np.array(load_paint().table(variant), np.float32)
    if variant in ("oak", "walnut"):
        # planks along x; the grain follows wavy lines and each plank has its tone
        warp = _lattice_noise(xs, ys, (160.0, 60.0), seed, 1) * 7.0 + _lattice_noise(
            xs, ys, (30.0, 12.0), seed, 2
        )
        period = rng.uniform(2.5, 4.0)
        grain = np.sin((ys + warp) * (2 * math.pi / period))
        plank_mm = rng.uniform(80, 120)
        plank = np.floor(ys / plank_mm)
        tone = 1.0 + 0.07 * np.sin(plank * 2.3 + rng.uniform(0, 6))
        streaks = _lattice_noise(xs, ys, (25.0, 0.8), seed, 3) * 0.05
        seams = (np.abs((ys % plank_mm) - plank_mm / 2) > plank_mm / 2 - 0.5).astype(np.float32)
        shade = tone * (1.0 + 0.06 * grain + streaks) * (1.0 - 0.35 * seams)
    elif variant == "cloth":
        weave = np.sin(xs * (2 * math.pi / 0.9)) * np.sin(ys * (2 * math.pi / 0.9))
        shade = 1.0 + 0.03 * weave + 0.05 * _lattice_noise(xs, ys, (90.0, 90.0), seed, 4)
    else:
        shade = 1.0 + 0.035 * _lattice_noise(xs, ys, (120.0, 120.0), seed, 5)
        shade = shade + 0.012 * _lattice_noise(xs, ys, (2.0, 2.0), seed, 6)
    img = base[None, None, :] * np.asarray(shade, np.float32)[:, :, None]
    texture: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return texture


def print_board(canvas: Canvas, board: BoardSpec, art: str) -> None:
    """Print the board (frame, grid lines, logo, LITS symbols) onto ``canvas``."""
    colours = load_paint().board(board.game, art)
    x0, y0, x1, y1 = board.board_rect_mm()
    w, h = board.grid_size_mm
    s = board.cell_mm
    canvas.fill_polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colours["border"])
    canvas.fill_polygon([(0, 0), (w, 0), (w, h), (0, h)], colours["cell"])
    if board.game == "bits":
        _bits_decor(canvas, board, art, colours)
    else:
        _lits_decor(canvas, board, art, colours)
    line = colours["line"]
    for i in range(1, board.cols):
        canvas.line((i * s, 0), (i * s, h), line, 0.9)
    for j in range(1, board.rows):
        canvas.line((0, j * s), (w, j * s), line, 0.9)
    # a heavier outer frame, straddling the grid's edge as printers do
    for a, b in (((0, 0), (w, 0)), ((w, 0), (w, h)), ((w, h), (0, h)), ((0, h), (0, 0))):
        canvas.line(a, b, line, 1.6)


def _bits_decor(canvas: Canvas, board: BoardSpec, art: str, colours: dict[str, BGR]) -> None:
    x0, y0, x1, _ = board.board_rect_mm()
    w, _ = board.grid_size_mm
    s = board.cell_mm
    top = board.margin_mm[1]
    canvas.text("BITS", ((x0 + x1) / 2, y0 + top * 0.36), top * 0.3, colours["accent"])
    if art == "classic":
        canvas.line((x0 + 4, -top * 0.22), (x1 - 4, -top * 0.22), colours["accent"], 1.2)
        for c in range(board.cols):  # drop arrows above each column
            cx = (c + 0.5) * s
            canvas.fill_polygon([(cx - 3.5, -8.5), (cx + 3.5, -8.5), (cx, -4.0)], colours["accent"])
    elif art == "ivory":
        for i in range(0, int(w // 4) + 1):
            canvas.fill_polygon(_disc((i * 4.0 + (w % 4) / 2, -4.0), 0.9), colours["accent"])
    else:  # slate: registration-like corner marks and a column index
        for cx, cy, dx, dy in ((0, 0, -1, -1), (w, 0, 1, -1)):
            canvas.line(
                (cx + dx * 2.5, cy + dy * 2.5), (cx + dx * 2.5, cy + dy * 9), colours["accent"], 1.0
            )
            canvas.line(
                (cx + dx * 2.5, cy + dy * 2.5), (cx + dx * 9, cy + dy * 2.5), colours["accent"], 1.0
            )
        for c in range(board.cols):
            canvas.text(
                str(c + 1), ((c + 0.5) * s, -top * 0.12), 3.0, colours["accent"], bold=False
            )


def _lits_decor(canvas: Canvas, board: BoardSpec, art: str, colours: dict[str, BGR]) -> None:
    x0, y0, x1, y1 = board.board_rect_mm()
    w, h = board.grid_size_mm
    s = board.cell_mm
    top = board.margin_mm[1]
    title = "BATTLE OF LITS" if art != "cream" else "LITS"
    canvas.text(title, ((x0 + x1) / 2, y0 + top * 0.45), top * 0.32, colours["accent"])
    if art == "print":
        inset = 4.0
        for a, b in (
            ((-inset, -inset), (w + inset, -inset)),
            ((w + inset, -inset), (w + inset, h + inset)),
            ((w + inset, h + inset), (-inset, h + inset)),
            ((-inset, h + inset), (-inset, -inset)),
        ):
            canvas.line(a, b, colours["accent"], 0.6)
    elif art == "night":
        for cx, cy in ((x0 + 6, y1 - 6), (x1 - 6, y1 - 6)):
            canvas.fill_polygon(_disc((cx, cy), 2.2), colours["accent"])
    for r, row in enumerate(board.layout):
        for c, code in enumerate(row):
            centre = ((c + 0.5) * s, (r + 0.5) * s)
            if code == "X":
                d = s * 0.22
                canvas.line(
                    (centre[0] - d, centre[1] - d),
                    (centre[0] + d, centre[1] + d),
                    colours["symbol"],
                    1.7,
                )
                canvas.line(
                    (centre[0] - d, centre[1] + d),
                    (centre[0] + d, centre[1] - d),
                    colours["symbol"],
                    1.7,
                )
            elif code == "O":
                canvas.ring(centre, s * 0.23, colours["symbol"], 1.6)


def _disc(centre: tuple[float, float], radius: float, n: int = 16) -> list[tuple[float, float]]:
    return [
        (
            centre[0] + radius * math.cos(2 * math.pi * k / n),
            centre[1] + radius * math.sin(2 * math.pi * k / n),
        )
        for k in range(n)
    ]
