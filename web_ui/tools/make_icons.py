"""Draw the home-screen icons (``static/icons/icon-192.png``, ``-512``): a
3x3 board of tile colours on a dark square. Run once after a change:
``python -m web_ui.tools.make_icons``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

# BGR, as the page's CSS colours
CELLS = [
    [(61, 38, 215), (78, 193, 242), (209, 111, 31)],
    [(152, 60, 125), (43, 38, 38), (61, 38, 215)],
    [(78, 193, 242), (163, 163, 163), (209, 111, 31)],
]


def icon(size: int) -> np.ndarray:
    img = np.full((size, size, 3), (31, 29, 29), np.uint8)
    margin, gap = size // 8, max(2, size // 48)
    cell = (size - 2 * margin - 2 * gap) // 3
    for r, row in enumerate(CELLS):
        for c, bgr in enumerate(row):
            x0 = margin + c * (cell + gap)
            y0 = margin + r * (cell + gap)
            cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), bgr, -1)
    return img


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "static" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        cv2.imwrite(str(out / f"icon-{size}.png"), icon(size))


if __name__ == "__main__":
    main()
