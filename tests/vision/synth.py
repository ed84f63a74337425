"""Synthetic rectified boards for the colour reader's tests.

A board is drawn in linear light from a palette's nominal colours, then lit
(illuminant colour from Planck's law, exposure, a brightness gradient, a
specular highlight), printed on (tile symbols, LITS X/O), blurred and noised
like a sensor, and encoded to sRGB 8-bit BGR, as a camera would give it after
the locator rectified it. Nothing here is fitted to the reader: the reader
only sees pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import lab_to_linear, linear_to_srgb, srgb_to_linear
from vision.lamps import planck_xy
from vision.palette import Palette

# sRGB primaries / D65 (as vision.colour): XYZ -> linear RGB.
_XYZ_TO_RGB = np.linalg.inv(
    np.array(
        [
            [0.4124564, 0.3575761, 0.1804375],
            [0.2126729, 0.7151522, 0.0721750],
            [0.0193339, 0.1191920, 0.9503041],
        ]
    )
)


def illuminant_gains(kelvin: float, reference: float = 6500.0) -> np.ndarray:
    """Linear R, G, B gains of a ``kelvin`` lamp relative to ``reference``, green = 1.

    A camera whose white balance was set under ``reference`` sees a white
    card under ``kelvin`` with these gains (von Kries)."""

    def rgb(t: float) -> np.ndarray:
        x, y = planck_xy(t)
        xyz = np.array([x / y, 1.0, (1 - x - y) / y])
        return np.asarray(_XYZ_TO_RGB @ xyz)

    g = rgb(kelvin) / rgb(reference)
    return g / g[1]


@dataclass
class Light:
    kelvin: float = 6500.0
    exposure: float = 1.0
    gradient: float = 0.0  # brightness falls by this share from left to right
    glare: float = 0.0  # peak of a specular highlight, in linear white
    glare_at: tuple[float, float] = (0.3, 0.3)  # (x, y) as a share of the board
    glare_radius: float = 0.08  # share of the board's width
    shadow: float = 0.0  # share of the light a hard-edged shadow takes away
    shadow_deg: float = 60.0  # its edge's normal, from the x axis (y down)
    shadow_at: float = 0.7  # the edge's distance from the top-left, board widths


def render_board(
    cells: Sequence[str],
    palette: Palette,
    light: Light | None = None,
    *,
    cell_px: int = 60,
    line_lab: Sequence[float] = (25.0, 0.0, 0.0),
    tile_symbols: bool = True,
    noise: float = 0.0,
    blur: float = 0.0,
    seed: int = 0,
) -> np.ndarray:
    """A rectified board (rows*cell_px, cols*cell_px, 3) BGR uint8.

    ``cells``: board text rows; a code of a palette entry, or a printed
    symbol (``X`` ``O`` ``.``) of an entry that lists symbols. Tiles (entries
    that are not the board and list no symbols) get a player's symbol (a
    disc in a darker tint) when ``tile_symbols``, the grey tile included.
    """
    light = light or Light()
    rng = np.random.default_rng(seed)
    rows, cols = len(cells), len(cells[0])
    h, w = rows * cell_px, cols * cell_px
    img = np.zeros((h, w, 3), np.float64)
    ink_dark = lab_to_linear(np.array([20.0, 0.0, 0.0]))
    # The printed board first (its ground, symbols and grid lines), then the
    # tiles on top: a tile hides the lines under it, as a real one does.
    board_k = palette.entries_for(".") or [int(np.argmax(palette.board))]
    tiles = []
    for r, row in enumerate(cells):
        for c, code in enumerate(row):
            k = palette.entries_for(code)[0]
            y0, x0 = r * cell_px, c * cell_px
            patch = img[y0 : y0 + cell_px, x0 : x0 + cell_px]
            if palette.board[k] or palette.symbols[k] or not palette.board.any():
                patch[:] = lab_to_linear(palette.lab[k])
                if palette.symbols[k]:
                    _draw_symbol(patch, code, cell_px, ink_dark)
            else:
                patch[:] = lab_to_linear(palette.lab[board_k[0]])
                tiles.append((r, c, k))
    line = lab_to_linear(np.asarray(line_lab, dtype=np.float64))
    t = max(2, cell_px // 20)
    for i in range(rows + 1):
        y = min(i * cell_px, h - 1)
        cv2.line(img, (0, y), (w - 1, y), line.tolist(), t)
    for j in range(cols + 1):
        x = min(j * cell_px, w - 1)
        cv2.line(img, (x, 0), (x, h - 1), line.tolist(), t)
    for r, c, k in tiles:
        base = lab_to_linear(palette.lab[k])
        patch = img[r * cell_px : (r + 1) * cell_px, c * cell_px : (c + 1) * cell_px]
        patch[:] = base
        if tile_symbols:
            # Print contrasts with its plastic: darker on light, lighter on dark.
            tint = base * 0.55 if palette.lab[k][0] > 40 else base + (1 - base) * 0.3
            centre = (cell_px // 2, cell_px // 2)
            cv2.circle(patch, centre, int(cell_px * 0.17), tint.tolist(), -1, cv2.LINE_AA)

    gains = illuminant_gains(light.kelvin) * light.exposure
    xs = np.linspace(0.0, 1.0, w)[None, :, None]
    shade = 1.0 - light.gradient * xs
    img = img * gains * shade
    if light.shadow > 0:
        yy, xx = np.mgrid[0:h, 0:w] / w
        a = np.radians(light.shadow_deg)
        past = xx * np.cos(a) + yy * np.sin(a) > light.shadow_at
        img = img * np.where(past, 1.0 - light.shadow, 1.0)[:, :, None]
    if light.glare > 0:
        yy, xx = np.mgrid[0:h, 0:w]
        gx, gy = light.glare_at[0] * w, light.glare_at[1] * h
        rad = light.glare_radius * w
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rad**2))
        img = img + light.glare * blob[:, :, None] * gains / gains.max()
    srgb = linear_to_srgb(img)[:, :, ::-1] * 255.0
    if blur > 0:
        srgb = cv2.GaussianBlur(srgb, (0, 0), blur)
    if noise > 0:
        srgb = srgb + rng.normal(0.0, noise, srgb.shape)
    return np.clip(srgb.round(), 0, 255).astype(np.uint8)


def _draw_symbol(patch: np.ndarray, code: str, px: int, ink: np.ndarray) -> None:
    c = px // 2
    t = max(2, px // 16)
    col = ink.tolist()
    if code == "X":
        d = int(px * 0.22)
        cv2.line(patch, (c - d, c - d), (c + d, c + d), col, t, cv2.LINE_AA)
        cv2.line(patch, (c - d, c + d), (c + d, c - d), col, t, cv2.LINE_AA)
    elif code == "O":
        cv2.circle(patch, (c, c), int(px * 0.23), col, t, cv2.LINE_AA)


def linear_of(bgr: np.ndarray) -> np.ndarray:
    """Linear RGB of BGR 0..255 colours (for checks in tests)."""
    return srgb_to_linear(np.asarray(bgr, dtype=np.float64)[..., ::-1] / 255.0)
