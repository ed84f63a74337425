"""Draw a reading on the photo: each cell's code, colour and confidence.

For ``tilewatch read --debug-image`` and the calibration screen: the person
checking the board sees, on the picture itself, what every cell was read as.
Returns a new BGR uint8 image; the input is never modified.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import lab_to_bgr
from vision.glare import Highlight
from vision.gridfit import GridFit
from vision.rectify import apply_homography

UNSURE = (0, 0, 255)  # '?' cells are ringed in red
HIGHLIGHT = (0, 220, 255)  # a lamp's highlight, ringed in yellow


def draw_reading(
    image: np.ndarray,
    fit: GridFit,
    codes: np.ndarray,
    confidence: np.ndarray,
    lab: np.ndarray,
    highlight: Highlight | None = None,
) -> np.ndarray:
    """A copy of ``image`` with every cell labelled.

    ``codes``/``confidence`` (rows, cols) as read in grid order; ``lab``
    (rows, cols, 3) the measured colours. Each cell gets a swatch of its
    measured colour, its code in a contrasting colour, and a bar whose length
    is the confidence. A lamp's ``highlight`` that was taken off is ringed
    (dashed yellow, at its widest sigma): the place to move the lamp from."""
    out = image.copy()
    rows, cols = codes.shape
    inv = np.linalg.inv(fit.homography)
    if highlight is not None:
        _ring_highlight(out, inv, highlight)
    centres = apply_homography(
        inv, [[c + 0.5, r + 0.5] for r in range(rows) for c in range(cols)]
    ).reshape(rows, cols, 2)
    side = fit.side_px() / max(rows, cols)
    half = max(4, int(side * 0.22))
    font = max(0.35, side / 60)
    thick = max(1, int(side / 40))
    swatch = np.clip(lab_to_bgr(lab), 0, 255).round().astype(int)
    for r in range(rows):
        for c in range(cols):
            x, y = (round(float(v)) for v in centres[r, c])
            colour = tuple(int(v) for v in swatch[r, c])
            cv2.rectangle(out, (x - half, y - half), (x + half, y + half), colour, -1)
            edge = UNSURE if codes[r, c] == "?" else (255, 255, 255)
            cv2.rectangle(out, (x - half, y - half), (x + half, y + half), edge, thick)
            ink = (0, 0, 0) if lab[r, c, 0] > 55 else (255, 255, 255)
            (tw, th), _ = cv2.getTextSize(str(codes[r, c]), cv2.FONT_HERSHEY_SIMPLEX, font, thick)
            cv2.putText(
                out,
                str(codes[r, c]),
                (x - tw // 2, y + th // 2),
                cv2.FONT_HERSHEY_SIMPLEX,
                font,
                ink,
                thick,
                cv2.LINE_AA,
            )
            bar = round(2 * half * float(np.clip(confidence[r, c], 0, 1)))
            cv2.line(
                out,
                (x - half, y + half + 2 * thick),
                (x - half + bar, y + half + 2 * thick),
                (0, 200, 0),
                thick + 1,
            )
    return out


def _ring_highlight(out: np.ndarray, inv: np.ndarray, highlight: Highlight) -> None:
    """Dashes around the highlight, drawn through the grid's perspective."""
    radius = max(highlight.sigmas)
    angles = np.linspace(0, 2 * np.pi, 49)
    ring = np.stack(
        [highlight.x + radius * np.cos(angles), highlight.y + radius * np.sin(angles)], axis=1
    )
    points = apply_homography(inv, ring.tolist()).reshape(-1, 2)
    thick = max(2, round(float(np.linalg.norm(points[1] - points[0])) / 6))
    for i in range(0, len(points) - 1, 2):  # every other segment: a dashed ring
        a = tuple(round(float(v)) for v in points[i])
        b = tuple(round(float(v)) for v in points[i + 1])
        cv2.line(out, a, b, HIGHLIGHT, thick, cv2.LINE_AA)
