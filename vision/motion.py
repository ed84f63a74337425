"""Motion, occlusion, light and view changes over a board, from tiny patches.

Everything here works on a *patch*: the board seen from straight above at a
few pixels per cell, with a ring of ``margin`` cells of whatever surrounds the
grid (frame, table) on every side, as ``float32`` BGR of shape
``((rows + 2*margin) * px, (cols + 2*margin) * px, 3)``. A 6x6 board at 8 px
per cell with a one-cell ring is 64x64 pixels: cheap enough to cut from every
camera frame, which is what lets a Raspberry Pi watch at full frame rate and
run the colour reader only when the board has just come to rest.

Three questions are asked of a patch, each robust to what a table throws at
a camera:

- *did anything move since the last frame?* (:func:`block_changes`): block
  means compared after undoing a global exposure step, against the sensor's
  own noise (:func:`block_noise`), so auto-exposure and noise are not motion;
  what really moves changes blocks side by side (:func:`side_by_side`);
- *which cells differ from the board as last accepted, and did the light
  change?* (:func:`fit_light`): per-cell log ratios against a reference patch,
  with the light modelled as a smooth gain field per channel fitted robustly,
  so a lamp switched on or a cloud moves the model, and a new tile or a hand
  stands out as residual. Cells are compared by their mean and median
  colour (:func:`cell_looks`) and by how uneven they are
  (:func:`texture_changes`): a black tile's light symbol can average out to
  a dark print's grey, but not its median, nor its texture;
- *is the grid still where we think?* (:func:`structure_similarity`): the
  correlation of edge maps, which a lamp hardly changes and a knocked camera
  destroys.

No state is kept: the caller passes the previous and the reference patch.

>>> import numpy as np
>>> H = np.array([[0.05, 0, -1], [0, 0.05, -1], [0, 0, 1]])   # 20 px per cell
>>> frame = np.full((200, 200, 3), 80, np.uint8)
>>> p = board_patch(frame, H, rows=6, cols=6, px=8, margin=1)
>>> p.shape, p.dtype
((64, 64, 3), dtype('float32'))
>>> lamp = np.clip(p * np.float32(1.4), 0, 255)
>>> fit = fit_light(cell_means(p, 8, 8), cell_means(lamp, 8, 8))
>>> round(float(fit.level.mean()), 2), bool(fit.residual.max() < 0.01)
(0.33, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Levels (0..255) added before taking logs: a black tile or a dark board
# would otherwise turn sensor noise into huge ratios. Small, because a gain
# must stay (nearly) one number in log space for dark and bright cells alike.
LOG_FLOOR = 3.0
# Texture (grey level standard deviation, levels) that is still noise, and
# the growth that means a symbol came or went (a lamp switched on changes
# texture by its gain, well under this).
TEXTURE_FLOOR = 2.0
TEXTURE_RATIO = 2.5
# Two weak signs together are a change too: texture grown or shrunk by this
# ratio where the colour also moved by this share of the caller's limit (a
# black tile under a lamp's glare on a dark print: its symbol half washed
# out, its colour a few per cent off the print's).
# Or both halves of a tile: two edge-joined cells whose texture grew (or
# shrank) together by WEAK_TEXTURE_RATIO, after the light's own gain there.
# A tile with symbols on a print that is textured itself (a slate board's
# marks, where the flattest cells carry print and the noise floor added is
# large): each half alone is only a weak sign, the two together a tile.
WEAK_TEXTURE_RATIO = 1.6
WEAK_SHARE = 0.5
# Pixels darker than this (levels) say little about an exposure step.
GAIN_FLOOR = 16.0
# A robust weight function's scale: residuals this many times the typical
# residual count for nothing in the light fit (Tukey's biweight).
TUKEY_C = 4.685
# A cell's mean this bright (of 255) in a channel is clipped there.
CLIPPED_MEAN = 250.0
# A channel's light is fitted on its measured cells alone only when there
# are at least this many per coefficient.
MIN_MEASURED = 2


def patch_shape(rows: int, cols: int, px: int, margin: int) -> tuple[int, int]:
    """``(height, width)`` of a patch."""
    return (rows + 2 * margin) * px, (cols + 2 * margin) * px


def board_patch(
    image: np.ndarray,
    homography: np.ndarray,
    rows: int,
    cols: int,
    px: int = 8,
    margin: int = 1,
) -> np.ndarray:
    """The board and a ring of ``margin`` cells from above, ``px`` pixels per cell.

    ``image``: BGR ``uint8`` (H, W, 3) camera frame; ``homography``: image
    pixels -> grid coordinates (cells), as ``GridFit.homography``. Returns
    ``float32`` (h, w, 3), see :func:`patch_shape`. Sampled at twice the
    resolution and halved with a Gaussian pyramid step, so each patch pixel
    averages several camera pixels (less noise than point sampling, at a
    fraction of the cost of an area-averaged warp of the whole frame).
    """
    h, w = patch_shape(rows, cols, px, margin)
    # grid coordinates (cells) -> pixels of the double-size patch; pixel centres
    # at the middle of each pixel-sized square, as ``vision.rectify`` does
    s = 2.0 * px
    to_pixels = np.array([[s, 0, margin * s - 0.5], [0, s, margin * s - 0.5], [0, 0, 1]])
    warp = to_pixels @ np.asarray(homography, np.float64)
    big = cv2.warpPerspective(
        image, warp, (2 * w, 2 * h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    small = cv2.pyrDown(big, dstsize=(w, h))
    return small.astype(np.float32)


def block_means(patch: np.ndarray, block: int) -> np.ndarray:
    """Means of ``block`` x ``block`` tiles: (h/block, w/block, C) float32."""
    h, w = patch.shape[:2]
    means: np.ndarray = patch.reshape(h // block, block, w // block, block, -1).mean(axis=(1, 3))
    return means


def exposure_gain(reference: np.ndarray, current: np.ndarray) -> np.ndarray:
    """Per-channel gain (3,) that best turns ``reference`` into ``current``:
    the median ratio over pixels bright enough to measure in every channel,
    so the few pixels a hand or a tile changes do not move it."""
    ref = reference.reshape(-1, reference.shape[-1])
    cur = current.reshape(-1, current.shape[-1])
    ok = (ref > GAIN_FLOOR).all(axis=1)
    if np.count_nonzero(ok) < 8:
        return np.ones(ref.shape[1], np.float32)
    gains: np.ndarray = np.median(cur[ok] / ref[ok], axis=0).astype(np.float32)
    return gains


def block_noise(previous: np.ndarray, current: np.ndarray, gain: np.ndarray | None = None) -> float:
    """Robust standard deviation of one block's mean between two frames of a
    still scene (the median absolute difference, scaled for a Gaussian).
    ``gain``: the exposure step between them, if already known."""
    g = exposure_gain(previous, current) if gain is None else gain
    return float(np.median(np.abs(current - previous * g)) * 1.4826)


def block_changes(
    previous: np.ndarray, current: np.ndarray, gain: np.ndarray | None = None
) -> np.ndarray:
    """How much each block's colour changed (h, w), in the channel that changed
    most, after the exposure step between the frames (``gain``, estimated if None)."""
    g = exposure_gain(previous, current) if gain is None else gain
    return np.asarray(np.abs(current - previous * g).max(axis=-1))


def side_by_side(changed: np.ndarray) -> np.ndarray:
    """The changed blocks (h, w) bool that have a changed neighbour (of 8).

    >>> m = np.zeros((4, 5), bool); m[0, 0] = m[2, 2] = m[2, 3] = True
    >>> side_by_side(m).astype(int).tolist()
    [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 0]]
    """
    around = cv2.dilate(changed.astype(np.uint8), _NEIGHBOURS)  # the most of the 8 around
    return np.asarray(changed & (around > 0))


_NEIGHBOURS = np.ones((3, 3), np.uint8)
_NEIGHBOURS[1, 1] = 0


def _inner_cells(patch: np.ndarray, rows: int, cols: int, inset: float) -> np.ndarray:
    """The patch as (rows, h, cols, w, C): each cell's inner part, ``inset``
    of the cell trimmed off every side so grid lines and edges stay out."""
    h, w = patch.shape[:2]
    py, px = h // rows, w // cols
    a, b = round(py * inset), round(px * inset)
    inner: np.ndarray = patch.reshape(rows, py, cols, px, -1)[:, a : py - a, :, b : px - b]
    return inner


def cell_means(patch: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """Mean colour of each cell's inner part, (rows, cols, C) float32, for a
    patch cut into ``rows`` x ``cols`` cells (count the ring cells too:
    a 6x6 board with a one-cell ring is 8x8 here). ``inset`` trims that
    share off every side so grid lines and edges stay out."""
    means: np.ndarray = _inner_cells(patch, rows, cols, inset).mean(axis=(1, 3))
    return means


def cell_looks(patch: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """What each cell's inner part looks like, (rows, cols, 2 C) float32:
    its mean colour (:func:`cell_means`) and its median colour, per channel.

    The median is there because a mean can hide a tile: a black tile with a
    light symbol printed on it averages out to the grey of a dark board,
    while most of its pixels stay black. A light change scales each
    channel's median by that channel's gain, like the mean, so all follow
    one gain field per channel (:func:`fit_light`)."""
    cells = _inner_cells(patch, rows, cols, inset)
    pixels = cells.transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1, cells.shape[-1])
    looks: np.ndarray = np.concatenate(
        [pixels.mean(axis=2), np.median(pixels, axis=2)], axis=-1
    ).astype(np.float32)
    return looks


def cell_texture(patch: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """How uneven each cell's inner part is, (rows, cols) float32: the
    standard deviation of its grey level. An empty cell of a plain print is
    flat (sensor noise); a tile's printed symbol is not, even where the tile
    and the print share one colour."""
    grey = _inner_cells(patch, rows, cols, inset).mean(axis=-1)
    texture: np.ndarray = grey.std(axis=(1, 3)).astype(np.float32)
    return texture


def texture_changes(
    reference: np.ndarray,
    current: np.ndarray,
    residual: np.ndarray | None = None,
    limit: float = np.inf,
    gain: np.ndarray | None = None,
) -> np.ndarray:
    """Cells (rows, cols) bool whose texture (:func:`cell_texture`) grew or
    shrank by more than :data:`TEXTURE_RATIO`: a symbol came or went; or by
    more than :data:`WEAK_TEXTURE_RATIO` where the colour's ``residual``
    (:class:`LightFit`) is also over :data:`WEAK_SHARE` of ``limit`` (the
    residual that alone is a change), or where an edge-joined cell's grew
    (or shrank) as much too (a tile's two halves; ``gain`` (rows, cols):
    the light's gain per cell, divided out first, default none). The
    flattest quarter of the cells says what noise looks like, and twice
    that (at least :data:`TEXTURE_FLOOR`) is added before comparing, so
    noise on a flat print is no change. A lamp scales texture with the
    light, by less than the ratio."""
    ratio = _texture_ratio(reference, current)
    changed: np.ndarray = ratio > np.log(TEXTURE_RATIO)
    if residual is not None:
        changed |= (ratio > np.log(WEAK_TEXTURE_RATIO)) & (residual > WEAK_SHARE * limit)
    # Only cells away from any clear change pair up: beside a tile that
    # clearly came, a cell's texture may grow from that tile's edge or
    # shadow (a standing tile seen from below it), and the other half of a
    # clear tile is a faint change for the rules (faint_beside), not a drop.
    clear = changed if residual is None else changed | (residual > limit)
    free = ~clear & ~beside(clear)
    lit = current if gain is None else current / np.maximum(gain, 1e-6)
    growth = _texture_ratio(reference, lit, signed=True)
    for sign in (1.0, -1.0):
        weak = (sign * growth > np.log(WEAK_TEXTURE_RATIO)) & free
        changed = changed | (weak & beside(weak))
    return changed


def beside(cells: np.ndarray) -> np.ndarray:
    """Cells (rows, cols) bool sharing a side with one of ``cells``."""
    near = np.zeros_like(cells)
    near[1:] |= cells[:-1]
    near[:-1] |= cells[1:]
    near[:, 1:] |= cells[:, :-1]
    near[:, :-1] |= cells[:, 1:]
    return near


def _texture_ratio(reference: np.ndarray, current: np.ndarray, signed: bool = False) -> np.ndarray:
    """|log| of each cell's texture growth (the log itself when ``signed``),
    over the board's noise (see :func:`texture_changes`)."""
    noise = float(np.percentile(np.minimum(reference, current), 25))
    floor = 2 * max(noise, TEXTURE_FLOOR)
    growth = np.log((current + floor) / (reference + floor))
    return np.asarray(growth if signed else np.abs(growth))


def faint_beside(
    changed: np.ndarray,
    reference: np.ndarray,
    current: np.ndarray,
    residual: np.ndarray,
    limit: float,
) -> np.ndarray:
    """Cells (rows, cols) bool beside a ``changed`` one that show one weak
    sign of change themselves (texture by :data:`WEAK_TEXTURE_RATIO`, or
    colour by :data:`WEAK_SHARE` of ``limit``). A tile covers two cells:
    where one half clearly changed, the other may have changed too little
    to tell (a black half under the lamp's glare looks much like the
    print's sheen there), or not at all (the print beside a standing tile
    in its shadow). Not a change, a doubt for the rules to weigh. Weak signs
    count only next to strong ones, as in an edge detector's hysteresis, so
    noise across the board raises none.

    >>> c = np.array([[False, True, False, False]])
    >>> tex = np.full((1, 4), 10.0)
    >>> faint_beside(c, tex, tex, np.array([[0.07, 0.3, 0.07, 0.07]]), 0.12).tolist()
    [[True, False, True, False]]
    """
    weak = (_texture_ratio(reference, current) > np.log(WEAK_TEXTURE_RATIO)) | (
        residual > WEAK_SHARE * limit
    )
    return np.asarray(beside(changed) & weak & ~changed)


@dataclass(frozen=True)
class LightFit:
    """How the light changed between a reference and a current set of cells.

    ``field`` (R, C, 3): the fitted log gain of each cell and channel (the
    light); ``residual`` (R, C): what the light does not explain, the largest
    absolute log ratio over the channels (0.1 = about 10 %); ``level`` (3,):
    the mean log gain per channel (exposure and colour of the light);
    ``tilt`` (3,): how much the gain's slope varies it across the board;
    ``scale``: the typical residual of the cells that fit (noise).
    """

    field: np.ndarray
    residual: np.ndarray
    level: np.ndarray
    tilt: np.ndarray
    scale: float

    @property
    def change(self) -> float:
        """The light's change in one number (log units): the largest mean
        shift or end-to-end tilt over the channels."""
        return float(max(np.abs(self.level).max(), np.abs(self.tilt).max()))


def log_ratio(reference: np.ndarray, current: np.ndarray) -> np.ndarray:
    """``log((current + f) / (reference + f))`` with ``f`` = :data:`LOG_FLOOR`."""
    ratio: np.ndarray = np.log((current + LOG_FLOOR) / (reference + LOG_FLOOR))
    return ratio


def fit_light(
    reference: np.ndarray,
    current: np.ndarray,
    use: np.ndarray | None = None,
    iterations: int = 4,
    min_scale: float = 0.02,
) -> LightFit:
    """Fit a smooth light change between two sets of cell means (R, C, 3).

    Per channel, the log gain is modelled as a quadratic surface over the
    cell positions (x, y from -1 to 1): a new exposure, a warmer lamp, a
    lamp on one side and its fall-off. Fitted by iteratively reweighted least squares with Tukey's
    biweight, so cells that really changed (a new tile, a hand) have no say
    in the light, and stand out in ``residual``. ``min_scale`` keeps noise-free
    renders from declaring every tiny difference an outlier.
    """
    rows, cols = reference.shape[:2]
    d = log_ratio(reference, current).reshape(rows * cols, -1)
    y, x = np.mgrid[0:rows, 0:cols]
    xs = (x.ravel() / max(cols - 1, 1)) * 2 - 1
    ys = (y.ravel() / max(rows - 1, 1)) * 2 - 1
    # a smooth field: mean, slopes and the gentle bowl of a lamp's fall-off
    design = np.column_stack([np.ones(rows * cols), xs, ys, xs * ys, xs * xs, ys * ys])
    weights = np.ones(rows * cols)
    fitted_on = np.ones(rows * cols, bool) if use is None else np.asarray(use, bool).ravel()
    coef = np.zeros((design.shape[1], d.shape[1]))
    scale = min_scale
    # A value at full scale only says "at least this bright": under a lamp
    # switched on, the light cells' brightest channels clip, and their
    # ratio falls short of the lamp's gain (BITS 1120: the whole ring
    # then looked like an arm across it for seconds). A clipped value
    # counts only where it rules out the fit (see _misfit).
    now_clipped = (current >= CLIPPED_MEAN).reshape(rows * cols, -1)
    was_clipped = (reference >= CLIPPED_MEAN).reshape(rows * cols, -1)
    measured = ~(now_clipped | was_clipped)
    for _ in range(iterations):
        coef = _solve(design, d, weights, None if measured.all() else measured)
        r = _misfit(d - design @ coef, now_clipped, was_clipped).max(axis=1)
        scale = max(float(np.median(r[fitted_on])) * 1.4826, min_scale)
        u = r / (TUKEY_C * scale)
        weights = (np.where(u < 1, (1 - u**2) ** 2, 0.0) + 1e-6) * fitted_on
    flat = design @ coef
    fitted = flat.reshape(rows, cols, -1)
    residual = _misfit(d - flat, now_clipped, was_clipped).max(axis=1).reshape(rows, cols)
    tilt = 2 * np.sqrt(coef[1] ** 2 + coef[2] ** 2)
    return LightFit(fitted, residual, coef[0], tilt, scale)


def _solve(
    design: np.ndarray, d: np.ndarray, weights: np.ndarray, measured: np.ndarray | None
) -> np.ndarray:
    """Weighted least squares of the log ratios ``d`` (N, ch) on ``design``
    (N, P): coefficients (P, ch). ``measured`` (N, ch): per channel, only
    values that clipped neither time have a say (a clipped ratio is biased
    towards none), unless too few are left (MIN_MEASURED times P)."""
    if measured is None:
        sw = np.sqrt(weights)[:, None]
        coef: np.ndarray = np.linalg.lstsq(design * sw, d * sw, rcond=None)[0]
        return coef
    w = weights[:, None] * measured
    few = (w > 1e-3).sum(axis=0) < MIN_MEASURED * design.shape[1]
    w[:, few] = weights[:, None]
    # every channel's weighted normal equations at once (P x P each)
    wx = w.T[:, :, None] * design[None]  # (ch, N, P)
    a = wx.transpose(0, 2, 1) @ design
    b = np.einsum("cnp,nc->cp", wx, d)
    a += 1e-9 * np.eye(design.shape[1])
    solved: np.ndarray = np.linalg.solve(a, b[..., None])[..., 0].T
    return solved


def _misfit(off: np.ndarray, now_clipped: np.ndarray, was_clipped: np.ndarray) -> np.ndarray:
    """How far each log ratio lies from the fitted light (``off`` = ratio
    minus fit), clipped values as bounds: clipped now, the true ratio is at
    least the one seen (only a ratio above the fit is a misfit); clipped
    before, at most; clipped both times, anything.

    >>> off = np.array([[-0.3, 0.3, -0.3, 0.3]])
    >>> _misfit(off, np.array([[1, 1, 0, 0]], bool), np.array([[0, 0, 1, 1]], bool)).tolist()
    [[0.0, 0.3, 0.3, 0.0]]
    """
    out: np.ndarray = np.abs(off)
    if not (now_clipped.any() or was_clipped.any()):
        return out
    out = np.where(now_clipped & ~was_clipped, np.maximum(off, 0.0), out)
    out = np.where(was_clipped & ~now_clipped, np.maximum(-off, 0.0), out)
    return np.asarray(np.where(now_clipped & was_clipped, 0.0, out))


def structure(patch: np.ndarray) -> np.ndarray:
    """Edge strength of a patch (h, w) float32: the gradient magnitude of its
    grey level. Grid lines and tile edges; a lamp scales it, a move shifts it."""
    grey = patch.mean(axis=-1) if patch.ndim == 3 else patch
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude: np.ndarray = cv2.magnitude(gx, gy)
    return magnitude


def structure_similarity(reference: np.ndarray, current: np.ndarray) -> float:
    """Zero-mean normalised correlation of two edge maps, -1..1 (1 = the same
    edges in the same places). Brightness and contrast changes cancel out."""
    a = reference - reference.mean()
    b = current - current.mean()
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    if denominator <= 1e-9:
        return 0.0
    return float((a * b).sum() / denominator)
