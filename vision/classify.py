"""Classify cell colours against a palette, with a confidence and a margin.

Distances are CIELAB ΔE with L* down-weighted (shading on a board mostly
changes lightness), divided by each colour's spread relative to the
palette's default spread, so a colour that is known to wander (learnt from
samples) is judged by its own scatter. A cell reads ``?`` when

- the best colour is farther than ``max_distance`` (nothing fits: a hand, a
  shadow, a tile of a colour this palette does not know), or
- the second best is within ``min_margin`` of the best (a coin toss).

``confidence`` is the posterior probability of the best colour under a
Gaussian model of spread ``spread``, scaled down linearly over the second half
of ``max_distance`` so that far-fetched matches are not reported as sure.

>>> from vision.palette import Entry, Palette
>>> p = Palette.from_entries("demo", [
...     Entry(".", "board", (90.0, 0.0, 0.0)), Entry("R", "red", (45.0, 60.0, 40.0)),
...     Entry("O", "orange", (60.0, 50.0, 65.0))])
>>> m = match(np.array([[46.0, 58.0, 41.0], [52.0, 55.0, 52.0], [20.0, -40.0, -40.0]]), p)
>>> m.codes().tolist(), m.confidence.round(2).tolist()
(['R', '?', '?'], [1.0, 0.6, 0.0])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour import lab_distance, linear_to_lab
from vision.lines import Lines
from vision.palette import Palette

# Print on a cell (share of its patch) rules out colours marked plain: no
# penalty below PRINT_MIN, the full PRINT_PENALTY (ΔE) from PRINT_FULL up.
PRINT_MIN = 0.06
PRINT_FULL = 0.15
PRINT_PENALTY = 25.0
# Tiles "carry symbols" when at least SYMBOL_TILES colourful tiles are read
# and SYMBOL_SHARE of them show print.
SYMBOL_TILES = 3
SYMBOL_SHARE = 0.6
BARE_NEAR = 12.0  # ΔE within which a tile colour can pass for the board print
# A bare cell on a board whose tiles carry symbols, read as a tile that can
# pass for the board: a gentler penalty (a starting tile has no symbol).
BARE_PENALTY = 10.0
# Printed grid lines (vision.lines), in units of the board's typical line:
# a cell whose clearest side shows less than LINES_NONE[0] (fully below
# LINES_NONE[1]) is covered, so not the board; one whose second clearest
# shows more than LINES_TWO[0] (fully above LINES_TWO[1]) is the board.
LINES_NONE = (0.35, 0.1)
LINES_TWO = (0.35, 0.7)
LINE_PENALTY = 18.0
# On the board's entries of a cell on a seam (vision.lines.find_seams).
SEAM_PENALTY = 36.0
# Share of it for "no line" on a cell walled in by tiles, which hides an
# empty hole's lines as well as a tile's.
WALLED_SHARE = 0.5
# Colour alone settles board or tile for a cell that sits in its colour's
# group (GROUP_MIN cells or more), within TYPICAL robust spreads (median
# absolute deviation, at least GROUP_SPREAD_FLOOR score units) of the
# group's median distance, with the other side SEPARATE spreads beyond it
# (see settled_by_colour). Two cells are enough: a tile is a domino, and a
# lone double (the starting tile, black on a board with no other black) is
# a group of its own.
GROUP_MIN = 2
GROUP_SPREAD_FLOOR = 0.5
TYPICAL = 3.0
SEPARATE = 8.0
# The margin a sure cell needs: this many times its distance to the best,
# at least MIN_MARGIN_FLOOR, at most the palette's min_margin.
MARGIN_PER_DISTANCE = 1.5
MIN_MARGIN_FLOOR = 2.0
# A cell with a channel this close to full scale (sRGB 250 of 255) is
# clipped: the sensor lost how bright it really was.
CLIPPED = 0.955
# A cell darker than this CIELAB lightness is at the sensor's black: every
# colour dark enough under that light reads the same (0, 0, 0), so the
# number says "dark", not which colour (simulated BITS 1403: a red double
# and a purple one in the ramp's dark corner both read exactly black).
SENSOR_BLACK_L = 1.0


@dataclass(frozen=True)
class Match:
    """Per-cell result over any leading shape ``S`` (e.g. (rows, cols)).

    ``index`` (S) int: best palette entry, -1 where unsure; ``best`` (S) int:
    best entry even when unsure; ``distance`` (S) ΔE-equivalent to the best;
    ``margin`` (S) second-best minus best; ``confidence`` (S) 0..1;
    ``scores`` (S, K) every entry's ΔE-equivalent distance.
    """

    palette: Palette
    index: np.ndarray
    best: np.ndarray
    distance: np.ndarray
    margin: np.ndarray
    confidence: np.ndarray
    scores: np.ndarray

    def reshaped(self, shape: tuple[int, ...]) -> Match:
        """The same match over cells arranged as ``shape`` (e.g. (rows, cols))."""
        return Match(
            self.palette,
            self.index.reshape(shape),
            self.best.reshape(shape),
            self.distance.reshape(shape),
            self.margin.reshape(shape),
            self.confidence.reshape(shape),
            self.scores.reshape(*shape, -1),
        )

    def codes(self) -> np.ndarray:
        """Cell codes (S) as one-character strings, ``?`` where unsure."""
        lookup = np.array([*self.palette.codes, "?"])
        return np.asarray(lookup[self.index])  # -1 picks the trailing '?'


def scores(lab: np.ndarray, palette: Palette) -> np.ndarray:
    """ΔE-equivalent distance of every colour (S, 3) to every entry: (S, K)."""
    d = lab_distance(np.asarray(lab)[..., None, :], palette.lab, palette.lightness_weights)
    return np.asarray(d * palette.score_scale)


def clipped_channels(linear: np.ndarray) -> np.ndarray:
    """(S, 3) bool: channels at the clipping level, from *camera* linear RGB.

    Take it before any correction (a brightness field, gains) moves values."""
    return np.asarray(linear) >= CLIPPED


def bounded_lab(
    linear: np.ndarray, gains: np.ndarray, palette: Palette, clipped: np.ndarray | None = None
) -> np.ndarray:
    """Each cell's CIELAB as each palette entry would explain it: (..., S, K, 3).

    ``linear`` (S, 3) camera linear RGB, ``gains`` (3,) or broadcastable to
    (S, 3) (e.g. (H, 1, 3) for H hypotheses). A clipped channel only says "at
    least this bright", so against each entry it takes whichever is larger,
    the observed value or what that entry would have shown: a white board
    under a warm lamp (red clipped) still matches white, not cyan, while a
    pale yellow sticker (blue not clipped) still does not. ``clipped`` (S, 3):
    which channels were clipped (:func:`clipped_channels`); by default read
    off ``linear`` itself.
    """
    obs = np.asarray(linear, dtype=np.float64)
    g = np.asarray(gains, dtype=np.float64)
    if clipped is None:
        clipped = clipped_channels(obs)
    if not np.count_nonzero(clipped):  # (cheaper than .any(), every frame)
        lab = linear_to_lab(obs * g)
        return np.broadcast_to(lab[..., None, :], (*lab.shape[:-1], len(palette), 3))
    shown = palette.linear / g[..., None, :]  # (..., K, 3) what each would show
    x = np.where(clipped[..., None, :], np.maximum(obs[..., None, :], shown), obs[..., None, :])
    return linear_to_lab(x * g[..., None, :])


def scores_bounded(lab_k: np.ndarray, palette: Palette) -> np.ndarray:
    """Scores (..., K) from :func:`bounded_lab` colours (..., K, 3)."""
    d = lab_distance(lab_k, palette.lab, palette.lightness_weights)
    return np.asarray(d * palette.score_scale)


def scores_linear(
    linear: np.ndarray, gains: np.ndarray, palette: Palette, clipped: np.ndarray | None = None
) -> np.ndarray:
    """Like :func:`scores`, from camera linear RGB and white balance (see :func:`bounded_lab`)."""
    return scores_bounded(bounded_lab(linear, gains, palette, clipped), palette)


def print_cost(printed: np.ndarray) -> np.ndarray:
    """What showing print (share ``printed``, any shape) costs a reading
    that says the cell carries none (ΔE-equivalent): nothing below
    PRINT_MIN, PRINT_PENALTY from PRINT_FULL up."""
    return np.asarray(_ramp(printed, PRINT_MIN, PRINT_FULL) * PRINT_PENALTY)


def print_penalty(printed: np.ndarray | None, palette: Palette) -> np.ndarray | None:
    """Extra distance (S, K) for cells showing print (share ``printed`` (S,)) on
    colours that never carry print (``plain``); ``None`` when nothing applies."""
    if printed is None or not np.count_nonzero(palette.plain):
        return None
    return np.asarray(print_cost(printed)[..., None] * palette.plain)


def line_penalty(lines: Lines | None, palette: Palette, seams: bool = True) -> np.ndarray | None:
    """Extra distance (S, K) from the printed lines each cell shows: on the
    board's entries for cells with no line on any side or on a seam (see
    :func:`vision.lines.find_seams`), on every other entry for cells with lines
    on two sides (``seams``: count the seams). ``None`` when the palette has no
    board entry or the board shows no lines."""
    seam = seams and lines is not None and lines.seam is not None and lines.seam.any()
    if lines is None or not palette.board.any() or not (np.any(lines.most) or seam):
        return None
    if np.any(lines.most):
        covered = _ramp(lines.most, *LINES_NONE)
        if lines.walled is not None:
            covered = np.where(lines.walled, WALLED_SHARE * covered, covered)
        bare = _ramp(lines.second, *LINES_TWO)
    else:  # no line to scale by (a seam is judged against its own sides)
        covered = bare = np.zeros(lines.most.shape)
    covered = LINE_PENALTY * covered
    if seam and lines.seam is not None:
        # one half of a double: no line between it and its other half, where
        # two empty cells always show one (stronger than a cell's own sides)
        covered = np.where(lines.seam, SEAM_PENALTY, covered)
    board = palette.board.astype(np.float64)
    return np.asarray(covered[..., None] * board + LINE_PENALTY * bare[..., None] * (1.0 - board))


def settled_by_colour(scores: np.ndarray, palette: Palette) -> np.ndarray:
    """(S,) bool: cells whose colour alone says board or tile, beyond doubt.

    ``scores`` (S, K): colour distances only. Cells are grouped by their
    nearest colour; a cell counts when it sits as near that colour as its
    group does (within TYPICAL robust spreads of the group's median) and
    the nearest colour across the board/tile divide lies SEPARATE robust
    spreads beyond that median. Printed lines judge the rest: on a dark
    print a black tile beside empty cells shows their line along its sides
    as an empty cell does (simulated BITS 4183: five black tiles, read 1.0
    from black and 5.5 from the print, as tight as the print's own cells,
    two taken for the print by their lines).

    >>> from vision.palette import Entry, Palette
    >>> p = Palette.from_entries("demo", [Entry(".", "board", (20.0, 0.0, -5.0), board=True),
    ...     Entry("K", "black", (13.0, 1.0, -5.0))])
    >>> s = np.array([[0.9, 9.0], [1.0, 8.8], [0.8, 9.1], [5.5, 1.0], [5.6, 1.1],
    ...     [5.5, 1.2], [3.0, 3.2]])
    >>> settled_by_colour(s, p).astype(int).tolist()
    [1, 1, 1, 1, 1, 1, 0]
    """
    scores = np.asarray(scores, dtype=np.float64)
    out = np.zeros(len(scores), bool)
    if not palette.board.any() or palette.board.all():
        return out
    best = scores.argmin(axis=-1)
    board_side = scores[:, palette.board].min(axis=-1)
    tile_side = scores[:, ~palette.board].min(axis=-1)
    for k in np.unique(best):
        members = best == k
        if members.sum() < GROUP_MIN:
            continue
        own = scores[members, k]
        middle = float(np.median(own))
        spread = max(float(np.median(np.abs(own - middle))), GROUP_SPREAD_FLOOR)
        across = tile_side[members] if palette.board[k] else board_side[members]
        out[members] = (own <= middle + TYPICAL * spread) & (across >= middle + SEPARATE * spread)
    return out


def _clip(x: np.ndarray, low: float, high: float) -> np.ndarray:
    """``np.clip`` of a float array, the same numbers for a third of the
    time (np.clip's checks cost more than the work on a board's cells)."""
    return np.asarray(np.minimum(np.maximum(x, low), high))


def _ramp(x: np.ndarray, start: float, full: float) -> np.ndarray:
    """0 at ``start``, 1 at ``full`` (either direction), clipped."""
    return _clip((np.asarray(x) - start) / (full - start), 0.0, 1.0)


def bare_penalty(
    printed: np.ndarray, first: Match, colour: np.ndarray | None = None
) -> np.ndarray | None:
    """Extra distance (S, K) for bare cells on tile colours, when this board's
    tiles evidently carry symbols (most tiles read with confidence show print).

    Then a cell without print is the board, not a tile of the board's colour
    (a black tile on a dark board). ``None`` when the tiles show no symbols.
    ``colour`` (S, K): the cells' colour distances alone (default
    ``first.scores``).
    """
    pal = first.palette
    k = first.index
    sure_tiles = (k >= 0) & pal.tiles[k]  # k -1 (unsure) picks the last entry, masked out
    tiles = np.count_nonzero(sure_tiles)
    if tiles < SYMBOL_TILES or not np.count_nonzero(pal.plain):
        return None
    if np.count_nonzero(np.asarray(printed)[sure_tiles] >= PRINT_MIN) / tiles < SYMBOL_SHARE:
        return None
    bare = _clip((PRINT_MIN - np.asarray(printed)) / (PRINT_MIN / 2), 0.0, 1.0)
    # Only tiles that can pass for the board by colour (a black tile on a
    # dark print) are affected; a bare yellow cell is a yellow tile without a
    # symbol (BITS's starting tiles), a bare grey one on an ivory board is grey.
    if not np.count_nonzero(pal.board):
        return None
    # Judged cell by cell: a tile this cell's colour fits about as well as
    # the board's (not by the palette's entries: a palette fitted under a
    # lamp's glare may set the two apart while the cells cannot tell them
    # apart).
    d = first.scores if colour is None else colour
    near = np.abs(d[..., pal.board].min(axis=-1)[..., None] - d) < BARE_NEAR
    carriers = near & pal.tiles
    penalty = bare[..., None] * BARE_PENALTY * carriers
    if not np.count_nonzero(penalty):
        return None  # no bare cell could pass for a tile: nothing to read again
    return np.asarray(penalty)


def match(
    lab: np.ndarray | None,
    palette: Palette,
    precomputed: np.ndarray | None = None,
    penalty: np.ndarray | None = None,
) -> Match:
    """Best palette entry for every colour in ``lab`` (S, 3) with ``?`` rules applied.

    ``precomputed``: the (S, K) scores, when already known (:func:`scores_linear`);
    ``penalty`` (S, K): added to them (:func:`print_penalty`)."""
    th = palette.thresholds
    if precomputed is None:
        if lab is None:
            raise ValueError("match needs colours or precomputed scores")
        s = scores(lab, palette)
    else:
        s = precomputed
    if penalty is not None:
        s = s + penalty
    best = s.argmin(axis=-1)
    d1 = s.min(axis=-1)  # the best's distance
    # The runner-up is the best entry of another code: variants of one code
    # (two board prints) never make a cell unsure.
    rival = np.where(palette.rivals[best], s, np.inf)
    d2 = rival.min(axis=-1)
    margin = d2 - d1
    # Posterior of the best code under equal priors and Gaussian scatter.
    w = np.exp(-(s**2 - d1[..., None] ** 2) / (2 * th.spread**2))
    posterior = 1.0 - np.where(np.isfinite(rival), w, 0.0).sum(axis=-1) / w.sum(axis=-1)
    half = th.max_distance / 2
    fit = _clip((th.max_distance - d1) / max(half, 1e-6), 0.0, 1.0)
    confidence = posterior * fit
    # A cell that sits right on its colour may be closer to a rival than
    # min_margin and still be sure: the margin needed grows with the
    # distance to the best, up to min_margin (a black tile on a dark board).
    needed = _clip(MARGIN_PER_DISTANCE * d1, MIN_MARGIN_FLOOR, th.min_margin)
    unsure = (d1 > th.max_distance) | (margin < needed)
    index = np.where(unsure, -1, best)
    return Match(palette, index, best, d1, margin, confidence, s)
