"""Uneven light across the board: a smooth brightness field, fitted and divided out.

A lamp to one side, vignetting and a soft shadow make one board's cells
brighter on one side than the other. That changes brightness, not the
light's colour, so it is one multiplicative field ``s(x, y)`` on all three
linear channels, and it leaves each cell's *chromaticity* (the ratios
between its channels) alone. That gives a way to measure the field before
anything is read:

1. group cells by chromaticity (log-chromaticity, which shading cannot move);
2. within a group, cells are mostly one material, so their log-luminance is
   the group's level plus the field: ``log Y_i = level_g + f(x_i, y_i)``;
3. fit the levels and a low-order polynomial ``f`` (a plane, or a quadratic
   when enough cells) together, per channel (a clipped channel is left
   out), with a robust loss: cells of another material that share the
   chromaticity (a grey tile or a black tile among the empty board cells,
   all grey) are outliers and do not bend it;
4. a shadow with a hard edge (a shelf, a lampshade's rim between the lamp
   and the board) is a step along a straight line, which no polynomial
   follows: the fit left the shadowed board as dark as grey tiles
   (simulated BITS 5718). Every straight split of the cells is tried as one
   more term, and bands between two parallel lines (a lamp's arm, lit on
   both sides) along the best splits' slants; the best is kept (and a
   second) only when it takes away a good share of the fit's cost and at
   least two materials step with it on both of its sides (or, for a band,
   one, over more cells than the palette lets a board show of the colours
   that could be it one level down: BITS grey).

>>> rows, cols = 4, 5
>>> field = np.exp(-0.4 * np.linspace(0, 1, cols))[None, :].repeat(rows, 0)
>>> red, white = np.array([0.5, 0.05, 0.04]), np.array([0.7, 0.7, 0.7])
>>> cells = np.where(np.arange(cols)[None, :, None] % 2 == 0, red, white) * field[..., None]
>>> est = estimate_field(cells)
>>> bool(np.allclose(est / est.mean(), field / field.mean(), atol=1e-3))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.colour import bgr_to_linear, linear_to_bgr

# Cells needed before the quadratic terms are trusted (else a plane).
QUADRATIC_CELLS = 16
# Biweight cut-offs of the robust fit, in natural-log units, one per
# reweighting step: wide enough at first for a lamp's falloff, narrow
# at the end (a material 40% darker than the board is not the board).
CUTOFFS = (1.2, 0.8, 0.5, 0.36, 0.36)
# Residuals above the field count this many times over (highlights add).
BRIGHTER = 1.5
# A shadow's edge: the directions its straight line is tried at (degrees),
# the fewest cells on either side, the least step (natural log), the share
# of the smooth fit's cost it must take away, and how many of the splits
# ranked best are fitted in full.
STEP_DEGREES = 5.0
MIN_SIDE = 3
MIN_STEP = 0.2
SHADOW_GAIN = 0.6
BAND_CELLS = 3.0  # the widest band of shadow tried (cells)
# The deepest step one material alone may take for a shadow: one leaving a
# tenth of the light (natural log). Black tiles are some forty times
# darker than the bare board.
LONE_DEPTH = 2.3
TRIED_SPLITS = 3
# The edge found is then moved across (cells) and turned (degrees) to fit,
# by these steps, each half the last.
NUDGES = ((0.3, 2.5), (0.15, 1.25), (0.07, 0.6))
MIDDLE = 0.7  # the part of a cell's side its colour is read from (reader's inset 0.15)
_FINE = ((np.arange(8) + 0.5) / 8 - 0.5) * MIDDLE
_MIDDLE_POINTS = np.stack(np.meshgrid(_FINE, _FINE), axis=-1).reshape(-1, 2)  # about a centre
# Cells whose log-chromaticities differ by less than this are one material.
CHROMA_LINK = 0.12
# An edge is placed on the picture (placed_on_picture) within PLACE_SHIFT
# cells of where the cells put it, a pixel at a time, and PLACE_TURNS
# degrees of its slant (the cells' fit, at steps of 5 and nudged, was seen
# 7 off: simulated BITS 22571), then PLACE_FINE about the best; judged on
# the middles (PLACE_INNER of a side) of the cells any line tried crosses.
PLACE_SHIFT = 0.3
PLACE_TURNS = tuple(float(d) for d in range(-8, 9))
PLACE_FINE = (-0.75, -0.5, -0.25, 0.25, 0.5, 0.75)
PLACE_INNER = 0.8
PLACE_MIN_PIXELS = 200
PLACE_PX = 32  # the most pixels a cell's side an edge is placed on
# ... and moved only where that takes away at least PLACE_GAIN of the misfit
# the line where the cells put it leaves in the cells either line splits
# (_takes_away). A sharp edge a few pixels off leaves a sliver that is most
# of that misfit: 33-81% taken away (simulated BITS 23036, 22571, 22345;
# the benchmark's rendered shadow). A soft edge fits no step anywhere, and
# moving it only trades one residue for another: 2-13% (22761, 23030; on
# 22761 the residue moved across two bare cells, which then showed
# "print", and the palette fitted to them read 14 cells wrong).
PLACE_GAIN = 1 / 4
_LUMA = np.array([0.2126729, 0.7151522, 0.0721750])  # Y of linear sRGB
CLIPPED = 0.955  # as vision.classify: a channel at full scale says nothing
_FLOOR = 2e-3  # linear level below which chromaticity is noise


def luminance(linear: np.ndarray) -> np.ndarray:
    """Relative luminance Y of linear sRGB (..., 3)."""
    return np.asarray(np.asarray(linear, dtype=np.float64) @ _LUMA)


@cache
def _design(rows: int, cols: int, quadratic: bool) -> np.ndarray:
    """Polynomial terms of each cell's centre, no constant: (rows*cols, T)."""
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float64)
    x = ((x + 0.5) / cols - 0.5).ravel()
    y = ((y + 0.5) / rows - 0.5).ravel()
    terms = [x, y]
    if quadratic:
        terms += [x * x, y * y, x * y]
    return np.stack(terms, axis=1)


def chroma_groups(linear: np.ndarray, link: float = CHROMA_LINK) -> np.ndarray:
    """Single-linkage groups of cells (N, 3) by log-chromaticity: labels (N,)."""
    lg = np.log(np.maximum(linear, _FLOOR))
    chroma = (lg - lg.sum(axis=1, keepdims=True) / lg.shape[1]).T  # (3, N), less the mean
    # The largest difference over the channels, as channel planes (N, N)
    # (a reduce over a length-3 axis is numpy's slowest case).
    apart = np.abs(chroma[:, :, None] - chroma[:, None, :])
    d = np.maximum(np.maximum(apart[0], apart[1]), apart[2])
    # Connected components of the "closer than link" graph: square the
    # reachability matrix until it stops growing (log2(N) products).
    reach = (d < link).astype(np.float32)
    while True:
        grown = ((reach @ reach) > 0).astype(np.float32)
        if np.array_equal(grown, reach):
            break
        reach = grown
    first = reach.argmax(axis=1)  # lowest-numbered member of each cell's component
    # Numbered 0, 1, ... in the order of those members (np.unique's inverse).
    leads = np.zeros(len(first), bool)
    leads[first] = True
    return np.asarray((np.cumsum(leads) - 1)[first])


def _medians(values: np.ndarray, column: np.ndarray, n: int) -> np.ndarray:
    """The median of ``values`` (N,) in each of ``n`` columns (``column``
    (N,) says which), 0 where a column has none: what ``np.median`` gives
    each, with one sort for them all (a call each cost more than the
    field's whole fit). ``values`` are finite (logs of cells in range).

    >>> _medians(np.array([5.0, 1.0, 2.0, 7.0, 3.0]), np.array([0, 0, 2, 0, 2]), 4).tolist()
    [5.0, 0.0, 2.5, 0.0]
    """
    ranked = values[np.lexsort((values, column))]  # by column, then value
    counts = np.bincount(column, minlength=n)
    at = np.flatnonzero(counts)
    first = (np.cumsum(counts) - counts)[at]
    low = first + (counts[at] - 1) // 2  # the middle value, or the two middle ones
    high = first + counts[at] // 2
    out = np.zeros(n)
    out[at] = (ranked[low] + ranked[high]) / 2
    return out


def _biweight(resid: np.ndarray, cut: float) -> np.ndarray:
    return np.asarray(np.maximum(1 - (resid / cut) ** 2, 0.0) ** 2)  # (np.clip's checks cost more)


def _robust(
    a: np.ndarray, b: np.ndarray, start: np.ndarray
) -> tuple[np.ndarray, float, np.ndarray]:
    """Levels and field terms fitted to ``b`` robustly: (coefficients, the
    fit's cost, its residuals). The cost is Tukey's loss at the narrowest
    cut-off, in units of one outlier (an observation the fit gives up on
    costs 1)."""
    # Start from a flat field (each group at its median level), not from a
    # plain least-squares fit: a highlight over a corner would tilt that
    # fit so far that the highlight stops looking like an outlier. Then
    # Tukey's biweight with a cut-off narrowing step by step (graduated):
    # a lamp's falloff (a smooth factor of two or so) is kept from the
    # start, a highlight (far brighter) never gets a say, and other
    # materials sharing a chromaticity drop out as the fit settles.
    coef = np.concatenate([start, np.zeros(a.shape[1] - len(start))])
    ridge = 1e-9 * np.eye(a.shape[1])  # keeps the normal equations solvable
    for cut in CUTOFFS:
        w = _biweight(_signed(b - a @ coef), cut)
        if w.sum() < a.shape[1]:
            break  # too few cells agree with any field: keep the last one
        aw = a * w[:, None]
        coef = np.linalg.solve(a.T @ aw + ridge, aw.T @ b)
    resid = _signed(b - a @ coef)
    cut = CUTOFFS[-1]
    cost = float(np.sum(1 - np.maximum(1 - (resid / cut) ** 2, 0.0) ** 3))
    return coef, cost, resid


def _signed(d: np.ndarray) -> np.ndarray:
    # A highlight only ever adds light: brighter than the field counts more.
    return np.where(d > 0, d * BRIGHTER, -d)


# A shape is the lines of one step: (degrees, offset, sign) each, the
# step counting past each line with its sign (a band: +1 past its near
# edge, -1 past its far one).
Shape = tuple[tuple[float, float, float], ...]


@cache
def _half_planes(rows: int, cols: int) -> tuple[np.ndarray, tuple[Shape, ...]]:
    """Every split of the cells by a straight line (a shadow's edge), each
    once (a split and its mirror are one: the levels take up the
    difference), both sides at least ``MIN_SIDE`` cells: the share of each
    cell's middle beyond the line (K, rows*cols), and each one's shape."""
    x, y = _centres(rows, cols).T
    masks: list[np.ndarray] = []
    shapes: list[Shape] = []
    for deg in np.arange(0.0, 360.0, STEP_DEGREES):
        p = x * np.cos(np.radians(deg)) + y * np.sin(np.radians(deg))
        for t in _cuts(p):
            m = p > t
            if not m[0]:  # the mirror is the line the other way round
                masks.append(m)
                shapes.append(((float(deg), float(t), 1.0),))
    kept = _distinct(masks, shapes)
    return np.array([_shape_coverage(rows, cols, shape) for shape in kept]), kept


@cache
def _bands(rows: int, cols: int, deg: float) -> tuple[np.ndarray, tuple[Shape, ...]]:
    """Every band of cells between two lines at ``deg`` at most
    ``BAND_CELLS`` apart, with cells beyond both: the shadow of a lamp's
    arm or a shelf's edge (simulated BITS 6103: a band across two rows,
    fitted as one edge and a field bowed to make up the rest, read the
    red tiles black). The share of each cell's middle in each band
    (K, rows*cols), and each one's shape."""
    x, y = _centres(rows, cols).T
    p = x * np.cos(np.radians(deg)) + y * np.sin(np.radians(deg))
    cuts = _cuts(p)
    past = [_coverage(rows, cols, deg, t) for t in cuts]
    masks: list[np.ndarray] = []
    covers: list[np.ndarray] = []
    shapes: list[Shape] = []
    for i, near in enumerate(cuts):
        for j in range(i + 1, len(cuts)):
            far = cuts[j]
            if far - near > BAND_CELLS:
                break
            masks.append((p > near) & (p <= far))
            covers.append(past[i] - past[j])
            shapes.append(((float(deg), float(near), 1.0), (float(deg), float(far), -1.0)))
    kept = _distinct(masks, shapes)
    at = {shape: i for i, shape in enumerate(shapes)}
    keep = [at[k] for k in kept]
    return np.array(covers, dtype=np.float64)[keep].reshape(-1, rows * cols), kept


def _cuts(p: np.ndarray) -> np.ndarray:
    """The offsets between neighbouring cells' positions ``p`` along a line's normal."""
    levels = np.unique(np.round(p, 6))
    return np.asarray((levels[1:] + levels[:-1]) / 2)


def _distinct(masks: Sequence[np.ndarray], shapes: Sequence[Shape]) -> tuple[Shape, ...]:
    """The shapes of the distinct ``masks`` with at least ``MIN_SIDE`` cells
    on either side, in the order given."""
    if not masks:
        return ()
    _, first = np.unique(np.array(masks), axis=0, return_index=True)
    side = np.array(masks)[first].sum(axis=1)
    first = first[(side >= MIN_SIDE) & (len(masks[0]) - side >= MIN_SIDE)]
    return tuple(shapes[i] for i in sorted(first))


def _coverage(rows: int, cols: int, deg: float, offset: float) -> np.ndarray:
    """The share of each cell's middle (what its colour is read from) past
    the line ``x cos + y sin = offset`` (cells, from the top-left corner):
    a cell the edge crosses is read part in the shadow."""
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    p = _centres(rows, cols) @ np.array([c, s])
    return np.asarray((p[:, None] + _MIDDLE_POINTS @ np.array([c, s]) > offset).mean(axis=1))


def _shape_coverage(rows: int, cols: int, shape: Shape) -> np.ndarray:
    """The share of each cell's middle in the shadow ``shape`` casts."""
    return np.asarray(sum(sign * _coverage(rows, cols, deg, off) for deg, off, sign in shape))


@cache
def _centres(rows: int, cols: int) -> np.ndarray:
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float64)
    return np.stack([x.ravel() + 0.5, y.ravel() + 0.5], axis=1)


def _ranked(
    splits: np.ndarray, shapes: tuple[Shape, ...], per_cell: np.ndarray, inverse: np.ndarray
) -> list[tuple[float, int, Shape]]:
    """The ``TRIED_SPLITS`` splits (K, cells) that take up most of the
    residual, best first: (gain, index, shape). ``per_cell``: each cell's
    sums of the weighted design, weights and weighted residuals;
    ``inverse``: the weighted design's inverted Gram matrix."""
    g = splits @ per_cell[:, :-2]  # (K, p)
    d = (splits * splits) @ per_cell[:, -2]
    num = (splits @ per_cell[:, -1]) ** 2
    den = d - np.sum((g @ inverse) * g, axis=1)  # (the Gram matrix is symmetric)
    gain = np.where(den > 1e-9, num / np.maximum(den, 1e-9), 0.0)
    n = min(TRIED_SPLITS, len(gain))
    top = np.argpartition(-gain, n - 1)[:n]
    return [(float(gain[k]), int(k), shapes[k]) for k in top[np.argsort(-gain[top])]]


def _candidates(
    a: np.ndarray,
    b: np.ndarray,
    resid: np.ndarray,
    cut: float,
    splits: np.ndarray,
    shapes: tuple[Shape, ...],
    cell_i: np.ndarray,
    rows: int,
    cols: int,
) -> list[tuple[float, int, Shape]]:
    """The edges and bands worth fitting: the splits that take up most of
    the smooth fit's residual, in one weighted least-squares step for them
    all (the Schur complement of the added column), weighted by the
    biweight at ``cut``; then the best band along each of their slants."""
    w = _biweight(resid, cut)
    aw = a * w[:, None]
    gram = a.T @ aw + 1e-9 * np.eye(a.shape[1])
    r0 = b - a @ np.linalg.solve(gram, aw.T @ b)
    # Sums over each cell's observations first (a split covers a cell's
    # channels alike): the candidates then meet the cells, not each channel.
    per_cell = np.zeros((splits.shape[1], a.shape[1] + 2))
    np.add.at(per_cell, cell_i, np.hstack([aw, w[:, None], (w * r0)[:, None]]))
    inverse = np.linalg.inv(gram)
    ranked = _ranked(splits, shapes, per_cell, inverse)
    # A band is looked for along the best edges' lines (and a step either
    # side): one edge of a band takes up much of it, and every band each
    # way is too many candidates to rank on every frame (a 10x10 board has
    # tens of thousands).
    angles = {
        round(shape[0][0] + turn, 6) % 180.0  # (a band turned half round is the same)
        for _, _, shape in ranked
        for turn in (-STEP_DEGREES, 0.0, STEP_DEGREES)
    }
    # The one linear step ranks bands of one slant well, but not slants
    # against each other (the smooth fit it starts from has bent to the
    # band): the best band at each slant is fitted.
    for deg in sorted(angles):
        masks, band_shapes = _bands(rows, cols, deg)
        if len(masks):
            ranked += _ranked(masks, band_shapes, per_cell, inverse)[:1]
    return ranked


def _best_step(
    a: np.ndarray,
    b: np.ndarray,
    start: np.ndarray,
    cost: float,
    ranked: list[tuple[float, int, Shape]],
    cell_i: np.ndarray,
    group: np.ndarray,
    rows: int,
    cols: int,
    lone: int | None,
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, Shape] | None:
    """Of the ``ranked`` candidates, fitted in full, the one that fits best
    and steps as a shadow's would (see :func:`_shadow_step`), or None;
    whether it takes away enough of the fit's cost is asked once it is
    nudged into place."""
    best = None
    for gain, _, shape in ranked:
        if gain < MIN_STEP**2 * MIN_SIDE:
            continue  # not even a least step over the fewest cells: no shadow's edge
        cover = _shape_coverage(rows, cols, shape)
        coef, c, r = _robust(np.hstack([a, cover[cell_i][:, None]]), b, start)
        if c >= cost or not _steps_as_a_shadow(
            coef, r, cover, shape, cell_i, group, lone, rows, cols
        ):
            continue
        if best is None or c < best[1]:
            best = (coef, c, r, cover, shape)
    return best


def _steps_as_a_shadow(
    coef: np.ndarray,
    r: np.ndarray,
    cover: np.ndarray,
    shape: Shape,
    cell_i: np.ndarray,
    group: np.ndarray,
    lone: int | None,
    rows: int,
    cols: int,
) -> bool:
    """Whether a fitted step (its fit's coefficients, residuals, the share
    of each cell in it and its shape) is a shadow's: at least ``MIN_STEP``,
    and seen by two materials on both of its sides, or by one as
    :func:`_alone_a_shadow` allows."""
    if abs(coef[-1]) < MIN_STEP:
        return False
    inlier = r < CUTOFFS[-1]
    on = cover[cell_i] > 0.5
    seen = [np.unique(group[inlier & side]) for side in (on, ~on)]
    both = np.intersect1d(seen[0], seen[1])
    if len(both) >= 2:
        return True
    shadowed = inlier & on
    beyond = inlier & ~on
    return _alone_a_shadow(both, coef[-1], lone, cell_i[shadowed], group[shadowed], shape) and (
        _lit_beyond_both_edges(shape, cell_i[beyond], rows, cols)
    )


def _lit_beyond_both_edges(shape: Shape, cells: np.ndarray, rows: int, cols: int) -> bool:
    """Whether a band has lit ``cells`` (numbered row by row) beyond each
    of its edges: a band whose far edge was nudged off the board is one
    edge's step (fresh 21978: its half of the board lifted, an empty cell
    read grey).

    >>> band = ((90.0, 2.0, 1.0), (90.0, 4.0, -1.0))  # rows 2 and 3 of six
    >>> _lit_beyond_both_edges(band, np.array([0, 35]), 6, 6)  # a cell above it, one below
    True
    >>> _lit_beyond_both_edges(band, np.array([0, 1]), 6, 6)  # lit above it only
    False
    """
    if len(shape) != 2:
        return False
    xy = _centres(rows, cols)[cells]
    (deg, near, _), (_, far, _) = shape
    p = xy @ np.array([np.cos(np.radians(deg)), np.sin(np.radians(deg))])
    return bool((p < near).any() and (p > far).any())


def _shadow_step(
    a: np.ndarray,
    b: np.ndarray,
    start: np.ndarray,
    cost: float,
    resid: np.ndarray,
    cell_i: np.ndarray,
    group: np.ndarray,
    rows: int,
    cols: int,
    lone: int | None = None,
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, Shape] | None:
    """The best step to add to the field, if it is a shadow's (past one
    straight edge, or within a band between two): the fit with it (as
    :func:`_robust`), the share of each cell in its shadow and its shape
    (see :data:`Shape`). It must lower the fit's cost by ``SHADOW_GAIN``
    of it, step by at least
    ``MIN_STEP``, and be seen by two materials or more on both of its
    sides (a block of grey tiles among the bare board is one material one
    level down: with nothing else stepping with it, that is what it is),
    or by one that more cells than ``lone`` show (:func:`_alone_a_shadow`)."""
    splits, shapes = _half_planes(rows, cols)
    if not len(splits):
        return None
    # Ranked with weights from a wide cut-off: the cells the smooth fit gave
    # up on count little, so a band the fit half followed ranks by what is
    # left of it (the band 1.9 cells wide in test_shading). When none of
    # those is a shadow, ranked again from the widest, where a deep
    # shadow's cells (a residual of 0.7 for one taking away half the
    # light) count too: at the wide cut-off a band of shadowed board
    # ranked below steps of a hundredth (simulated BITS 22345).
    for cut in (CUTOFFS[1], CUTOFFS[0]):
        ranked = _candidates(a, b, resid, cut, splits, shapes, cell_i, rows, cols)
        best = _best_step(a, b, start, cost, ranked, cell_i, group, rows, cols, lone)
        if best is not None:
            # One that two materials see stays theirs as it is nudged; one
            # seen by one material alone is asked again once nudged: a
            # band's far edge may have moved off the board (fresh 21978).
            coef, _, r, cover, shape = best
            by_two = _steps_as_a_shadow(coef, r, cover, shape, cell_i, group, None, rows, cols)
            found = _nudged(a, b, start, best, cell_i, rows, cols)
            coef, c, r, cover, shape = found
            if c <= cost * (1 - SHADOW_GAIN) and (
                by_two or _steps_as_a_shadow(coef, r, cover, shape, cell_i, group, lone, rows, cols)
            ):
                return found
    return None


def _nudged(
    a: np.ndarray,
    b: np.ndarray,
    start: np.ndarray,
    best: tuple[np.ndarray, float, np.ndarray, np.ndarray, Shape],
    cell_i: np.ndarray,
    rows: int,
    cols: int,
) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, Shape]:
    """A step's edges moved and turned to fit: its fit (as :func:`_robust`),
    the share of each cell in its shadow and its shape. The candidates lie
    between cells' centres at whole steps of slant, so a true edge between
    them fitted less well than it will (simulated BITS 22150, a shadow's
    edge across a row: 0.47 of the smooth fit's cost where it ran, under
    0.4 once nudged); only then is it asked to explain enough."""
    # Where between the cells' centres, and at what slant, each edge runs:
    # it decides how much of the cells it crosses lies in the shadow (a
    # band's two edges move apart, its slant turns them both).
    coef, c, r, split, shape = best
    for nudge, turn in NUDGES:
        tries = [
            tuple((d, o + move * (j == i), sign) for j, (d, o, sign) in enumerate(shape))
            for i in range(len(shape))
            for move in (-nudge, nudge)
        ]
        tries += [tuple((d + t, o, sign) for d, o, sign in shape) for t in (-turn, turn)]
        for tried in tries:
            cover = _shape_coverage(rows, cols, tried)
            coef_, c_, r_ = _robust(np.hstack([a, cover[cell_i][:, None]]), b, start)
            if c_ < c and abs(coef_[-1]) >= MIN_STEP:
                coef, c, r, split, shape = coef_, c_, r_, cover, tried
    return coef, c, r, split, shape


def _alone_a_shadow(
    both: np.ndarray,
    step: float,
    lone: int | None,
    cell_i: np.ndarray,
    group: np.ndarray,
    shape: Shape,
) -> bool:
    """Whether a band (``shape``) that one material alone sees on both of
    its sides (``both``) is still a shadow: at least ``lone`` of its cells
    lie in it (``cell_i``, ``group``: the shadowed side's inlying
    observations), more than tiles of another colour could account for,
    and it is no deeper than a shadow (``LONE_DEPTH``).

    A block of grey tiles is the board's chromaticity one level down, as a
    shadowed board is; but a BITS board shows at most two grey cells (and a
    stray drop), so a band of ten board cells one level down is the board
    in a shadow (simulated BITS 21340, 22359: read as grey tiles). Black
    tiles, which have no such limit, are far deeper than any shadow.

    Only a band: a smooth field follows much of one edge's step (a lamp's
    fall-off looks much the same), and on nearly empty boards lifting a
    lone edge left cells so alike that the colour fit split them on the
    last trace of tint (fresh 21718: half an empty board read grey; 21992).
    No smooth field follows a band, lit on both sides.

    >>> cells, groups = np.arange(6), np.zeros(6, int)
    >>> band = ((90.0, 2.0, 1.0), (90.0, 4.0, -1.0))
    >>> _alone_a_shadow(np.array([0]), -0.8, 5, cells, groups, band)
    True
    >>> _alone_a_shadow(np.array([0]), -0.8, 5, cells[:4], groups[:4], band)  # as many as greys
    False
    >>> _alone_a_shadow(np.array([0]), -3.5, 5, cells, groups, band)  # as deep as black tiles
    False
    >>> _alone_a_shadow(np.array([0]), -0.8, None, cells, groups, band)  # no limit to go by
    False
    >>> _alone_a_shadow(np.array([0]), -0.8, 5, cells, groups, band[:1])  # one edge
    False
    """
    if lone is None or len(both) != 1 or abs(step) > LONE_DEPTH or len(shape) != 2:
        return False
    return int(np.unique(cell_i[group == both[0]]).size) >= lone


@dataclass(frozen=True)
class Edge:
    """A shadow's straight edge: past the line ``x cos(deg) + y sin(deg) =
    offset`` (x, y in cells from the grid's top-left corner, y down) the
    log brightness changes by ``step`` (negative: a shadow)."""

    deg: float
    offset: float
    step: float


@dataclass(frozen=True)
class Shading:
    """The light across a board: ``field`` (rows, cols), geometric mean 1,
    the whole of it; ``smooth`` its smooth part alone (on the same scale),
    what is left once the ``edges`` are lifted from the picture."""

    field: np.ndarray
    smooth: np.ndarray
    edges: tuple[Edge, ...] = ()


def estimate_field(
    linear: np.ndarray, kinds: np.ndarray | None = None, lone: int | None = None
) -> np.ndarray:
    """The brightness field (rows, cols), geometric mean 1, from camera cells
    (rows, cols, 3): :func:`measure_shading`'s whole field."""
    return measure_shading(linear, kinds, lone).field


def lift_edges(
    rectified_bgr: np.ndarray, edges: Sequence[Edge], rows: int, cols: int
) -> np.ndarray:
    """The board's picture (BGR uint8) with each shadow's edge undone pixel
    by pixel: a cell the edge crosses then reads as one light, where
    cell by cell it was a blend of two (a piece half in the shadow read
    unsure)."""
    h, w = rectified_bgr.shape[:2]
    y = (np.arange(h) + 0.5) / (h / rows)
    x = (np.arange(w) + 0.5) / (w / cols)
    linear = bgr_to_linear(rectified_bgr)
    gain = np.zeros((h, w))
    for e in placed_on_picture(linear, edges, rows, cols):
        c, s = np.cos(np.radians(e.deg)), np.sin(np.radians(e.deg))
        gain -= e.step * (x[None, :] * c + y[:, None] * s > e.offset)
    return linear_to_bgr(linear * np.exp(gain)[..., None])


def placed_on_picture(
    linear: np.ndarray, edges: Sequence[Edge], rows: int, cols: int
) -> list[Edge]:
    """Each edge moved to where the picture's light steps across it.

    Cell by cell an edge is placed between cells' centres at whole steps of
    slant; lifted pixel by pixel from there, a sharp shadow's edge a couple
    of pixels off leaves a sliver lifted twice (or not at all) along it,
    which in a cell looks like a printed symbol (simulated BITS 23036: an
    empty classic ramp under a sharp band of shadow, two bare cells along
    its edges read as black tiles with symbols). Inside one cell there is
    one material, so wherever the edge crosses a cell the picture's log
    brightness is that material's level, ``step`` lower past the line:
    the line is turned (about its middle on the board) and moved to where
    that fits best. Comparing within cells, not along the whole line, keeps
    the tiles out of it (a line across a corner of blue tiles below bare
    board would be drawn towards the tiles: simulated BITS 22345). Only the
    cells' middles are looked at (the grid's lines between them would be
    steps of their own). An edge that fitting moves little is a soft one,
    and stays where the cells put it (PLACE_GAIN)."""
    if not edges:
        return []
    h, w = linear.shape[:2]
    if min(h / rows, w / cols) > PLACE_PX:
        # What a sliver costs is its share of a cell, not its pixels: a large
        # picture is placed on at PLACE_PX a cell (the tracker's 80-pixel
        # cells took 0.6 s an edge at full size, 40 ms so).
        size = (cols * PLACE_PX, rows * PLACE_PX)
        linear = cv2.resize(linear.astype(np.float32), size, interpolation=cv2.INTER_AREA)
        h, w = linear.shape[:2]
    luma = linear.astype(np.float64) @ _LUMA
    y = (np.arange(h) + 0.5) / (h / rows)
    x = (np.arange(w) + 0.5) / (w / cols)
    inner = (np.abs(np.mod(y, 1.0) - 0.5) < PLACE_INNER / 2)[:, None] & (
        np.abs(np.mod(x, 1.0) - 0.5) < PLACE_INNER / 2
    )[None, :]
    inner &= luma > _FLOOR
    xs = np.broadcast_to(x[None, :], (h, w))[inner]
    ys = np.broadcast_to(y[:, None], (h, w))[inner]
    cell = np.minimum(ys.astype(np.int64), rows - 1) * cols + np.minimum(
        xs.astype(np.int64), cols - 1
    )
    ll = np.log(luma[inner])
    px = min(h / rows, w / cols)  # pixels a cell
    reach = round(PLACE_SHIFT * px)
    shifts = np.arange(-reach, reach + 1) / px  # the line where it was among them
    placed = []
    for e in edges:
        # the line's point nearest the board's middle: it turns about this
        mx, my = cols / 2, rows / 2
        c0, s0 = np.cos(np.radians(e.deg)), np.sin(np.radians(e.deg))
        along = mx * c0 + my * s0 - e.offset
        pivot = (mx - along * c0, my - along * s0)
        # Every line tried is judged on the same pixels: the middles of every
        # cell any of them crosses. A cell no line splits adds its own
        # spread to every line's cost alike, so the lines compare fairly;
        # judged on the pixels near each line, one swung off the board's
        # corner had fewer to misfit and won (a corner's shadow, its edge
        # found within a degree, moved 9 degrees away), and judged on those
        # near the line given, one reaching past them split no cell there.
        near = np.isin(cell, _crossed_cells(e, pivot, rows, cols))
        if np.count_nonzero(near) < PLACE_MIN_PIXELS:
            placed.append(e)
            continue
        xn, yn, lln, celln = xs[near], ys[near], ll[near], cell[near]
        best = (np.inf, e)
        # whole degrees first, then quarters about the best of them
        for fine in (False, True):
            turns = [best[1].deg - e.deg + f for f in PLACE_FINE] if fine else PLACE_TURNS
            for turn in turns:
                deg = e.deg + turn
                c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
                offset = pivot[0] * c + pivot[1] * s
                t = xn * c + yn * s - offset
                for shift in shifts:
                    cost = _within_cells(t > shift, lln, celln, e.step)
                    if cost < best[0]:
                        best = (cost, Edge(deg, offset + float(shift), e.step))
        placed.append(best[1] if _takes_away(e, best[1], xn, yn, lln, celln) else e)
    return placed


def _takes_away(
    given: Edge, moved: Edge, x: np.ndarray, y: np.ndarray, ll: np.ndarray, cell: np.ndarray
) -> bool:
    """Whether ``moved`` takes away at least PLACE_GAIN of the misfit that
    ``given`` leaves, over the cells either of them splits (pixels at ``x``,
    ``y`` in cells, log brightness ``ll``, in ``cell``): a cell neither
    splits has the same spread under both, which says nothing of the edge.

    >>> x = np.tile((np.arange(20) + 0.5) / 10, 10)   # two cells side by side,
    >>> y = np.repeat((np.arange(10) + 0.5) / 10, 20)  # ten pixels a cell
    >>> cell = (x > 1).astype(int)
    >>> ll = np.where(x > 1.25, -0.7, 0.0)            # a sharp step at x = 1.25
    >>> _takes_away(Edge(0.0, 1.45, -0.7), Edge(0.0, 1.25, -0.7), x, y, ll, cell)
    True
    >>> soft = -0.7 * np.clip((x - 1.0) / 0.6, 0, 1)  # light falling over 0.6 of a cell
    >>> _takes_away(Edge(0.0, 1.35, -0.7), Edge(0.0, 1.25, -0.7), x, y, soft, cell)
    False
    """
    past = []
    for e in (given, moved):
        c, s = np.cos(np.radians(e.deg)), np.sin(np.radians(e.deg))
        past.append(x * c + y * s > e.offset)
    n = np.bincount(cell)  # pixels a cell
    split = np.zeros(len(n), bool)
    for p in past:
        some = np.bincount(cell, weights=p, minlength=len(n))
        split |= (some > 0) & (some < n)
    on = split[cell]
    if not on.any():
        return False
    before = _within_cells(past[0][on], ll[on], cell[on], given.step)
    after = _within_cells(past[1][on], ll[on], cell[on], moved.step)
    return after <= (1 - PLACE_GAIN) * before


def _crossed_cells(e: Edge, pivot: tuple[float, float], rows: int, cols: int) -> np.ndarray:
    """The cells whose middles (PLACE_INNER of a side) some line tried in
    placing ``e`` crosses: turned by up to the widest of PLACE_TURNS and
    PLACE_FINE about ``pivot`` and moved up to PLACE_SHIFT.

    A line down the middle of a 6x6 board, turned 8.75 degrees about the
    middle, moves 0.39 of a cell at the top and bottom rows' middles; moved
    PLACE_SHIFT too, it comes within 0.69 + 0.46 (a turned middle's
    half-width) = 1.15 cells of them: it crosses the two columns beside
    it, whose middles are 0.5 away, not the next, 1.5 away:

    >>> crossed = _crossed_cells(Edge(0.0, 3.0, -0.7), (3.0, 3.0), 6, 6)
    >>> sorted(set((crossed % 6).tolist())), len(crossed)
    ([2, 3], 12)
    """
    r, c = np.mgrid[0:rows, 0:cols]
    half = PLACE_INNER / 2
    crossed = np.zeros((rows, cols), bool)
    widest = max(abs(t) for t in PLACE_TURNS) + max(abs(f) for f in PLACE_FINE)
    for turn in np.linspace(-widest, widest, 4 * int(np.ceil(widest)) + 1):
        deg = np.radians(e.deg + turn)
        co, si = np.cos(deg), np.sin(deg)
        offset = pivot[0] * co + pivot[1] * si
        middle = (c + 0.5) * co + (r + 0.5) * si - offset
        spread = half * (abs(co) + abs(si))  # a middle square's half-width across the line
        crossed |= np.abs(middle) < spread + PLACE_SHIFT
    return np.flatnonzero(crossed)


def _within_cells(past: np.ndarray, ll: np.ndarray, cell: np.ndarray, step: float) -> float:
    """How badly pixels' log brightness ``ll`` fits one level a ``cell``,
    ``step`` lower where ``past`` the line: the squared misfit.

    >>> ll = np.array([0.0, 0.0, -0.7, -0.7, 1.0, 1.0, 0.3])
    >>> cell = np.array([0, 0, 0, 0, 1, 1, 1])
    >>> right = np.array([0, 0, 1, 1, 0, 0, 1], bool)
    >>> round(_within_cells(right, ll, cell, -0.7), 6)
    0.0
    >>> round(_within_cells(np.roll(right, 1), ll, cell, -0.7), 2)  # 0.7s left: 0.98 a cell
    1.96
    """
    r = ll - step * past
    n = np.bincount(cell)
    total = np.bincount(cell, weights=r)
    used = n > 0
    return float((r * r).sum() - (total[used] ** 2 / n[used]).sum())


def measure_shading(
    linear: np.ndarray, kinds: np.ndarray | None = None, lone: int | None = None
) -> Shading:
    """The brightness across the board, from camera cells (rows, cols, 3).

    Each channel of each cell is one observation, so a white board under a
    warm lamp with its red channel clipped still reports the light through
    green and blue. Ones when the board gives no evidence. ``kinds``
    (rows, cols) ints: cells of one chromaticity but another kind (a LITS
    cell showing an X, an O, or nothing: some of the print stays in a
    cell's colour) are other materials, each with its own level. ``lone``:
    the fewest cells of one material that make a shadow with no other
    material stepping with them (more than the palette lets one board show
    of a colour that could be that material one level down); None, never."""
    rows, cols = linear.shape[:2]
    cells = np.asarray(linear, dtype=np.float64).reshape(-1, 3)
    # A cell with two channels clipped has lost its chromaticity: it could be
    # grouped with anything, so it gives no evidence at all, and it links
    # no others either: a row of overexposed ivory cells, near white in
    # what is left of them, chained the ivory print to a grey and a black
    # tile, which then bent the field into a fall of ten thousand times
    # across the board (simulated BITS 2078, every cell misread).
    whole = (cells >= CLIPPED).sum(axis=1) <= 1
    flat = Shading(np.ones((rows, cols)), np.ones((rows, cols)))
    if not whole.any():
        return flat
    group = np.zeros(len(cells), dtype=np.int64)  # the others' label is never used
    group[whole] = chroma_groups(cells[whole])
    if kinds is not None:
        _, group = np.unique(group * 64 + np.asarray(kinds).ravel() % 64, return_inverse=True)
        group = group.ravel()
    # (counted over every label: a clipped cell's kind may be its own)
    sizes = np.bincount(group[whole], minlength=int(group.max()) + 1)
    ok = (cells < CLIPPED) & (cells > _FLOOR * 5) & ((sizes[group] >= 2) & whole)[:, None]
    cell_i, chan = np.nonzero(ok)
    seen = int(np.count_nonzero(ok.any(axis=1)))  # cells with any channel to go by
    if seen < 4:
        return flat
    poly = _design(rows, cols, quadratic=seen >= QUADRATIC_CELLS)
    # Each observation's group and channel, numbered over the pairs seen (a
    # level no observation speaks for, a lone cell's, is no unknown).
    _, column = np.unique(group[cell_i] * 3 + chan, return_inverse=True)
    n_levels = int(column.max()) + 1
    level = np.zeros((len(cell_i), n_levels))
    level[np.arange(len(cell_i)), column] = 1.0
    a = np.hstack([level, poly[cell_i]])
    b = np.log(cells[cell_i, chan])
    start = _medians(b, column, n_levels)
    coef, cost, resid = _robust(a, b, start)
    # A hard shadow's edge (a shelf, a lampshade's rim) is a step no
    # polynomial follows: look for one (two: a band), and keep each only
    # when it explains the board far better than the smooth field alone.
    splits, shapes = [], []
    for _ in range(2):
        found = _shadow_step(a, b, start, cost, resid, cell_i, group[cell_i], rows, cols, lone)
        if found is None:
            break
        coef, cost, resid, split, shape = found
        splits.append(split)
        shapes.append(shape)
        a = np.hstack([a, split[cell_i][:, None]])
    smooth = poly @ coef[n_levels : n_levels + poly.shape[1]]
    steps = coef[n_levels + poly.shape[1] :]
    f = smooth + (np.array(splits).T @ steps if splits else 0.0)
    edges = tuple(
        Edge(d, o, float(sign * st))
        for shape, st in zip(shapes, steps, strict=True)
        for d, o, sign in shape
    )
    return Shading(
        np.exp(f - f.mean()).reshape(rows, cols),
        np.exp(smooth - f.mean()).reshape(rows, cols),
        edges,
    )
