"""Fit a palette to one photo: reading a board with no calibration at all.

"Point the camera at a finished board" must work with whatever lamp, camera
and printing there is, where colours may sit 20-50 ΔE from their nominal
values (a teal-looking green, a red that looks orange). What does not change
is the board's structure: cells of one colour look alike, and different
colours look different. So the fit is a clustering anchored on the palette:

1. group the cells into tight clusters (complete linkage, at a few spreads);
2. give every cluster a palette colour, minimising a MAP cost: cells of a
   colour scatter by ``spread`` around that colour's true value, which sits
   within ``drift`` of the nominal one (a Gaussian prior; for neutral colours
   a*, b* only within ``neutral_drift``: grey stays grey, which is what pins
   down the colour of the light). Two clusters that
   share a colour pay for their spread apart; a cluster far from its nominal
   colour pays ``distance² / (spread²/n + drift²)``, so one-to-one matches win
   whenever clusters are distinct, even when each sits far from nominal;
   and the tile colours must agree on one exposure (``EXPOSURE_SPREAD``:
   a grey tile is lighter than a black one under any lamp);
3. do this for each hypothesis of the light (start gains; "this cluster is
   that neutral colour") and keep the cheapest;
4. the fitted palette is each colour's posterior mean; colours not seen keep
   their nominal value (under the fitted light), a tile colour's lightness
   moved by the exposure the others agree on.

Distances use the palette's ΔE (L* scaled by ``lightness_weight``).

>>> from vision.palette import Entry, Palette, Thresholds
>>> from vision.colour import lab_to_linear
>>> p = Palette.from_entries("demo", [Entry("W", "white", (95.0, 0.0, 0.0), neutral=True),
...     Entry("R", "red", (40.0, 60.0, 30.0)), Entry("O", "orange", (60.0, 60.0, 70.0))],
...     Thresholds(drift=25.0))
>>> seen = np.array([[95.0, 0, 0], [75.0, 25, 45], [44.0, 62, 24]])  # orange looks salmon
>>> cells = lab_to_linear(seen[[0, 1, 2, 1, 2, 2, 0, 1]])
>>> fit = fit_palette(cells, p)
>>> "".join(np.array(p.codes)[fit.assignment].tolist())
'WORORRWO'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classify import (
    BARE_PENALTY,
    PRINT_MIN,
    SYMBOL_SHARE,
    SYMBOL_TILES,
    bounded_lab,
    clipped_channels,
    scores_linear,
)
from vision.colour import linear_to_lab
from vision.constancy import gain_prior, gains_between, least_clipped
from vision.lamps import lamps_through, tint
from vision.palette import GREYISH, STRAY, Palette

# Clusters are cut where complete linkage exceeds this many spreads.
CLUSTER_SPREADS = 2.5
# A colour's fitted spread blends the palette's spread, weighted as this many
# cells, with the scatter seen; never below this share of the palette's
# spread (a tight cluster of three cells says little about the next one).
SPREAD_PRIOR_CELLS = 4.0
SPREAD_FLOOR = 0.4
REFINE_STEPS = 3
# Anchoring colourful entries (chroma above COLOURFUL): hue may drift by
# about HUE_DRIFT radians, chroma by a factor of about exp(CHROMA_DRIFT).
COLOURFUL = 15.0
HUE_DRIFT = 0.45
CHROMA_DRIFT = 0.8
# One photo with no calibration: the light's colour may be anything from a
# candle to shade, so the prior on it is weak (log units, see gain_prior).
FIT_COLOUR_PRIOR = 2.0
# ... but it is a lamp's colour: warmer or cooler, hardly ever green or
# magenta (vision.lamps). Gains this far off the lamps' line (log units) cost
# as much as a cell one spread from its colour; real lamps stay within 0.1
# (0.27 for a 2000 K candle against 12000 K sky).
LAMP_TINT = 0.3
BOARD_SPREAD = 3.0
# Printed and bare cells are kept this far apart when clustering.
APART = 1000.0
# A cell this colourful (chroma) is a tile under any plausible light.
COLOURFUL_CELL = 25.0
# One exposure lights every tile alike: (L* + 16) scales as the cube root
# of the light on it, so log((L + 16) / (L_nominal + 16)) is one number for
# all tile colours, whatever the lamp's brightness. Colours may stray from
# it by about this much (a printing's lighter red, a veil of glare lifting
# black); a grey tile taken for black strays by about 0.9.
EXPOSURE_SPREAD = 0.15
# L* + 16 at mid-grey (L* 50): where log-lightness is as steep as L*.
MID_GREY_SLOPE = 66.0


@dataclass(frozen=True)
class Fit:
    """``gains`` (3,) for linear RGB; ``palette`` the fitted palette (same codes);
    ``assignment`` (N,) the palette entry of each cell's cluster; ``cluster`` (N,)
    cluster ids; ``cost`` the MAP cost of the chosen hypothesis."""

    gains: np.ndarray
    palette: Palette
    assignment: np.ndarray
    cluster: np.ndarray
    cost: float


def clusters(points: np.ndarray, threshold: float) -> np.ndarray:
    """Complete-linkage clusters of ``points`` (N, D): labels (N,) 0..C-1.

    Every two points of a cluster lie within ``threshold`` of each other.

    >>> clusters(np.array([[0.0], [1.0], [10.0], [11.5], [30.0]]), 3.0).tolist()
    [0, 0, 1, 1, 2]
    """
    n = len(points)
    d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    np.fill_diagonal(d, np.inf)
    label = np.arange(n)
    alive = np.ones(n, bool)
    while alive.sum() > 1:
        sub = np.where(alive[:, None] & alive[None, :], d, np.inf)
        i, j = np.unravel_index(int(np.argmin(sub)), sub.shape)
        if sub[i, j] > threshold:
            break
        i, j = min(i, j), max(i, j)
        d[i, :] = d[:, i] = np.maximum(d[i, :], d[j, :])
        d[i, i] = np.inf
        alive[j] = False
        label[label == j] = i
    _, dense = np.unique(label, return_inverse=True)
    return np.asarray(dense)


class _Assigner:
    """MAP assignment of clusters to palette entries (see the module docstring).

    ``y`` (N, K, 3): each cell's colour (scaled Lab) as each entry would
    explain it (they differ only for clipped cells, see
    :func:`vision.classify.bounded_lab`)."""

    def __init__(
        self,
        y: np.ndarray,
        cluster: np.ndarray,
        nominal: np.ndarray,
        pal: Palette,
        penalty: np.ndarray | None = None,
    ):
        c = int(cluster.max()) + 1
        k = len(pal)
        self.n = np.bincount(cluster, minlength=c).astype(np.float64)
        # Per cluster and entry: the cost of print on colours that have none.
        self.pen = np.zeros((c, k))
        if penalty is not None:
            np.add.at(self.pen, cluster, (penalty / pal.spread) ** 2)
        self.s = np.zeros((c, k, 3))
        np.add.at(self.s, cluster, y)
        self.q = np.zeros((c, k))
        np.add.at(self.q, cluster, (y**2).sum(axis=-1))
        self.nominal = nominal
        # The board's print spans the whole board, so uneven light spreads it
        # more than a tile colour: it may scatter twice as far.
        self.var = pal.spread**2 * np.where(pal.board, BOARD_SPREAD**2, 1.0)
        th = pal.thresholds
        # Per entry and axis (L, a, b): how far the true colour may sit from nominal.
        # y is in the scaled space (L* times lightness_weight): scale L's drift alike.
        self.drift2 = np.full((k, 3), th.drift**2)
        self.drift2[:, 0] *= th.lightness_weight**2
        # Grey stays grey: a black tile is no more blue under a lamp than a
        # grey one (once the light is fitted), whether or not the palette
        # asks it to set the white balance.
        self.drift2[pal.greys, 1:] = th.neutral_drift**2
        # The board's print: any lightness, a tint (cream, slate) allowed.
        self.drift2[pal.board, 0] = (th.board_drift * th.lightness_weight) ** 2
        self.drift2[pal.board, 1:] = max(th.neutral_drift, th.board_drift / 5) ** 2
        # Colourful entries are anchored by hue and (loosely) chroma instead of
        # a*, b*: a camera or a printing changes how saturated a colour looks
        # far more than which hue it is (a pale yellow is still yellow, not white).
        self.chroma0 = np.hypot(nominal[:, 1], nominal[:, 2])
        self.hue0 = np.arctan2(nominal[:, 2], nominal[:, 1])
        self.colourful = (self.chroma0 >= COLOURFUL) & ~pal.neutral & ~pal.board
        self.tile = ~pal.board
        self.lightness_weight = th.lightness_weight
        # One board shows at most ``most`` cells of some colours (BITS: one
        # grey tile a ramp, two cells); a second, dropped against the
        # rules, is what the engine must flag, so a stray tile's cells are
        # allowed too before each cell beyond costs as one nothing explains.
        self.most = pal.most + STRAY
        self.unexplained = th.unexplained

    def _stats(self, k: int, members: np.ndarray) -> tuple[float, np.ndarray, float]:
        return self.n[members].sum(), self.s[members, k].sum(axis=0), self.q[members, k].sum()

    def entry_cost(self, k: int, members: np.ndarray) -> float:
        if not members.any():
            return 0.0
        n, s, q = self._stats(k, members)
        within = q - float(s @ s) / n
        off = s / n - self.nominal[k]
        if self.colourful[k]:
            mean = s / n
            c = np.hypot(mean[1], mean[2])
            hue = np.angle(np.exp(1j * (np.arctan2(mean[2], mean[1]) - self.hue0[k])))
            # A nearly grey cluster has no meaningful hue: it is far from any
            # colourful entry by chroma alone.
            hue_weight = min(1.0, c / COLOURFUL)
            chroma = np.log((c + 5) / (self.chroma0[k] + 5))
            anchor = (
                off[0] ** 2 / (self.var[k] / n + self.drift2[k, 0])
                + hue_weight * (hue / HUE_DRIFT) ** 2
                + (1 - hue_weight) * (np.pi / 2 / HUE_DRIFT) ** 2
                + (chroma / CHROMA_DRIFT) ** 2
            )
        else:
            anchor = (off**2 / (self.var[k] / n + self.drift2[k])).sum()
        beyond = max(0.0, n - self.most[k]) * self.unexplained
        return float(within / self.var[k] + anchor + self.pen[members, k].sum() + beyond)

    def _exposure_ratios(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per tile colour used in ``a``: log((L + 16) / (L_nominal + 16)) and a weight."""
        lw = self.lightness_weight
        ratios, weights = [], []
        for k in np.flatnonzero(self.tile):
            members = a == k
            if not members.any():
                continue
            n, s, _ = self._stats(int(k), members)
            lightness = max(s[0] / n / lw, 0.0)
            ratios.append(np.log((lightness + 16.0) / (self.nominal[k, 0] / lw + 16.0)))
            weights.append(n / (n + 1.0))
        return np.array(ratios), np.array(weights)

    def exposure(self, a: np.ndarray) -> float | None:
        """The exposure the tile colours of ``a`` agree on (see EXPOSURE_SPREAD);
        None when no tile colour is used."""
        r, w = self._exposure_ratios(a)
        return None if len(r) == 0 else float((w * r).sum() / w.sum())

    def exposure_cost(self, a: np.ndarray) -> float:
        """How far the tile colours of assignment ``a`` disagree on one exposure.

        The per-colour anchor lets each colour's lightness drift on its own
        (a printing, a lamp); this ties them together: grey and black tiles
        are told apart by lightness, and only the other tiles' lightness
        says which of the two a lone grey-looking cluster is."""
        r, w = self._exposure_ratios(a)
        if len(r) < 2:
            return 0.0
        mean = float((w * r).sum() / w.sum())
        return float((w * (r - mean) ** 2).sum() / EXPOSURE_SPREAD**2)

    def total(self, a: np.ndarray) -> float:
        return sum(self.entry_cost(k, a == k) for k in range(len(self.nominal)))

    def solve(self) -> tuple[np.ndarray, float]:
        means = self.s / self.n[:, None, None]  # (C, K, 3)
        dist = np.linalg.norm(means - self.nominal[None, :, :], axis=-1)
        best_a, best_cost = None, np.inf
        for a in (dist.argmin(axis=1), _greedy_one_to_one(dist)):
            a, cost = self._descend(a.copy())
            if cost < best_cost:
                best_a, best_cost = a, cost
        assert best_a is not None
        return best_a, best_cost

    def _descend(self, a: np.ndarray) -> tuple[np.ndarray, float]:
        """Moves and swaps that lower the total cost, until none does.

        A move or a swap changes only the one or two colours involved, so
        only their costs are recomputed."""
        k_all = len(self.nominal)
        each = np.array([self.entry_cost(k, a == k) for k in range(k_all)])
        while True:
            gain = -1e-9
            change: tuple[tuple[int, int], ...] | None = None
            for c in range(len(a)):
                old = a[c]
                without = a == old
                without[c] = False
                old_after = self.entry_cost(old, without)
                for k in range(k_all):
                    if k == old:
                        continue
                    with_c = a == k
                    with_c[c] = True
                    new_k = self.entry_cost(k, with_c)
                    delta = old_after + new_k - each[old] - each[k]
                    if delta < gain:
                        gain, change = delta, ((c, k),)
                for c2 in range(c + 1, len(a)):
                    other = a[c2]
                    if other == old:
                        continue
                    m_old = a == old
                    m_old[c], m_old[c2] = False, True
                    m_other = a == other
                    m_other[c2], m_other[c] = False, True
                    delta = (
                        self.entry_cost(old, m_old)
                        + self.entry_cost(other, m_other)
                        - each[old]
                        - each[other]
                    )
                    if delta < gain:
                        gain, change = delta, ((c, int(other)), (c2, int(old)))
            if change is None:
                return a, float(each.sum())
            a = a.copy()
            for c, k in change:
                a[c] = k
            each = np.array([self.entry_cost(k, a == k) for k in range(k_all)])

    def posterior(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each entry's posterior mean (K, 3) and spread (K,); the prior where unused.

        A colour seen as a tight cluster (white stickers) gets a small spread,
        a colour that wanders (yellow under a bright lamp) a large one, so a
        cell between them goes to the one it is typical of."""
        mean_out = self.nominal.copy()
        # A tile colour not seen is expected as light as the others say the
        # exposure is (a grey tile on a dimly lit board is darker than its
        # nominal grey, and must not look nearer to black).
        ratio = self.exposure(a)
        if ratio is not None:
            lw = self.lightness_weight
            unseen = self.tile & ~np.isin(np.arange(len(mean_out)), a)
            lightness = (self.nominal[unseen, 0] / lw + 16.0) * np.exp(ratio) - 16.0
            mean_out[unseen, 0] = np.maximum(lightness, 0.0) * lw
        var_out = self.var.copy()
        for k in range(len(mean_out)):
            members = a == k
            if members.any():
                n, s, q = self._stats(k, members)
                mean = s / n
                w = n / self.var[k]
                prior = 1 / self.drift2[k]
                mean_out[k] = (w * mean + self.nominal[k] * prior) / (w + prior)
                within = q - float(s @ s) / n
                var_out[k] = (SPREAD_PRIOR_CELLS * self.var[k] + within) / (SPREAD_PRIOR_CELLS + n)
        spread = np.maximum(np.sqrt(var_out), SPREAD_FLOOR * np.sqrt(self.var))
        return mean_out, spread


def _greedy_one_to_one(dist: np.ndarray) -> np.ndarray:
    """Closest (cluster, entry) pairs first, each entry used once while any is free."""
    c_n, k_n = dist.shape
    a = np.full(c_n, -1)
    used: set[int] = set()
    for flat in np.argsort(dist, axis=None):
        c, k = divmod(int(flat), k_n)
        if a[c] < 0 and (k not in used or len(used) == k_n):
            a[c] = k
            used.add(k)
    return a


def fit_palette(
    linear: np.ndarray,
    palette: Palette,
    start: np.ndarray | None = None,
    clipped: np.ndarray | None = None,
    penalty: np.ndarray | None = None,
    printed: np.ndarray | None = None,
    lined: np.ndarray | None = None,
) -> Fit:
    """Fit ``palette`` to the cells ``linear`` (..., 3) of one photo (camera linear RGB).

    Clipped clusters (a white board under a warm lamp: a channel at full
    scale) do not propose the light's colour: their true colour is unknown.
    ``penalty`` (N, K): extra distance per cell and colour (print on a plain
    colour). ``printed`` (N,): each cell's share of print; on a board whose
    print is plain, cells with print and cells without never share a cluster
    (a black tile with its symbol is not the dark board beside it, however
    alike their colours), and when the tiles evidently carry symbols a bare
    cell is unlikely to be a grey tile. ``lined`` (N,) bool: cells showing
    the board's printed lines on two sides; they never share a cluster with
    cells that do not (a black tile on a dark print, told by its hidden
    lines, is not clustered with the print it looks like)."""
    cells = np.asarray(linear, dtype=np.float64).reshape(-1, 3)
    clip = (clipped_channels(cells) if clipped is None else np.asarray(clipped)).reshape(-1, 3)
    pen = None if penalty is None else np.asarray(penalty).reshape(len(cells), -1)
    ink = None if printed is None else np.asarray(printed, dtype=np.float64).reshape(-1)
    if ink is not None:
        bare = _bare_tiles(cells, ink, palette)
        if bare is not None:
            pen = bare if pen is None else pen + bare
    th = palette.thresholds
    scale = np.array([th.lightness_weight, 1.0, 1.0])
    g0 = np.ones(3) if start is None else np.asarray(start, dtype=np.float64)
    nominal_lin = palette.linear
    nominal = palette.lab * scale

    features = linear_to_lab(cells * g0) * scale
    # Clusters are cut on lightness in log(L* + 16) (see EXPOSURE_SPREAD),
    # as steep as the palette's L* weight at mid-grey: a dim exposure
    # squeezes black and grey tiles together in L*, not in this.
    lightness = np.maximum(features[:, 0] / th.lightness_weight, 0.0)
    features[:, 0] = MID_GREY_SLOPE * th.lightness_weight * np.log(lightness + 16.0)
    # Where the board itself never carries print (BITS), printed and bare
    # cells are different things; where it does (LITS X/O), they are not.
    if ink is not None and palette.board.any() and palette.plain[palette.board].all():
        features = np.hstack([features, (ink >= PRINT_MIN)[:, None] * APART])
    if lined is not None:
        features = np.hstack([features, np.asarray(lined).reshape(-1, 1) * APART])
    cluster = clusters(features, CLUSTER_SPREADS * th.spread)
    n_c = int(cluster.max()) + 1
    # Each cluster proposes the light from its unclipped cells (a highlight
    # or a warm lamp clips part of the board; the rest still knows the light).
    # When every cell has a clipped channel (a light board under a warm lamp
    # clips red), the least clipped propose: the clipped channel's gain is
    # then the highest it could be, and the cost takes it as a lower bound.
    whole = least_clipped(clip)
    # Any grey may propose the light's colour, not only those marked neutral:
    # under a warm lamp the board and the grey tiles may all be clipped, and
    # a black tile is still black.
    greys = palette.greys
    anchor = np.flatnonzero(greys) if greys.any() else range(len(palette))
    hypotheses = [g0] + [
        gains_between(cells[(cluster == c) & whole].mean(axis=0)[None], nominal_lin[k : k + 1])
        for c in range(n_c)
        if ((cluster == c) & whole).any()
        for k in anchor
    ]
    # A grey with a clipped channel (an ivory board under a warm lamp clips
    # red) still proposes the light: the lamp its other two channels name.
    for c in range(n_c):
        members = cluster == c
        known = ~clip[members].any(axis=0)
        if known.all() or not members.any():
            continue
        mean = np.maximum(cells[members].mean(axis=0), 1e-6)
        for k in anchor:
            lamps = lamps_through(np.log(nominal_lin[k] / mean / g0), known)
            hypotheses += [g0 * lamp for lamp in lamps]

    # Every colour's cost is at least zero, so a light's own prior is a
    # floor under its whole cost: lights are tried from the likeliest, and
    # none whose prior alone costs more than the best fit so far is solved.
    priors = [
        float(gain_prior(g, g0, FIT_COLOUR_PRIOR)) + float(tint(np.log(g / g0)) / LAMP_TINT) ** 2
        for g in hypotheses
    ]
    # What a cluster's clustered cells say it is: clusters are cost on these.
    told, told_clip = _told_by_cluster(cells, clip, cluster)
    best: tuple[float, np.ndarray, np.ndarray, _Assigner] | None = None
    for i in sorted(range(len(hypotheses)), key=lambda j: priors[j]):
        if best is not None and priors[i] >= best[0]:
            break
        g = hypotheses[i]
        y = bounded_lab(told, g, palette, told_clip) * scale
        assigner = _Assigner(y, cluster, nominal, palette, pen)
        a, cost = assigner.solve()
        cost += priors[i] + assigner.exposure_cost(a)
        if best is None or cost < best[0]:
            best = (cost, g, a, assigner)
    assert best is not None
    cost, gains, a, assigner = best
    mean, spread = assigner.posterior(a)
    fitted = palette.with_lab(mean / scale, spread)
    assignment = a[cluster]
    # Clusters were cut by a fixed rule; now let single cells move to the
    # colour they are most typical of, and re-estimate (hard EM).
    y = bounded_lab(cells, gains, palette, clip) * scale
    per_cell = _Assigner(y, np.arange(len(cells)), nominal, palette, pen)
    for _ in range(REFINE_STEPS):
        moved = scores_linear(cells, gains, fitted, clip)
        if pen is not None:
            moved = moved + pen
        moved = moved.argmin(axis=-1)
        if np.array_equal(moved, assignment):
            break
        assignment = moved
        mean, spread = per_cell.posterior(assignment)
        fitted = palette.with_lab(mean / scale, spread)
    keep = seen_variants(palette, assignment)
    return Fit(gains, fitted.only(keep), assignment, cluster, cost)


def _told_by_cluster(
    cells: np.ndarray, clip: np.ndarray, cluster: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Cells (N, 3) and clipped channels (N, 3) with each clipped channel
    told by its cluster: where some of a cluster's cells measured a channel,
    one that only bounds it (a highlight's spot taken off a glossy tile)
    takes the larger of its bound and their mean, as measured.

    Left a lower bound, such a channel would be explained by each palette
    colour as that colour's own value (:func:`vision.classify.bounded_lab`),
    so the cluster would look tight around whichever colour lies above the
    bound, not around what its other cells show: a blue cluster one
    highlight touched, dimmer than nominal, read tighter as purple (simulated
    table 4078). Clusters with no measured cell keep their bounds.

    >>> cells = np.array([[0.2, 0.3, 0.5], [0.2, 0.3, 0.4], [1.0, 1.0, 1.0]])
    >>> clip = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 1]], bool)
    >>> told, still = _told_by_cluster(cells, clip, np.array([0, 0, 1]))
    >>> told[1].tolist(), still.astype(int).tolist()
    ([0.2, 0.3, 0.5], [[0, 0, 0], [0, 0, 0], [1, 1, 1]])
    """
    told, still = cells.copy(), clip.copy()
    for c in np.unique(cluster):
        members = cluster == c
        for ch in range(3):
            known = members & ~clip[:, ch]
            bound = members & clip[:, ch]
            if known.any() and bound.any():
                told[bound, ch] = np.maximum(cells[bound, ch], cells[known, ch].mean())
                still[bound, ch] = False
    return told, still


def _bare_tiles(cells: np.ndarray, ink: np.ndarray, palette: Palette) -> np.ndarray | None:
    """Extra distance (N, K) on grey tile colours for bare cells, when the
    clearly colourful cells (tiles, whatever the light) mostly show print."""
    if not palette.plain.any():
        return None
    lab = linear_to_lab(cells)
    colourful = np.hypot(lab[:, 1], lab[:, 2]) > COLOURFUL_CELL
    if colourful.sum() < SYMBOL_TILES or (ink[colourful] >= PRINT_MIN).mean() < SYMBOL_SHARE:
        return None
    chroma = np.hypot(palette.lab[:, 1], palette.lab[:, 2])
    has_symbols = np.array([bool(s) for s in palette.symbols])
    grey_tiles = (chroma < GREYISH) & ~palette.plain & ~palette.board & ~has_symbols
    bare = np.clip((PRINT_MIN - ink) / (PRINT_MIN / 2), 0.0, 1.0)
    return np.asarray(bare[:, None] * BARE_PENALTY * grey_tiles)


def seen_variants(palette: Palette, assignment: np.ndarray) -> np.ndarray:
    """(K,) bool: entries to keep after seeing cells assigned to ``assignment``.

    Where a code has several variants (a dark and an ivory board print) and
    at least one was seen, the unseen ones go: they would only attract cells
    of other colours. Codes not seen at all keep every variant."""
    used = np.zeros(len(palette), bool)
    used[np.unique(assignment)] = True
    ids = palette.code_ids
    code_seen = np.array([used[ids == i].any() for i in ids])
    return np.asarray(used | ~code_seen)
