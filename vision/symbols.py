"""Read the symbol printed on a cell by its shape: ``X``, ``O`` or blank ``.``.

A Battle of LITS board prints an X or an O on some cells; the colour is the
same as the blank cells', so only shape tells them apart. The features are
chosen to hold for any size, weight and colour of print (dark on light, or
light on a dark board), and to ignore smooth shading and shadow edges:

- *ink*: thin strokes, found by morphological top-hat and black-hat on the
  cell's luminance (a shadow edge or a brightness gradient is wide, a stroke
  is narrow), relative to the strongest stroke response in the cell;
- an X crosses at the centre and leaves the points straight above, below,
  left and right of it empty at mid radius; an O is the opposite: a hole in
  the centre and ink all round. So ``centre`` and ``axes`` (ink on those four
  mid-radius spots) decide, and ``contrast`` (is there any print at all)
  decides blank.

>>> import cv2
>>> cell = np.full((40, 120, 3), 235, np.uint8)
>>> _ = cv2.line(cell, (10, 10), (30, 30), (40, 40, 40), 2)
>>> _ = cv2.line(cell, (10, 30), (30, 10), (40, 40, 40), 2)
>>> _ = cv2.circle(cell, (60, 20), 9, (40, 40, 40), 2)
>>> read_symbols(cell, 1, 3)[0].tolist()
[['X', 'O', '.']]
"""

from __future__ import annotations

import cv2
import numpy as np

# Each cell is resampled to this many pixels a side for shape features.
SYMBOL_PX = 24
# Print must differ from the cell ground by this many 8-bit levels.
MIN_CONTRAST = 18.0
# Radii as a fraction of the cell side.
CENTRE_R = 0.09
AXES_R = (0.14, 0.36)
AXES_HALF_WIDTH = 0.07


def _masks(px: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = (px - 1) / 2
    y, x = np.mgrid[0:px, 0:px].astype(np.float64)
    dx, dy = (x - c) / px, (y - c) / px
    r = np.hypot(dx, dy)
    centre = r <= CENTRE_R
    near_axis = (np.abs(dx) <= AXES_HALF_WIDTH) | (np.abs(dy) <= AXES_HALF_WIDTH)
    axes = near_axis & (r >= AXES_R[0]) & (r <= AXES_R[1])
    inner = (np.abs(dx) <= 0.4) & (np.abs(dy) <= 0.4)
    return centre, axes, inner


_CENTRE, _AXES, _INNER = _masks(SYMBOL_PX)
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def stroke_map(rectified_bgr: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Thin-stroke strength per pixel: (rows, cols, SYMBOL_PX, SYMBOL_PX) float32 levels."""
    grey = cv2.cvtColor(rectified_bgr, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (cols * SYMBOL_PX, rows * SYMBOL_PX), interpolation=cv2.INTER_AREA)
    dark = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, _KERNEL)
    light = cv2.morphologyEx(small, cv2.MORPH_TOPHAT, _KERNEL)
    hat = np.maximum(dark, light).astype(np.float32)
    return hat.reshape(rows, SYMBOL_PX, cols, SYMBOL_PX).transpose(0, 2, 1, 3)


def read_symbols(
    rectified_bgr: np.ndarray, rows: int, cols: int, choices: str = "XO."
) -> tuple[np.ndarray, np.ndarray]:
    """The symbol on every cell: codes (rows, cols) of ``X``/``O``/``.`` and confidence.

    ``choices`` limits the answer (e.g. ``"X."`` on a board without O's); a
    cell whose evidence points to a symbol not allowed reads ``?``.
    """
    hat = stroke_map(rectified_bgr, rows, cols)
    inner = hat[:, :, _INNER]
    contrast = np.percentile(inner, 97, axis=-1)
    level = np.maximum(contrast * 0.5, MIN_CONTRAST * 0.5)
    ink = hat >= level[..., None, None]
    centre = ink[:, :, _CENTRE].mean(axis=-1)
    axes = ink[:, :, _AXES].mean(axis=-1)
    printed = contrast >= MIN_CONTRAST
    is_x = centre > axes
    codes = np.where(printed, np.where(is_x, "X", "O"), ".")
    # Confidence: how clearly the print is there (or absent) and how clearly
    # the centre/axes evidence separates X from O.
    presence = np.clip(np.abs(contrast - MIN_CONTRAST) / MIN_CONTRAST, 0.0, 1.0)
    shape = np.clip(np.abs(centre - axes) * 2.0, 0.0, 1.0)
    confidence = np.where(printed, np.minimum(presence, shape), presence)
    codes = np.where(np.isin(codes, list(choices)), codes, "?")
    return codes, confidence
