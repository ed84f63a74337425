"""The conditions a simulated camera shoots under: one named field each.

Every field is a plain number or name so a run can be written down, replayed
and varied one knob at a time. ``Conditions()`` is the easy case (straight
down, daylight, a clean sensor); ``Conditions.random(seed)`` draws a varied but
plausible table; ``with_overrides({"kelvin": "2700"})`` turns single knobs.

>>> c = Conditions.random(7)
>>> c == Conditions.random(7)
True
>>> Conditions().with_overrides({"kelvin": "2700", "art": "ivory"}).kelvin
2700.0
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, fields
from typing import Any

from device.sim.paint import load_paint

# Valid ranges, checked on construction so a typo in a config or on the
# command line is reported instead of rendering nonsense.
_RANGES: dict[str, tuple[float, float]] = {
    "tilt_deg": (0.0, 45.0),
    "tilt_azimuth_deg": (-360.0, 360.0),
    "roll_deg": (-360.0, 360.0),
    "hfov_deg": (30.0, 120.0),
    "barrel": (0.0, 1.0),
    "fill": (0.2, 1.0),
    "shift_x": (-0.3, 0.3),
    "shift_y": (-0.3, 0.3),
    "kelvin": (1800.0, 10000.0),
    "white_balance": (0.0, 1.0),
    "brightness": (0.2, 2.0),
    "gradient": (0.0, 0.9),
    "vignette": (0.0, 0.8),
    "light_elevation_deg": (10.0, 90.0),
    "shadow": (0.0, 0.9),
    "shadow_softness_mm": (0.0, 80.0),
    "shadow_width": (0.0, 1.0),
    "glare": (0.0, 1.5),
    "glare_size": (0.02, 0.6),
    "noise": (0.0, 30.0),
    "blur": (0.0, 4.0),
    "jpeg_quality": (0.0, 100.0),
    "exposure_drift": (0.0, 0.5),
    "exposure_period_s": (0.5, 600.0),
    "auto_exposure": (0.0, 1.0),
}


@dataclass(frozen=True)
class Conditions:
    """Camera, lens, board art, light and sensor of one simulated table."""

    # Camera and lens. Tilt is the angle between the optical axis and the
    # board's normal; the azimuth says from which side the camera leans in
    # (0 = from the bottom edge, where the player sits; 90 = from the right).
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    roll_deg: float = 0.0
    hfov_deg: float = 62.0
    barrel: float = 0.0  # wide-lens barrel distortion, 0 = none, 1 = strongest
    fill: float = 0.8  # the board's share of the image's short side
    shift_x: float = 0.0  # board centre offset, fraction of the image width
    shift_y: float = 0.0

    # What is printed and what it stands on. "" = the game's first art.
    art: str = ""
    table: str = "oak"
    tile_symbols: bool = True

    # Light. Kelvin is the light's colour temperature; the camera's white
    # balance is set for daylight and removes `white_balance` of any cast.
    kelvin: float = 6500.0
    white_balance: float = 0.0
    brightness: float = 1.0
    gradient: float = 0.0  # brightness difference across the board, 0..0.9
    gradient_deg: float = 0.0  # direction the light falls off towards
    vignette: float = 0.0
    light_azimuth_deg: float = 135.0  # key light direction on the board plane
    light_elevation_deg: float = 60.0
    shadow: float = 0.0  # darkness of a shadow cast across the board
    shadow_softness_mm: float = 0.0  # 0 = hard edge
    shadow_angle_deg: float = 30.0
    shadow_offset: float = 0.2  # signed distance of the shadow edge from the centre, board widths
    shadow_width: float = 0.0  # 0 = a half-plane, else a band this many board widths wide
    glare: float = 0.0  # peak of a specular highlight (1 = saturates white)
    glare_x: float = 0.6  # highlight centre on the board, 0..1 of its width/height
    glare_y: float = 0.35
    glare_size: float = 0.12  # highlight radius, fraction of the board's width

    # Sensor and encoding.
    noise: float = 0.0  # read noise sigma, 8-bit levels
    blur: float = 0.0  # Gaussian sigma in pixels (focus, small motion)
    jpeg_quality: float = 0.0  # 0 = no JPEG round trip
    exposure_drift: float = 0.0  # slow gain wander amplitude, fraction
    exposure_period_s: float = 8.0
    auto_exposure: float = 0.0  # 0 = locked; 1 = fully chases mid-grey (e.g. when a hand enters)

    seed: int = 0  # table grain, noise, and anything else drawn at random

    def __post_init__(self) -> None:
        for name, (lo, hi) in _RANGES.items():
            value = getattr(self, name)
            if not lo <= value <= hi:
                raise ValueError(f"condition {name}={value} is outside {lo:g}..{hi:g}")
        paint = load_paint()
        if self.table not in paint.table_variants():
            raise ValueError(
                f"condition table={self.table!r}: choose one of {', '.join(paint.table_variants())}"
            )

    @classmethod
    def random(cls, seed: int, game: str = "bits") -> Conditions:
        """A varied, plausible table: each knob drawn independently from ``seed``."""
        rng = random.Random(f"conditions:{game}:{seed}")
        paint = load_paint()

        def maybe(p: float, value: float, off: float = 0.0) -> float:
            return value if rng.random() < p else off

        roll = rng.uniform(-20, 20) if rng.random() < 0.8 else rng.uniform(-180, 180)
        hfov = rng.uniform(50, 100)
        return cls(
            tilt_deg=rng.uniform(0, 40) if rng.random() < 0.85 else 0.0,
            tilt_azimuth_deg=rng.choice([0.0, 0.0, 90.0, -90.0, 180.0]) + rng.uniform(-25, 25),
            roll_deg=roll,
            hfov_deg=hfov,
            barrel=rng.uniform(0, 0.9) * (hfov - 40) / 60,
            fill=rng.uniform(0.5, 0.85),
            shift_x=rng.uniform(-0.08, 0.08),
            shift_y=rng.uniform(-0.08, 0.08),
            art=rng.choice(paint.board_variants(game)),
            table=rng.choice(paint.table_variants()),
            tile_symbols=rng.random() < 0.9,
            kelvin=rng.choice([2700.0, 3000.0, 4000.0, 5000.0, 6500.0]) + rng.uniform(-150, 150),
            white_balance=rng.uniform(0.0, 0.8),
            brightness=rng.uniform(0.65, 1.25),
            gradient=maybe(0.6, rng.uniform(0.05, 0.45)),
            gradient_deg=rng.uniform(0, 360),
            vignette=rng.uniform(0.0, 0.35),
            light_azimuth_deg=rng.uniform(0, 360),
            light_elevation_deg=rng.uniform(35, 85),
            shadow=maybe(0.4, rng.uniform(0.2, 0.55)),
            shadow_softness_mm=rng.choice([0.0, rng.uniform(4, 40)]),
            shadow_angle_deg=rng.uniform(0, 180),
            shadow_offset=rng.uniform(-0.4, 0.4),
            shadow_width=rng.choice([0.0, rng.uniform(0.1, 0.3)]),
            glare=maybe(0.4, rng.uniform(0.2, 0.9)),
            glare_x=rng.uniform(0.1, 0.9),
            glare_y=rng.uniform(0.1, 0.9),
            glare_size=rng.uniform(0.05, 0.2),
            noise=rng.uniform(0.5, 6.0),
            blur=rng.choice([0.0, rng.uniform(0.3, 1.4)]),
            jpeg_quality=rng.choice([0.0, rng.uniform(55, 95)]),
            exposure_drift=maybe(0.5, rng.uniform(0.01, 0.06)),
            exposure_period_s=rng.uniform(4, 20),
            auto_exposure=maybe(0.5, rng.uniform(0.2, 0.8)),
            seed=seed,
        )

    def with_overrides(self, overrides: dict[str, str]) -> Conditions:
        """Set fields from text (``{"kelvin": "2700"}``), as a CLI or config gives them."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, text in overrides.items():
            if name not in known:
                raise ValueError(f"unknown condition {name!r}; known: {', '.join(sorted(known))}")
            current = getattr(self, name)
            try:
                if isinstance(current, bool):
                    if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                        raise ValueError(text)
                    changes[name] = text.lower() in ("true", "1", "yes")
                elif isinstance(current, int):
                    changes[name] = int(text)
                elif isinstance(current, float):
                    changes[name] = float(text)
                else:
                    changes[name] = text
            except ValueError:
                raise ValueError(
                    f"condition {name}={text!r} is not a {type(current).__name__}"
                ) from None
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
