"""Cell features: the robust colour of each cell's inner patch.

The rectified board is a top-down BGR ``uint8`` image ``(height, width, 3)``
whose borders are the grid's outer edges, so cell ``(r, c)`` spans rows
``r*h/rows .. (r+1)*h/rows`` and likewise for columns. Only the inner patch
of each cell counts (``inset`` trims a fraction off every side: grid lines,
tile edges and a slightly wrong homography stay out).

Inside the patch two things are not the cell's colour:
- specular glare on glossy plastic: the light's own colour added on top of
  the body colour, so brighter in *every* channel than the body;
- the printed symbol (the BITS player symbol, a LITS X or O): a minority of
  pixels far from the dominant colour.
The estimate is therefore close to a mode, not a mean: start at the
per-channel median, drop pixels brighter than it in all channels by a clear
step (glare) and pixels unusually far from it (print), and average the rest.

>>> board = np.zeros((60, 90, 3), np.uint8)
>>> board[:, 45:] = (0, 0, 200)                    # right half red (BGR)
>>> board[8:12, 60:75] = 255                       # a glare streak on it
>>> lin = cell_linear(board, 1, 2)
>>> lin.shape, [round(float(v), 3) for v in lin[0, 1]]
((1, 2, 3), [0.578, 0.0, 0.0])
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from vision.colour import srgb_to_linear

# Each cell's inner patch is sampled on a SAMPLES x SAMPLES lattice of pixels:
# enough for robust statistics, few enough to read 100 cells in well under a
# millisecond (no resampling of the whole image).
SAMPLES = 8
# Glare: a pixel brighter than the cell's centre in all three channels by at
# least this much (8-bit levels) is light reflected off the surface.
GLARE_STEP = 30.0
# Pixels farther from the centre than this many times the median distance
# (or the floor, in 8-bit levels summed over channels) are print, not body.
OUTLIER_FACTOR = 2.0
OUTLIER_FLOOR = 12.0
# Print (a symbol on a tile): pixels this far from the colour, summed over
# channels, and beyond this many times the typical scatter.
PRINT_STEP = 45.0
PRINT_FACTOR = 3.0
# Symbols sit within this distance of a cell's centre (share of its side).
MIDDLE = 0.26
# Light print covering more of the middle than this is taken for glare,
SYMBOL_SHARE_MAX = 0.6
# unless no more than this share of the ring around the middle is glare.
RING_GLARE = 0.05
# Off-colour pixels covering this share of the patch's outer ring, and the
# pixels joined to them, are a step across the cell, not print.
STEP_RING = 0.2
# A row (or column) of the patch with at least this share of pixels off the
# colour, in an unbroken run from the patch's edge, is a band along the
# cell's side (a tall neighbour's wall or shadow seen at a tilt), not print:
# a symbol sits in the middle, surrounded by the cell's own colour.
BAND_SHARE = 0.75


def sample_patches(
    rectified_bgr: np.ndarray, rows: int, cols: int, inset: float = 0.2, samples: int = SAMPLES
) -> np.ndarray:
    """Pixels of each cell's inner patch: (rows, cols, samples**2, 3) float32 BGR."""
    return _sample(rectified_bgr, rows, cols, inset, samples, planes=False)


def _sample(
    image: np.ndarray, rows: int, cols: int, inset: float, samples: int, planes: bool
) -> np.ndarray:
    """Each cell's patch lattice, float32 BGR: (rows, cols, samples**2, 3),
    or as channel planes (3, rows, cols, samples**2) when ``planes``.

    Picked by one flat ``take`` of every channel of every sample: gathering
    whole pixels (rows of three) costs several times more, every frame."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image (h, w, 3), got shape {image.shape}")
    h, w = image.shape[:2]
    if h < rows or w < cols:
        raise ValueError(f"a {w}x{h} image is too small for {rows}x{cols} cells")
    flat, strides = _flat(image)
    at = _offsets(h, w, strides, rows, cols, inset, samples, planes)
    return np.asarray(flat.take(at), dtype=np.float32)


def _flat(image: np.ndarray) -> tuple[np.ndarray, tuple[int, ...]]:
    """``image``'s elements as one 1-D array, and each axis's stride in it.

    A view, even of a crop of a larger image (the tracker reads its board
    as one: reshaping that would copy the whole image every frame); a copy
    only for an image laid out backwards or broadcast."""
    if image.flags.c_contiguous:
        return image.reshape(-1), (image.shape[1] * image.shape[2], image.shape[2], 1)
    size = image.itemsize
    if any(s <= 0 or s % size for s in image.strides):
        return _flat(np.ascontiguousarray(image))
    strides = tuple(s // size for s in image.strides)
    span = sum((n - 1) * s for n, s in zip(image.shape, strides, strict=True)) + 1
    return as_strided(image, shape=(span,), strides=(size,), writeable=False), strides


@functools.lru_cache(maxsize=16)  # 55 kB each for 6x6 cells, 150 kB for 10x10
def _offsets(
    h: int,
    w: int,
    strides: tuple[int, ...],
    rows: int,
    cols: int,
    inset: float,
    samples: int,
    planes: bool,
) -> np.ndarray:
    """Where every channel of every sample lies in the image laid out with
    ``strides`` (see :func:`_flat`), in the order :func:`_sample` returns them."""
    y, x = np.divmod(_lattice(h, w, rows, cols, inset, samples), w)
    pixel = y * strides[0] + x * strides[1]  # (rows, cols, n)
    channel = np.arange(3) * strides[2]
    if planes:
        return np.asarray(channel[:, None, None, None] + pixel[None])
    return np.asarray(pixel[..., None] + channel)


@functools.lru_cache(maxsize=32)
def _lattice(h: int, w: int, rows: int, cols: int, inset: float, samples: int) -> np.ndarray:
    """Flat pixel indices (rows, cols, samples**2) of every cell's patch lattice,
    row by row within a patch (a board's size rarely changes: worked out once)."""
    frac = inset + (np.arange(samples) + 0.5) / samples * (1 - 2 * inset)
    ys = ((np.arange(rows)[:, None] + frac[None, :]) * h / rows).astype(np.intp)
    xs = ((np.arange(cols)[:, None] + frac[None, :]) * w / cols).astype(np.intp)
    flat = ys[:, None, :, None] * w + xs[None, :, None, :]  # (rows, cols, s, s)
    return np.asarray(flat.reshape(rows, cols, samples * samples))


def _median(a: np.ndarray) -> np.ndarray:
    """Upper median along the last axis (one partition; np.median's extra
    checks cost more here)."""
    k = a.shape[-1] // 2
    return np.asarray(np.partition(a, k, axis=-1)[..., k])


def patch_stats(
    patches: np.ndarray,
    middle: np.ndarray | None = None,
    ground: np.ndarray | None = None,
    around: np.ndarray | None = None,
    steps: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The dominant colour of each patch and its share of print.

    ``patches`` (..., n, 3) float BGR -> colour (..., 3) and ``printed``
    (...,): the share of pixels that differ from the colour by a clear step
    (a symbol, a letter) and are not glare. ``middle`` (n,) bool: the pixels
    where print is looked for (symbols sit in the middle of a cell; a tall
    neighbour's side or shadow creeps in at the edges). ``ground`` (n,) bool:
    the pixels the colour is first measured on in the patches where
    ``around`` (...,) bool is set (all pixels elsewhere). ``steps``: off-colour
    pixels joined to much of the ring are a step across the cell, not print
    (see :func:`cell_features`). See the module docstring.
    """
    # Worked on channel planes (3, ..., n): reductions over the three
    # channels of every pixel are then two elementwise steps, not a reduce
    # over a length-3 axis (numpy's slowest case; this runs every frame).
    patches = np.asarray(patches, dtype=np.float32)
    planes = np.ascontiguousarray(patches.transpose(-1, *range(patches.ndim - 1)))
    return _plane_stats(planes, middle, ground, around, steps)


def _plane_stats(
    planes: np.ndarray,
    middle: np.ndarray | None,
    ground: np.ndarray | None,
    around: np.ndarray | None,
    steps: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`patch_stats` of the patches as channel planes (3, ..., n)."""
    centre = _median(planes)
    if ground is not None and around is not None and around.any():
        centre = np.where(around, _median(planes[..., ground]), centre)
    diff = planes - centre[..., None]
    # Glare: brighter than the centre in every channel by a clear step.
    glare = np.minimum(np.minimum(diff[0], diff[1]), diff[2]) > GLARE_STEP
    np.abs(diff, out=diff)
    d = diff[0] + diff[1]
    d += diff[2]
    scale = _median(d)
    if ground is not None and around is not None and around.any():
        scale = np.where(around, _median(d[..., ground]), scale)
    limit = np.maximum(OUTLIER_FACTOR * scale, OUTLIER_FLOOR)
    keep = d <= limit[..., None]
    keep &= ~glare
    count = keep.sum(axis=-1)
    total = np.multiply(planes, keep, out=diff).sum(axis=-1)  # (diff's buffer is free)
    if np.count_nonzero(count) == count.size:  # every patch kept pixels (nearly always)
        colour = total / count
    else:
        colour = np.where(count > 0, total / np.maximum(count, 1), centre)
    far = d > np.maximum(PRINT_FACTOR * scale, PRINT_STEP)[..., None]
    if middle is None:
        # Print looked for over the whole patch.
        n = max(far.shape[-1], 1)
        dark_ink = (far & ~glare).sum(axis=-1) / n
        light_ink = (far & glare).sum(axis=-1) / n
        printed = dark_ink + np.where(light_ink <= SYMBOL_SHARE_MAX, light_ink, 0.0)
    else:
        printed = _print_share(far, glare, middle, steps)
    return colour.transpose(*range(1, colour.ndim), 0), printed


def _print_share(far: np.ndarray, glare: np.ndarray, middle: np.ndarray, steps: bool) -> np.ndarray:
    """The share of the ``middle`` (n,) of each patch showing print, from
    its ``far`` and ``glare`` pixels (..., n) (see :func:`patch_stats`).

    Every count it needs (glare on the ring; off-colour pixels on the ring,
    in the middle and along each row and column of samples; glare among
    those in the middle) comes out of one small matrix product: a boolean
    sum each costs more than the whole product on a board's samples. (The
    counts are whole numbers, exact in float32.)"""
    counters, ring, inner, side = _counters(middle.tobytes())
    masks = np.concatenate([glare, far, far & glare], dtype=np.float32).reshape(-1, far.shape[-1])
    counts = np.dot(masks, counters).reshape(3, *far.shape[:-1], -1)
    # A light tint printed on a dark tile looks like glare pixel by pixel;
    # what tells them apart is size: a symbol is a small part of the patch,
    # a highlight a large smooth one.
    # Unless the ring around the middle is clear: a highlight that large
    # fades out over the ring, a symbol ends at its edge (on a small
    # picture of the board a blurred symbol fills most of the middle).
    ring_clear = counts[0, ..., 0] <= RING_GLARE * ring
    # Off-colour pixels joined to the patch's ring are a step across the
    # cell (a shadow's sharp edge), not a symbol: a symbol sits in the
    # middle, ringed by the cell's colour. Only where much of the ring
    # is off: a rectification a little off shows a symbol's arm touching
    # the ring for a sample or two. (Measured before the bands along the
    # sides come off: a step's edge on the ring may be such a band.)
    reach = None
    if steps:
        stepped = counts[1, ..., 0] >= STEP_RING * ring
        reach = _from_ring(far & stepped[..., None], ~middle)
    band = _edge_bands(counts[1, ..., 2:] >= BAND_SHARE * side)
    if band is None and reach is None:
        # float64, as a count of booleans would be: the shares below are
        # then the very same numbers.
        far_inside, both_inside = counts[1:, ..., 1].astype(np.float64)
    else:
        if band is not None:
            far = far & ~band.reshape(far.shape)
        if reach is not None:
            far = far & ~reach
        far_inside = far[..., middle].sum(axis=-1)
        both_inside = (far[..., middle] & glare[..., middle]).sum(axis=-1)
    # Shares as counts over the size (a bool mean costs several times more).
    n = max(inner, 1)
    dark_ink = (far_inside - both_inside) / n
    light_ink = both_inside / n
    symbol = (light_ink <= SYMBOL_SHARE_MAX) | ring_clear
    return np.asarray(dark_ink + np.where(symbol, light_ink, 0.0))


@functools.lru_cache(maxsize=8)
def _counters(middle: bytes) -> tuple[np.ndarray, int, int, int]:
    """For a patch lattice whose ``middle`` (n,) bool is given as bytes:
    the columns (n, 2 + 2 * side) that count a mask's pixels on the ring,
    in the middle, in each row and in each column of samples; how many
    samples lie on the ring (at least one) and in the middle; the
    lattice's side."""
    inside = np.frombuffer(middle, dtype=bool)
    n = len(inside)
    side = math.isqrt(n)
    grid = np.arange(n).reshape(side, side)
    rows = grid[:, :, None] // side == np.arange(side)  # (side, side, side): sample's row
    cols = grid[:, :, None] % side == np.arange(side)
    counters = np.hstack(
        [(~inside)[:, None], inside[:, None], rows.reshape(n, side), cols.reshape(n, side)]
    ).astype(np.float32)
    counters.setflags(write=False)
    return counters, max(int((~inside).sum()), 1), int(inside.sum()), side


def _edge_bands(lines: np.ndarray) -> np.ndarray | None:
    """Samples (..., side, side) of a square patch in bands along its sides,
    from which of its rows and columns (``lines`` (..., 2 * side), rows
    first) are mostly off the colour: whole rows or columns in a run from
    an edge; ``None`` when no patch has any."""
    if not np.count_nonzero(lines):
        return None
    side = lines.shape[-1] // 2
    band_r = _from_edges(lines[..., :side])
    band_c = _from_edges(lines[..., side:])
    return np.asarray(band_r[..., :, None] | band_c[..., None, :])


def _from_ring(far: np.ndarray, ring: np.ndarray) -> np.ndarray | None:
    """Pixels (..., n) of a square patch joined to its ``ring`` (n,) through
    ``far`` pixels (side by side, not corner to corner); ``None`` when no
    patch has any far pixel on the ring. The middle of an 8 x 8 lattice is
    three steps in, so three steps reach it."""
    if not far[..., ring].any():
        return None
    side = math.isqrt(far.shape[-1])
    grid = far.reshape(*far.shape[:-1], side, side)
    reached = grid & ring.reshape(side, side)
    for _ in range(side // 2 - 1):
        grown = reached.copy()
        grown[..., 1:, :] |= reached[..., :-1, :]
        grown[..., :-1, :] |= reached[..., 1:, :]
        grown[..., :, 1:] |= reached[..., :, :-1]
        grown[..., :, :-1] |= reached[..., :, 1:]
        reached = grown & grid
    return np.asarray(reached.reshape(far.shape))


def _from_edges(lines: np.ndarray) -> np.ndarray:
    """(..., side) bool: lines in an unbroken run of ``lines`` from either end."""
    first = np.cumprod(lines, axis=-1).astype(bool)
    last = np.cumprod(lines[..., ::-1], axis=-1).astype(bool)[..., ::-1]
    return np.asarray(first | last)


def robust_bgr(patches: np.ndarray) -> np.ndarray:
    """The dominant colour of each patch: (..., n, 3) float BGR -> (..., 3)."""
    return patch_stats(patches)[0]


def cell_bgr(rectified_bgr: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """Robust BGR colour (0..255 float) of every cell: (rows, cols, 3)."""
    return robust_bgr(sample_patches(rectified_bgr, rows, cols, inset))


def cell_features(
    rectified_bgr: np.ndarray,
    rows: int,
    cols: int,
    inset: float = 0.2,
    around: np.ndarray | None = None,
    steps: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Robust linear RGB (rows, cols, 3) and share of print (rows, cols) of every cell.

    Print is looked for within MIDDLE of the cell's centre (share of its side).
    ``around`` (rows, cols) bool: cells whose colour is measured first on the
    patch's outer ring of samples, the cells that show a large printed
    symbol (a LITS X or O): on a small picture of the board the symbol's
    strokes, blurred, can cover half the patch, and a median over it all
    lands on the ink; the ring around the symbol is the cell's own colour.
    (Not for other cells: a piece's bevel or a standing tile's neighbour
    shows along a patch's edges.)

    ``steps``: off-colour pixels joined to a fifth of the patch's outer ring
    are a step across the cell (a shadow's sharp edge), not print; for a
    single photo. (Frames of play read worse with it: a highlight's
    remains that reach the ring stop counting as print, and the tracker's
    judgement of a tile landing under the lamp's core was tuned without:
    simulated BITS game 1107, a blue double read as the grey tile.)"""
    middle, ring = _middle_and_ring(inset)
    planes = _sample(rectified_bgr, rows, cols, inset, SAMPLES, planes=True)
    bgr, printed = _plane_stats(planes, middle, ring, around, steps)
    return srgb_to_linear(bgr[..., ::-1] / 255.0), printed


@functools.lru_cache(maxsize=8)
def _middle_and_ring(inset: float) -> tuple[np.ndarray, np.ndarray]:
    """A patch lattice's samples (n,) bool within MIDDLE of the cell's centre,
    and on the lattice's outer ring."""
    frac = inset + (np.arange(SAMPLES) + 0.5) / SAMPLES * (1 - 2 * inset) - 0.5
    middle = (np.abs(frac)[:, None] <= MIDDLE) & (np.abs(frac)[None, :] <= MIDDLE)
    outer = np.abs(frac) == np.abs(frac).max()
    ring = outer[:, None] | outer[None, :]
    return middle.ravel(), ring.ravel()


# A cell channel is a lower bound (the highlight's spot taken off a clipped
# channel, see vision.glare.take_off) when this share of its patch is.
BOUND_SHARE = 0.5


def patch_share(mask: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """The share of each cell's inner patch where a per-pixel ``mask`` of
    the board holds: (rows, cols) for a (h, w) mask, (rows, cols, 3) in the
    mask's channel order for a (h, w, 3) one."""
    m = np.asarray(mask, dtype=np.uint8)
    planes = m if m.ndim == 3 else np.repeat(m[..., None], 3, axis=-1)  # sampled as BGR
    share = sample_patches(planes, rows, cols, inset).mean(axis=-2)
    return np.asarray(share if m.ndim == 3 else share[..., 0])


def bound_channels(bound: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """Which cell channels (rows, cols, 3) bool, R G B as :func:`cell_features`,
    are lower bounds, from the board's per-pixel ``bound`` (h, w, 3) BGR mask."""
    return np.asarray(patch_share(bound, rows, cols, inset)[..., ::-1] >= BOUND_SHARE)


def cell_linear(rectified_bgr: np.ndarray, rows: int, cols: int, inset: float = 0.2) -> np.ndarray:
    """Robust linear-light RGB (R, G, B order, 0..1) of every cell: (rows, cols, 3).

    Linear light is where white balance is a per-channel gain.
    """
    return srgb_to_linear(cell_bgr(rectified_bgr, rows, cols, inset)[..., ::-1] / 255.0)
