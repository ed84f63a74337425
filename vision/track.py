"""Keep the grid found from frame to frame, and notice when the view moved.

Searching costs tens of milliseconds; checking that a known grid is still
where it was costs well under one. A :class:`Probe` remembers, for a few
points on every line segment of the lattice, whether a line was visible there
(darker or lighter than the board a quarter cell to either side). Each frame
it looks at the same pixels again: if most of the lines are still there the
homography still fits. Tiles being added keep the lattice (their edges lie on
it); a hand hides part of it; a bumped camera moves every line off its probe.

:class:`GridTracker` runs the check on every frame and searches again only when
it fails, with the old fit as a hint, and tells the caller what happened.

>>> import numpy as np, cv2
>>> from vision.gridfit import GridFit
>>> board = np.full((120, 160, 3), 220, np.uint8)
>>> for i in range(4):
...     _ = cv2.line(board, (20 + 30 * i, 10), (20 + 30 * i, 100), (40, 40, 40), 2)
...     _ = cv2.line(board, (20, 10 + 30 * i), (110, 10 + 30 * i), (40, 40, 40), 2)
>>> fit = GridFit.from_corners([[20, 10], [110, 10], [110, 100], [20, 100]], 3, 3)
>>> probe = Probe.from_fit(board, fit)
>>> probe.check(board)
1.0
>>> probe.check(np.roll(board, 9, axis=1)) < 0.3
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.gridfit import GridFit
from vision.locate import locate_grid
from vision.rectify import apply_homography

# Points per segment along the line, and the offsets across it (cells): the
# line itself is looked at three times (thin lines survive a pixel of shake),
# the board on either side a quarter cell away.
ALONG = (0.3, 0.5, 0.7)
ACROSS = (-0.25, -0.04, 0.0, 0.04, 0.25)
# A line counts as still there at this share of its reference contrast...
KEEP_SHARE = 0.4
# ...and above this many grey levels (noise never makes a line).
MIN_CONTRAST = 6.0
# The fit holds while this share of the lines seen at lock-in still shows.
HOLD = 0.6


def _green(image: np.ndarray) -> np.ndarray:
    """One channel without a colour conversion (green carries most luminance)."""
    return image if image.ndim == 2 else image[:, :, 1]


@dataclass
class Probe:
    """Pixel positions around every lattice segment and what was seen there.

    ``ys``/``xs``: int32 ``(n, 5)`` image positions (board, line x3, board);
    ``reference``: the contrast of each probe at lock-in; ``active``: the
    probes that showed a line then (only those are checked)."""

    ys: np.ndarray
    xs: np.ndarray
    reference: np.ndarray
    active: np.ndarray
    vertical: np.ndarray  # which probes sit on vertical lines

    @classmethod
    def from_fit(cls, image: np.ndarray, fit: GridFit) -> Probe:
        rows, cols = fit.rows, fit.cols
        pts = []
        # Vertical lines: x = k, points along y; horizontal: y = k, along x.
        for k in range(cols + 1):
            for j in range(rows):
                for t in ALONG:
                    pts.append([[k + d, j + t] for d in ACROSS])
        for k in range(rows + 1):
            for i in range(cols):
                for t in ALONG:
                    pts.append([[i + t, k + d] for d in ACROSS])
        n_vertical = (cols + 1) * rows * len(ALONG)
        grid = np.array(pts, np.float64)  # (n, 5, 2)
        img = apply_homography(np.linalg.inv(fit.homography), grid.reshape(-1, 2))
        h, w = image.shape[:2]
        xs = np.clip(np.round(img[:, 0]), 0, w - 1).astype(np.int32).reshape(-1, len(ACROSS))
        ys = np.clip(np.round(img[:, 1]), 0, h - 1).astype(np.int32).reshape(-1, len(ACROSS))
        inside = np.all((img[:, 0] >= 0) & (img[:, 0] < w) & (img[:, 1] >= 0) & (img[:, 1] < h))
        vertical = np.arange(len(xs)) < n_vertical
        probe = cls(ys, xs, np.zeros(len(xs)), np.zeros(len(xs), bool), vertical)
        contrast = probe.contrast(image)
        probe.reference = contrast
        probe.active = np.abs(contrast) >= MIN_CONTRAST
        if not inside:  # probes clipped to the border see nothing real
            on = (img[:, 0] >= 0) & (img[:, 0] < w) & (img[:, 1] >= 0) & (img[:, 1] < h)
            probe.active &= on.reshape(-1, len(ACROSS)).all(axis=1)
        return probe

    def contrast(self, image: np.ndarray) -> np.ndarray:
        """How much each probe's line differs from the board beside it (grey
        levels, signed: negative for a line darker than the board)."""
        v = _green(image)[self.ys, self.xs].astype(np.float32)  # (n, 5)
        diff = v[:, 1:-1] - ((v[:, 0] + v[:, -1]) / 2)[:, None]
        pick = np.abs(diff).argmax(axis=1)
        signed: np.ndarray = diff[np.arange(len(diff)), pick]
        return signed

    def check(self, image: np.ndarray) -> float:
        """Share (0..1) of the lines seen at lock-in that are still there: the
        lower of the two directions' shares, since a slide along one axis
        moves only the lines across it."""
        # Same polarity as at lock-in: a dark line moved onto the probe beside
        # it makes the middle look light, not like a line.
        now = self.contrast(image) * np.sign(self.reference)
        ok = (now >= KEEP_SHARE * np.abs(self.reference)) & (now >= MIN_CONTRAST)
        shares = []
        for family in (self.vertical, ~self.vertical):
            n = int(np.count_nonzero(self.active & family))
            if n:
                shares.append(np.count_nonzero(ok & self.active & family) / n)
        return float(min(shares)) if shares else 0.0


@dataclass
class TrackResult:
    """What the tracker knows after a frame.

    ``status``: ``"found"`` (first lock), ``"held"`` (the check passed),
    ``"refound"`` (searched again, same place), ``"moved"`` (searched again
    and the grid is somewhere else: the camera was bumped), ``"hidden"`` (the
    check failed and no grid was found: a hand, or the board is gone; the last
    fit is kept), ``"none"`` (never found yet). ``check`` is the probe score."""

    status: str
    fit: GridFit | None
    check: float = 0.0


@dataclass
class GridTracker:
    """Per-frame tracking of one ``rows`` x ``cols`` grid (explicit state, one per camera).

    ``moved_share``: how far (a share of the grid's side) a corner must move
    before a re-found grid counts as *moved*. ``retry_every``: while the grid
    stays hidden, search only every this many frames (a hand over the board
    should not cost a full search per frame)."""

    rows: int
    cols: int
    fit: GridFit | None = None
    moved_share: float = 0.02
    retry_every: int = 5
    probe: Probe | None = field(default=None, repr=False)
    _misses: int = field(default=0, repr=False)

    def lock(self, image: np.ndarray, fit: GridFit) -> None:
        """Adopt ``fit`` (from a search, markers or manual corners) for this view."""
        self.fit = fit
        self.probe = Probe.from_fit(image, fit)
        self._misses = 0

    def update(self, image: np.ndarray) -> TrackResult:
        """Check (and if need be search) one frame."""
        if self.fit is not None and self.probe is not None:
            score = self.probe.check(image)
            if score >= HOLD:
                self._misses = 0
                return TrackResult("held", self.fit, score)
            self._misses += 1
            if self._misses > 1 and (self._misses - 1) % self.retry_every:
                return TrackResult("hidden", self.fit, score)
        else:
            score = 0.0
        found = locate_grid(image, self.rows, self.cols, hint=self.fit)
        if found is None:
            return TrackResult("hidden" if self.fit is not None else "none", self.fit, score)
        before = self.fit
        self.lock(image, found)
        if before is None:
            return TrackResult("found", found, 1.0)
        shift = np.max(np.linalg.norm(found.corners - before.corners, axis=1)) / before.side_px()
        return TrackResult("moved" if shift > self.moved_share else "refound", found, score)
