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
# Print must differ from the cell ground by this many 8-bit levels; on a
# board whose print is faint (light print on a dark board in a shadow) by
# this share of its clearest print's contrast, but never less than the floor
# (sensor noise after the blur stays below it).
MIN_CONTRAST = 18.0
FAINT_SHARE = 0.4
FLOOR_CONTRAST = 8.0
# The board's clearest print: this percentile of the cells' contrast.
CLEAR_PRINT = 95
# Cells with clear print needed for the board's ink (dark or light) to be
# decided by their vote rather than by every cell.
BOARD_VOTES = 5
# Radii as a fraction of the cell side.
CENTRE_R = 0.08
SPOKE_R = (0.14, 0.32)
SPOKE_HALF_WIDTH = 0.06
# Only this central square (half-side, share of the cell) is searched for
# print: the grid lines along the cell's edges must stay out.
INNER = 0.32
# A symbol's centre may sit this far off the cell's (share of the cell).
SHIFT_MAX = 0.12
# A grid line is a stroke running straight along (at least this share of)
# the cell's whole side; an X's or an O's strokes cover at most about half
# of any row or column.
LINE_SPAN = 0.75
# A photo with few pixels a cell (the far edge of a tilted board) blurs an
# X's strokes into one blob about as wide as its crossing, too wide for the
# stroke kernel: its contrast is also measured with a closing this wide (a
# share of the cell; the X's arms reach 0.22 of a cell from its centre).
BLOB = 0.4
# Such a blob counts as print only with an X's shape at least this clear
# (x_score: about 1 for an X, 0 for a blank cell, negative for an O).
BLOB_X = 0.5


def _masks(px: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Centre disc, spokes along the axes and along the diagonals, inner square."""
    c = (px - 1) / 2
    y, x = np.mgrid[0:px, 0:px].astype(np.float64)
    dx, dy = (x - c) / px, (y - c) / px
    r = np.hypot(dx, dy)
    centre = r <= CENTRE_R
    ring = (r >= SPOKE_R[0]) & (r <= SPOKE_R[1])
    w = SPOKE_HALF_WIDTH
    axes = ring & ((np.abs(dx) <= w) | (np.abs(dy) <= w))
    diagonals = ring & (np.abs(np.abs(dx) - np.abs(dy)) <= w * np.sqrt(2))
    inner = (np.abs(dx) <= INNER) & (np.abs(dy) <= INNER)
    return centre, axes, diagonals, inner


_CENTRE, _AXES, _DIAGONALS, _INNER = _masks(SYMBOL_PX)
# Where a symbol's centroid is looked for (share of the cell from its centre).
_NEAR = np.abs(np.arange(SYMBOL_PX) - (SYMBOL_PX - 1) / 2) / SYMBOL_PX <= 0.36
_NEAR = _NEAR[:, None] & _NEAR[None, :]
_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_BLOB_PX = int(BLOB * SYMBOL_PX) // 2 * 2 + 1  # odd: 9
_BLOB_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_BLOB_PX, _BLOB_PX))


def _cells(image: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """(rows*P, cols*P) image -> (rows, cols, P, P)."""
    return image.reshape(rows, SYMBOL_PX, cols, SYMBOL_PX).transpose(0, 2, 1, 3)


def _grey(rectified_bgr: np.ndarray, rows: int, cols: int) -> np.ndarray:
    grey = cv2.cvtColor(rectified_bgr, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (cols * SYMBOL_PX, rows * SYMBOL_PX), interpolation=cv2.INTER_AREA)
    # Sensor noise would read as tiny strokes; print is wider than a pixel.
    return cv2.GaussianBlur(small, (3, 3), 0.8)


def stroke_maps(small: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Dark and light thin-stroke strength per pixel, each (rows, cols, P, P) float32."""
    dark = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, _KERNEL).astype(np.float32)
    light = cv2.morphologyEx(small, cv2.MORPH_TOPHAT, _KERNEL).astype(np.float32)
    return _cells(dark, rows, cols), _cells(light, rows, cols)


def grid_lines(strokes: np.ndarray, level: float) -> np.ndarray:
    """Pixels of grid lines running across a cell: (rows, cols, P, P) bool.

    ``strokes``: a stroke map (:func:`stroke_maps`); its pixels count from
    ``level`` (the board's print threshold). A grid found a little off (a
    tenth of a cell at a lens's edge) moves the printed lines into the part
    of the cell searched for print, where a blank cell would read as an O;
    so the rows and columns of a cell that one straight stroke crosses from
    side to side are left out, with a pixel either side (the line's soft
    flank)."""
    on = strokes >= level
    across = np.zeros(on.shape, bool)
    for axis in (-2, -1):
        full = on.mean(axis=axis) >= LINE_SPAN  # (rows, cols, P): a line at that index
        full[..., 1:] |= full[..., :-1].copy()
        full[..., :-1] |= full[..., 1:].copy()
        across |= full[..., None, :] if axis == -2 else full[..., :, None]
    return across


def stroke_map(rectified_bgr: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Thin-stroke strength per pixel: (rows, cols, SYMBOL_PX, SYMBOL_PX) float32 levels."""
    dark, light = stroke_maps(_grey(rectified_bgr, rows, cols), rows, cols)
    return np.asarray(np.maximum(dark, light))


_DX = (np.arange(SYMBOL_PX) - (SYMBOL_PX - 1) / 2) / SYMBOL_PX  # pixel centres, share of a cell


def _shape_features(
    ink: np.ndarray, strokes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean ink on the centre disc, the axis spokes and the diagonal spokes.

    The spokes are laid around the print's own centre (its ink centroid,
    within SHIFT_MAX of the cell's): a lens's barrel or a corner found a
    little off moves an edge cell's symbol off its centre, and an O seen
    off-centre would show ink where an X's crossing should be. The centroid
    is taken on ``strokes`` (the thin-stroke map of the board's ink, as a
    share of the cell's print contrast), not on ``ink``: a neighbouring
    piece's side and its shadow over a cell's edge (a tilted camera) are as
    dark as print but wide, and would pull the centre towards them."""
    strong = np.where(strokes > 0.5, strokes, 0.0) * _NEAR
    mass = strong.sum(axis=(-1, -2))
    safe = np.maximum(mass, 1e-9)
    cx = np.where(mass > 0, (strong * _DX[None, :]).sum(axis=(-1, -2)) / safe, 0.0)
    cy = np.where(mass > 0, (strong * _DX[:, None]).sum(axis=(-1, -2)) / safe, 0.0)
    cx, cy = np.clip(cx, -SHIFT_MAX, SHIFT_MAX), np.clip(cy, -SHIFT_MAX, SHIFT_MAX)
    dx = _DX[None, None, None, :] - cx[..., None, None]
    dy = _DX[None, None, :, None] - cy[..., None, None]
    r = np.hypot(dx, dy)
    w = SPOKE_HALF_WIDTH
    ring = (r >= SPOKE_R[0]) & (r <= SPOKE_R[1])
    masks = (
        r <= CENTRE_R,
        ring & ((np.abs(dx) <= w) | (np.abs(dy) <= w)),
        ring & (np.abs(np.abs(dx) - np.abs(dy)) <= w * np.sqrt(2)),
    )
    c, a, d = ((ink * m).sum(axis=(-1, -2)) / np.maximum(m.sum(axis=(-1, -2)), 1) for m in masks)
    return c, a, d


def _levels(strokes: np.ndarray) -> np.ndarray:
    """Each cell's print contrast: near the top of its central strokes (rows, cols)."""
    return np.asarray(np.percentile(strokes[:, :, _INNER], 97, axis=-1))


def _blob_levels(
    small: np.ndarray, dark_print: bool, lines: np.ndarray, rows: int, cols: int
) -> np.ndarray:
    """Each cell's print contrast at the scale of a whole blurred symbol
    (rows, cols): :func:`_levels` of a black-hat (dark print) or top-hat
    (light print) BLOB wide, the grid lines left out."""
    op = cv2.MORPH_BLACKHAT if dark_print else cv2.MORPH_TOPHAT
    wide = _cells(cv2.morphologyEx(small, op, _BLOB_KERNEL).astype(np.float32), rows, cols)
    return _levels(np.where(lines, 0.0, wide))


def _print_threshold(levels: np.ndarray) -> float:
    """The contrast that tells print from a blank cell on this board."""
    clear = float(np.percentile(levels, CLEAR_PRINT))
    return float(np.clip(FAINT_SHARE * clear, FLOOR_CONTRAST, MIN_CONTRAST))


def read_symbols(
    rectified_bgr: np.ndarray, rows: int, cols: int, choices: str = "XO."
) -> tuple[np.ndarray, np.ndarray]:
    """The symbol on every cell: codes (rows, cols) of ``X``/``O``/``.`` and confidence.

    ``choices`` limits the answer (e.g. ``"X."`` on a board without O's); a
    cell whose evidence points to a symbol not allowed reads ``?``.
    """
    small = _grey(rectified_bgr, rows, cols)
    dark, light = stroke_maps(small, rows, cols)
    threshold = _print_threshold(np.maximum(_levels(dark), _levels(light)))
    lines = grid_lines(dark, threshold) | grid_lines(light, threshold)
    dark, light = np.where(lines, 0.0, dark), np.where(lines, 0.0, light)
    dark_level, light_level = _levels(dark), _levels(light)
    # Dark print on a light board, or light print on a dark one (LITS "night").
    # One board has one ink, so the cells that clearly show print vote: a
    # single cell's own guess flips where the ground between a symbol and the
    # grid lines (a lens's barrel bends them into the cell) looks like print.
    own = dark_level >= light_level
    sure = np.maximum(dark_level, light_level) >= 2 * threshold
    votes = own[sure] if sure.sum() >= BOARD_VOTES else own.ravel()
    dark_print = np.full(own.shape, bool(2 * votes.sum() >= len(votes)))
    contrast = np.where(dark_print, dark_level, light_level)
    printed = contrast >= threshold
    # Shape from "ink": how far each pixel is from the cell's ground, towards
    # the print (dark print on a light board, or light print on a dark one),
    # relative to the print's contrast. Blur and small cells smear an O's
    # ring towards its hole, but the hole stays lighter than the ring, and an
    # X's crossing darker than the empty spokes straight up, down and across.
    grey = _cells(small.astype(np.float32), rows, cols)
    # Flip light print so that ink is always darker than the ground; the
    # ground is the bright end of the cell (print may cover half the centre).
    signed = np.where(dark_print[..., None, None], grey, 255.0 - grey)
    inner = signed[:, :, _INNER]
    ground = np.percentile(inner, 80, axis=-1)
    span = np.maximum(ground - np.percentile(inner, 3, axis=-1), threshold)
    ink = np.where(lines, 0.0, (ground[..., None, None] - signed) / span[..., None, None])
    board_ink = np.where(dark_print[..., None, None], dark, light)
    strokes = board_ink / np.maximum(contrast, threshold)[..., None, None]
    centre, axes, diagonals = _shape_features(ink, strokes)
    # X: crossing and diagonals inked, axes bare. O: axes and diagonals alike, centre bare.
    x_score = centre + diagonals - 2 * axes
    is_x = x_score > 0
    # An X blurred into a blob: print at the blob's scale, shaped as an X.
    blob = _blob_levels(small, bool(dark_print.flat[0]), lines, rows, cols)
    blurred_x = ~printed & (blob >= threshold) & (x_score >= BLOB_X)
    printed |= blurred_x
    contrast = np.where(blurred_x, blob, contrast)
    codes = np.where(printed, np.where(is_x, "X", "O"), ".")
    # Confidence: how clearly the print is there (or absent) and how clearly
    # the shape evidence separates X from O.
    presence = np.clip(np.abs(contrast - threshold) / threshold, 0.0, 1.0)
    shape = np.clip(np.abs(x_score) * 2.0, 0.0, 1.0)
    confidence = np.where(printed, np.minimum(presence, shape), presence)
    codes = np.where(np.isin(codes, list(choices)), codes, "?")
    return codes, confidence
