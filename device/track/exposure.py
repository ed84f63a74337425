"""The exposure an empty board could not tell, learnt from the first tiles.

With no calibration, the tracker learns its colours from the first look at
the board, and at the start of a BITS game that is an empty ramp: one colour,
whose lightness is not known (a dark print under a bright lamp looks like a
light print under a dim one). The white balance then takes a guess, and if
the guess is off, every tile reads too light or too dark: blue passes for
purple, black for grey, and the referee refuses legal drops.

The first tiles the game records settle it: their colours are known (the
tile the card showed, judged legal), so the ratio of their nominal
luminance to the luminance read says how far the exposure is off. Tiles are
glossy and may catch a highlight, so the ratio is a median over several
cells (two tiles, or a whole piece), and only a clear, consistent error is
corrected. A cell read brighter than white is a highlight, unless a whole
piece reads so, or both cells of a tile alike with no highlight known on
them: then the gains are that far too high, and they are corrected at once
(simulated BITS 1111: a slate print taken for the light one read the first
blue tile at L* 140, and the black tile after it as grey). The correction
multiplies the white balance gains and carries the colours learnt so far
(the board's) into the new exposure, so the board still reads as the board.

>>> from calibration.palette import load_palette
>>> bits = load_palette("bits")
>>> check = ExposureCheck(bits)
>>> bright = lambda code: scale_lab(bits.lab[bits.index(code)], 2.0)  # read twice too bright
>>> check.add({(0, 0): ("B", bright("B")), (0, 1): ("B", bright("B"))}) is None
True
>>> round(check.add({(1, 0): ("P", bright("P")), (1, 1): ("R", bright("R"))}), 3)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from calibration.profile import MAX_LIGHTNESS, Profile
from vision.colour import lab_to_linear, linear_to_lab
from vision.palette import Palette
from vision.shading import luminance as linear_luminance

# Tile cells to see before judging: two BITS tiles, or one LITS piece (a
# piece is one colour: a printing whose yellow is unusually light could
# pass for an exposure error, but the next pieces would then disagree and
# put it back before the check closes).
MIN_CELLS = 4
MIN_PLACEMENTS = 1
# Cells of one BITS tile: both brighter than white, alike (within
# MAX_SPREAD), are no highlight (a spot is brighter at its centre).
TILE_CELLS = 2
# After this many tile cells the palette has learnt the tiles themselves:
# the check closes.
CLOSE_AFTER = 12
# Correct only an error of at least this factor in luminance (a quarter of
# the way to the next colour's lightness; smaller errors the palette's
# learning follows), and only when the cells agree to within this spread
# (median absolute deviation of the log ratio).
MIN_FACTOR = 1.3
MAX_SPREAD = 0.35
# No exposure is off by more than this factor either way; an error beyond
# it is believed only when this many placements agree (one piece may lie in
# a hard shadow).
MAX_FACTOR = 4.0
BEYOND_PLACEMENTS = 2
# Colours darker than this (L*) say little about exposure: a highlight or
# the sensor's black level moves them by a large factor.
MIN_LIGHTNESS = 25.0


def luminance(lab: np.ndarray) -> np.ndarray:
    """CIE Y (0..1) of CIELAB colours (..., 3)."""
    return linear_luminance(lab_to_linear(np.asarray(lab, dtype=np.float64)))


def scale_lab(lab: np.ndarray, factor: float) -> np.ndarray:
    """CIELAB colours (..., 3) as they read under ``factor`` times the light.

    >>> scale_lab(np.array([50.0, 0.0, 0.0]), 1.0).round(3).tolist()
    [50.0, 0.0, 0.0]
    """
    lin = lab_to_linear(np.asarray(lab, dtype=np.float64)) * factor
    return np.asarray(linear_to_lab(lin))


class ExposureCheck:
    """Collects the first recorded tiles' readings; says once whether the
    exposure is off, and by what factor to multiply the gains."""

    def __init__(self, nominal: Palette) -> None:
        self.nominal = nominal
        self.ratios: list[float] = []  # log(nominal Y / read Y), one per tile cell
        self.placements = 0
        self.seen = 0
        self.closed = False

    def add(
        self,
        cells: Mapping[tuple[int, int], tuple[str, Sequence[float]]],
        shining: Collection[tuple[int, int]] = (),
    ) -> float | None:
        """One recorded placement: ``cells`` maps each new cell to (its code,
        its CIELAB as read); ``shining``: cells under a known highlight (they
        say nothing of the exposure). Returns the factor to multiply the
        gains by (the readings so far are forgotten: they were under the old
        gains), or None."""
        if self.closed:
            return None
        pal = self.nominal
        ratios: list[float] = []
        bright: list[bool] = []
        for cell, (code, lab) in cells.items():
            if cell in shining:
                continue
            ks = pal.entries_for(code)
            if not ks or pal.board[ks[0]]:
                continue
            self.seen += 1
            want = pal.lab[ks[0]]
            seen = np.asarray(lab, dtype=np.float64)
            if want[0] < MIN_LIGHTNESS or not (np.all(np.isfinite(seen)) and seen[0] > 0.0):
                continue
            bright.append(bool(seen[0] > MAX_LIGHTNESS))
            ratios.append(math.log(float(luminance(want)) / float(luminance(seen))))
        if self.seen >= CLOSE_AFTER:
            self.closed = True
        # A cell read brighter than white is a highlight on it, unless a
        # whole piece of MIN_CELLS or more reads so (a LITS piece; a highlight
        # is smaller), or both halves of a tile alike: then the gains are too
        # high (a dark board taken for a light one), and they say by how much.
        whole_tile = len(bright) >= TILE_CELLS and _agree(ratios)
        glaring = bool(bright) and all(bright) and (len(bright) >= MIN_CELLS or whole_tile)
        if not glaring:
            ratios = [r for r, b in zip(ratios, bright, strict=True) if not b]
        elif len(bright) < MIN_CELLS:
            # one tile too bright to be any colour: no need to wait for more
            self.ratios.clear()
            self.placements = 0
            return _factor(float(np.median(ratios)))
        took = bool(ratios)
        self.ratios += ratios
        self.placements += took
        if len(self.ratios) < MIN_CELLS or self.placements < MIN_PLACEMENTS:
            return None
        r = np.array(self.ratios)
        middle = float(np.median(r))
        spread = float(np.median(np.abs(r - middle)))
        if abs(middle) < math.log(MIN_FACTOR) or spread > MAX_SPREAD:
            return None
        if abs(middle) > math.log(MAX_FACTOR) and self.placements < BEYOND_PLACEMENTS:
            # Beyond any exposure error on one piece alone: more likely the
            # piece lies in a hard shadow (or a lamp's core) than the whole
            # board is that far off. The next piece, elsewhere, says which
            # (simulated LITS 1023: the first L, in a shadow band across the
            # board's foot, read six times too dark; the gains were raised
            # four times and every later reading was wrong).
            return None
        self.ratios.clear()
        self.placements = 0
        return _factor(middle)


def _agree(ratios: Sequence[float]) -> bool:
    """Whether log ratios agree to within MAX_SPREAD of their median."""
    if not ratios:
        return False
    r = np.asarray(ratios, dtype=np.float64)
    return bool(np.abs(r - np.median(r)).max() <= MAX_SPREAD)


def _factor(log_ratio: float) -> float:
    """The gains' factor for a log luminance ratio, within MAX_FACTOR."""
    return float(np.clip(math.exp(log_ratio), 1 / MAX_FACTOR, MAX_FACTOR))


def re_expose(profile: Profile, factor: float) -> None:
    """Carry a profile's learnt colours into an exposure ``factor`` times
    the old one (colours still nominal stay: they never saw the old one)."""
    learnt = profile.samples > 0
    lab = profile.palette.lab.copy()
    lab[learnt] = scale_lab(lab[learnt], factor)
    profile.palette = profile.palette.with_lab(lab, profile.palette.spread)
    if profile.anchor is not None:
        known = ~np.isnan(profile.anchor[:, 0])
        profile.anchor[known] = scale_lab(profile.anchor[known], factor)
