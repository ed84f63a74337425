"""Colour constancy: undo the colour of the light, per frame, from what is grey.

Light is modelled the von Kries way: a change of illuminant (daylight to a warm
lamp) or of exposure multiplies each linear-light channel by a gain. So a
frame's cells, in linear RGB, are corrected by three gains chosen so that the
cells known to be neutral (the empty board, grey tiles, white stickers: palette
entries marked ``neutral``) come out as the palette says they are.

Which cells are neutral is itself read from colour, so :func:`balance` works in
two steps: if the starting gains (the profile's, or the last frame's) leave
cells far from every palette colour, it searches hypotheses "this cell is that
neutral colour" and keeps the one that explains the whole board best (a weak
prior keeps gains near the start, which decides between e.g. an empty board
under dim light and a board of grey tiles); then it refines the gains from all
cells read as neutral.

>>> from vision.palette import Entry, Palette
>>> from vision.colour import lab_to_linear
>>> p = Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0), neutral=True),
...     Entry("R", "red", (45.0, 60.0, 40.0)), Entry("B", "blue", (35.0, 20.0, -55.0))])
>>> warm = np.array([1.0, 0.75, 0.45])          # a warm lamp's gains on R, G, B
>>> cells = lab_to_linear(p.lab[[0, 0, 1, 2, 0]]) * warm
>>> g = balance(cells, p).gains
>>> [round(float(v), 2) for v in g * warm]      # the lamp undone
[1.0, 1.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classify import Match, clipped_channels, match, scores_linear
from vision.palette import Palette

# Prior on the gains, in natural-log units: how far exposure (all channels
# alike) and the light's colour (channels apart) plausibly move from the
# starting point. Only a tie-breaker.
EXPOSURE_PRIOR = 1.0
GAIN_PRIOR = 0.6
# The start gains are kept when the median cell is within this many spreads.
START_SPREADS = 1.5
# A refinement of the chosen gains is kept unless it explains the board
# worse by more than this many cells left unexplained (see balance).
WORSE_CELLS = 1.0
# After a search, this many hypotheses are refined on the whole board.
SEARCH_KEEP = 4
SEARCH_REFINE = 2
# Weight of a non-grey cell when refining the gains (a grey counts 1).
OTHER_WEIGHT = 0.3
# The start is searched anew when more than this share of the cells whose
# colour the game knows (and at least UNEXPECTED_MIN of them) read surely
# as another colour under it: more than a placement changes.
UNEXPECTED_SHARE = 0.25
UNEXPECTED_MIN = 3
_FLOOR = 1e-4  # linear values below this carry no colour information


@dataclass(frozen=True)
class Balance:
    """``gains`` (3,) for linear R, G, B; ``neutral_cells`` how many cells set them;
    ``searched`` whether the start was rejected and hypotheses were searched;
    ``match`` the cells matched under (nearly) these gains."""

    gains: np.ndarray
    neutral_cells: int
    searched: bool
    match: Match


def apply_gains(linear: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Linear RGB (..., 3) times per-channel gains (3,)."""
    return np.asarray(linear, dtype=np.float64) * np.asarray(gains, dtype=np.float64)


def gains_between(
    observed: np.ndarray, target: np.ndarray, weights: np.ndarray | None = None
) -> np.ndarray:
    """Gains (3,) that best map ``observed`` linear RGB (N, 3) onto ``target`` (N, 3).

    A weighted median of the per-cell log ratios, so one misread cell or a
    glare spot does not move the light.

    >>> gains_between(np.array([[0.5, 0.4, 0.2]]), np.array([[0.5, 0.5, 0.5]])).tolist()
    [1.0, 1.25, 2.5]
    """
    obs = np.maximum(np.asarray(observed, dtype=np.float64), _FLOOR)
    tgt = np.maximum(np.asarray(target, dtype=np.float64), _FLOOR)
    ratios = np.log(tgt / obs)
    w = np.ones(len(obs)) if weights is None else np.asarray(weights, dtype=np.float64)
    return np.asarray(np.exp(_weighted_medians(ratios, np.broadcast_to(w[:, None], ratios.shape))))


def _median(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.median`` along ``axis`` by one partition (np.median's checks cost
    more than the work on a board's few dozen cells, every frame).

    >>> _median(np.array([[3.0, 1.0], [2.0, 5.0], [9.0, 4.0]]), axis=0).tolist()
    [3.0, 4.0]
    >>> float(_median(np.array([4.0, 1.0, 3.0, 2.0]), axis=0))
    2.5
    """
    n = a.shape[axis]
    k = n // 2
    at = (slice(None),) * (axis % a.ndim)  # index along ``axis`` (np.take costs more)
    if n % 2:
        return np.asarray(np.partition(a, k, axis=axis)[(*at, k)])
    part = np.partition(a, [k - 1, k], axis=axis)
    return np.asarray((part[(*at, k - 1)] + part[(*at, k)]) / 2)


def least_clipped(clip: np.ndarray) -> np.ndarray:
    """The cells (N,) that may propose the light's colour, from ``clip``
    (N, 3) bool: those with the fewest clipped channels (all unclipped
    cells, when there are any); none when every channel of every cell is
    clipped. A clipped channel's gain is then the highest it could be.

    >>> least_clipped(np.array([[1, 0, 0], [1, 1, 0], [1, 0, 0]], bool)).tolist()
    [True, False, True]
    """
    count = clip.sum(axis=1)
    return np.asarray((count == count.min()) & (count.min() < clip.shape[1]))


def _weighted_medians(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted median of each column of ``values`` (N, C), weights (N, C):
    the first value, in order, by which half the column's weight is reached
    (a zero weight leaves a value out).

    >>> _weighted_medians(np.array([[1.0, 5.0], [2.0, 6.0], [3.0, 7.0]]),
    ...     np.array([[1.0, 0.0], [1.0, 1.0], [5.0, 1.0]])).tolist()
    [3.0, 6.0]
    """
    order = values.argsort(axis=0)
    cols = np.arange(values.shape[1])
    cum = weights[order, cols].cumsum(axis=0)
    i = np.minimum((cum < cum[-1] / 2).sum(axis=0), len(cum) - 1)
    return np.asarray(values[order[i, cols], cols])


def frame_cost(
    linear: np.ndarray,
    palette: Palette,
    gains: np.ndarray,
    start: np.ndarray,
    clipped: np.ndarray | None = None,
    penalty: np.ndarray | None = None,
    expected: np.ndarray | None = None,
) -> np.ndarray:
    """How badly gains explain a board: (H,) for gains (H, 3).

    Each cell costs its squared distance to the nearest palette colour, in
    units of the palette's spread, capped at ``max_distance`` (a hand or an
    unknown colour costs the same however odd it is), plus the prior on the
    gains' distance from ``start``. Lightness counts in full here (unlike
    when reading one cell): it is what tells a dim board from grey tiles.
    ``expected`` (N,): the palette index the game knows a cell holds (-1:
    not known); such a cell costs its distance to that colour instead, so
    gains that turn the known empty board into grey tiles pay for it (the
    prior alone cannot tell them apart when the start is far off).
    """
    th = palette.thresholds
    s = scores_linear(np.asarray(linear), gains[:, None, :], palette.strict, clipped)
    if penalty is not None:
        s += penalty  # s is new: added in place
    nearest = s.min(axis=-1)
    if expected is not None and (expected >= 0).any():
        known = np.take_along_axis(s, np.maximum(expected, 0)[None, :, None], axis=-1)[..., 0]
        nearest = np.where(expected >= 0, known, nearest)
    nearest = np.minimum(nearest, th.max_distance)
    cells = (nearest / th.spread) ** 2
    return np.asarray(
        cells.sum(axis=-1) + _beyond_most(s, palette) + len(linear) * gain_prior(gains, start)
    )


def _beyond_most(s: np.ndarray, palette: Palette) -> np.ndarray:
    """Cost of cells read as a colour beyond the number one board can show
    (BITS has one grey tile a player: two cells): each cell too many costs as
    a cell nothing explains. Without it, the whole of an empty ivory board
    under a dim lamp is as well explained by grey tiles as by the board.

    >>> from vision.palette import Entry
    >>> p = Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0), neutral=True),
    ...     Entry("N", "grey", (60.0, 0.0, 0.0), neutral=True, most=2)])
    >>> s = np.array([[[9.0, 1.0]] * 5, [[1.0, 9.0]] * 5])  # gains reading 5 greys, 5 boards
    >>> _beyond_most(s, p).tolist()                           # 3 greys too many: 3 * (30/6)^2
    [75.0, 0.0]
    """
    if not palette.limited:
        return np.zeros(s.shape[:-2])
    counts = (s.argmin(axis=-1)[..., None] == np.arange(len(palette))).sum(axis=-2)  # (..., K)
    return np.asarray(palette.beyond_most(counts) * palette.thresholds.unexplained)


def gain_prior(
    gains: np.ndarray, start: np.ndarray, colour_prior: float = GAIN_PRIOR
) -> np.ndarray:
    """Negative log prior of gains (..., 3) given the start: exposure and colour apart."""
    lg = np.log(np.asarray(gains) / start)
    exposure = lg.sum(axis=-1) / lg.shape[-1]  # the mean, without np.mean's checks
    colour = lg - exposure[..., None]
    return np.asarray(
        3 * exposure**2 / EXPOSURE_PRIOR**2 + (colour**2).sum(axis=-1) / colour_prior**2
    )


def balance(
    linear: np.ndarray,
    palette: Palette,
    start: np.ndarray | None = None,
    iterations: int = 3,
    clipped: np.ndarray | None = None,
    penalty: np.ndarray | None = None,
    start_scores: np.ndarray | None = None,
    expected: np.ndarray | None = None,
) -> Balance:
    """Gains that make the known-neutral cells of ``linear`` (..., 3) neutral.

    ``start``: gains to begin from (a profile's, the previous frame's); ones
    by default. A palette without neutral entries balances on all its colours.
    ``clipped`` (..., 3): clipped channels (:func:`vision.classify.clipped_channels`)
    when ``linear`` was corrected after capture; clipped cells never set gains.
    ``penalty`` (N, K): extra distance per cell and colour (:func:`vision.classify.print_penalty`).
    ``start_scores`` (..., K): the cells' scores under ``start`` already
    computed (:func:`vision.classify.scores_linear`), penalties not included.
    ``expected`` (...): the palette index of the colour the game knows each
    cell holds, -1 where it does not know (see :func:`frame_cost`); a start
    that reads many of them otherwise is searched anew.
    """
    cells = np.asarray(linear, dtype=np.float64).reshape(-1, 3)
    exp = None if expected is None else np.asarray(expected, dtype=np.int64).reshape(-1)
    clip = (clipped_channels(cells) if clipped is None else np.asarray(clipped)).reshape(-1, 3)
    fine = ~clip.any(axis=1)
    pen = None if penalty is None else np.asarray(penalty).reshape(len(cells), -1)
    g0 = np.ones(3) if start is None else np.asarray(start, dtype=np.float64)
    anchor = palette.neutral if np.count_nonzero(palette.neutral) else np.ones(len(palette), bool)
    target = palette.linear

    def read(g: np.ndarray) -> Match:
        return match(None, palette, scores_linear(cells, g, palette, clip), pen)

    def sure_neutral(m: Match) -> np.ndarray:
        # An unsure cell's index, -1, picks the last entry: masked out.
        return np.asarray((m.index >= 0) & anchor[m.index] & fine)

    def refined(g: np.ndarray, m: Match, steps: int) -> tuple[np.ndarray, Match]:
        for _ in range(steps):
            new = _refine(cells, clip, target, anchor, m)
            if new is None or bool((np.abs(new - g) <= 2e-3 * np.abs(g)).all()):
                break  # m stays valid: the gains barely moved
            g, m = new, read(new)
        return g, m

    if start_scores is None:
        m = read(g0)
    else:
        m = match(None, palette, np.asarray(start_scores).reshape(len(cells), -1), pen)
    # Keep the start when the typical cell sits within a few spreads of its
    # colour and an unclipped neutral cell is there to refine from.
    typical = float(_median(np.asarray(m.distance).ravel(), axis=0))
    neutral = sure_neutral(m)
    searched = not (
        np.count_nonzero(neutral) and typical <= START_SPREADS * palette.thresholds.spread
    )
    searched = searched or _unexpected(m, exp)
    if searched:
        # Each hypothesis comes from one cell, so it is noisy: refine the few
        # best on the whole board before choosing. The start stays in the
        # running unrefined, and no refinement that explains the board worse
        # is kept: from a board of clipped cells (a light board under a warm
        # lamp) refining may walk off to gains no light gives.
        tried = [(g0, m)] + [
            refined(h, read(h), SEARCH_REFINE)
            for h in _search(cells, palette, g0, target, anchor, clip, pen, exp)
        ]
        costs = frame_cost(cells, palette, np.array([g for g, _ in tried]), g0, clip, pen, exp)
        gains, m = tried[int(np.argmin(costs))]
        better = refined(gains, m, iterations)
        if frame_cost(cells, palette, better[0][None], g0, clip, pen, exp)[0] <= costs.min():
            gains, m = better
        return Balance(gains, int(sure_neutral(m).sum()), searched, m)
    # The classic slip: the light changed and the board now sits nearer
    # another grey (an ivory board under a dim lamp looks like a grey
    # tile). Try the greys read as each neutral colour; keep the cheapest.
    seen = _median(cells[neutral], axis=0)
    options = np.concatenate([g0[None], target[anchor] / np.maximum(seen, _FLOOR)])
    costs = frame_cost(cells, palette, options, g0, clip, pen, exp)
    gains = options[int(costs.argmin())]
    first = m
    if not (gains == g0).all():
        m = read(gains)
    # A refinement that explains the board clearly worse is not kept: under
    # a lamp that clips the light board, the few unclipped channels walked
    # the gains off (simulated BITS 2556: from a cost of 93 to 448, red at a
    # sixth of blue, and every empty cell read blue later). A small rise is
    # kept: the refinement follows the greys' medians, which the capped cost
    # judges only roughly (table 3097: 16 to 19, and the refined gains read
    # two empty cells right that the chosen ones read black); a rise of more
    # than a cell's worth is not (table 6023: 95 to 129, the whole board
    # misread; 2556 rose by fourteen cells' worth).
    better = refined(gains, m, iterations)
    worse = frame_cost(cells, palette, better[0][None], g0, clip, pen, exp)[0] - costs.min()
    if worse <= WORSE_CELLS * (palette.thresholds.max_distance / palette.thresholds.spread) ** 2:
        gains, m = better
    if m is not first:  # else the neutral cells found first still hold
        neutral = sure_neutral(m)
    return Balance(gains, int(np.count_nonzero(neutral)), searched, m)


def _unexpected(m: Match, expected: np.ndarray | None) -> bool:
    """Whether the cells ``m`` read surely contradict what the game knows
    (``expected``, see :func:`balance`) at more of them than a placement
    covers: the start gains took the board for another colour.

    >>> idx = np.array([1, 1, 1, 1, 0, 0])  # four cells read as colour 1
    >>> m = Match(None, idx, idx, np.zeros(6), np.ones(6), np.ones(6), np.zeros((6, 2)))
    >>> _unexpected(m, np.zeros(6, np.int64))  # the game knows all six as colour 0
    True
    >>> _unexpected(m, np.array([1, 1, 1, 0, 0, 0]))  # one differs: a new tile
    False
    """
    if expected is None:
        return False
    known = expected >= 0
    wrong = known & (m.index >= 0) & (m.index != expected)
    n = int(wrong.sum())
    return n >= UNEXPECTED_MIN and n > UNEXPECTED_SHARE * int(known.sum())


def _refine(
    cells: np.ndarray, clip: np.ndarray, target: np.ndarray, anchor: np.ndarray, m: Match
) -> np.ndarray | None:
    """Gains from every cell read with confidence, channel by channel.

    Greys count fully, other colours less (a printing's red is less sure
    than its grey); a clipped channel of a cell says nothing about that
    channel. ``None`` when nothing was read."""
    # The cells read with confidence, by position: three arrays are picked
    # from, and a boolean mask would be searched each time.
    sure = np.flatnonzero(m.index >= 0)
    if not len(sure):
        return None
    k = m.index[sure]
    seen = cells[sure]
    weight = np.where(anchor[k], 1.0, OTHER_WEIGHT)
    ratio = np.log(np.maximum(target[k], _FLOOR) / np.maximum(seen, _FLOOR))
    # Nor does a channel at nothing (a highlight taken off a dark tile
    # stops at zero): its ratio is the floor's, not the light's.
    ok = ~clip[sure] & (seen > _FLOOR)
    if not ok.any(axis=0).all():
        return None
    # The channels a cell says nothing about weigh nothing there.
    return np.asarray(np.exp(_weighted_medians(ratio, np.where(ok, weight[:, None], 0.0))))


def _search(
    cells: np.ndarray,
    palette: Palette,
    g0: np.ndarray,
    target: np.ndarray,
    anchor: np.ndarray,
    clip: np.ndarray,
    pen: np.ndarray | None,
    expected: np.ndarray | None = None,
) -> np.ndarray:
    """Try "cell i is colour k" for every i, k; the SEARCH_KEEP best-explaining gains.

    Unclipped cells propose, and every colour may be proposed, not only the
    greys: under a warm lamp the greys may all be clipped. When every cell
    has a clipped channel (a light board under a warm lamp clips red), the
    cells with the fewest clipped channels propose anyway: a clipped channel
    then gives only the highest gain it could have, which the cost judges
    with that channel taken as a lower bound."""
    proposers = least_clipped(clip)
    if not proposers.any():
        return g0[None, :]  # every channel of every cell clipped: only the start to try
    obs = np.maximum(cells[proposers], _FLOOR)
    hyp = (target[anchor][:, None, :] / obs[None, :, :]).reshape(-1, 3)
    if not anchor.all():
        hyp = np.vstack([hyp, (target[~anchor][:, None, :] / obs[None, :, :]).reshape(-1, 3)])
    hyp = np.vstack([g0[None, :], hyp])
    cost = frame_cost(cells, palette, hyp, g0, clip, pen, expected)
    return np.asarray(hyp[np.argsort(cost)[:SEARCH_KEEP]])
