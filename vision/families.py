"""Line families: the grid's two directions from the straight edges in the picture.

When neither an outline nor a patch of cells gives a lattice to start from
(a board crowded with tiles, seen steeply, its rim in perspective), the
straight edges still do: grid lines, tile edges, the frame, the ramp's rails
all run along the grid's two directions. In the picture each direction's
lines meet at a *vanishing point*; two of them fix the board plane's
perspective up to a stretch along each axis, and :mod:`vision.comb` finds
the pitch and place along each axis from the lines themselves.

Steps: line segments from edges (:func:`segments`), families of segments
through common vanishing points (:func:`vanishing_points`), and for every
pair of families a rough lattice over the region both families cover
(:func:`lattices`).

>>> import numpy as np, cv2
>>> board = np.full((240, 320), 230, np.uint8)
>>> for i in range(7):
...     _ = cv2.line(board, (70 + 30 * i, 30), (70 + 30 * i, 210), 30, 2)
...     _ = cv2.line(board, (70, 30 + 30 * i), (250, 30 + 30 * i), 30, 2)
>>> families = vanishing_points(segments(board))
>>> len(families) >= 2
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import apply_homography

# Segments are found on a copy no larger than this (pixels on its long side).
SEARCH_SIDE = 320
# Shortest segment kept, as a fraction of the copy's long side.
MIN_LENGTH = 1 / 20
# Vanishing points are proposed by pairs of the longest segments.
PROPOSERS = 48
# A segment belongs to a family when it points at its vanishing point within this.
ANGLE_TOLERANCE_DEG = 1.5
# Two families are the grid's two directions only when they cross at least this steeply.
MIN_CROSSING_DEG = 30.0


@dataclass(frozen=True)
class Family:
    """Segments through one vanishing point.

    ``point``: homogeneous ``(3,)`` image point (``w = 0`` for parallel lines);
    ``members``: indices into the segment array; ``weight``: their total length."""

    point: np.ndarray
    members: np.ndarray
    weight: float


def segments(value: np.ndarray) -> np.ndarray:
    """Straight segments ``(N, 4)`` (``x1 y1 x2 y2``, image pixels) along the
    edges of a grey image, found on a copy no larger than ``SEARCH_SIDE``."""
    scale = min(1.0, SEARCH_SIDE / max(value.shape[:2]))
    small = value
    if scale < 1.0:
        small = cv2.resize(value, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(small, 40, 120)
    long_side = max(small.shape[:2])
    found = cv2.HoughLinesP(
        edges, 1, np.pi / 180, 25, minLineLength=long_side * MIN_LENGTH, maxLineGap=2
    )
    if found is None:
        return np.zeros((0, 4))
    out: np.ndarray = found[:, 0].astype(np.float64) / scale
    return out


def _pointing(point: np.ndarray, middles: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """``|cos|`` of the angle between each segment and the way to each point:
    ``(len(point), len(middles))`` for points ``(P, 3)``."""
    to = point[:, None, :2] - middles[None, :, :] * point[:, None, 2:3]
    norm = np.linalg.norm(to, axis=2)
    cos = np.abs((to * directions[None]).sum(axis=2)) / np.maximum(norm, 1e-12)
    out: np.ndarray = np.where(norm > 1e-12, cos, 0.0)
    return out


def vanishing_points(segs: np.ndarray, count: int = 3) -> list[Family]:
    """Up to ``count`` families of segments, heaviest first.

    Every pair of the ``PROPOSERS`` longest remaining segments proposes its
    crossing; the proposal that the greatest length of segments points at
    wins, is re-fitted to its members (least squares on the lines), and its
    members leave the pool before the next family is sought."""
    if len(segs) < 2:
        return []
    ends1 = np.c_[segs[:, :2], np.ones(len(segs))]
    ends2 = np.c_[segs[:, 2:], np.ones(len(segs))]
    lines = np.cross(ends1, ends2)
    lines /= np.maximum(np.linalg.norm(lines[:, :2], axis=1, keepdims=True), 1e-12)
    middles = (segs[:, :2] + segs[:, 2:]) / 2
    d = segs[:, 2:] - segs[:, :2]
    length = np.linalg.norm(d, axis=1)
    directions = d / np.maximum(length, 1e-12)[:, None]
    cos_tol = np.cos(np.radians(ANGLE_TOLERANCE_DEG))
    alive = np.ones(len(segs), bool)
    families: list[Family] = []
    while len(families) < count:
        pool = np.flatnonzero(alive)
        if len(pool) < 2:
            break
        top = pool[np.argsort(-length[pool])[:PROPOSERS]]
        i, j = np.triu_indices(len(top), 1)
        points = np.cross(lines[top[i]], lines[top[j]])
        points /= np.maximum(np.linalg.norm(points, axis=1, keepdims=True), 1e-12)
        members = _pointing(points, middles[pool], directions[pool]) > cos_tol
        score = members.astype(np.float64) @ length[pool]
        best = int(np.argmax(score))
        chosen = pool[members[best]]
        if len(chosen) < 3:
            break
        point = _refit(lines[chosen], length[chosen], points[best])
        families.append(Family(point, chosen, float(length[chosen].sum())))
        alive[chosen] = False
    return families


def _refit(lines: np.ndarray, weight: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The point closest to all ``lines`` (weighted), homogeneous and unit length;
    ``start`` if the fit is degenerate."""
    a = lines * np.sqrt(weight)[:, None]
    _, _, vt = np.linalg.svd(a, full_matrices=False)
    point: np.ndarray = vt[-1]
    if not np.all(np.isfinite(point)):
        return start
    unit: np.ndarray = point / np.linalg.norm(point)
    return unit


def _rectifier(v1: np.ndarray, v2: np.ndarray, origin: np.ndarray) -> np.ndarray | None:
    """Image -> plane homography sending ``v1`` to the x direction and ``v2``
    to the y direction, about one pixel per unit at ``origin``, keeping the
    picture's handedness; ``None`` when the points are degenerate."""
    o = np.array([origin[0], origin[1], 1.0])
    cols = []
    for v in (v1, v2):
        step = v[:2] - origin * v[2]  # image step along the family at origin
        n = float(np.linalg.norm(step))
        if n < 1e-12:
            return None
        cols.append(v / n)
    m = np.stack([cols[0], cols[1], o], axis=1)  # plane (x, y, 1) -> image
    if abs(np.linalg.det(m)) < 1e-12:
        return None
    h: np.ndarray = np.linalg.inv(m)
    jac = np.stack([cols[0][:2] - origin * cols[0][2], cols[1][:2] - origin * cols[1][2]], 1)
    if np.linalg.det(jac) < 0:
        h = np.diag([-1.0, 1.0, 1.0]) @ h
    return h


def _span(values: np.ndarray) -> tuple[float, float]:
    lo, hi = np.percentile(values, [3, 97])
    return float(lo), float(hi)


def lattices(segs: np.ndarray, families: list[Family], rows: int, cols: int) -> list[np.ndarray]:
    """Rough image -> grid homographies, one per pair of families that cross
    steeply enough (and both ways round for an oblong grid): the region both
    families cover, divided into ``rows`` x ``cols`` cells. Their pitch and
    place are rough; :func:`vision.comb.recombs` finds the lines."""
    out = []
    for a in range(len(families)):
        for b in range(a + 1, len(families)):
            fa, fb = families[a], families[b]
            both = np.concatenate([fa.members, fb.members])
            origin = ((segs[both, :2] + segs[both, 2:]) / 2).mean(axis=0)
            if _crossing_deg(fa.point, fb.point, origin) < MIN_CROSSING_DEG:
                continue
            h = _rectifier(fa.point, fb.point, origin)
            if h is None:
                continue
            # Family a runs along x (its lines are y = const), family b along y.
            pa = apply_homography(h, segs[fa.members].reshape(-1, 2))
            pb = apply_homography(h, segs[fb.members].reshape(-1, 2))
            if not (np.all(np.isfinite(pa)) and np.all(np.isfinite(pb))):
                continue
            x0, x1 = _overlap(_span(pb[:, 0]), _span(pa[:, 0]))
            y0, y1 = _overlap(_span(pa[:, 1]), _span(pb[:, 1]))
            if x1 - x0 < 1e-6 or y1 - y0 < 1e-6:
                continue
            shapes = [(rows, cols)] if rows == cols else [(rows, cols), (cols, rows)]
            for r, c in shapes:
                sx, sy = c / (x1 - x0), r / (y1 - y0)
                to_grid = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy], [0, 0, 1.0]])
                g = to_grid @ h
                if (r, c) != (rows, cols):  # lay the oblong grid the other way
                    g = np.array([[0.0, 1, 0], [-1, 0, c], [0, 0, 1]]) @ g
                out.append(g)
    return out


def _overlap(own: tuple[float, float], other: tuple[float, float]) -> tuple[float, float]:
    """Where a family's lines lie across (``own``) cut to where the other family's
    segments run along (``other``); ``own`` alone when they do not overlap."""
    lo, hi = max(own[0], other[0]), min(own[1], other[1])
    return (lo, hi) if hi > lo else own


def _crossing_deg(p1: np.ndarray, p2: np.ndarray, at: np.ndarray) -> float:
    """The angle at image point ``at`` between the ways to two vanishing points."""
    d = []
    for p in (p1, p2):
        v = p[:2] - at * p[2]
        d.append(v / max(float(np.linalg.norm(v)), 1e-12))
    cos = abs(float(d[0] @ d[1]))
    return float(np.degrees(np.arccos(min(1.0, cos))))
