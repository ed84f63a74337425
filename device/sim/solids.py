"""Things that stand up from the board, drawn into the plane texture with parallax.

A point at height ``h`` above the board is seen by a pinhole camera exactly
where the camera's ray through it meets the board plane. So a raised face
can be painted into the flat texture at its *parallax position* and the one
warp that maps the board plane to the image shows it in true perspective:
tiles get visible sides and tops that lean away from the camera, as they do
in a real photo.

>>> view = View(centre_xy=(0.0, 0.0), elevation_mm=100.0)
>>> view.lift(np.array([[10.0, 0.0]]), 50.0).tolist()
[[20.0, 0.0]]
>>> outline([(0, 0), (0, 1)]).tolist()
[[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from device.sim.canvas import Canvas

Cell = tuple[int, int]
Colour = Sequence[float]

UP = np.array([0.0, 0.0, -1.0])  # towards the camera side of the board


@dataclass(frozen=True)
class View:
    """Where the lens is: above board point ``centre_xy`` at ``elevation_mm``."""

    centre_xy: tuple[float, float]
    elevation_mm: float

    def lift(self, points: np.ndarray, height_mm: float) -> np.ndarray:
        """Plane position that shows (N, 2) points raised by ``height_mm``."""
        c = np.asarray(self.centre_xy)
        k = self.elevation_mm / max(self.elevation_mm - height_mm, 1e-6)
        lifted: np.ndarray = c + (np.asarray(points, dtype=np.float64) - c) * k
        return lifted


@dataclass(frozen=True)
class Light:
    """The key light: a direction (towards the light) and how much light
    comes from everywhere else. Shades faces relative to a flat top."""

    azimuth_deg: float
    elevation_deg: float
    ambient: float = 0.55

    @cached_property
    def direction(self) -> np.ndarray:
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])

    def shade(self, normal: np.ndarray) -> float:
        """Brightness of a face with ``normal`` relative to a face looking up."""
        lam = max(0.0, float(np.dot(normal, self.direction)))
        top = float(np.dot(UP, self.direction))
        return (self.ambient + (1 - self.ambient) * lam) / (self.ambient + (1 - self.ambient) * top)

    def shadow_offset(self, height_mm: float) -> np.ndarray:
        """How far (mm, on the plane) the shadow of a point at this height falls."""
        d = self.direction
        offset: np.ndarray = -d[:2] * height_mm / max(-d[2], 0.05)
        return offset


def outline(cells: Iterable[Cell], merge: bool = True) -> np.ndarray:
    """The boundary of a set of unit cells as one closed loop of (x, y)
    corners (x = column, y = row), collinear corners merged unless ``merge``
    is False (then every cell side is its own edge). The loop turns the same
    way as a cell listed (0,0) (1,0) (1,1) (0,1)."""
    cellset = set(cells)
    edges: dict[tuple[int, int], tuple[int, int]] = {}
    for r, c in cellset:
        corners = [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
        neighbours = [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]
        for i, n in enumerate(neighbours):
            if n not in cellset:
                edges[corners[i]] = corners[(i + 1) % 4]
    start = min(edges)
    loop = [start]
    point = edges[start]
    while point != start:
        loop.append(point)
        point = edges[point]
    pts = np.array(loop, dtype=np.float64)
    if not merge:
        return pts
    keep = []
    for i in range(len(pts)):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
        if abs((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])) > 1e-9:
            keep.append(b)
    return np.array(keep)


def edge_cells(loop: np.ndarray) -> list[Cell]:
    """For each edge of an :func:`outline` loop (unit cells), the (row, col)
    of the cell it bounds."""
    n = _normals(loop)
    mids = (loop + np.roll(loop, -1, axis=0)) / 2 - 0.5 * n
    return [(int(np.floor(y)), int(np.floor(x))) for x, y in mids]


def _normals(poly: np.ndarray) -> np.ndarray:
    """Outward unit normals of each edge i -> i+1."""
    d = np.roll(poly, -1, axis=0) - poly
    area = np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    if area < 0:
        n = -n
    unit: np.ndarray = n / np.linalg.norm(n, axis=1, keepdims=True)
    return unit


def inset(poly: np.ndarray, distance: float) -> np.ndarray:
    """Move every edge of a simple polygon inwards by ``distance`` (mitred)."""
    n = _normals(poly)
    n_prev = np.roll(n, 1, axis=0)
    miter = (n_prev + n) / (1.0 + np.sum(n_prev * n, axis=1, keepdims=True))
    moved: np.ndarray = poly - distance * miter
    return moved


def draw_prism(
    canvas: Canvas,
    poly: np.ndarray,
    base_mm: float,
    top_mm: float,
    colour: Colour,
    bevel_mm: float,
    view: View,
    light: Light,
    edge_colours: Sequence[Colour] | None = None,
) -> np.ndarray:
    """Draw an upright prism over polygon ``poly`` (mm) from ``base_mm`` to
    ``top_mm``, its top edge bevelled at 45 degrees; returns the top face
    (inner, flat) polygon in plane mm, where a print on the top goes.
    ``edge_colours`` gives each side its own colour (a two-colour tile)."""
    col = np.asarray(colour, dtype=np.float64)
    sides = (
        [np.asarray(c, dtype=np.float64) for c in edge_colours]
        if edge_colours
        else [col] * len(poly)
    )
    n = _normals(poly)
    inner = inset(poly, bevel_mm)
    h_bevel = top_mm - bevel_mm
    base = view.lift(poly, base_mm)
    rim = view.lift(poly, h_bevel)
    top = view.lift(inner, top_mm)
    eye = np.array([view.centre_xy[0], view.centre_xy[1], -view.elevation_mm])
    count = len(poly)
    for i in range(count):
        j = (i + 1) % count
        mid = np.array([(poly[i, 0] + poly[j, 0]) / 2, (poly[i, 1] + poly[j, 1]) / 2, -base_mm])
        side_n = np.array([n[i, 0], n[i, 1], 0.0])
        if np.dot(eye - mid, side_n) > 0 and h_bevel > base_mm:
            shade = light.shade(side_n)
            canvas.fill_polygon(
                [base[i], base[j], rim[j], rim[i]], np.clip(sides[i] * shade, 0, 255)
            )
    for i in range(count):
        j = (i + 1) % count
        bevel_n = np.array([n[i, 0], n[i, 1], -1.0]) / math.sqrt(2)
        mid = np.array([(poly[i, 0] + poly[j, 0]) / 2, (poly[i, 1] + poly[j, 1]) / 2, -h_bevel])
        if np.dot(eye - mid, bevel_n) > 0:
            shade = light.shade(bevel_n)
            canvas.fill_polygon([rim[i], rim[j], top[j], top[i]], np.clip(sides[i] * shade, 0, 255))
    canvas.fill_polygon(top, np.clip(col, 0, 255))
    return view.lift(inner, top_mm)


def cast_shadow(
    canvas: Canvas,
    parts: Sequence[np.ndarray],
    low_mm: float,
    high_mm: float,
    light: Light,
    strength: float,
    blur_mm: float,
    contact: float = 0.0,
) -> None:
    """Darken the plane under and beside raised convex ``parts`` (mm
    polygons) spanning ``low_mm``..``high_mm`` above it: a cast shadow along
    the light, plus a tight contact shadow where they touch the board."""
    lo = light.shadow_offset(low_mm)
    hi = light.shadow_offset(high_mm)
    hulls = []
    for part in parts:
        pts = np.concatenate([part + lo, part + hi])
        hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
        hulls.append(hull.astype(np.float64))
    allpts = np.concatenate(hulls + list(parts))
    pad = 3 * blur_mm + 2.0
    rect = canvas.rect_px(
        (
            allpts[:, 0].min() - pad,
            allpts[:, 1].min() - pad,
            allpts[:, 0].max() + pad,
            allpts[:, 1].max() + pad,
        )
    )
    x0, y0, x1, y1 = rect
    if x1 <= x0 or y1 <= y0:
        return
    sub = Canvas(np.zeros((y1 - y0, x1 - x0, 3), np.uint8), (0.0, 0.0), canvas.ppm)
    sub.origin = (canvas.origin[0] + x0 / canvas.ppm, canvas.origin[1] + y0 / canvas.ppm)
    sub.fill_polygons(hulls, (255, 0, 0))
    if contact > 0:
        sub.fill_polygons(list(parts), (255, 255, 0))
    masks = sub.image.astype(np.float32) / 255.0
    sigma = max(blur_mm * canvas.ppm, 0.5)
    cast = cv2.GaussianBlur(masks[:, :, 0], (0, 0), sigma)
    factor = 1.0 - strength * cast
    if contact > 0:
        touch = cv2.GaussianBlur(masks[:, :, 1], (0, 0), max(1.2 * canvas.ppm, 0.5))
        factor -= contact * touch
    roi = canvas.image[y0:y1, x0:x1]
    roi[:] = np.clip(roi * np.clip(factor, 0.0, 1.0)[:, :, None], 0, 255).astype(np.uint8)


SYMBOLS = ("circle", "star", "triangle", "square", "diamond", "cross")


def symbol_polygon(name: str) -> np.ndarray:
    """A player symbol as a polygon in -1..1."""
    if name == "circle":
        t = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        return np.stack([np.cos(t), np.sin(t)], axis=1)
    if name == "star":
        t = np.linspace(-math.pi / 2, 1.5 * math.pi, 10, endpoint=False)
        r = np.where(np.arange(10) % 2 == 0, 1.0, 0.45)
        return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)
    if name == "triangle":
        t = np.array([-90.0, 30.0, 150.0]) * math.pi / 180
        return np.stack([np.cos(t), np.sin(t) + 0.15], axis=1)
    if name == "square":
        return np.array([[-0.8, -0.8], [0.8, -0.8], [0.8, 0.8], [-0.8, 0.8]])
    if name == "diamond":
        return np.array([[0.0, -1.0], [0.85, 0.0], [0.0, 1.0], [-0.85, 0.0]])
    if name == "cross":
        a, b = 0.3, 0.95
        return np.array(
            [
                [-a, -b],
                [a, -b],
                [a, -a],
                [b, -a],
                [b, a],
                [a, a],
                [a, b],
                [-a, b],
                [-a, a],
                [-b, a],
                [-b, -a],
                [-a, -a],
            ]
        )
    raise ValueError(f"unknown symbol {name!r}; choose from {', '.join(SYMBOLS)}")


def symbol_ink(colour: Colour) -> np.ndarray:
    """The print colour of a symbol on a tile: a lighter tint on dark
    plastic, a darker one on light plastic (moulded-in, low contrast)."""
    col = np.asarray(colour, dtype=np.float64)
    luma = 0.114 * col[0] + 0.587 * col[1] + 0.299 * col[2]
    if luma < 110:
        return col + (255 - col) * 0.42
    return col * 0.62
