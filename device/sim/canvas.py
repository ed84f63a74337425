"""A top-down texture of the board plane, drawn in millimetres.

The renderer paints the table, the printed board and (with parallax, see
:mod:`device.sim.solids`) everything that stands on it into one BGR ``uint8``
image whose pixel (i, j) sits at board-plane mm ``origin + (j, i) / ppm``;
the camera then warps it once per frame.

>>> canvas = Canvas.blank((0.0, 0.0, 10.0, 5.0), ppm=2.0, colour=(0, 0, 0))
>>> canvas.image.shape
(10, 20, 3)
>>> canvas.fill_polygon([(0, 0), (5, 0), (5, 5), (0, 5)], (255, 255, 255))
>>> int(canvas.image[4, 4, 0]), int(canvas.image[4, 15, 0])
(255, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

_SHIFT = 4  # sub-pixel bits for OpenCV drawing
_ONE = 1 << _SHIFT

Point = tuple[float, float]
Colour = Sequence[float] | np.ndarray


@dataclass
class Canvas:
    image: np.ndarray  # BGR uint8 (height, width, 3)
    origin: tuple[float, float]  # board mm at pixel (0, 0)'s centre
    ppm: float  # pixels per millimetre

    @classmethod
    def blank(
        cls, rect_mm: tuple[float, float, float, float], ppm: float, colour: Sequence[int]
    ) -> Canvas:
        x0, y0, x1, y1 = rect_mm
        width = max(1, round((x1 - x0) * ppm))
        height = max(1, round((y1 - y0) * ppm))
        image = np.empty((height, width, 3), np.uint8)
        image[:] = colour
        return cls(image, (x0, y0), ppm)

    def to_px(self, points: np.ndarray | Sequence[Point]) -> np.ndarray:
        """mm -> fixed-point pixel coordinates for OpenCV drawing (int32)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        px = (pts - self.origin) * self.ppm
        return np.round(px * _ONE).astype(np.int32)

    def px_of(self, points: np.ndarray | Sequence[Point]) -> np.ndarray:
        """mm -> float pixel coordinates."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        return (pts - self.origin) * self.ppm

    def fill_polygon(self, points: np.ndarray | Sequence[Point], colour: Colour) -> None:
        col = tuple(float(c) for c in colour)
        cv2.fillPoly(self.image, [self.to_px(points)], col, cv2.LINE_AA, _SHIFT)

    def fill_polygons(
        self, polygons: Sequence[np.ndarray | Sequence[Point]], colour: Colour
    ) -> None:
        col = tuple(float(c) for c in colour)
        cv2.fillPoly(self.image, [self.to_px(p) for p in polygons], col, cv2.LINE_AA, _SHIFT)

    def line(self, a: Point, b: Point, colour: Colour, width_mm: float) -> None:
        """A straight stroke drawn as a filled quad, so thin lines keep their
        exact width in mm at any scale."""
        ax, ay = a
        bx, by = b
        dx, dy = bx - ax, by - ay
        length = float(np.hypot(dx, dy)) or 1.0
        nx, ny = -dy / length * width_mm / 2, dx / length * width_mm / 2
        self.fill_polygon(
            [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)], colour
        )

    def ring(self, centre: Point, radius_mm: float, colour: Colour, width_mm: float) -> None:
        centre_px = self.to_px([centre])[0]
        cv2.circle(
            self.image,
            (int(centre_px[0]), int(centre_px[1])),
            round(radius_mm * self.ppm * _ONE),
            tuple(float(c) for c in colour),
            max(1, round(width_mm * self.ppm)),
            cv2.LINE_AA,
            _SHIFT,
        )

    def text(
        self, text: str, centre: Point, height_mm: float, colour: Colour, bold: bool = True
    ) -> None:
        """Text centred on ``centre``, its capitals ``height_mm`` tall."""
        font = cv2.FONT_HERSHEY_DUPLEX
        base_h = cv2.getTextSize("H", font, 1.0, 1)[0][1]
        scale = height_mm * self.ppm / base_h
        thickness = max(1, round(scale * (2.4 if bold else 1.2)))
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
        cx, cy = self.px_of([centre])[0]
        org = (round(cx - w / 2), round(cy + h / 2))
        cv2.putText(
            self.image,
            text,
            org,
            font,
            scale,
            tuple(float(c) for c in colour),
            thickness,
            cv2.LINE_AA,
        )

    def rect_px(self, rect_mm: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """Pixel bounds (x0, y0, x1, y1) of a mm rectangle, clipped to the canvas."""
        x0, y0, x1, y1 = rect_mm
        h, w = self.image.shape[:2]
        (px0, py0), (px1, py1) = self.px_of([(x0, y0), (x1, y1)])
        return (
            int(np.clip(np.floor(px0), 0, w)),
            int(np.clip(np.floor(py0), 0, h)),
            int(np.clip(np.ceil(px1), 0, w)),
            int(np.clip(np.ceil(py1), 0, h)),
        )
