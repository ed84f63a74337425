"""A pinhole camera with radial lens distortion, placed over the board.

Points are in board millimetres (see :mod:`device.sim.board`); pixels are
(x, y) with the origin at the image's upper-left pixel centre. The same
:meth:`Camera.project` gives the ground-truth corners, the hand outlines and
(inverted) the warp maps, so truth and pixels cannot drift apart.

>>> from device.sim.board import BoardSpec
>>> from device.sim.conditions import Conditions
>>> cam = Camera.frame_board(Conditions(), BoardSpec.bits(), (640, 480))
>>> uv = cam.project(np.array([[66.0, 66.0, 0.0]]))
>>> bool(np.allclose(cam.to_plane(uv), [[66.0, 66.0]], atol=1e-6))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions

# A wide lens at full "barrel" bends the image corner to this share of the
# largest barrel that still maps one-to-one (beyond it the image would fold).
_BARREL_LIMIT = 0.85 * 4.0 / 27.0


def _rotation(axis: np.ndarray, degrees: float) -> np.ndarray:
    rvec = np.asarray(axis, dtype=np.float64) * math.radians(degrees)
    return cv2.Rodrigues(rvec)[0]


def _look_at(centre: np.ndarray, target: np.ndarray, roll_deg: float) -> np.ndarray:
    """World-to-camera rotation for a camera at ``centre`` aimed at ``target``
    whose image "down" follows the board's +y (towards the player)."""
    forward = target - centre
    forward /= np.linalg.norm(forward)
    down = np.array([0.0, 1.0, 0.0]) - forward[1] * forward
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    rot = np.stack([right, down, forward])
    rolled: np.ndarray = _rotation(np.array([0.0, 0.0, 1.0]), roll_deg) @ rot
    return rolled


@dataclass(frozen=True, eq=False)
class Camera:
    width: int
    height: int
    focal: float  # pixels
    k1: float  # OpenCV radial k1 on normalised coordinates
    rotation: np.ndarray  # 3x3 world -> camera
    centre: np.ndarray  # camera centre in board mm (z < 0: above the board)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def elevation_mm(self) -> float:
        """Height of the lens above the board plane."""
        return float(-self.centre[2])

    @property
    def _r_peak(self) -> float:
        # Largest undistorted radius before the barrel polynomial turns back.
        return math.sqrt(-1.0 / (3.0 * self.k1)) if self.k1 < 0 else math.inf

    # --- forward -----------------------------------------------------------
    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) board mm -> (N, 2) pixels. Points behind the lens, or far
        outside the lens's field, land off-image in the right direction."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        cam = (pts - self.centre) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-3)
        x = cam[:, 0] / z
        y = cam[:, 1] / z
        r = np.hypot(x, y)
        r_in = np.minimum(r, 0.999 * self._r_peak)
        # far points keep their direction but stop at the edge of the valid
        # lens field (beyond the image), instead of folding back into it
        scale = np.where(r > 0, r_in * (1 + self.k1 * r_in**2) / np.maximum(r, 1e-12), 1.0)
        scale = np.where(cam[:, 2] > 1e-3, scale, 1e3)
        u = self.focal * x * scale + (self.width - 1) / 2
        v = self.focal * y * scale + (self.height - 1) / 2
        return np.stack([u, v], axis=1)

    # --- inverse -----------------------------------------------------------
    def _undistort(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rd = np.hypot(xd, yd)
        if self.k1 == 0:
            return xd, yd
        r = rd.copy()
        r_max = 0.999 * self._r_peak
        for _ in range(30):
            f = r + self.k1 * r**3 - rd
            r = np.minimum(r - f / (1 + 3 * self.k1 * r**2), r_max)
        scale = np.where(rd > 0, r / np.maximum(rd, 1e-12), 1.0)
        return xd * scale, yd * scale

    def to_plane(self, pixels: np.ndarray) -> np.ndarray:
        """(N, 2) pixels -> (N, 2) board-plane mm; NaN where the ray misses
        the plane (above the horizon)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        xd = (px[:, 0] - (self.width - 1) / 2) / self.focal
        yd = (px[:, 1] - (self.height - 1) / 2) / self.focal
        x, y = self._undistort(xd, yd)
        rays = np.stack([x, y, np.ones_like(x)], axis=1) @ self.rotation
        with np.errstate(divide="ignore", invalid="ignore"):
            s = -self.centre[2] / rays[:, 2]
        s = np.where(rays[:, 2] > 1e-6, s, np.nan)
        plane: np.ndarray = self.centre[:2] + rays[:, :2] * s[:, None]
        return plane

    def plane_maps(self, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
        """Board-plane mm (x, y) for every pixel, float32 (height, width) each.

        The plane is found exactly on a coarse lattice and interpolated in
        between: the mapping is smooth, so this costs a millisecond and stays
        well under a hundredth of a pixel off (tested)."""
        nx = (self.width + step - 1) // step + 1
        ny = (self.height + step - 1) // step + 1
        gx, gy = np.meshgrid(np.arange(nx) * step, np.arange(ny) * step)
        plane = self.to_plane(np.stack([gx.ravel(), gy.ravel()], axis=1))
        # rays above the horizon: push far away, the texture border takes them
        plane = np.nan_to_num(plane, nan=1e6).reshape(ny, nx, 2).astype(np.float32)
        fx, fy = _lattice_lookup(self.width, self.height, step)
        full = cv2.remap(plane, fx, fy, cv2.INTER_LINEAR)
        return full[:, :, 0], full[:, :, 1]

    # --- placing and moving ------------------------------------------------
    @classmethod
    def frame_board(cls, conditions: Conditions, board: BoardSpec, size: tuple[int, int]) -> Camera:
        """Aim a camera at ``board`` as ``conditions`` say: tilt, roll, lens,
        and the distance at which the board fills ``conditions.fill``."""
        width, height = size
        focal = (width / 2) / math.tan(math.radians(conditions.hfov_deg) / 2)
        corner_r = math.hypot(width / 2, height / 2) / focal
        k1 = -conditions.barrel * _BARREL_LIMIT / corner_r**2
        x0, y0, x1, y1 = board.outer_rect_mm()
        target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
        tilt = math.radians(conditions.tilt_deg)
        az = math.radians(conditions.tilt_azimuth_deg)
        away = np.array(
            [math.sin(az) * math.sin(tilt), math.cos(az) * math.sin(tilt), -math.cos(tilt)]
        )
        outline = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], dtype=np.float64)

        distance = 3.0 * max(x1 - x0, y1 - y0)
        cam = cls(width, height, focal, k1, np.eye(3), target + distance * away)
        for _ in range(6):
            cam = replace(cam, rotation=_look_at(cam.centre, target, conditions.roll_deg))
            uv = cam.project(outline)
            span = max(np.ptp(uv[:, 0]) / width, np.ptp(uv[:, 1]) / height)
            distance *= span / conditions.fill
            cam = replace(cam, centre=target + distance * away)
        cam = replace(cam, rotation=_look_at(cam.centre, target, conditions.roll_deg))
        if conditions.shift_x or conditions.shift_y:
            # aim at the point that now sits off-centre, so the board moves by the shift
            aim = np.array(
                [
                    [
                        (width - 1) / 2 - conditions.shift_x * width,
                        (height - 1) / 2 - conditions.shift_y * height,
                    ]
                ]
            )
            point = cam.to_plane(aim)[0]
            cam = replace(
                cam,
                rotation=_look_at(
                    cam.centre, np.array([point[0], point[1], 0.0]), conditions.roll_deg
                ),
            )
        return cam

    def moved(
        self, shift_mm: tuple[float, float, float], turn_deg: tuple[float, float, float]
    ) -> Camera:
        """The camera after a knock: its centre shifted (board mm) and turned
        about its own x (pitch), y (yaw) and z (roll) axes."""
        turn = (
            _rotation(np.array([0.0, 0.0, 1.0]), turn_deg[2])
            @ _rotation(np.array([0.0, 1.0, 0.0]), turn_deg[1])
            @ _rotation(np.array([1.0, 0.0, 0.0]), turn_deg[0])
        )
        return replace(
            self,
            rotation=turn @ self.rotation,
            centre=self.centre + np.asarray(shift_mm, dtype=np.float64),
        )

    def key(self) -> tuple[float, ...]:
        """Hashable identity of the pose, for caches."""
        return tuple(np.round(np.concatenate([self.rotation.ravel(), self.centre]), 9).tolist())


@cache
def _lattice_lookup(width: int, height: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    fx, fy = np.meshgrid(
        np.arange(width, dtype=np.float32) / step, np.arange(height, dtype=np.float32) / step
    )
    return fx, fy
