"""Re-find a lattice's pitch and place along each axis from the lines it sees.

A candidate can have the grid's directions right (its vanishing points come
from lines parallel to the grid's: a board's rim, a ramp's header, the grid
itself) but the wrong pitch or place along an axis: an outline of the whole
board, header art included, stretches six rows over seven rows' height; a
lattice grown from a few cells can sit a row or two off. Seen from above
through the candidate, the true lines are still evenly spaced along each
axis, so each axis is searched on its own for the *comb* of ``n + 1`` evenly
spaced lines (pitch and offset) that the most segments support, with nothing
half-way between its teeth.

>>> import numpy as np
>>> evidence = np.zeros(200)
>>> evidence[[40, 60, 80, 100, 120]] = 5.0  # four cells, 20 px apart
>>> (offset, pitch), _ = best_combs(evidence, np.zeros(200), 4, 16.0)
>>> round(offset), round(pitch)
(40, 20)
"""

from __future__ import annotations

import numpy as np

from vision import lattice
from vision.rectify import apply_homography

# Pitches tried, as multiples of the candidate's own cell: a board outline
# with a deep header stretches rows by up to ~1.5.
PITCHES = (0.6, 1.6)
# Pitch and offset steps (view pixels).
PITCH_STEP = 0.25
OFFSET_STEP = 0.5
# How far (view pixels) a line may sit from a tooth and still count.
REACH = 1
# Cells the candidate's view is grown by on each side.
GROW = 2
# Half-way lines cost this much of a tooth each (a finer grid than asked for).
BETWEEN_COST = 0.5


def _evidence(
    profiles: np.ndarray, ends: np.ndarray, inside: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per view position: how many segment rows show a line there (anywhere
    along the segment, and at both its ends), over the rows inside the picture."""
    level = np.median(profiles, axis=1, keepdims=True) + 1.0

    def count(p: np.ndarray) -> np.ndarray:
        line = (p >= lattice.PEAK_FLOOR) & (p >= lattice.PEAK_RATIO * level) & inside
        # Only the crest of each bump: a blurred edge is one line, not five.
        line[:, 1:] &= p[:, 1:] >= p[:, :-1]
        line[:, :-1] &= p[:, :-1] > p[:, 1:]
        # A line a pixel either side of a tooth still counts (once per row).
        wide = line.copy()
        for d in range(1, REACH + 1):
            wide[:, d:] |= line[:, :-d]
            wide[:, :-d] |= line[:, d:]
        total: np.ndarray = wide.sum(axis=0).astype(np.float64)
        return total

    return count(profiles), count(ends)


def best_combs(
    on: np.ndarray,
    half: np.ndarray,
    n_cells: int,
    cell: float,
    keep: int = 2,
    pitches: tuple[float, float] = PITCHES,
) -> list[tuple[float, float]]:
    """The ``keep`` best distinct ``(offset, pitch)`` in view pixels of the
    ``n_cells + 1``-tooth combs collecting the most ``on`` evidence in their
    weaker half of teeth, less
    ``BETWEEN_COST`` of the ``half`` evidence half-way between their teeth;
    ``cell`` is the candidate's own pitch (pitches from ``pitches`` times it
    are tried). Two combs are distinct when an end tooth moves half a pitch."""
    length = len(on)
    tried = np.arange(pitches[0] * cell, pitches[1] * cell + 1e-9, PITCH_STEP)
    tried = tried[tried * n_cells < length - 1]
    teeth = np.arange(n_cells + 1, dtype=np.float64)
    mids = np.arange(n_cells, dtype=np.float64) + 0.5
    scores, offsets, steps = [], [], []
    for p in tried:
        starts = np.arange(0.0, length - 1 - n_cells * p, OFFSET_STEP)
        at = np.rint(starts[:, None] + teeth[None, :] * p).astype(int)
        mid = np.rint(starts[:, None] + mids[None, :] * p).astype(int)
        # Every tooth must find a line: the weaker half of the teeth counts,
        # so a few strong edges (a header's rim, a rail) cannot carry a comb.
        weak = np.sort(on[at], axis=1)[:, : len(teeth) // 2 + 1]
        scores.append(weak.sum(axis=1) - BETWEEN_COST * half[mid].sum(axis=1))
        offsets.append(starts)
        steps.append(np.full(len(starts), p))
    if not scores:
        return []
    score, offset, pitch = (np.concatenate(a) for a in (scores, offsets, steps))
    chosen: list[tuple[float, float]] = []
    for k in np.argsort(-score, kind="stable"):
        o, p = float(offset[k]), float(pitch[k])
        if all(
            max(abs(o - o2), abs(o + n_cells * p - o2 - n_cells * p2)) > p / 2 for o2, p2 in chosen
        ):
            chosen.append((o, p))
            if len(chosen) == keep:
                break
    return chosen


def _with_neighbours(
    combs: list[tuple[float, float]], length: int, n_cells: int
) -> list[tuple[float, float]]:
    """The combs, the best one moved a tooth either way (where it still
    fits in ``length``) and at twice its pitch (:func:`_doubled`): a line
    just outside the grid (a header's edge, a rim) often outweighs the
    grid's own first or last line along one axis."""
    if not combs:
        return combs
    o, p = combs[0]
    out = list(combs)
    for moved in (o - p, o + p):
        near = any(abs(moved - o2) < p / 2 and abs(p - p2) < p / 8 for o2, p2 in out)
        if moved >= 0 and moved + n_cells * p <= length - 1 and not near:
            out.append((moved, p))
    return out + _doubled(combs[0], length, n_cells)


def _doubled(best: tuple[float, float], length: int, n_cells: int) -> list[tuple[float, float]]:
    """The best comb at twice its pitch, from either of its end teeth (where
    it still fits in ``length``). A tile's printed symbol has edges near its
    cell's middle: a comb of half the grid's pitch has every other tooth on
    a symbol and none of the grid's between-lines to pay for, so across a
    board full of tiles it can outscore the grid's own comb, over half the
    board (fresh BITS 22014, 22120, 21715: every start at half the pitch
    across, no grid found; from twice the pitch, 0.86-0.89).

    >>> _doubled((40.0, 10.0), 200, 6)
    [(40.0, 20.0)]
    """
    o, p = best
    starts = (o, o - n_cells * p)
    return [(s, 2 * p) for s in starts if s >= 0 and s + 2 * n_cells * p <= length - 1]


def _inside_rows(
    view: lattice.LatticeView, n_rows: int, length: int, shape: tuple[int, int], vertical: bool
) -> np.ndarray:
    """``(n_rows, length)`` bool: the view positions of each segment row that
    fall inside the picture (the warp repeats border pixels outside it)."""
    along = lattice.LatticeView.line_position(np.arange(n_rows) + 0.5)
    across = np.arange(length, dtype=np.float64)
    a, b = np.meshgrid(along, across, indexing="ij")
    xy = np.stack([b.ravel(), a.ravel()], 1) if vertical else np.stack([a.ravel(), b.ravel()], 1)
    p = apply_homography(np.linalg.inv(view.to_view), xy)
    h, w = shape
    ok = (p[:, 0] >= 1) & (p[:, 0] <= w - 2) & (p[:, 1] >= 1) & (p[:, 1] <= h - 2)
    inside: np.ndarray = ok.reshape(n_rows, length)
    return inside


def recombs(
    pyramid: lattice.Pyramid,
    homography: np.ndarray,
    rows: int,
    cols: int,
    keep: int = 2,
    pitches: tuple[float, float] = PITCHES,
) -> list[np.ndarray]:
    """Homographies with each axis's pitch and offset re-found (see the
    module's docstring): every pairing of the ``keep`` best combs across and
    down, and of the best moved a tooth either way or at twice its pitch
    (the input itself may be among them); ``pitches`` as in
    :func:`best_combs`."""
    g = GROW
    grown = np.array([[1.0, 0, g], [0, 1.0, g], [0, 0, 1.0]]) @ homography
    view = lattice.look(pyramid, grown, rows + 2 * g, cols + 2 * g)
    s = lattice.VIEW_CELL_PX
    v_in = _inside_rows(view, rows + 2 * g, view.vertical.shape[1], pyramid.shape, True)
    h_in = _inside_rows(view, cols + 2 * g, view.horizontal.shape[1], pyramid.shape, False)
    v_ev = _evidence(view.vertical, view.vertical_quarters, v_in)
    h_ev = _evidence(view.horizontal, view.horizontal_quarters, h_in)
    across = _with_neighbours(best_combs(*v_ev, cols, s, keep, pitches), len(v_ev[0]), cols)
    down = _with_neighbours(best_combs(*h_ev, rows, s, keep, pitches), len(h_ev[0]), rows)
    out = []
    for ox, px in across:
        for oy, py in down:
            # View pixel X is grown-grid coordinate (X + 0.5) / s - VIEW_MARGIN.
            ax, bx = (ox + 0.5) / s - lattice.VIEW_MARGIN, px / s
            ay, by = (oy + 0.5) / s - lattice.VIEW_MARGIN, py / s
            to_new = np.array([[1 / bx, 0, -ax / bx], [0, 1 / by, -ay / by], [0, 0, 1.0]])
            out.append(to_new @ grown)
    return out
