"""The camera's sensor and encoder: blur, exposure, noise, JPEG.

Stateful only in its auto-exposure, which, like a real camera's, follows the
scene with a lag (a dark arm entering brightens the frame a moment later).
Noise comes from a small bank drawn once from the seed, cut at a per-frame
offset, so a frame costs an add instead of a fresh Gaussian draw.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from device.sim.conditions import Conditions

_BANK = 4
_PAD = 24
_AE_SECONDS = 0.4  # auto-exposure time constant


class Sensor:
    def __init__(self, conditions: Conditions, size: tuple[int, int], seed: int) -> None:
        self.conditions = conditions
        self.seed = seed
        width, height = size
        rng = np.random.default_rng([seed, 7])
        self.bank: list[np.ndarray] = []
        if conditions.noise > 0:
            for _ in range(_BANK):
                noise = rng.standard_normal((height + _PAD, width + _PAD, 3), dtype=np.float32)
                # chroma noise is weaker than luma noise on real sensors
                luma = noise[:, :, :1] * 0.8
                self.bank.append(
                    np.round((luma + 0.45 * noise) * conditions.noise).astype(np.int16)
                )
        self.phase = float(rng.uniform(0, 2 * math.pi))
        self.reset()

    def reset(self) -> None:
        """Forget the auto-exposure history (a new sequence starts)."""
        self._ae_ref: float | None = None
        self._ae_gain = 1.0
        self._ae_t: float | None = None

    def exposure(self, t: float, metered: float) -> float:
        """The exposure gain at stream time ``t`` for a scene whose mean
        brightness is ``metered``: slow drift times the auto-exposure."""
        c = self.conditions
        drift = 1.0 + c.exposure_drift * math.sin(
            2 * math.pi * t / c.exposure_period_s + self.phase
        )
        if c.auto_exposure > 0:
            if self._ae_ref is None:
                self._ae_ref = metered  # settled on the first view
            want = (self._ae_ref / max(metered, 1.0)) ** c.auto_exposure
            if self._ae_t is None:
                self._ae_gain = want
            else:
                alpha = 1.0 - math.exp(-max(t - self._ae_t, 0.0) / _AE_SECONDS)
                self._ae_gain += (want - self._ae_gain) * alpha
            self._ae_t = t
        return drift * self._ae_gain

    def capture(self, lit: np.ndarray, t: float, index: int) -> np.ndarray:
        """The frame the camera delivers for the light ``lit`` (BGR uint8)."""
        c = self.conditions
        image = lit
        if c.blur > 0:
            image = cv2.GaussianBlur(image, (0, 0), c.blur)
        # metering on every 4th pixel is plenty for a mean
        metered = float(image[::4, ::4].mean()) if c.auto_exposure > 0 else 128.0
        gain = self.exposure(t, metered)
        if abs(gain - 1.0) > 1e-4:
            image = cv2.convertScaleAbs(image, alpha=gain)
        if self.bank:
            rng = np.random.default_rng([self.seed, 11, index])
            which, dx, dy = rng.integers(0, _BANK), rng.integers(0, _PAD), rng.integers(0, _PAD)
            h, w = image.shape[:2]
            window = self.bank[which][dy : dy + h, dx : dx + w]
            image = cv2.add(image, window, dtype=cv2.CV_8U)
        if c.jpeg_quality > 0:
            ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(c.jpeg_quality)])
            if ok:
                decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
                if decoded is not None:
                    image = decoded
        if image is lit:
            image = lit.copy()  # callers may draw on a frame; keep the cache clean
        return image
