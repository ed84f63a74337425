"""The calibration profile: one human-readable TOML file per camera and board.

It holds what one careful look at the board taught us, so nobody calibrates
twice: where the grid is (geometry), which way up it is (orientation), the
camera controls to lock (exposure, gains), the white balance, and the colour
of every cell code *as this camera sees this copy of the game* (palette
samples). During play the profile keeps learning from cells whose colour the
game already knows (``Profile.learn``), so it follows a slowly changing lamp.

Colours are CIELAB after the profile's white balance, i.e. in the space
``vision.reader.Reading.lab`` reports. A learnt colour is a running mean over
at most ``MEMORY`` samples (older samples fade), with a scatter (``spread``).

>>> from calibration.palette import load_palette
>>> prof = Profile.start(load_palette("bits"), rows=6, cols=6)
>>> prof.learn([("R", [50.0, 60.0, 45.0])] * 3)
3
>>> prof.palette.lab[prof.palette.index("R")].round(1).tolist()
[50.0, 60.0, 45.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from calibration.geometry import GridGeometry, find_grid
from calibration.palette import palette_from_dict
from calibration.tomlfile import read_toml
from vision.classify import SENSOR_BLACK_L, scores
from vision.colour import lab_distance
from vision.gridfit import GridFit
from vision.palette import Palette

VERSION = 1
# A learnt colour averages over at most this many samples, so it follows
# slow changes (a lamp warming up) without forgetting what one frame showed.
MEMORY = 200
# The scatter of a learnt colour never shrinks below this share of the
# palette's default spread (noise the next frame will have anyway).
SPREAD_FLOOR = 1.0
# CIELAB lightness a body colour can have: a cell read brighter than white
# is a highlight or a clipped channel, never what the tile looks like.
MAX_LIGHTNESS = 100.0
# What a layout's cells may say: a printed symbol, or ? (not seen).
LAYOUT_CODES = "XO.?"
# Camera controls a profile records (picamera2 names), when the source reports them.
CAMERA_CONTROLS = ("ExposureTime", "AnalogueGain", "ColourGains", "AwbEnable", "AeEnable")


class ProfileError(ValueError):
    """A profile file that cannot be used; the message says which part and why."""


@dataclass
class Profile:
    """A calibration, as stored in one TOML file.

    ``palette``: the learnt colours (codes and names as the source palette,
    variants not seen at calibration removed); ``samples`` (K,) how many cells
    each colour has learnt from (0 = still the nominal value); ``gains`` (3,)
    white balance for linear R, G, B; ``geometry``: how to find the grid
    (search, markers or manual corners, :mod:`calibration.geometry`);
    ``corners`` (4, 2): where it was found (image pixels, UL UR LR LL in the
    board's own order) or None; ``quarter_turns`` / ``mirrored``: how the
    located grid was turned to put row 0 at the board's top; ``camera``:
    controls to lock; ``layout``: a board that prints symbols (LITS), the
    symbol of each cell as confirmed at calibration, right way up (one
    string per row, ``?`` where a piece hid it; :mod:`vision.printed`).
    """

    palette: Palette
    geometry: GridGeometry
    samples: np.ndarray
    gains: np.ndarray = field(default_factory=lambda: np.ones(3))
    corners: np.ndarray | None = None
    image_size: tuple[int, int] | None = None
    quarter_turns: int = 0
    mirrored: bool = False
    camera: dict[str, Any] = field(default_factory=dict)
    game: str | None = None
    created: str = ""
    source: str = ""
    layout: tuple[str, ...] | None = None
    # The colours as play began (set by the first learning after calibration,
    # not stored; a colour still nominal then is anchored where it is first
    # seen): play may move a colour at most the palette's ``drift`` from
    # there. Small steps that each pass the distance check would otherwise
    # walk a colour anywhere (glare read as yellow, then yellow as glare).
    anchor: np.ndarray | None = field(default=None, repr=False, compare=False)

    @classmethod
    def start(cls, palette: Palette, rows: int, cols: int, **kw: Any) -> Profile:
        """A profile that knows nothing yet beyond the palette (and the grid's size)."""
        kw.setdefault("game", palette.game)
        kw.setdefault("created", datetime.now(UTC).isoformat(timespec="seconds"))
        kw.setdefault("geometry", GridGeometry(rows, cols))
        return cls(palette=palette, samples=np.zeros(len(palette)), **kw)

    @property
    def rows(self) -> int:
        return self.geometry.rows

    @property
    def cols(self) -> int:
        return self.geometry.cols

    @property
    def knows_board(self) -> bool:
        """Whether this profile has seen the board's own print (an entry
        marked ``board``), or the palette has none.

        Calibrated on a full board, it has not: the print's colour is still
        the palette's first guess, and a print differs between copies. Read
        with that guess, a photo's empty cells match whichever colour lies
        nearest the real print, and the per-frame balance then moves the
        light until they match it exactly (simulated BITS 5477: the dark
        classic ramp, L* 21 against the guessed ivory's 89, read as 32
        black tiles, every one sure). A photo read with such a profile has
        its colours fitted to it instead, starting from the profile's, as one
        read without a profile is (:func:`vision.photo.read_photo`'s
        ``fit_palette``)."""
        board = self.palette.board
        return not board.any() or bool((self.samples[board] > 0).any())

    def find_grid(self, image: np.ndarray) -> GridFit | None:
        """The grid in ``image`` the way this profile finds it (search,
        markers or manual corners), trying first where calibration saw it:
        the camera has not moved since, most nights. Markers not seen fall
        back to the search."""
        seen = None
        if self.corners is not None:
            seen = GridFit.from_corners(self.corners, self.rows, self.cols)
        grid = find_grid(image, self.geometry, hint=seen)
        if grid is None and self.geometry.mode != "auto":
            grid = find_grid(image, replace(self.geometry, mode="auto"), hint=seen)
        return grid

    # --- learning ---------------------------------------------------------
    def learn(self, samples: Iterable[tuple[str, Sequence[float]]], trusted: bool = False) -> int:
        """Learn from ``(code, lab)`` pairs of cells whose code the game knows.

        ``lab`` is the cell's colour as ``Reading.lab`` gives it. Unless
        ``trusted`` (a person confirmed it), a sample farther than the
        palette's ``max_distance`` from what this code looks like so far is
        ignored (a hand, a shadow, a misplaced tile); so is such a sample,
        trusted or not, as the first sight of a colour in play. A sample
        brighter than white is ignored always (a highlight), and so is one
        at the sensor's black (:data:`~vision.classify.SENSOR_BLACK_L`: the
        colour was not seen; learnt, every dark cell would read as that
        code, surely), and once play has begun (the profile has learnt
        something) no sample may take a colour farther than the palette's
        ``drift`` from where it was then: a person confirms the code of a
        cell, not that the camera saw it well.
        Returns how many samples were used.
        """
        pal = self.palette
        th = pal.thresholds
        if self.samples.any() and self.anchor is None:
            self.anchor = np.where((self.samples > 0)[:, None], pal.lab, np.nan)
        lab = pal.lab.copy()
        spread = pal.spread.copy()
        used = 0
        for code, value in samples:
            ks = pal.entries_for(code)
            if not ks:
                continue
            x = np.asarray(value, dtype=np.float64).reshape(3)
            if not np.all(np.isfinite(x)) or not SENSOR_BLACK_L <= x[0] <= MAX_LIGHTNESS:
                continue
            current = pal.with_lab(lab, spread)
            d = scores(x[None, :], current)[0, ks]
            k = ks[int(np.argmin(d))]
            first = self.anchor is not None and bool(np.isnan(self.anchor[k, 0]))
            if d.min() > th.max_distance and (not trusted or first):
                # A confirmed cell may teach a colour far from the current
                # one (a red that looks orange), but not as the first
                # sight of it in play, which replaces the colour outright:
                # a glint on a black tile reads as the bright print, and
                # learnt so, black would read as the print (simulated
                # BITS 1775: the neutral tile later taken for black).
                continue
            n = min(float(self.samples[k]), MEMORY - 1)
            delta = x - lab[k]
            moved = lab[k] + delta / (n + 1)
            if self.anchor is not None:
                if np.isnan(self.anchor[k, 0]):
                    # first seen in play: the nominal colour gives way (a
                    # board read darker than nominal reads its tiles darker
                    # too), and the colour is held near what was seen
                    self.anchor[k] = moved
                elif float(lab_distance(moved, self.anchor[k], th.lightness_weight)) > th.drift:
                    continue
            lab[k] = moved
            self.samples[k] += 1
            used += 1
            if n == 0:  # the first sample replaces the nominal; its scatter is unknown
                continue
            if d.min() > th.max_distance:
                # Confirmed, though far from the colour: it says where the
                # colour is, not how much the colour wanders. Counted in
                # the scatter, one such cell widened the spread so far that
                # every cell on the board came within reach of the code
                # (simulated LITS 992: a red L under the lamp's glare,
                # confirmed, left three bare cells in the glare read red,
                # surely).
                continue
            dist2 = float((th.lightness_weight * delta[0]) ** 2 + delta[1] ** 2 + delta[2] ** 2)
            # Running mean square distance, started from the palette's spread.
            var = spread[k] ** 2 + (dist2 - spread[k] ** 2) / (n + 2)
            spread[k] = max(math.sqrt(var), SPREAD_FLOOR * th.spread)
        self.palette = pal.with_lab(lab, spread)
        return used

    def learn_reading(
        self, lab: np.ndarray, known: dict[tuple[int, int], str], trusted: bool = False
    ) -> int:
        """Learn from a reading's ``lab`` (rows, cols, 3) at cells whose code is known.

        ``known`` maps (row, col) to the code the game says is there (the
        tile the card showed, the cells of a confirmed board)."""
        return self.learn(((code, lab[r, c]) for (r, c), code in known.items()), trusted)

    # --- file -------------------------------------------------------------
    def to_toml(self) -> str:
        """The profile as TOML text, commented for people who open it."""
        pal = self.palette
        th = pal.thresholds
        out = [
            "# tilewatch calibration profile. Written by `tilewatch calibrate`; safe to",
            "# edit by hand. Colours are CIELAB (L* 0..100) after the white balance below.",
            f"version = {VERSION}",
        ]
        if self.game:
            out.append(f"game = {_str(self.game)}")
        out += [
            f"palette = {_str(pal.name)}",
            f"created = {_str(self.created)}",
            f"source = {_str(self.source)}",
            "",
            "# How to find the grid: mode = auto (search), markers or manual (corners).",
            "[geometry]",
        ]
        geometry = self.geometry.as_dict()
        markers = geometry.pop("markers", None)
        out += [f"{k} = {_value(v)}" for k, v in geometry.items()]
        if self.image_size is not None:
            out.append(f"image_size = [{self.image_size[0]}, {self.image_size[1]}]")
        if self.corners is not None:
            pts = ", ".join(f"[{x:.2f}, {y:.2f}]" for x, y in self.corners)
            out.append(f"found_corners = [{pts}]  # UL, UR, LR, LL where it was last seen")
        if markers:
            out += ["", "[geometry.markers]"]
            out += [f"{k} = {_value(v)}" for k, v in markers.items() if v is not None]
        out += [
            "",
            "[orientation]",
            f"quarter_turns = {self.quarter_turns}  # clockwise turns applied to the located grid",
            f"mirrored = {_bool(self.mirrored)}",
            "",
            "[camera]",
        ]
        out += [f"{k} = {_value(v)}" for k, v in sorted(self.camera.items())]
        if self.layout is not None:
            out += [
                "",
                "# The board's printed symbols as calibration saw them (X, O, . blank;",
                "# ? where a piece hid one), row 1 first.",
                "[layout]",
                "rows = [",
                *[f"    {_str(row)}," for row in self.layout],
                "]",
            ]
        out += [
            "",
            "[white_balance]",
            f"gains = [{', '.join(f'{g:.5f}' for g in self.gains)}]  # linear R, G, B",
            "",
            "[classify]",
            f"max_distance = {th.max_distance:g}",
            f"min_margin = {th.min_margin:g}",
            f"lightness_weight = {th.lightness_weight:g}",
            f"spread = {th.spread:g}",
            f"drift = {th.drift:g}",
            f"neutral_drift = {th.neutral_drift:g}",
            f"board_drift = {th.board_drift:g}",
        ]
        for k in range(len(pal)):
            out += [
                "",
                "[[colour]]",
                f"code = {_str(pal.codes[k])}",
                f"name = {_str(pal.names[k])}",
                f"lab = [{', '.join(f'{v:.2f}' for v in pal.lab[k])}]",
                f"spread = {pal.spread[k]:.2f}",
                f"samples = {int(self.samples[k])}",
            ]
            if pal.neutral[k]:
                out.append("neutral = true")
            if pal.symbols[k]:
                out.append(f"symbols = [{', '.join(_str(s) for s in pal.symbols[k])}]")
            if pal.plain[k]:
                out.append("plain = true")
            if pal.board[k]:
                out.append("board = true")
            if np.isfinite(pal.most[k]):
                out.append(f"most = {int(pal.most[k])}")
        return "\n".join(out) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the profile atomically (a crash never leaves half a file)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        path = Path(path)
        data = read_toml(path, "profile", ProfileError)
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError, ValueError) as err:
            raise ProfileError(f"profile {path}: {err}") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        version = data.get("version")
        if version != VERSION:
            raise ValueError(f"version {version!r} is not {VERSION} (recalibrate)")
        table = dict(data.get("geometry", {}))
        grid = table.get("grid")
        if not (isinstance(grid, list) and len(grid) == 2 and all(_is_int(v) for v in grid)):
            raise ValueError("[geometry] grid must be [rows, cols]")
        corners = table.pop("found_corners", None)
        if corners is not None:
            corners = np.asarray(corners, dtype=np.float64)
            if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
                raise ValueError("[geometry] found_corners must be four [x, y] points")
        size = table.pop("image_size", None)
        geometry = GridGeometry.from_dict(table)
        palette = palette_from_dict(
            {
                "name": data.get("palette", "profile"),
                "game": data.get("game"),
                "classify": data.get("classify", {}),
                "colour": data.get("colour"),
            }
        )
        samples = np.array([float(c.get("samples", 0)) for c in data["colour"]])
        gains = np.asarray(data.get("white_balance", {}).get("gains", [1, 1, 1]), np.float64)
        if gains.shape != (3,) or not np.all(gains > 0):
            raise ValueError("[white_balance] gains must be three positive numbers")
        orient = data.get("orientation", {})
        turns = orient.get("quarter_turns", 0)
        if not _is_int(turns):
            raise ValueError("[orientation] quarter_turns must be a whole number")
        layout = _layout(data.get("layout"), geometry.rows, geometry.cols)
        return cls(
            palette=palette,
            geometry=geometry,
            samples=samples,
            gains=gains,
            corners=corners,
            image_size=None if size is None else (int(size[0]), int(size[1])),
            quarter_turns=int(turns) % 4,
            mirrored=bool(orient.get("mirrored", False)),
            camera=dict(data.get("camera", {})),
            game=data.get("game"),
            created=str(data.get("created", "")),
            source=str(data.get("source", "")),
            layout=layout,
        )

    def copy(self) -> Profile:
        return replace(
            self, samples=self.samples.copy(), gains=self.gains.copy(), camera=dict(self.camera)
        )


def _layout(table: Any, rows: int, cols: int) -> tuple[str, ...] | None:
    """The ``[layout]`` table's rows, checked against the grid; None if absent."""
    if table is None:
        return None
    lines = table.get("rows") if isinstance(table, dict) else None
    shape = f"[layout] rows must be {rows} strings of {cols} cells (X, O, . or ?)"
    if not isinstance(lines, list) or len(lines) != rows:
        raise ValueError(shape)
    for line in lines:
        if not isinstance(line, str) or len(line) != cols or set(line) - set(LAYOUT_CODES):
            raise ValueError(f"{shape}; not {line!r}")
    return tuple(lines)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _str(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _bool(b: bool) -> str:
    return "true" if b else "false"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return _bool(v)
    if isinstance(v, int | float):
        return f"{v:g}" if isinstance(v, float) else str(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return _str(str(v))
