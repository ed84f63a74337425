"""Calibration in one confirmation: read, show, confirm or fix, learn.

1. :func:`propose`: read the board with no calibration (the palette fitted to
   this one frame, :func:`vision.reader.read_cells` with ``fit=True``);
2. the user sees the board as read and either confirms it or types fixes
   such as ``3,4=R`` (row 3, column 4, counted from 1 like every message to
   players), parsed by :func:`parse_fixes`;
3. :func:`build_profile`: every cell whose code is now known (read, or
   fixed) becomes a palette sample; the fitted white balance and the grid's
   corners go into the profile.

>>> parse_fixes("3,4=R  1,1=.", rows=6, cols=6, alphabet=".RYBPKN")
{(2, 3): 'R', (0, 0): '.'}
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import numpy as np

from calibration.profile import Profile
from vision.colour import lab_to_linear, linear_to_lab
from vision.constancy import gains_between
from vision.palette import Palette
from vision.printed import learnt_layout
from vision.reader import Reading, read_cells
from vision.shading import luminance

_FIX = re.compile(r"^(\d+)\s*,\s*(\d+)\s*=\s*(\S)$")


class FixError(ValueError):
    """A fix the user typed that does not make sense; the message says which."""


def propose(rectified_bgr: np.ndarray, rows: int, cols: int, palette: Palette) -> Reading:
    """The board as read with no calibration: what the user is asked to confirm."""
    return read_cells(rectified_bgr, rows, cols, palette, fit=True, bounds=True)


def parse_fixes(text: str, rows: int, cols: int, alphabet: str) -> dict[tuple[int, int], str]:
    """``"ROW,COL=CODE ..."`` (1-based, separated by spaces or semicolons) -> {(r, c): code}."""
    fixes: dict[tuple[int, int], str] = {}
    for part in re.split(r"[;\s]+(?=\d+\s*,)", text.strip()):
        part = part.strip().rstrip(";")
        if not part:
            continue
        m = _FIX.match(part)
        if not m:
            raise FixError(f"cannot read the fix {part!r}: write ROW,COL=CODE, e.g. 3,4=R")
        r, c, code = int(m[1]), int(m[2]), m[3]
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise FixError(f"{part!r}: row must be 1..{rows} and column 1..{cols}")
        if code not in alphabet:
            raise FixError(f"{part!r}: {code!r} is not a cell code here ({' '.join(alphabet)})")
        fixes[(r - 1, c - 1)] = code
    return fixes


def confirmed_codes(reading: Reading, fixes: dict[tuple[int, int], str]) -> np.ndarray:
    """The board the user confirmed: the reading with the fixes applied."""
    codes = reading.codes.copy()
    for (r, c), code in fixes.items():
        codes[r, c] = code
    return codes


def build_profile(
    reading: Reading,
    fixes: dict[tuple[int, int], str],
    *,
    corners: np.ndarray | None = None,
    image_size: tuple[int, int] | None = None,
    camera: dict[str, Any] | None = None,
    source: str = "",
    nominal: Palette | None = None,
) -> Profile:
    """A profile learnt from a confirmed reading (the right way up). Cells
    still ``?`` teach nothing. A board that prints symbols (LITS) also
    leaves the profile its layout (:func:`vision.printed.learnt_layout`).

    ``nominal``: the palette the reading started from; a colour the board did
    not show goes back to its nominal value (the fit may have pulled it
    towards cells that the person then corrected)."""
    rows, cols = reading.codes.shape
    codes = confirmed_codes(reading, fixes)
    profile = Profile.start(
        reading.palette,
        rows,
        cols,
        gains=np.asarray(reading.gains, dtype=np.float64).copy(),
        corners=None if corners is None else np.asarray(corners, dtype=np.float64),
        image_size=image_size,
        camera=dict(camera or {}),
        source=source,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    known = {
        (r, c): str(codes[r, c]) for r in range(rows) for c in range(cols) if codes[r, c] != "?"
    }
    profile.learn_reading(reading.lab, known, trusted=True)
    printed = [s for k in np.flatnonzero(reading.palette.board) for s in reading.palette.symbols[k]]
    if printed:
        # a board that prints symbols (LITS): the person confirmed them too
        profile.layout = learnt_layout(codes, printed)
    if nominal is not None:
        profile.palette = _unseen_from_nominal(profile, nominal)
    return profile


def _unseen_from_nominal(profile: Profile, nominal: Palette) -> Palette:
    """Colours the board did not show: their nominal value, carried into the
    profile's colour space.

    The profile's white balance made its greys grey; if the board print is
    really cream, every learnt colour sits a little bluer than nominal. The
    same cast, measured on the colours that were seen (a von Kries gain per
    channel), is applied to the unseen ones, so they stay consistent. With
    fewer than two colours seen besides the board (an empty ramp), the cast
    is what the grey colours seen show in place of grey: a dark print under
    a warm lamp, which no white balance took for the grey it is, learns
    warm, and a blue tile expected in daylight blue would read black."""
    pal = profile.palette
    pairs = [
        (k, nominal.names.index(name)) for k, name in enumerate(pal.names) if name in nominal.names
    ]
    # The board's print is no reference: its nominal colour is only a guess.
    seen = [(k, j) for k, j in pairs if profile.samples[k] > 0 and not nominal.board[j]]
    if len(seen) >= 2:
        ks, js = (list(v) for v in zip(*seen, strict=True))
        cast = gains_between(lab_to_linear(nominal.lab[js]), lab_to_linear(pal.lab[ks]))
    else:
        greys = [(k, j) for k, j in pairs if profile.samples[k] > 0 and nominal.neutral[j]]
        cast = _grey_cast(pal.lab[[k for k, _ in greys]], profile.samples[[k for k, _ in greys]])
    lab, spread = pal.lab.copy(), pal.spread.copy()
    for k, j in pairs:
        if profile.samples[k] == 0:
            lab[k] = linear_to_lab(lab_to_linear(nominal.lab[j]) * cast)
            spread[k] = nominal.spread[j]
    return pal.with_lab(lab, spread)


def _grey_cast(lab: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The light's colour per linear RGB channel (luminance one) that grey
    colours seen as ``lab`` (n, 3) show, weighted by ``weights`` (n,); ones
    when there are none. Only their chroma counts: how light a print is
    says nothing of the light.

    >>> [round(float(v), 2) for v in _grey_cast(np.array([[50.0, 0.0, 0.0]]), np.ones(1))]
    [1.0, 1.0, 1.0]
    """
    if len(lab) == 0 or float(weights.sum()) <= 0:
        return np.ones(3)
    grey = lab_to_linear(lab)
    # the same greys as they would look under a white light of their brightness
    white = np.repeat(luminance(grey)[:, None], 3, axis=1)
    cast = gains_between(white, grey, weights)
    return np.asarray(cast / luminance(cast))
