"""Light on the table, as per-pixel gains for one camera pose.

A lamp's colour temperature, a brightness gradient across the table, lens
vignetting, a shadow cast across the board and a specular highlight are all
smooth functions of where a pixel looks, so they are computed once per pose
as a gain map (multiplied) and a glare map (added), both in the camera's
gamma-encoded 8-bit scale, where the frames are made.

>>> [round(g, 2) for g in kelvin_gains(6500)]
[1.0, 1.0, 1.0]
>>> b, g, r = kelvin_gains(2700)
>>> r > 1 > b
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from device.sim.board import BoardSpec
from device.sim.camera import Camera
from device.sim.conditions import Conditions
from vision.lamps import lamp_rgb

_GAMMA = 2.2


def kelvin_gains(kelvin: float, white_balance: float = 0.0) -> tuple[float, float, float]:
    """Linear (B, G, R) gains a light of ``kelvin`` gives a camera balanced
    for 6500 K, after its white balance removed ``white_balance`` of the cast.
    Luminance is kept at 1."""
    rgb = lamp_rgb(kelvin) / lamp_rgb(6500.0)
    rgb = rgb ** (1.0 - white_balance)
    rgb /= 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    return (float(rgb[2]), float(rgb[1]), float(rgb[0]))


@dataclass
class LightMaps:
    gain: np.ndarray  # float32 (height, width, 3), multiplies 8-bit BGR
    glare: np.ndarray | None  # float32 (height, width, 3), added, or None


def _smoothstep(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    smooth: np.ndarray = x * x * (3 - 2 * x)
    return smooth


def light_maps(
    conditions: Conditions, board: BoardSpec, camera: Camera, plane: tuple[np.ndarray, np.ndarray]
) -> LightMaps:
    """Gain and glare for every pixel; ``plane`` is the board-plane mm of
    each pixel (from :meth:`Camera.plane_maps`)."""
    px, py = plane
    x0, y0, x1, y1 = board.outer_rect_mm()
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    extent = max(x1 - x0, y1 - y0)
    dx = (np.clip(px, -5e3, 5e3) - cx) / extent
    dy = (np.clip(py, -5e3, 5e3) - cy) / extent

    linear = np.full(px.shape, conditions.brightness, np.float32)
    if conditions.gradient:
        a = math.radians(conditions.gradient_deg)
        along = dx * math.cos(a) + dy * math.sin(a)
        linear *= np.clip(1.0 - conditions.gradient * along, 0.15, None)
    if conditions.vignette:
        h, w = px.shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - (w - 1) / 2) ** 2 + (yy - (h - 1) / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        linear *= 1.0 - conditions.vignette * r2
    if conditions.shadow:
        a = math.radians(conditions.shadow_angle_deg)
        across = dx * math.cos(a) + dy * math.sin(a) - conditions.shadow_offset
        soft = max(conditions.shadow_softness_mm / extent, 0.4 / extent)
        inside = _smoothstep(across / soft + 0.5)
        if conditions.shadow_width > 0:
            inside *= 1.0 - _smoothstep((across - conditions.shadow_width) / soft + 0.5)
        linear *= 1.0 - conditions.shadow * inside

    colour = np.array(kelvin_gains(conditions.kelvin, conditions.white_balance), np.float32)
    gain = (np.maximum(linear, 1e-4)[:, :, None] * colour[None, None, :]) ** (1 / _GAMMA)

    glare = None
    if conditions.glare:
        gx = x0 + conditions.glare_x * (x1 - x0)
        gy = y0 + conditions.glare_y * (y1 - y0)
        sigma = conditions.glare_size * (x1 - x0)
        d2 = ((np.clip(px, -5e3, 5e3) - gx) ** 2 + (np.clip(py, -5e3, 5e3) - gy) ** 2) / (
            2 * sigma**2
        )
        # a sharp core on a broad sheen, as on glossy plastic and laminated print
        spot = 0.65 * np.exp(-d2 * 6.0) + 0.35 * np.exp(-d2)
        tint = colour ** (1 / _GAMMA)
        glare = (255.0 * conditions.glare * spot)[:, :, None].astype(np.float32) * tint[
            None, None, :
        ]
    return LightMaps(gain.astype(np.float32), glare)
