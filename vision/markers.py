"""Marker mode: four ArUco markers stuck at the board's corners.

For a permanent set-up (a ramp screwed to a shelf, a camera on an arm) four
printed markers make the grid unmistakable under any light and with any number
of hands about. Marker ``0`` goes at the grid's upper-left corner (BITS: the
ramp's upper edge), ``1`` upper-right, ``2`` lower-right, ``3`` lower-left,
each *outside* the grid with one corner on (or a known distance from) the
grid's corner. The detector is OpenCV's ``cv2.aruco.ArucoDetector`` with the
4x4 dictionary (big cells, read from far away).

The grid corner is taken as the marker corner nearest the middle of the four
markers, so a marker stuck turned by a quarter still works; the marker IDs
name the corners, so the board's orientation comes with them.

>>> sheet = marker_sheet(marker_mm=30, dpi=100)
>>> sheet.shape, sheet.dtype
((1169, 827), dtype('uint8'))
>>> fit = locate_markers(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), 6, 6)
>>> fit is not None and fit.method == "markers"
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.gridfit import GridFit
from vision.rectify import grid_corners, homography_from_corners

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_NAMES = ("upper-left", "upper-right", "lower-right", "lower-left")
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@dataclass(frozen=True)
class MarkerLayout:
    """Which markers mark the grid and where.

    ``ids``: marker IDs at the upper-left, upper-right, lower-right and
    lower-left corners. ``anchors``: where each marker's inner corner sits, in
    grid coordinates (cells; ``None`` = exactly on the grid's corners). A
    marker stuck on a ramp's rail 8 mm beside a 22 mm cell would be at
    ``(-0.36, ...)`` on its side."""

    ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    anchors: tuple[tuple[float, float], ...] | None = None

    def anchor_points(self, rows: int, cols: int) -> np.ndarray:
        if self.anchors is None:
            return grid_corners(rows, cols)
        points = np.asarray(self.anchors, np.float64)
        if points.shape != (4, 2):
            raise ValueError("a marker layout needs four (x, y) anchors")
        return points

    def as_dict(self) -> dict[str, object]:
        """Plain data for a calibration profile."""
        return {
            "ids": list(self.ids),
            "anchors": None if self.anchors is None else [list(a) for a in self.anchors],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> MarkerLayout:
        ids = tuple(int(i) for i in data.get("ids", (0, 1, 2, 3)))  # type: ignore[attr-defined]
        anchors = data.get("anchors")
        if len(ids) != 4:
            raise ValueError("a marker layout needs four ids")
        pts = None if anchors is None else tuple((float(x), float(y)) for x, y in anchors)  # type: ignore[attr-defined]
        return cls((ids[0], ids[1], ids[2], ids[3]), pts)


def detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every marker of the dictionary in a BGR or grey image: id -> ``(4, 2)``
    corners in the marker's own order (its top-left first, clockwise)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = detector().detectMarkers(gray)
    if ids is None:
        return {}
    return {
        int(i): c.reshape(4, 2).astype(np.float64)
        for i, c in zip(ids.ravel(), corners, strict=True)
    }


def locate_markers(
    image: np.ndarray, rows: int, cols: int, layout: MarkerLayout | None = None
) -> GridFit | None:
    """The grid from its four corner markers, or ``None`` unless all four show."""
    layout = layout or MarkerLayout()
    seen = find_markers(image)
    if not all(i in seen for i in layout.ids):
        return None
    quads = [seen[i] for i in layout.ids]
    middle = np.mean([q.mean(axis=0) for q in quads], axis=0)
    inner = np.array([q[np.argmin(np.linalg.norm(q - middle, axis=1))] for q in quads])
    # Image -> grid through the anchors, then the grid's own corners.
    to_grid = homography_from_corners(inner, 1, 1)  # image -> unit square of anchors
    anchors = layout.anchor_points(rows, cols)
    unit_to_grid = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), anchors.astype(np.float32)
    ).astype(np.float64)
    H = unit_to_grid @ to_grid
    fit = GridFit.from_homography(H, rows, cols, quality=1.0, method="markers")
    return fit


def marker_sheet(
    marker_mm: float = 30.0, dpi: int = 300, paper: str = "a4", ids: tuple[int, ...] = (0, 1, 2, 3)
) -> np.ndarray:
    """A printable page (grey uint8, ``paper`` at ``dpi``) with the four markers,
    each ``marker_mm`` wide with a white margin, named by the corner it marks."""
    if paper not in PAPER_MM:
        raise ValueError(f"paper must be one of {', '.join(PAPER_MM)}")
    if not 10 <= marker_mm <= 90:
        raise ValueError("markers from 10 to 90 mm fit on one page, four to a sheet")
    if not 50 <= dpi <= 1200:
        raise ValueError("dpi must be 50..1200")
    w_mm, h_mm = PAPER_MM[paper]
    px = dpi / 25.4
    page = np.full((round(h_mm * px), round(w_mm * px)), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side = round(marker_mm * px)
    font = 3.0 * px / 22  # Hershey simplex is ~22 px tall at scale 1: 3 mm text
    thick = max(1, round(px / 4))

    def text(line: str, x_mm: float, y_mm: float, scale: float = 1.0) -> None:
        org = (round(x_mm * px), round(y_mm * px))
        cv2.putText(page, line, org, cv2.FONT_HERSHEY_SIMPLEX, font * scale, 0, thick, cv2.LINE_AA)

    text("tilewatch corner markers", 15, 20, 1.6)
    text(f"Print at 100% (no fit-to-page): each black square is {marker_mm:g} mm.", 15, 30)
    text("Cut on the dashed lines. Stick each marker upright just outside", 15, 36)
    text("its corner of the grid, its inner corner on the grid's corner.", 15, 42)
    top = round(50 * px)
    cell_w, cell_h = page.shape[1] // 2, (page.shape[0] - top) // 2
    for n, marker_id in enumerate(ids[:4]):
        col, row = ((0, 0), (1, 0), (1, 1), (0, 1))[n]  # laid out as on the board
        x0 = col * cell_w + (cell_w - side) // 2
        y0 = top + row * cell_h + (cell_h - side) // 2
        page[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(
            dictionary, marker_id, side, borderBits=1
        )
        # Dashed cut square with a quiet margin of a fifth of the marker.
        q = max(round(6 * px), side // 5)
        text(f"{marker_id}: {CORNER_NAMES[n]}", x0 / px, (y0 + side) / px + 4.5)
        box = [
            (x0 - q, y0 - q),
            (x0 + side + q, y0 - q),
            (x0 + side + q, y0 + side + q),
            (x0 - q, y0 + side + q),
        ]
        for a, b in zip(box, box[1:] + box[:1], strict=True):
            _dashed(page, a, b, dash=max(4, round(2 * px)))
    return page


def _dashed(page: np.ndarray, a: tuple[int, int], b: tuple[int, int], dash: int) -> None:
    length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
    steps = max(1, int(length // dash))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        p0 = (round(a[0] + (b[0] - a[0]) * t0), round(a[1] + (b[1] - a[1]) * t0))
        p1 = (round(a[0] + (b[0] - a[0]) * t1), round(a[1] + (b[1] - a[1]) * t1))
        cv2.line(page, p0, p1, 128, 1)
