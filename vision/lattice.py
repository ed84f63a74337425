"""The grid as a lattice of lines: how well a homography's lattice is supported
by the picture, and how to pull the homography onto the lines it sees.

A grid homography (image -> grid coordinates, see :mod:`vision.rectify`)
predicts where every one of the ``cols + 1`` vertical and ``rows + 1``
horizontal lines lies. We look at the picture from above (a small rectified
view at ``VIEW_CELL_PX`` pixels per cell) and cut every line into one segment
per cell. A segment is *supported* when the cross-line gradient peaks near the
predicted position, well above the gradient inside the cells. Grid lines,
gaps between stickers, tile edges and walls all make such peaks; digits, glare
and symbols inside cells do not line up with the lattice. A wrong size (8x8
on a 9x9 grid) puts most predicted lines mid-cell, so it loses.

What counts as a line is strict, because a crowded board is full of things
that are not: a peak must reach both ends of its segment (a tile's symbol, a
digit or an X/O mark sits in the cell's middle), stand clear of the profile
beside it (the diagonal edges of a symbol make a plateau, not a crest), and
is measured against the quiet quartile of the cells' own gradient; half-way
lines are judged at the segments' quarters. A lattice at half the pitch,
whose every other line runs through cell middles, is told by the parity of
its supported lines (:attr:`Support.every_other`), and the two directions
must both be supported (:attr:`Support.balanced`).

Refinement measures each segment's peak to a fraction of a pixel and solves
for the homography whose lines pass through all of them (a direct linear
transform on point-on-line constraints, re-weighted to ignore outliers).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.rectify import apply_homography, corners_from_homography, grid_to_pixels

# Pixels per cell of the internal top-down view: enough to place a line to
# about 1/50 of a cell with sub-pixel peaks, small enough to warp in ~0.1 ms.
VIEW_CELL_PX = 16
# The view shows this much board around the grid so the outer lines have room.
VIEW_MARGIN = 0.5
# A segment is supported when its peak is this many times the cells' gradient.
PEAK_RATIO = 2.0
# ... and at least this strong in absolute terms (Sobel units on 0..255 grey),
# so flat paper or the replicated image border never "supports" a line.
PEAK_FLOOR = 8.0
# A line's peak must show at both ends of a segment with this share of the
# ratio asked of the whole segment.
END_SHARE = 0.5
# Below this parity balance (see Support.every_other) a lattice is taken for
# one at half the pitch; true lattices on simulated boards stay above 0.44.
EVERY_OTHER = 0.3
# A supported line's peak stands this many times above the profile beside it.
FLANK_RATIO = 1.5
# A half-way line's ends must show this share of its middle's peak.
EVEN_LINE = 0.7
# A refinement is kept unless it lost this much support from a start at least
# this well supported (see refine_supported).
KEEP_MARGIN = 0.1
KEEP_START = 0.8
# How much a half-way line (a finer grid than asked for) costs a candidate.
BETWEEN_WEIGHT = 0.5
# A segment outside the picture may or may not carry a line: it counts as
# this share of one supported (see Support.rank), on a lattice with at most
# MAX_UNSEEN of its segments outside (a board whose last row runs past the
# picture's edge); beyond that, as none (a lattice mostly outside the
# picture says little, and must not outrank one that lies in it).
UNSEEN_SHARE = 0.5
MAX_UNSEEN = 0.2


class Pyramid:
    """An image (grey or BGR) and its ``cv2.pyrDown`` halvings, built once per frame.

    The lattice is always examined at the level where a cell spans about
    ``VIEW_CELL_PX``..2x that many pixels, so thin lines survive the warp
    without aliasing and big photos cost no more than small ones."""

    def __init__(self, image: np.ndarray, min_side: int = 48) -> None:
        self.levels = [image]
        while min(self.levels[-1].shape[:2]) // 2 >= min_side and len(self.levels) < 6:
            self.levels.append(cv2.pyrDown(self.levels[-1]))

    @property
    def shape(self) -> tuple[int, int]:
        h, w = self.levels[0].shape[:2]
        return h, w

    def level_for(self, cell_px: float) -> int:
        """The level at which a cell of ``cell_px`` (level-0 pixels) spans ~VIEW_CELL_PX."""
        level = int(np.floor(np.log2(max(cell_px, 1.0) / VIEW_CELL_PX)))
        return int(np.clip(level, 0, len(self.levels) - 1))


def cell_size_px(homography: np.ndarray, rows: int, cols: int) -> float:
    """The mean side of a cell in image pixels (over the whole grid)."""
    inv = np.linalg.inv(homography)
    c = np.array([[0, 0, 1], [cols, 0, 1], [cols, rows, 1], [0, rows, 1]], float) @ inv.T
    c = c[:, :2] / c[:, 2:3]
    sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    return float((sides[0] + sides[2]) / (2 * cols) + (sides[1] + sides[3]) / (2 * rows)) / 2


@dataclass
class LatticeView:
    """Cross-line gradient of a grid seen from above, one profile per cell segment.

    ``vertical[j, x]``: mean ``|d/dx|`` over grid row ``j`` at view column ``x``
    (shape ``(rows, width)``); ``horizontal[i, y]``: mean ``|d/dy|`` over grid
    column ``i`` at view row ``y`` (shape ``(cols, height)``). ``to_view`` maps
    level-0 image pixels to view pixels. ``vertical_seen`` ``(cols + 1, rows)``
    and ``horizontal_seen`` ``(rows + 1, cols)`` say which segments lie inside
    the picture: one outside it can support nothing. ``vertical_ends`` and
    ``horizontal_ends`` (same shapes as the profiles) are the weaker of the
    segment's two ends only (its first and last sixteenth to quarter): a line
    runs the whole cell, a symbol printed in its middle does not reach them.
    ``vertical_quarters`` and ``horizontal_quarters`` likewise, a little
    further in (an eighth to five sixteenths), for half-way lines, where a
    crossing line bent by the lens would otherwise pass for one."""

    rows: int
    cols: int
    vertical: np.ndarray
    horizontal: np.ndarray
    to_view: np.ndarray
    vertical_seen: np.ndarray
    horizontal_seen: np.ndarray
    vertical_ends: np.ndarray
    horizontal_ends: np.ndarray
    vertical_quarters: np.ndarray
    horizontal_quarters: np.ndarray

    @staticmethod
    def line_position(k: int | np.ndarray) -> np.ndarray:
        """View pixel coordinate of lattice line ``k`` (either direction)."""
        return (np.asarray(k, np.float64) + VIEW_MARGIN) * VIEW_CELL_PX - 0.5


def look(pyramid: Pyramid, homography: np.ndarray, rows: int, cols: int) -> LatticeView:
    """Warp the grid to the top-down view and take its per-segment gradient profiles."""
    level = pyramid.level_for(cell_size_px(homography, rows, cols))
    scale = float(2**level)
    to_level0 = np.diag([scale, scale, 1.0])  # pyrDown keeps every 2nd pixel centre
    to_view = grid_to_pixels(VIEW_CELL_PX, VIEW_MARGIN) @ homography
    s = VIEW_CELL_PX
    m = round(VIEW_MARGIN * s)
    width, height = (cols * s + 2 * m), (rows * s + 2 * m)
    view = cv2.warpPerspective(
        pyramid.levels[level],
        to_view @ to_level0,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    gx = gradient(view, 1, 0)
    gy = gradient(view, 0, 1)
    v_band = gx[m : m + rows * s]
    h_band = np.ascontiguousarray(gy[:, m : m + cols * s].T)
    v_seen, h_seen = _seen(homography, rows, cols, pyramid.shape)
    v_mid, v_ends, v_quarters = _segment_zones(v_band, rows)
    h_mid, h_ends, h_quarters = _segment_zones(h_band, cols)
    return LatticeView(
        rows, cols, v_mid, h_mid, to_view, v_seen, h_seen, v_ends, h_ends, v_quarters, h_quarters
    )


@functools.lru_cache(maxsize=64)
def _segment_middles(rows: int, cols: int) -> np.ndarray:
    """Homogeneous grid points ``(3, n)``: the middles of every vertical segment
    (``(cols + 1) * rows``, line-major) then every horizontal one."""
    k, j = np.meshgrid(np.arange(cols + 1), np.arange(rows) + 0.5, indexing="ij")
    i, k2 = np.meshgrid(np.arange(cols) + 0.5, np.arange(rows + 1), indexing="xy")
    x = np.concatenate([k.ravel(), i.ravel()])
    y = np.concatenate([j.ravel(), k2.ravel()])
    return np.stack([x, y, np.ones_like(x)])


def _seen(
    homography: np.ndarray, rows: int, cols: int, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Which segments' middles fall inside the picture (the warp repeats the
    border pixels outside it, which would draw endless fake lines)."""
    h, w = shape
    p = np.linalg.inv(homography) @ _segment_middles(rows, cols)
    with np.errstate(divide="ignore", invalid="ignore"):
        x, y = p[0] / p[2], p[1] / p[2]
        inside = (x >= 1) & (x <= w - 2) & (y >= 1) & (y <= h - 2)
    n = (cols + 1) * rows
    return inside[:n].reshape(cols + 1, rows), inside[n:].reshape(rows + 1, cols)


# Zones along a segment, as (start, stop) view pixels from its first end: the
# middle (the ends are skipped: where the crossing lines meet it, one side of
# a thick line loses its edge and would drag the peak sideways), the ends
# (a sixteenth to a quarter in) and the quarters (an eighth to five sixteenths
# in); the last two are also taken from the other end.
_MIDDLE = (VIEW_CELL_PX // 5, VIEW_CELL_PX - VIEW_CELL_PX // 5)
_ENDS = (VIEW_CELL_PX // 16, VIEW_CELL_PX // 4)
_QUARTERS = (VIEW_CELL_PX // 8, 5 * VIEW_CELL_PX // 16)


def _segment_zones(band: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per segment of ``n`` cell-long blocks of rows, ``(n, width)`` each: the
    mean over the middle, and the weaker of the means over the two ends and
    over the two quarters (see ``_ENDS``, ``_QUARTERS``). A printed line shows
    in both ends; a tile's symbol, a digit or an X in the cell's middle in
    neither."""
    s = VIEW_CELL_PX
    lo, hi = _MIDDLE
    middle = band.reshape(n, s, -1)[:, lo:hi].reshape(n * (hi - lo), -1)
    # Block means by area resampling (exact for whole blocks, and fast).
    mean = cv2.resize(middle, (band.shape[1], n), interpolation=cv2.INTER_AREA)
    blocks = band.reshape(n, s, -1)

    def weaker(zone: tuple[int, int]) -> np.ndarray:
        # Row by row: a few additions beat a strided mean by far.
        a, b = zone
        first, last = blocks[:, a].copy(), blocks[:, s - b].copy()
        for r in range(1, b - a):
            first += blocks[:, a + r]
            last += blocks[:, s - b + r]
        out: np.ndarray = np.minimum(first, last) / (b - a)
        return out

    return mean, weaker(_ENDS), weaker(_QUARTERS)


_CHANNEL_MEAN = np.full((1, 3), 1 / 3, np.float32)


def gradient(view: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``|d/dx|`` or ``|d/dy|`` (3x3 Sobel), float32, averaged over colour channels:
    a yellow tile on white shows in blue even where grey is flat."""
    g = cv2.Sobel(view, cv2.CV_32F, dx, dy, ksize=3)
    np.abs(g, out=g)
    return cv2.transform(g, _CHANNEL_MEAN) if g.ndim == 3 else g


def _interior(length: int, n_cells: int) -> np.ndarray:
    """Boolean mask of view positions well inside cells (away from every line)."""
    x = np.arange(length, dtype=np.float64)
    u = (x + 0.5) / VIEW_CELL_PX - VIEW_MARGIN
    frac = np.abs(u - np.round(u))
    return (frac > 0.3) & (u > 0) & (u < n_cells)


def _cell_level(profiles: np.ndarray, n_cells: int, share: float = 0.5) -> np.ndarray:
    """Each segment's gradient inside the cells: the ``share`` quantile (the
    median by default; +1 so a flat picture never divides by zero)."""
    inside = profiles[:, _interior(profiles.shape[1], n_cells)]
    k = int(inside.shape[1] * share)
    return np.partition(inside, k, axis=1)[:, k] + 1.0


def _windows(n_lines: int, half: float) -> np.ndarray:
    """Integer view positions within ``half`` pixels of each line: ``(n_lines, w)``."""
    centre = LatticeView.line_position(np.arange(n_lines))
    offsets = np.arange(-int(np.floor(half)), int(np.floor(half)) + 1)
    return np.round(centre)[:, None].astype(int) + offsets[None, :]


@dataclass
class Support:
    """How well the lattice is supported.

    ``score`` (0..1) is the fraction of line segments with a clear peak;
    ``vertical``/``horizontal`` hold each segment's peak-to-cell ratio,
    shapes ``(cols + 1, rows)`` and ``(rows + 1, cols)``; ``between`` is the
    fraction of *half-way* lines that look like lines too (a finer grid than
    asked for shows up there)."""

    score: float
    vertical: np.ndarray
    horizontal: np.ndarray
    between: float
    vertical_seen: np.ndarray | None = None
    horizontal_seen: np.ndarray | None = None

    def _supported(self) -> tuple[np.ndarray, np.ndarray]:
        """Each segment's support (vertical, horizontal) as a share: 1 on a
        clear line, 0 without one, UNSEEN_SHARE outside the picture (when
        no more than MAX_UNSEEN of the segments lie there, else 0)."""
        v = (self.vertical >= PEAK_RATIO).astype(np.float64)
        h = (self.horizontal >= PEAK_RATIO).astype(np.float64)
        if self.vertical_seen is not None and self.horizontal_seen is not None:
            total = self.vertical.size + self.horizontal.size
            seen = np.count_nonzero(self.vertical_seen) + np.count_nonzero(self.horizontal_seen)
            if 0 < total - seen <= MAX_UNSEEN * total:
                v = np.where(self.vertical_seen, v, UNSEEN_SHARE)
                h = np.where(self.horizontal_seen, h, UNSEEN_SHARE)
        return v, h

    @functools.cached_property
    def border(self) -> float:
        """Fraction of supported segments on the four outer lines."""
        edges = np.concatenate([self.vertical[[0, -1]].ravel(), self.horizontal[[0, -1]].ravel()])
        return float(np.mean(edges >= PEAK_RATIO))

    @functools.cached_property
    def weakest_side(self) -> float:
        """The least supported of the four outermost rows and columns (their
        crossing segments and their outer line): a grid that claims an extra
        row of table or margin has one side with nothing to show for it."""
        v, h = self._supported()
        sides = (
            np.concatenate([v[:, 0], h[0]]),  # top row
            np.concatenate([h[:, -1], v[-1]]),  # right column
            np.concatenate([v[:, -1], h[-1]]),  # bottom row
            np.concatenate([h[:, 0], v[0]]),  # left column
        )
        return float(min(np.mean(side) for side in sides))

    @functools.cached_property
    def balanced(self) -> float:
        """The geometric mean of the shares of vertical and of horizontal
        segments supported: a lattice at half the pitch across (every other
        line in the middle of a cell) still has all its horizontal segments
        on lines, and twice as many of them, but only half its vertical ones."""
        v, h = (float(np.mean(share)) for share in self._supported())
        return float(np.sqrt(v * h))

    @functools.cached_property
    def rank(self) -> float:
        """What candidates are compared by: the share of segments supported,
        balanced between the two directions (:meth:`balanced`; a segment
        outside the picture counts as half supported, UNSEEN_SHARE, so a grid
        pushed off the edge loses to the one it overlaps, and a board whose
        edge lies past the picture's to one shifted onto its title), less
        half the share of half-way lines (a finer grid than asked for)."""
        return self.balanced - BETWEEN_WEIGHT * self.between

    @functools.cached_property
    def every_other(self) -> float:
        """How evenly the lines are supported between odd and even places
        (the weaker parity's mean share over the stronger's, the lower of the
        two directions; 1 with fewer than three lines): near 0 for a lattice
        at half the pitch, whose every other line runs through cell middles."""
        out = 1.0
        for family in (self.vertical, self.horizontal):
            if len(family) < 3:
                continue
            share = np.mean(family >= PEAK_RATIO, axis=1)
            even, odd = float(share[0::2].mean()), float(share[1::2].mean())
            if max(even, odd) > 0:
                out = min(out, min(even, odd) / max(even, odd))
        return out

    @functools.cached_property
    def value(self) -> float:
        """How believable the winner is (about 0..1): its rank, scaled down when
        one side is poorly supported (under 70% of its segments), as when a grid
        claims a row of table or margin that is not there, and when every other
        line is missing (under ``EVERY_OTHER``, see :meth:`every_other`)."""
        sides = min(1.0, self.weakest_side / 0.7)
        return self.rank * sides * min(1.0, self.every_other / EVERY_OTHER)


def _ratios(
    profiles: np.ndarray,
    ends: np.ndarray,
    quarters: np.ndarray,
    n_cells: int,
    half: float,
    seen: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Peak-to-cell ratio per (line, segment) and per (half-way line, segment),
    the latter at the segments' quarters only (see :class:`LatticeView`); 0 for
    segments outside the picture, and for a peak that does not reach both of
    the segment's ends (``END_SHARE`` of the ratio asked): a line runs the
    whole cell, a symbol printed in a cell's middle does not."""
    win, mid, left, right, interior = _ratio_places(profiles.shape[1], n_cells, half)
    # The quiet quartile: the middles of the cells are where symbols, digits
    # and X/O marks are printed, and a row full of them must not drown its lines.
    inside = profiles[:, interior]
    k = inside.shape[1] // 4
    cells = np.partition(inside, k, axis=1)[:, k] + 1.0
    peaks = profiles[:, win].max(axis=2).T  # (lines, segments)
    reach = ends[:, win].max(axis=2).T
    ok = (peaks >= PEAK_FLOOR) & (reach >= END_SHARE * PEAK_RATIO * cells[None, :])
    ok &= reach >= EVEN_LINE * END_SHARE * peaks
    # A line is a crest: the profile falls away beside the window on at least
    # one side (the other may be a textured table), where the diagonal edges
    # of a symbol or a tile's bevel make a broad plateau.
    floor = np.minimum(profiles[:, left].min(axis=2), profiles[:, right].min(axis=2)).T
    ok &= peaks >= FLANK_RATIO * floor
    on = np.where(ok, peaks / cells[None, :], 0.0)
    mids = quarters[:, mid].max(axis=2).T
    # ... and about as strong at the ends as in the middle (a symbol's tip is not).
    even = mids >= EVEN_LINE * profiles[:, mid].max(axis=2).T
    off = np.where((mids >= PEAK_FLOOR) & even, mids / cells[None, :], 0.0)
    return on * seen, off * (seen[:-1] & seen[1:])


@functools.lru_cache(maxsize=256)
def _ratio_places(
    length: int, n_cells: int, half: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """View positions :func:`_ratios` reads for a profile of ``length``: each
    line's window, each half-way line's window, the four pixels beyond each
    line's window on either side, and the cells' interior."""
    win = np.clip(_windows(n_cells + 1, half), 0, length - 1)
    mid = np.clip(win[:-1] + VIEW_CELL_PX // 2, 0, length - 1)
    w = int(np.floor(half))
    centre = np.round(LatticeView.line_position(np.arange(n_cells + 1))).astype(int)
    steps = np.arange(w + 1, w + 5)
    left = np.clip(centre[:, None] - steps[None, :], 0, length - 1)
    right = np.clip(centre[:, None] + steps[None, :], 0, length - 1)
    return win, mid, left, right, _interior(length, n_cells)


def support(view: LatticeView, tolerance: float = 0.12) -> Support:
    """Score the lattice in ``view``; lines may sit ``tolerance`` cells off."""
    return windows(view, view.rows, view.cols, tolerance)[0][2]


def windows(
    view: LatticeView, rows: int, cols: int, tolerance: float = 0.12
) -> list[tuple[int, int, Support]]:
    """Score every ``rows`` x ``cols`` window of a larger lattice in ``view`` at
    once: ``(i0, j0, support)`` with the window's upper-left cell at column
    ``i0``, row ``j0`` (one warp for all placements of a partial grid)."""
    half = tolerance * VIEW_CELL_PX
    v_on, v_mid = _ratios(
        view.vertical,
        view.vertical_ends,
        view.vertical_quarters,
        view.cols,
        half,
        view.vertical_seen,
    )
    h_on, h_mid = _ratios(
        view.horizontal,
        view.horizontal_ends,
        view.horizontal_quarters,
        view.rows,
        half,
        view.horizontal_seen,
    )
    out = []
    for i0 in range(view.cols - cols + 1):
        for j0 in range(view.rows - rows + 1):
            v = v_on[i0 : i0 + cols + 1, j0 : j0 + rows]
            h = h_on[j0 : j0 + rows + 1, i0 : i0 + cols]
            vm = v_mid[i0 : i0 + cols, j0 : j0 + rows]
            hm = h_mid[j0 : j0 + rows, i0 : i0 + cols]
            score = (np.count_nonzero(v >= PEAK_RATIO) + np.count_nonzero(h >= PEAK_RATIO)) / (
                v.size + h.size
            )
            # A half-way *line* (most of its segments), not a digit in one cell.
            mid_lines = np.count_nonzero(np.mean(vm >= PEAK_RATIO, axis=1) >= 0.5)
            mid_lines += np.count_nonzero(np.mean(hm >= PEAK_RATIO, axis=1) >= 0.5)
            between = mid_lines / (vm.shape[0] + hm.shape[0])
            seen = (
                view.vertical_seen[i0 : i0 + cols + 1, j0 : j0 + rows],
                view.horizontal_seen[j0 : j0 + rows + 1, i0 : i0 + cols],
            )
            out.append((i0, j0, Support(float(score), v, h, float(between), *seen)))
    return out


def overhang(pyramid: Pyramid, homography: np.ndarray, rows: int, cols: int) -> float:
    """How much the lattice goes on past its border: for each side, the share
    of inner lines that continue one cell beyond it; the largest of the four.

    A true grid ends at its frame, while a block of a larger grid (8x8 asked
    inside a 9x9) has lines running on past at least one side."""
    grown = np.array([[1.0, 0, 1], [0, 1.0, 1], [0, 0, 1.0]]) @ homography
    view = look(pyramid, grown, rows + 2, cols + 2)
    half = int(0.12 * VIEW_CELL_PX)

    def peaks(profiles: np.ndarray, n_lines: int, seen: np.ndarray) -> np.ndarray:
        win = np.clip(_windows(n_lines, half), 0, profiles.shape[1] - 1)
        found: np.ndarray = profiles[:, win].max(axis=2).T * seen  # (lines, segments)
        return found

    v = peaks(view.vertical, cols + 3, view.vertical_seen)[2 : cols + 1]  # inner lines
    h = peaks(view.horizontal, rows + 3, view.horizontal_seen)[2 : rows + 1]
    if v.size == 0 or h.size == 0:
        return 0.0
    # A line goes on when it is, beyond the side, half as strong as inside.
    v_in = np.median(v[:, 1 : rows + 1], axis=1)
    h_in = np.median(h[:, 1 : cols + 1], axis=1)
    v_in, h_in = np.maximum(v_in, 1e-6), np.maximum(h_in, 1e-6)
    sides = (v[:, 0] / v_in, v[:, rows + 1] / v_in, h[:, 0] / h_in, h[:, cols + 1] / h_in)
    return float(max(np.mean(side >= 0.5) for side in sides))


def _peaks(
    profiles: np.ndarray, ends: np.ndarray | None, n_cells: int, half: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sub-pixel line position per (line, segment): positions, strengths, validity.

    The line is the strongest bump within ``half`` pixels of the prediction
    of the smoothed profile, where it also shows at the segment's ends when
    ``ends`` are given (see :class:`LatticeView`: a ring or a cross printed in
    the cell beside the line does not); its position is the centroid of the raw
    profile (above the cells' level) around that bump, so a thick line's two
    edges balance out at its middle and a step edge stays on the step."""
    length = profiles.shape[1]
    s = VIEW_CELL_PX
    smooth = cv2.GaussianBlur(profiles, (0, 0), sigmaX=s / 8, sigmaY=1e-3)
    # Where the line also shows at the segment's ends (when asked: a lattice
    # not yet aligned sees lines slant across it).
    whole = smooth
    if ends is not None:
        whole = cv2.GaussianBlur(np.minimum(profiles, ends), (0, 0), sigmaX=s / 8, sigmaY=1e-3)
    cells = _cell_level(profiles, n_cells)
    r = max(2, s // 5)
    win = np.clip(_windows(n_cells + 1, half), r, length - 1 - r)  # (lines, w)
    best = whole[:, win].argmax(axis=2)  # (segments, lines)
    centre = win[np.arange(win.shape[0])[None, :], best]
    seg = np.arange(len(profiles))[:, None, None]
    around = centre[..., None] + np.arange(-r, r + 1)[None, None, :]
    mass = np.maximum(profiles[seg, around] - cells[:, None, None], 0.0)
    total = mass.sum(axis=2)
    pos = (mass * around).sum(axis=2) / np.maximum(total, 1e-9)
    peak = smooth[seg[..., 0], centre]
    inner = (best > 0) & (best < win.shape[1] - 1)  # a peak on the window's edge is no peak
    strength = peak / cells[:, None]
    valid = inner & (peak >= PEAK_FLOOR) & (strength >= PEAK_RATIO) & (total > 0)
    return pos.T, strength.T, valid.T


@dataclass
class LinePoints:
    """Where the picture shows one family of lattice lines.

    ``points``: ``(N, 2)`` level-0 image pixels, one per supported segment;
    ``line``: the line index ``k`` of each (``x = k`` for vertical lines,
    ``y = k`` for horizontal); ``segment``: which cell along the line;
    ``weight``: peak strength."""

    vertical: bool
    points: np.ndarray
    line: np.ndarray
    segment: np.ndarray
    weight: np.ndarray


# Per-segment weights: (cols + 1, rows) for vertical lines, (rows + 1, cols) horizontal.
Segments = tuple[np.ndarray, np.ndarray]


def measure(
    view: LatticeView, reach: float, only: Segments | None = None, whole: bool = True
) -> list[LinePoints]:
    """The supported segments of every lattice line within ``reach`` cells of
    the prediction; ``only`` weighs each segment (0 leaves it out). With
    ``whole`` a line must also show at the segment's quarters (for a lattice
    already aligned: a first pass from a rough start sees lines slant)."""
    half = reach * VIEW_CELL_PX
    from_view = np.linalg.inv(view.to_view)
    found = []
    masks = (None, None) if only is None else only
    for profiles, ends, n_cells, vertical, seen, mask in (
        (view.vertical, view.vertical_quarters, view.cols, True, view.vertical_seen, masks[0]),
        (
            view.horizontal,
            view.horizontal_quarters,
            view.rows,
            False,
            view.horizontal_seen,
            masks[1],
        ),
    ):
        pos, strength, valid = _peaks(profiles, ends if whole else None, n_cells, half)
        valid &= seen
        weight = np.sqrt(strength)
        if mask is not None:
            valid &= mask > 0
            weight = weight * mask
        k, j = np.nonzero(valid)
        along = LatticeView.line_position(j + 0.5)
        across = pos[k, j]
        xy = np.stack([across, along], 1) if vertical else np.stack([along, across], 1)
        found.append(LinePoints(vertical, apply_homography(from_view, xy), k, j, weight[k, j]))
    return found


def refine(
    pyramid: Pyramid,
    homography: np.ndarray,
    rows: int,
    cols: int,
    iterations: int = 3,
    reach: float = 0.4,
    only: Segments | None = None,
) -> tuple[np.ndarray, list[LinePoints]]:
    """Pull ``homography`` onto the lattice lines the picture shows.

    Each pass looks for every segment's line within ``reach`` cells of where
    the current homography puts it (at most a quarter cell after the first
    pass), then solves for the homography that best passes through them.
    Returns the homography (the input when too few segments are seen) and the
    line points of the last pass."""
    H = np.asarray(homography, np.float64)
    found: list[LinePoints] = []
    for it in range(iterations):
        found = measure(look(pyramid, H, rows, cols), reach if it == 0 else min(reach, 0.25), only)
        new = solve_lines(found, rows, cols, H)
        if new is None:
            break
        H = new
    return H, found


def refine_supported(
    pyramid: Pyramid, homography: np.ndarray, rows: int, cols: int, iterations: int = 3
) -> tuple[np.ndarray, list[LinePoints], Support]:
    """:func:`refine` (its first pass takes lines anywhere along a segment:
    a rough start sees them slant), or a well supported start (``KEEP_START``)
    when the refined lattice lost more than ``KEEP_MARGIN``: on a crowded board seen
    steeply, raised tiles show their tops displaced from the printed lattice,
    and passes that fit both at once can end worse than they began. Returns
    the homography, the line points seen through it and its :class:`Support`."""
    H = np.asarray(homography, np.float64)
    view = start_view = look(pyramid, H, rows, cols)
    start_support = support(view)
    found = measure(view, 0.4, whole=False)
    for _ in range(iterations):
        new = solve_lines(found, rows, cols, H)
        if new is None:
            break
        H = new
        view = look(pyramid, H, rows, cols)
        found = measure(view, 0.25)
    s = support(view)
    if start_support.value >= KEEP_START and start_support.value > s.value + KEEP_MARGIN:
        return np.asarray(homography, np.float64), measure(start_view, 0.25), start_support
    return H, found, s


def solve_lines(
    found: list[LinePoints],
    rows: int,
    cols: int,
    start: np.ndarray,
    scales: tuple[float, ...] = (0.25, 0.1, 0.05),
) -> np.ndarray | None:
    """The homography putting each image point on its lattice line.

    A vertical-line point must map to ``x = k``, a horizontal one to ``y = k``
    (a direct linear transform on point-on-line constraints). Iteratively
    re-weighted (Tukey, ``scales`` in cells) so stray peaks (a digit, a tile's
    shadow) drop out. Needs at least two supported lines in each direction;
    ``None`` otherwise, or when the answer is folded or mirrored against ``start``."""
    pts = np.concatenate([f.points for f in found])
    if len(pts) < 8:
        return None
    ks = np.concatenate([f.line for f in found]).astype(np.float64)
    vert = np.concatenate([np.full(len(f.points), f.vertical) for f in found])
    w0 = np.concatenate([f.weight for f in found])
    if len(np.unique(ks[vert])) < 2 or len(np.unique(ks[~vert])) < 2:
        return None
    # Hartley normalisation on both sides keeps the solve well conditioned.
    centre, spread = pts.mean(0), pts.std() + 1e-9
    t_img = np.array(
        [[1 / spread, 0, -centre[0] / spread], [0, 1 / spread, -centre[1] / spread], [0, 0, 1]]
    )
    half_c, half_r = cols / 2, rows / 2
    t_grid = np.array([[1 / half_c, 0, -1], [0, 1 / half_r, -1], [0, 0, 1]])
    p = np.hstack([(pts - centre) / spread, np.ones((len(pts), 1))])
    target = np.where(vert, ks / half_c - 1, ks / half_r - 1)
    a = np.zeros((len(p), 9))
    a[vert, 0:3] = p[vert]
    a[~vert, 3:6] = p[~vert]
    a[:, 6:9] = -target[:, None] * p
    weights = w0.copy()
    H: np.ndarray | None = None
    for scale in (None, *scales):
        # The smallest eigenvector of the 9x9 normal matrix: the SVD's answer
        # at a fraction of its cost (the normalisation keeps it conditioned).
        aw = a * weights[:, None]
        _, vecs = np.linalg.eigh(aw.T @ aw)
        hn = vecs[:, 0].reshape(3, 3)
        H = np.linalg.inv(t_grid) @ hn @ t_img
        if scale is None:
            continue
        g = apply_homography(H, pts)
        u = np.where(vert, g[:, 0] - ks, g[:, 1] - ks) / scale
        new = w0 * np.where(np.abs(u) < 1, (1 - u**2) ** 2, 0.0)
        if np.count_nonzero(new) < 8:
            break
        weights = new
    if H is None or not np.all(np.isfinite(H)):
        return None
    H = H / H[2, 2] if abs(H[2, 2]) > 1e-12 else H
    if not same_hand(H, start, rows, cols):
        return None
    return H


def same_hand(h1: np.ndarray, h2: np.ndarray, rows: int, cols: int) -> bool:
    """Both homographies give a convex grid with the same handedness in the image
    (a mirrored or folded solution is never the right one)."""
    areas = []
    for h in (h1, h2):
        try:
            c = corners_from_homography(h, rows, cols)
        except np.linalg.LinAlgError:
            return False
        if not np.isfinite(c).all():
            return False  # a corner sent to infinity: no grid at all
        a, b = np.roll(c, -1, 0) - c, np.roll(c, -2, 0) - np.roll(c, -1, 0)
        cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
        if not (np.all(cross > 0) or np.all(cross < 0)):
            return False
        areas.append(np.sign(cross[0]))
    return bool(areas[0] == areas[1])
