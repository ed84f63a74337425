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
   all grey) are outliers and do not bend it.

>>> rows, cols = 4, 5
>>> field = np.exp(-0.4 * np.linspace(0, 1, cols))[None, :].repeat(rows, 0)
>>> red, white = np.array([0.5, 0.05, 0.04]), np.array([0.7, 0.7, 0.7])
>>> cells = np.where(np.arange(cols)[None, :, None] % 2 == 0, red, white) * field[..., None]
>>> est = estimate_field(cells)
>>> bool(np.allclose(est / est.mean(), field / field.mean(), atol=1e-3))
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

# Cells needed before the quadratic terms are trusted (else a plane).
QUADRATIC_CELLS = 16
# Biweight cut-offs of the robust fit, in natural-log units, one per
# reweighting step: wide enough at first for a lamp's falloff, narrow
# at the end (a material 40% darker than the board is not the board).
CUTOFFS = (1.2, 0.8, 0.5, 0.36, 0.36)
# Residuals above the field count this many times over (highlights add).
BRIGHTER = 1.5
# Cells whose log-chromaticities differ by less than this are one material.
CHROMA_LINK = 0.12
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


def estimate_field(linear: np.ndarray) -> np.ndarray:
    """The brightness field (rows, cols), geometric mean 1, from camera cells (rows, cols, 3).

    Each channel of each cell is one observation, so a white board under a
    warm lamp with its red channel clipped still reports the light through
    green and blue. Ones when the board gives no evidence."""
    rows, cols = linear.shape[:2]
    cells = np.asarray(linear, dtype=np.float64).reshape(-1, 3)
    # A cell with two channels clipped has lost its chromaticity: it could be
    # grouped with anything, so it gives no evidence at all, and it links
    # no others either: a row of overexposed ivory cells, near white in
    # what is left of them, chained the ivory print to a grey and a black
    # tile, which then bent the field into a fall of ten thousand times
    # across the board (simulated BITS 2078, every cell misread).
    whole = (cells >= CLIPPED).sum(axis=1) <= 1
    if not whole.any():
        return np.ones((rows, cols))
    group = np.zeros(len(cells), dtype=np.int64)  # the others' label is never used
    group[whole] = chroma_groups(cells[whole])
    sizes = np.bincount(group[whole])
    ok = (cells < CLIPPED) & (cells > _FLOOR * 5) & ((sizes[group] >= 2) & whole)[:, None]
    cell_i, chan = np.nonzero(ok)
    seen = int(np.count_nonzero(ok.any(axis=1)))  # cells with any channel to go by
    if seen < 4:
        return np.ones((rows, cols))
    poly = _design(rows, cols, quadratic=seen >= QUADRATIC_CELLS)
    # Each observation's group and channel, numbered over the pairs seen (a
    # level no observation speaks for, a lone cell's, is no unknown).
    _, column = np.unique(group[cell_i] * 3 + chan, return_inverse=True)
    n_levels = int(column.max()) + 1
    level = np.zeros((len(cell_i), n_levels))
    level[np.arange(len(cell_i)), column] = 1.0
    a = np.hstack([level, poly[cell_i]])
    b = np.log(cells[cell_i, chan])
    # Start from a flat field (each group at its median level), not from a
    # plain least-squares fit: a highlight over a corner would tilt that
    # fit so far that the highlight stops looking like an outlier. Then
    # Tukey's biweight with a cut-off narrowing step by step (graduated):
    # a lamp's falloff (a smooth factor of two or so) is kept from the
    # start, a highlight (far brighter) never gets a say, and other
    # materials sharing a chromaticity drop out as the fit settles.
    start = _medians(b, column, n_levels)
    coef = np.concatenate([start, np.zeros(a.shape[1] - n_levels)])
    ridge = 1e-9 * np.eye(a.shape[1])  # keeps the normal equations solvable
    for cut in CUTOFFS:
        signed = b - a @ coef
        # A highlight only ever adds light: brighter than the field counts more.
        resid = np.where(signed > 0, signed * BRIGHTER, -signed)
        w = np.maximum(1 - (resid / cut) ** 2, 0.0) ** 2  # (np.clip's checks cost more)
        if w.sum() < a.shape[1]:
            break  # too few cells agree with any field: keep the last one
        aw = a * w[:, None]
        coef = np.linalg.solve(a.T @ aw + ridge, aw.T @ b)
    f = poly @ coef[n_levels:]
    return np.asarray(np.exp(f - f.mean()).reshape(rows, cols))
