"""Draw a located grid on a frame (debug images, the camera preview).

Returns a new BGR uint8 image; the input is never modified."""

from __future__ import annotations

import cv2
import numpy as np

from vision.gridfit import GridFit
from vision.rectify import apply_homography

CORNER_NAMES = ("UL", "UR", "LR", "LL")


def _polyline(
    fit: GridFit, inv: np.ndarray, a: tuple[float, float], b: tuple[float, float]
) -> np.ndarray:
    # Sampled so lines follow the homography faithfully even far from the grid.
    t = np.linspace(0.0, 1.0, 16)[:, None]
    pts = (1 - t) * np.array(a) + t * np.array(b)
    return np.round(apply_homography(inv, pts) * 16).astype(np.int32)


def draw_grid(
    image: np.ndarray,
    fit: GridFit,
    colour: tuple[int, int, int] = (0, 220, 0),
    label: str | None = None,
) -> np.ndarray:
    """A copy of ``image`` (BGR or grey) with the grid's lattice, corners and a caption."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if out.dtype != np.uint8:
        out = cv2.convertScaleAbs(out)
    side = max(out.shape[:2])
    thick = max(1, side // 500)
    inv = np.linalg.inv(fit.homography)
    lines = [((float(c), 0.0), (float(c), float(fit.rows))) for c in range(fit.cols + 1)]
    lines += [((0.0, float(r)), (float(fit.cols), float(r))) for r in range(fit.rows + 1)]
    for a, b in lines:
        cv2.polylines(out, [_polyline(fit, inv, a, b)], False, colour, thick, cv2.LINE_AA, shift=4)
    cv2.polylines(
        out,
        [np.round(fit.corners * 16).astype(np.int32)],
        True,
        (0, 0, 255),
        thick + 1,
        cv2.LINE_AA,
        4,
    )
    font = max(0.4, side / 1600)
    for name, (x, y) in zip(CORNER_NAMES, fit.corners, strict=True):
        p = (round(x), round(y))
        cv2.circle(out, p, 3 * thick + 1, (0, 0, 255), -1, cv2.LINE_AA)
        _text(out, name, (p[0] + 4 * thick, p[1] - 4 * thick), font, thick, (0, 0, 255))
    text = label or f"{fit.rows}x{fit.cols} {fit.method} quality {fit.quality:.2f}"
    _text(out, text, (8, int(30 * font) + 8), font, thick, (255, 255, 255))
    return out


def draw_miss(image: np.ndarray, text: str) -> np.ndarray:
    """A copy of ``image`` captioned with why nothing is drawn."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    side = max(out.shape[:2])
    font, thick = max(0.4, side / 1600), max(1, side // 500)
    _text(out, text, (8, int(30 * font) + 8), font, thick, (0, 0, 255))
    return out


def _text(
    out: np.ndarray,
    text: str,
    org: tuple[int, int],
    font: float,
    thick: int,
    colour: tuple[int, int, int],
) -> None:
    """Text with a dark outline, readable on any background."""
    face = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(out, text, org, face, font, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(out, text, org, face, font, colour, thick, cv2.LINE_AA)
