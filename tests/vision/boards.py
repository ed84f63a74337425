"""Generated test pictures: a grid board photographed by a known camera.

A flat board (lines, optional coloured tiles and printed symbols) is placed in
3-D, seen by a pinhole camera with a chosen tilt, roll and distance, optionally
through a radially distorting lens, over a cluttered table with shading and
glare. The true outer corners come back with the picture, so a test can measure
the locator's error exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TILE_COLOURS = [(40, 40, 200), (40, 200, 230), (200, 90, 30), (150, 50, 120), (35, 35, 35)]


@dataclass
class Shot:
    image: np.ndarray  # BGR uint8
    corners: np.ndarray  # (4, 2) true outer corners, UL UR LR LL
    rows: int
    cols: int

    def side(self) -> float:
        c = self.corners
        return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)))

    def corner_error(self, corners: np.ndarray) -> np.ndarray:
        """Per-corner distance as a fraction of the grid's side."""
        return np.linalg.norm(np.asarray(corners) - self.corners, axis=1) / self.side()


def flat_board(
    rows: int,
    cols: int,
    cell_px: int = 60,
    line_px: int = 3,
    margin: float = 0.6,
    tiles: int = 0,
    symbols: bool = False,
    paper: tuple[int, int, int] = (215, 222, 225),
    ink: tuple[int, int, int] = (40, 40, 40),
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """A top-down board picture and its grid corners in that picture.

    ``tiles`` cells (from the bottom up, as if dropped) get a coloured tile
    with a thin dark rim; ``symbols`` prints an X or O in the other cells."""
    rng = np.random.default_rng(seed)
    m = int(margin * cell_px)
    w, h = cols * cell_px + 2 * m, rows * cell_px + 2 * m
    board = np.empty((h, w, 3), np.uint8)
    board[:] = paper
    heights = np.zeros(cols, int)
    for _ in range(tiles):
        c = int(rng.integers(cols))
        if heights[c] >= rows:
            continue
        r = rows - 1 - heights[c]
        heights[c] += 1
        colour = TILE_COLOURS[int(rng.integers(len(TILE_COLOURS)))]
        x0, y0 = m + c * cell_px, m + r * cell_px
        cv2.rectangle(board, (x0 + 2, y0 + 2), (x0 + cell_px - 3, y0 + cell_px - 3), colour, -1)
        cv2.rectangle(
            board, (x0 + 2, y0 + 2), (x0 + cell_px - 3, y0 + cell_px - 3), (20, 20, 20), 1
        )
    if symbols:
        for r in range(rows):
            for c in range(cols):
                if rows - r <= heights[c] or rng.random() < 0.4:
                    continue
                cx, cy = m + c * cell_px + cell_px // 2, m + r * cell_px + cell_px // 2
                k = cell_px // 5
                if rng.random() < 0.5:
                    cv2.line(board, (cx - k, cy - k), (cx + k, cy + k), ink, 2, cv2.LINE_AA)
                    cv2.line(board, (cx - k, cy + k), (cx + k, cy - k), ink, 2, cv2.LINE_AA)
                else:
                    cv2.circle(board, (cx, cy), k, ink, 2, cv2.LINE_AA)
    for i in range(cols + 1):
        x = m + i * cell_px
        cv2.line(board, (x, m), (x, m + rows * cell_px), ink, line_px, cv2.LINE_AA)
    for j in range(rows + 1):
        y = m + j * cell_px
        cv2.line(board, (m, y), (m + cols * cell_px, y), ink, line_px, cv2.LINE_AA)
    corners = np.array(
        [
            [m, m],
            [m + cols * cell_px, m],
            [m + cols * cell_px, m + rows * cell_px],
            [m, m + rows * cell_px],
        ],
        np.float64,
    )
    return board, corners


def camera_homography(
    board_size: tuple[int, int],
    image_size: tuple[int, int],
    tilt_deg: float = 0.0,
    roll_deg: float = 0.0,
    fill: float = 0.6,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """Homography from board pixels to image pixels for a camera tilted
    ``tilt_deg`` from straight down and rolled ``roll_deg``, with the board
    covering about ``fill`` of the image height, moved by ``shift`` (fractions)."""
    bw, bh = board_size
    iw, ih = image_size
    f = 1.0 * max(iw, ih)
    t, r = np.radians(tilt_deg), np.radians(roll_deg)
    # Board plane z=0, centred at the origin, in board pixels.
    rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    rot = rz @ rx
    distance = f * max(bw, bh) / (fill * ih)
    cam = np.array([[f, 0, iw / 2 + shift[0] * iw], [0, f, ih / 2 + shift[1] * ih], [0, 0, 1]])
    # Columns: board x axis, board y axis, board origin (shifted to its centre).
    ext = np.column_stack([rot[:, 0], rot[:, 1], np.array([0, 0, distance])])
    centre = np.array([[1, 0, -bw / 2], [0, 1, -bh / 2], [0, 0, 1]])
    H = cam @ ext @ centre
    return H / H[2, 2]


def table(size: tuple[int, int], seed: int = 0, clutter: int = 25) -> np.ndarray:
    """A cluttered table top: wood-ish gradient, random boxes, strokes and text."""
    rng = np.random.default_rng(seed)
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = 90 + 60 * (xx / w) + 20 * np.sin(yy / 23.0)
    img = np.dstack([base * 0.7, base * 0.85, base]).clip(0, 255).astype(np.uint8)
    for _ in range(clutter):
        x, y = int(rng.integers(w)), int(rng.integers(h))
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        kind = rng.integers(3)
        if kind == 0:
            cv2.rectangle(
                img,
                (x, y),
                (x + int(rng.integers(20, w // 4)), y + int(rng.integers(20, h // 4))),
                colour,
                -1,
            )
        elif kind == 1:
            cv2.line(
                img,
                (x, y),
                (int(rng.integers(w)), int(rng.integers(h))),
                colour,
                int(rng.integers(1, 5)),
            )
        else:
            cv2.putText(
                img,
                "GAME NIGHT 42",
                (x, y),
                cv2.FONT_HERSHEY_SIMPLEX,
                float(rng.uniform(0.4, 1.2)),
                colour,
                2,
            )
    return img


def distort(image: np.ndarray, points: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
    """Radial lens distortion (``k`` > 0: barrel, as a wide lens) of an image and points.

    A pixel at normalised radius ``r_d`` in the result shows what was at
    ``r_d * (1 + k r_d^2)`` in the input."""
    h, w = image.shape[:2]
    c = np.array([(w - 1) / 2, (h - 1) / 2])
    norm = np.hypot(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - c[0]) / norm, (yy - c[1]) / norm
    f = 1 + k * (dx * dx + dy * dy)
    map_x = (c[0] + dx * f * norm).astype(np.float32)
    map_y = (c[1] + dy * f * norm).astype(np.float32)
    out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    pu = (np.asarray(points, np.float64) - c) / norm
    pd = pu.copy()
    for _ in range(50):  # invert r_u = r_d (1 + k r_d^2) by fixed point
        pd = pu / (1 + k * np.sum(pd * pd, axis=1, keepdims=True))
    return out, pd * norm + c


def shot(
    rows: int = 6,
    cols: int = 6,
    size: tuple[int, int] = (640, 480),
    tilt: float = 0.0,
    roll: float = 0.0,
    fill: float = 0.6,
    shift: tuple[float, float] = (0.0, 0.0),
    tiles: int = 0,
    symbols: bool = False,
    glare: bool = False,
    shadow: bool = False,
    lens: float = 0.0,
    noise: float = 3.0,
    seed: int = 0,
    **board_kw: object,
) -> Shot:
    """One photo of a board with the given camera and light; see the module doc."""
    rng = np.random.default_rng(seed)
    board, corners = flat_board(rows, cols, tiles=tiles, symbols=symbols, seed=seed, **board_kw)  # type: ignore[arg-type]
    H = camera_homography((board.shape[1], board.shape[0]), size, tilt, roll, fill, shift)
    img = table(size, seed)
    warped = cv2.warpPerspective(board, H, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(board.shape[:2], 255, np.uint8), H, size)
    img[mask > 127] = warped[mask > 127]
    pts = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), H).reshape(4, 2)
    f = img.astype(np.float32)
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if shadow:  # a soft shadow across part of the board
        a = rng.uniform(0, np.pi)
        d = (xx - w / 2) * np.cos(a) + (yy - h / 2) * np.sin(a)
        f *= (0.55 + 0.45 / (1 + np.exp(-d / 15)))[..., None]
    if glare:  # a lamp's reflection: a bright, washed-out blob
        gx, gy = pts.mean(0) + rng.normal(0, 0.1 * h, 2)
        blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.08 * h) ** 2))
        f = f + blob[..., None] * 170
    f += rng.normal(0, noise, f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if lens:
        img, pts = distort(img, pts, lens)
    return Shot(img, pts, rows, cols)
