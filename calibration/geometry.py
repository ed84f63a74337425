"""Where the grid is, as a calibration profile stores it, and finding it that way.

Three ways to know the grid, from least to most set-up:

* ``auto``: search every time (:func:`vision.locate.locate_grid`), no set-up;
* ``markers``: four ArUco markers at the corners (``tilewatch markers`` prints
  them), for a permanent table (:func:`vision.markers.locate_markers`);
* ``manual``: four corners tapped on the phone, for a fixed camera.

:class:`GridGeometry` is plain data (``as_dict`` / ``from_dict`` round-trip
through TOML); the profile module keeps it under ``[geometry]``.

>>> g = GridGeometry(6, 6, "manual", corners=((10, 10), (90, 12), (88, 90), (12, 88)))
>>> GridGeometry.from_dict(g.as_dict()) == g
True
>>> fit = find_grid(np.zeros((100, 100, 3), np.uint8), g)
>>> fit.method, fit.corners.tolist()[1]
('manual', [90.0, 12.0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.gridfit import GridFit
from vision.locate import locate_grid
from vision.markers import MarkerLayout, locate_markers

MODES = ("auto", "markers", "manual")


@dataclass(frozen=True)
class GridGeometry:
    """How to find a ``rows`` x ``cols`` grid. ``corners``: manual mode's four
    image points (upper-left, upper-right, lower-right, lower-left);
    ``markers``: marker mode's layout (default: IDs 0-3 on the grid's corners)."""

    rows: int
    cols: int
    mode: str = "auto"
    corners: tuple[tuple[float, float], ...] | None = None
    markers: MarkerLayout | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"geometry mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if not (1 <= self.rows <= 40 and 1 <= self.cols <= 40):
            raise ValueError(f"grid {self.rows}x{self.cols} is not 1..40 a side")
        if self.mode == "manual":
            pts = np.asarray(self.corners if self.corners is not None else [], np.float64)
            if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
                raise ValueError("manual geometry needs four [x, y] corners")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"grid": [self.rows, self.cols], "mode": self.mode}
        if self.corners is not None:
            out["corners"] = [[float(x), float(y)] for x, y in self.corners]
        if self.markers is not None:
            out["markers"] = self.markers.as_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GridGeometry:
        try:
            rows, cols = (int(v) for v in data["grid"])
        except (KeyError, TypeError, ValueError):
            raise ValueError("geometry needs grid = [rows, cols]") from None
        corners = data.get("corners")
        markers = data.get("markers")
        return cls(
            rows,
            cols,
            str(data.get("mode", "auto")),
            None if corners is None else tuple((float(x), float(y)) for x, y in corners),
            None if markers is None else MarkerLayout.from_dict(markers),
        )


def find_grid(
    image: np.ndarray, geometry: GridGeometry, hint: GridFit | None = None
) -> GridFit | None:
    """The grid in ``image`` the way ``geometry`` says to find it."""
    if geometry.mode == "manual":
        assert geometry.corners is not None  # checked on construction
        return GridFit.from_corners(geometry.corners, geometry.rows, geometry.cols)
    if geometry.mode == "markers":
        return locate_markers(image, geometry.rows, geometry.cols, geometry.markers)
    return locate_grid(image, geometry.rows, geometry.cols, hint=hint)
