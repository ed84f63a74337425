"""The cells themselves as evidence: a lattice grown from cell-like blobs.

Empty cells between printed lines, stickers between dark gaps and the
symbols printed on tile halves all show up as small, compact blobs, one per
cell. Their typical spacing is the pitch, and the commonest directions between
neighbours are the lattice's two directions; from the best-connected blob, the
neighbours one step away are named ``(i, j)``, the lattice is fitted to the
named centres, and the naming spreads outwards. The named cells cover a block
of the grid (all of it, or a part when tiles or a hand hide the rest);
:func:`vision.extend.place_block` then finds where the block sits in the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import apply_homography

# A blob is named when it lands this close (cells) to a whole cell position.
NAME_TOLERANCE = 0.25
# Similar blobs chain into a group when their centres are closer than this
# many of their sides: cells touch (about 1), but a tile's printed symbol or a
# sticker in a wide bezel may be a third of its cell.
REACH = 3.5
# A blob is square enough to stand for one cell below this aspect ratio.
SQUARE = 1.45


@dataclass(frozen=True)
class Blob:
    centre: np.ndarray  # (2,) image pixels
    area: float
    aspect: float = 1.0  # long side / short side of the rotated bounding box

    def scaled(self, factor: float) -> Blob:
        """The same blob in an image ``factor`` times as large."""
        return Blob(self.centre * factor, self.area * factor**2, self.aspect)


def cell_blobs(contours: Sequence[np.ndarray], min_cell: float, max_cell: float) -> list[Blob]:
    """The compact, nearly convex contours of about one cell's size."""
    blobs = []
    for c in contours:
        area = cv2.contourArea(c)
        if not (min_cell <= area <= max_cell):
            continue
        # Cell-like: fills its rotated bounding box (a perspective trapezoid
        # still does; a letter, a bar or a ring does not).
        _, (bw, bh), _ = cv2.minAreaRect(c)
        if area < 0.7 * bw * bh or min(bw, bh) < 0.3 * max(bw, bh):
            continue
        if cv2.contourArea(cv2.convexHull(c)) > 1.2 * area:
            continue
        m = cv2.moments(c)
        centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        aspect = max(bw, bh) / max(min(bw, bh), 1e-6)
        blobs.append(Blob(centre, float(area), float(aspect)))
    return blobs


def groups(blobs: list[Blob], min_size: int = 3) -> list[list[Blob]]:
    """Blobs of similar size that touch, chained into groups (largest first).

    Two blobs are neighbours when their areas differ by less than 2x and their
    centres are within ``REACH`` of their mean side."""
    blobs = outermost(blobs)
    if len(blobs) < min_size:
        return []
    centres = np.array([b.centre for b in blobs])
    areas = np.array([b.area for b in blobs])
    sides = np.sqrt(areas)
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    ratio = areas[:, None] / areas[None]
    near = (d < REACH * (sides[:, None] + sides[None]) / 2) & (ratio < 2) & (ratio > 0.5)
    label = _components(near)
    out = [[blobs[i] for i in np.flatnonzero(label == lab)] for lab in np.unique(label)]
    out = [g for g in out if len(g) >= min_size]
    out.sort(key=lambda g: -len(g))
    return out


def outermost(blobs: list[Blob]) -> list[Blob]:
    """One blob per place: drop blobs nested in a larger one (a thresholded
    sticker or cell often gives an inner ring as well as its outline) and the
    twin the other threshold polarity found of the same cell."""
    if len(blobs) < 2:
        return blobs
    centres = np.array([b.centre for b in blobs])
    areas = np.array([b.area for b in blobs])
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    close = d < 0.35 * np.sqrt(areas)[None, :]
    smaller = areas[:, None] < areas[None, :]
    tie = (areas[:, None] == areas[None, :]) & (
        np.arange(len(blobs))[:, None] > np.arange(len(blobs))[None, :]
    )
    covered = close & (smaller | tie)
    return [b for b, drop in zip(blobs, covered.any(axis=1), strict=True) if not drop]


def _components(adjacent: np.ndarray) -> np.ndarray:
    """Connected-component label per node of a boolean adjacency matrix."""
    n = len(adjacent)
    label = -np.ones(n, dtype=int)
    for seed in range(n):
        if label[seed] >= 0:
            continue
        label[seed] = seed
        stack = [seed]
        while stack:
            i = stack.pop()
            for j in np.flatnonzero(adjacent[i] & (label < 0)):
                label[j] = seed
                stack.append(int(j))
    return label


def lattice_of(
    group: list[Blob], max_cols: int | None = None, max_rows: int | None = None
) -> tuple[np.ndarray, int, int] | None:
    """Image -> block homography of a group: ``(H, a, b)`` with the named cells
    filling the block ``[0, a] x [0, b]`` (``a`` across, ``b`` down); ``None``
    when fewer than three blobs agree on one lattice. A block wider than
    ``max_cols`` or taller than ``max_rows`` (either way round) loses its
    thinnest outer columns or rows: a stray blob beside the grid."""
    best: tuple[np.ndarray, np.ndarray] | None = None
    for start, centres in first_frames(group):
        grown = _grow(start, centres)
        if grown is not None and (best is None or len(grown[1]) > len(best[1])):
            best = grown
    if best is None:
        return None
    H, named = best
    if max_cols is not None and max_rows is not None:
        named = _trim(named, max(max_cols, max_rows), max(max_cols, max_rows))
        if len(named) < 3:
            return None
    i0, j0 = named.min(axis=0)
    a, b = (named.max(axis=0) - named.min(axis=0) + 1).tolist()
    shift = np.array([[1.0, 0, -i0], [0, 1.0, -j0], [0, 0, 1.0]])
    return shift @ H, int(a), int(b)


def _grow(H: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Name blobs outward from a first frame, refitting as the names spread:
    the lattice homography and the names ``(n, 2)``, or ``None``."""
    named = np.zeros((0, 2), int)
    # Name the nearest blobs first and refit, so perspective never has to be
    # extrapolated far from what is already named.
    for reach in (1.6, 3.0, 6.0, np.inf):
        uv = apply_homography(H, centres) - 0.5
        ij = np.round(uv).astype(int)
        ok = np.all(np.abs(uv - ij) < NAME_TOLERANCE, axis=1) & (np.abs(uv).max(axis=1) <= reach)
        named = ij[ok]
        if len(named) < 3 or np.linalg.matrix_rank(named - named.mean(0)) < 2:
            return None
        # Centres only, in the middle of their cells; RANSAC in cell units, so
        # a blob named by mistake cannot bend the lattice. A few cells fix an
        # affine frame; perspective needs a wider spread.
        if len(named) < 8:
            A, _ = cv2.estimateAffine2D(centres[ok], named + 0.5, None, cv2.RANSAC, 0.15)
            H_new = None if A is None else np.vstack([A, [0.0, 0.0, 1.0]])
        else:
            H_new, _ = cv2.findHomography(centres[ok], named + 0.5, cv2.RANSAC, 0.15)
        if H_new is None:
            return None
        H = H_new.astype(np.float64)
    return H, named


def first_frames(group: list[Blob], seeds: int = 3) -> list[tuple[np.ndarray, np.ndarray]]:
    """First, affine guesses of the lattice around the group's best-connected
    blobs (image -> cells, the seed's cell being ``(0, 0)``), with the centres.

    The pitch is the typical distance to the nearest neighbour; the two
    directions are the commonest directions between neighbours (not the
    blob's own outline: a tile's symbol may be a diamond or a disc)."""
    # Elongated blobs (a domino tile, two cells long) have their centre on a
    # cell boundary: they do not name cells.
    group = [b for b in group if b.aspect < SQUARE]
    if len(group) < 3:
        return []
    centres = np.array([b.centre for b in group])
    areas = np.array([b.area for b in group])
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    d[d < 0.5 * np.sqrt(np.median(areas))] = np.inf  # itself, or a twin
    pitch = float(np.median(d.min(axis=1)))
    if not np.isfinite(pitch):
        return []
    i, j = np.nonzero((d > 0.7 * pitch) & (d < 1.3 * pitch))
    if len(i) < 4:
        return []
    steps = centres[j] - centres[i]
    angle = np.degrees(np.arctan2(steps[:, 1], steps[:, 0])) % 180.0
    hist = np.bincount(np.round(angle / 5).astype(int) % 36, minlength=36).astype(float)
    hist = hist + 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))
    a1 = int(np.argmax(hist))
    apart = np.abs(((np.arange(36) - a1) + 18) % 36 - 18) >= 6  # at least 30 degrees
    if not np.any(hist[apart] > 0):
        return []
    a2 = int(np.argmax(np.where(apart, hist, -1)))
    # Name the axes so the frame keeps the picture's handedness (x right-ish).
    dirs = [np.array([np.cos(np.radians(5 * a)), np.sin(np.radians(5 * a))]) for a in (a1, a2)]
    across = max(dirs, key=lambda v: abs(v[0]))
    down = dirs[1] if across is dirs[0] else dirs[0]
    across = across if across[0] >= 0 else -across
    down = down if across[0] * down[1] - across[1] * down[0] > 0 else -down
    # Start from the best-connected blob (most neighbours one step away): a
    # cell inside the lattice, not a stray blob that happened to be central.
    links = np.bincount(i, minlength=len(centres))
    off_middle = np.linalg.norm(centres - np.median(centres, axis=0), axis=1)
    frames = []
    for seed in np.lexsort((off_middle, -links))[:seeds]:
        frame = np.eye(3)
        # The seed's own neighbours give the local steps (perspective makes
        # them differ across the board); the common directions fill gaps.
        mine = steps[i == seed]
        frame[:2, 0] = _local_step(mine, across, pitch)
        frame[:2, 1] = _local_step(mine, down, pitch)
        frame[:2, 2] = centres[seed] - 0.5 * (frame[:2, 0] + frame[:2, 1])
        if abs(np.linalg.det(frame)) > 1e-6:
            frames.append((np.linalg.inv(frame), centres))
    return frames


def _local_step(steps: np.ndarray, direction: np.ndarray, pitch: float) -> np.ndarray:
    """Mean of the steps within 25 degrees of ``direction`` (either way), or one
    pitch along it when there are none."""
    if len(steps):
        cos = steps @ direction / np.linalg.norm(steps, axis=1)
        near = np.abs(cos) > np.cos(np.radians(25))
        if np.any(near):
            local: np.ndarray = (steps[near] * np.sign(cos[near])[:, None]).mean(axis=0)
            return local
    return direction * pitch


def _trim(named: np.ndarray, max_a: int, max_b: int) -> np.ndarray:
    """Drop the emptier outer column (or row) until the names fit ``max_a`` x ``max_b``."""
    for axis, limit in ((0, max_a), (1, max_b)):
        while len(named) and np.ptp(named[:, axis]) + 1 > limit:
            lo, hi = named[:, axis].min(), named[:, axis].max()
            n_lo, n_hi = np.sum(named[:, axis] == lo), np.sum(named[:, axis] == hi)
            named = named[named[:, axis] != (lo if n_lo <= n_hi else hi)]
    return named
