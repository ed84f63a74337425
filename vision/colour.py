"""Colour spaces for the cell reader: sRGB, linear RGB, CIELAB, and distances.

Everything here works on small arrays of colours (the 36 or 100 cells of a
board, a palette), never on whole images, so it is plain numpy with explicit
formulas rather than OpenCV's 8-bit Lab, whose scaling (L*255/100, a+128,
b+128) is an easy way to compare apples with oranges.

Conventions: colours are the last axis of a float array.
- ``bgr``: OpenCV channel order, 0..255 (what ``cv2.imread`` gives).
- ``linear``: linear-light RGB (R, G, B order), 0..1, sRGB primaries, D65 white.
- ``lab``: CIELAB, L* 0..100, a* and b* signed, D65 white.

>>> lab = bgr_to_lab(np.array([255.0, 255.0, 255.0]))
>>> [round(float(v), 3) for v in lab]
[100.0, 0.0, 0.0]
>>> [int(v) for v in lab_to_bgr(np.array([53.24, 80.09, 67.2])).round()]
[0, 0, 255]
"""

from __future__ import annotations

import numpy as np

# sRGB (IEC 61966-2-1) to CIE XYZ, D65; rows X, Y, Z; columns R, G, B.
_RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_XYZ_TO_RGB = np.linalg.inv(_RGB_TO_XYZ)
_WHITE_D65 = _RGB_TO_XYZ.sum(axis=1)  # XYZ of RGB (1, 1, 1)
_EPS = 216 / 24389
_KAPPA = 24389 / 27


def srgb_to_linear(v: np.ndarray) -> np.ndarray:
    """Undo the sRGB transfer curve; ``v`` in 0..1."""
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v: np.ndarray) -> np.ndarray:
    """Apply the sRGB transfer curve; result clipped to 0..1."""
    v = np.clip(np.asarray(v, dtype=np.float64), 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def bgr_to_linear(bgr: np.ndarray) -> np.ndarray:
    """OpenCV-order 0..255 colours to linear RGB (R, G, B order) 0..1."""
    bgr = np.asarray(bgr, dtype=np.float64)
    return srgb_to_linear(bgr[..., ::-1] / 255.0)


def linear_to_bgr(linear: np.ndarray) -> np.ndarray:
    """Linear RGB 0..1 to OpenCV-order 0..255 floats (not rounded)."""
    return linear_to_srgb(linear)[..., ::-1] * 255.0


# Linear RGB straight to XYZ over the white point (one product, not two
# steps), and f(X), f(Y), f(Z) straight to L*, a*, b* (less the 16 of L*):
# this runs on every cell, for every light tried, every frame.
_RGB_TO_T = (_RGB_TO_XYZ / _WHITE_D65[:, None]).T
_F_TO_LAB = np.array([[0.0, 500.0, 0.0], [116.0, -500.0, 200.0], [0.0, 0.0, -200.0]])


def linear_to_lab(linear: np.ndarray) -> np.ndarray:
    """Linear RGB (R, G, B) to CIELAB (D65).

    (``+ 0.0`` turns a -0.0, which some CPUs' rounding gives for grey, into 0.0.)

    >>> [round(float(v), 2) + 0.0 for v in linear_to_lab(np.array([1.0, 1.0, 1.0]))]
    [100.0, 0.0, 0.0]
    >>> [round(float(v), 2) + 0.0 for v in linear_to_lab(np.array([0.001, 0.001, 0.001]))]
    [0.9, 0.0, 0.0]
    """
    linear = np.asarray(linear, dtype=np.float64)
    # Worked as one list of colours (N, 3), shaped back at the end.
    t = np.dot(linear.reshape(-1, 3), _RGB_TO_T)
    np.maximum(t, 0.0, out=t)
    f = np.cbrt(t)
    dark = t <= _EPS
    if np.count_nonzero(dark):  # (cheaper than .any() on a few colours)
        f[dark] = (_KAPPA * t[dark] + 16) / 116
    lab = np.dot(f, _F_TO_LAB)
    lab[:, 0] -= 16
    return np.asarray(lab.reshape(linear.shape))


def lab_to_linear(lab: np.ndarray) -> np.ndarray:
    """CIELAB (D65) to linear RGB (R, G, B); may fall outside 0..1 (out of gamut)."""
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    fx = fy + lab[..., 1] / 500
    fz = fy - lab[..., 2] / 200
    f = np.stack([fx, fy, fz], axis=-1)
    t = np.where(f**3 > _EPS, f**3, (116 * f - 16) / _KAPPA)
    return np.asarray((t * _WHITE_D65) @ _XYZ_TO_RGB.T)


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """OpenCV-order 0..255 colours to true CIELAB (not OpenCV's 8-bit scaling)."""
    return linear_to_lab(bgr_to_linear(bgr))


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """CIELAB to OpenCV-order 0..255 floats, clipped to the sRGB gamut."""
    return linear_to_bgr(lab_to_linear(lab))


def lab_distance(
    a: np.ndarray, b: np.ndarray, lightness_weight: float | np.ndarray = 1.0
) -> np.ndarray:
    """Euclidean CIELAB difference with L* scaled by ``lightness_weight``.

    A weight below 1 (CMC's l:c = 2:1 uses 0.5) forgives shading, which on a
    board mostly changes lightness, while keeping hue and chroma strict; an
    array of weights broadcasts like the colours' leading axes.
    Broadcasts: ``a`` (..., 3) against ``b`` (..., 3).

    >>> float(lab_distance(np.array([50.0, 10, 0]), np.array([60.0, 10, 0]), 0.5))
    5.0
    """
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    d2 = (lightness_weight * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2
    return np.sqrt(d2)


def chroma(lab: np.ndarray) -> np.ndarray:
    """C*ab = sqrt(a*^2 + b*^2): how far a colour is from grey."""
    lab = np.asarray(lab, dtype=np.float64)
    return np.asarray(np.hypot(lab[..., 1], lab[..., 2]))
