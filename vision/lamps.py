"""Where a lamp's colour can lie: along the black-body (Planckian) locus.

Candles, incandescent and halogen bulbs, "warm white" and "daylight" LEDs,
sunlight and shade all glow close to a black body of some temperature:
from orange-red at 1700 K through white at 6500 K to blue sky above 10000 K.
Their colours differ from a camera's daylight balance along one curve, and
hardly at all across it (a lamp that looks green or magenta is rare: a
fluorescent tube's tint is a few hundredths in chromaticity).

So white-balance gains that turn a board green or purple are not a lamp's
doing: they are a palette fit gone wrong (red tiles taken for black ones,
the light "corrected" until red is grey). :func:`tint` says how far gains
lie off the lamps' line, in the log units the gain priors use.

In log RGB the locus is close to a straight line through daylight: the
gains between any two lamps from 2000 K to 12000 K (a camera balanced for
one, lit by the other) lie within 0.27 log units of one direction
(:func:`locus_axis`), within 0.09 from 2500 K to 10000 K; the wrong fits
above lie 1.8 to 2 away.

And a grey whose brightest channel clipped (an ivory board under a warm
bulb clips red) still names its lamp from the other two channels
(:func:`lamps_through`).

>>> daylight, bulb = lamp_rgb(6500.0), lamp_rgb(2700.0)
>>> undo = np.log(daylight / bulb)                    # gains that undo a warm bulb
>>> bool(undo[2] > 0 > undo[0])                       # boost blue, cut red
True
>>> bool(tint(undo) < 0.1)
True
>>> bool(tint(undo + np.array([-0.4, 0.8, -0.4])) > 0.5)   # plus a strong green cast
True
"""

from __future__ import annotations

from functools import cache

import numpy as np

# CIE XYZ to linear sRGB (D65).
XYZ_TO_SRGB = np.array(
    [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
)
# The lamps the line is fitted to: below 2000 K a black body has almost no
# blue in sRGB (a candle), above 12000 K is deep blue sky.
WARM_LAMP, COOL_LAMP = 2000.0, 12000.0
LAMPS = 60


def planck_xy(kelvin: float) -> tuple[float, float]:
    """CIE 1931 xy of a black body (Kim et al. 2002 cubic fit, 1667-25000 K)."""
    t = min(max(kelvin, 1667.0), 25000.0)
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    return x, y


def lamp_rgb(kelvin: float) -> np.ndarray:
    """Linear sRGB (R, G, B) of a black body's light at luminance 1."""
    x, y = planck_xy(kelvin)
    xyz = np.array([x / y, 1.0, (1 - x - y) / y])
    rgb: np.ndarray = np.clip(XYZ_TO_SRGB @ xyz, 1e-4, None)
    return rgb


@cache
def locus_axis() -> np.ndarray:
    """The unit direction (R, G, B log units, zero mean) along which gains
    between lamps lie: the principal direction of the log-gain colour
    between every two lamps from WARM_LAMP to COOL_LAMP."""
    logs = np.log([lamp_rgb(float(k)) for k in np.geomspace(WARM_LAMP, COOL_LAMP, LAMPS)])
    pairs = (logs[:, None, :] - logs[None, :, :]).reshape(-1, 3)
    pairs = pairs - pairs.mean(axis=-1, keepdims=True)
    axis: np.ndarray = np.linalg.svd(pairs, full_matrices=False)[2][0]
    return axis


def tint(log_gains: np.ndarray) -> np.ndarray:
    """How far (log units) gains (..., 3, natural logs) lie off the lamps'
    line: the size of the green or magenta cast they would correct. Exposure
    (the mean of the three logs) and a lamp's warmth do not count."""
    c = np.asarray(log_gains, dtype=np.float64)
    c = c - c.mean(axis=-1, keepdims=True)
    axis = locus_axis()
    off = c - (c @ axis)[..., None] * axis
    return np.asarray(np.linalg.norm(off, axis=-1))


@cache
def _daylight_corrections() -> np.ndarray:
    """Log gains (N, 3) that undo each lamp along the locus for a camera
    balanced for daylight (6500 K), warmest first."""
    daylight = np.log(lamp_rgb(6500.0))
    kelvins = np.geomspace(1667.0, 25000.0, 400)
    return np.array([daylight - np.log(lamp_rgb(float(k))) for k in kelvins])


def lamps_through(log_gains: np.ndarray, known: np.ndarray) -> list[np.ndarray]:
    """Gains (3,) of lamps that agree with ``log_gains`` (3,) on the
    ``known`` channels (3,) bool, at least two: a clipped channel of a grey
    says nothing of the light, the other two say which lamp it is. Two
    answers: the black body itself (a camera balanced for daylight) and the
    point on the lamps' straight line (a camera balanced for some other
    lamp, or part of the way). Empty with fewer than two known channels."""
    known = np.asarray(known, bool)
    lg = np.asarray(log_gains, dtype=np.float64)
    if known.sum() < 2:
        return []
    axis = locus_axis()
    design = np.stack([np.ones(3), axis], axis=1)[known]
    exposure, along = np.linalg.lstsq(design, lg[known], rcond=None)[0]
    on_line = np.exp(exposure + along * axis)
    curve = _daylight_corrections()
    shift = (lg[known] - curve[:, known]).mean(axis=-1)  # exposure per lamp
    misfit = ((lg[known] - curve[:, known] - shift[:, None]) ** 2).sum(axis=-1)
    best = int(np.argmin(misfit))
    on_curve = np.exp(curve[best] + shift[best])
    return [np.asarray(on_line), np.asarray(on_curve)]
