"""``GridFit``: where a grid is in one camera's view.

>>> import numpy as np
>>> fit = GridFit.from_corners([[0, 0], [60, 0], [60, 60], [0, 60]], rows=6, cols=6)
>>> fit.cell_at(35, 5)
(0, 3)
>>> fit.cells_from([[10, 0], [70, 0], [70, 60], [10, 60]])  # a cell to the right
1.0
>>> fit.room(100, 70)  # touching the top and left edges
0.0
>>> GridFit.from_corners([[20, 10], [80, 10], [80, 70], [20, 70]], 6, 6).room(100, 85)
1.0
>>> print(fit)
GridFit 6x6 manual quality 1.00 corners (0.0, 0.0) (60.0, 0.0) (60.0, 60.0) (0.0, 60.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from vision.rectify import apply_homography, corners_from_homography, homography_from_corners


@dataclass(frozen=True)
class GridFit:
    """A located grid of ``rows`` x ``cols`` square cells.

    ``corners``: ``(4, 2)`` float64 image pixels, ``UL UR LR LL``.
    ``homography``: 3x3 float64, image pixels -> grid coordinates in cells
    (see :mod:`vision.rectify`). ``quality``: 0..1, the share of lattice line
    segments the picture supports (1.0 for manual corners, which are trusted).
    ``method``: ``"search"``, ``"markers"``, ``"manual"`` or ``"tracked"``."""

    rows: int
    cols: int
    corners: np.ndarray
    homography: np.ndarray
    quality: float
    method: str = "search"
    details: dict[str, float] = field(default_factory=dict, compare=False)

    @classmethod
    def from_homography(
        cls, homography: np.ndarray, rows: int, cols: int, quality: float, method: str = "search"
    ) -> GridFit:
        H = np.asarray(homography, np.float64)
        return cls(rows, cols, corners_from_homography(H, rows, cols), H, float(quality), method)

    @classmethod
    def from_corners(
        cls, corners: ArrayLike, rows: int, cols: int, quality: float = 1.0, method: str = "manual"
    ) -> GridFit:
        c = np.asarray(corners, np.float64).reshape(4, 2)
        return cls(rows, cols, c, homography_from_corners(c, rows, cols), float(quality), method)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The ``(row, col)`` under image point ``(x, y)``, or ``None`` off the grid."""
        u, v = apply_homography(self.homography, [[x, y]])[0]
        if 0 <= u < self.cols and 0 <= v < self.rows:
            return int(v), int(u)
        return None

    def cells_from(self, corners: ArrayLike) -> float:
        """How far, in this grid's cells, the farthest of another grid's four
        outer ``corners`` (image pixels) lies from the nearest of this one's,
        whatever the corners' names (a grid turned a quarter is the same
        place). Under half a cell: no placement a whole cell off is nearer."""
        c = np.asarray(corners, np.float64).reshape(4, 2)
        moved = apply_homography(self.homography, c)
        own = np.array([[0, 0], [self.cols, 0], [self.cols, self.rows], [0, self.rows]], float)
        gaps = np.linalg.norm(moved[:, None, :] - own[None, :, :], axis=2)
        return float(gaps.min(axis=1).max())

    def side_px(self) -> float:
        """Mean length of the grid's four sides in image pixels."""
        c = self.corners
        return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)))

    def room(self, width: int, height: int) -> float:
        """The least room, in cells, between the grid's corners and the
        edge of a ``width`` x ``height`` picture (negative: a corner lies
        outside it)."""
        x, y = self.corners[:, 0], self.corners[:, 1]
        gaps = np.concatenate([x, y, width - x, height - y])
        return float(gaps.min() / (self.side_px() / max(self.rows, self.cols)))

    def __str__(self) -> str:
        pts = " ".join(f"({x:.1f}, {y:.1f})" for x, y in self.corners)
        head = f"GridFit {self.rows}x{self.cols} {self.method} quality {self.quality:.2f}"
        return f"{head} corners {pts}"
