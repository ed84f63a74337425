"""A lamp's highlight on the board: found from how it shades across cells, taken off.

Glossy tiles and laminated print reflect the lamp itself: a bright, soft
spot added on top of whatever lies there, in every channel, strongest at
its centre and fading outwards. Inside one cell a highlight cannot be told
from a lighter tile (both are "brighter than expected"), and cells read
under it come out paler: red turns pink, black turns grey, and a board
fitted to those colours goes wrong everywhere.

But every cell is one flat colour, so whatever varies *inside* a cell is
the highlight (or the print on it). A highlight's shape is smooth and
centred somewhere: fitting one round spot (a centre, a width, an amplitude
per channel) to the within-cell variation of every cell at once finds it
from its slopes across many cells; the fitted spot is then subtracted from
the whole board, including the part of it that lies evenly over a cell,
which no per-cell statistic could remove.

A spot is only taken off when it explains a clear share of the variation
inside cells, adds light in every channel (in the lamp's colour, and no
more than the camera sees at its centre), and is bright enough to matter:
a board without a highlight is left exactly as it was.

>>> board = np.full((120, 120, 3), 40.0)                      # a dark 3x3 board, 40 px cells
>>> y, x = np.mgrid[0:120, 0:120]
>>> spot = 120 * np.exp(-((x - 95) ** 2 + (y - 20) ** 2) / (2 * 30.0**2))
>>> shiny = np.clip(board + spot[..., None], 0, 255).astype(np.uint8)
>>> h = find_highlight(shiny, 3, 3)
>>> h is not None and abs(h.x - 95 / 40) < 0.3 and abs(h.y - 20 / 40) < 0.3
True
>>> clean = remove_highlight(shiny, h, 3, 3)
>>> int(np.abs(clean.astype(int) - 40).max()) < 15
True
>>> find_highlight(board.astype(np.uint8), 3, 3) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

# Samples per cell side used for the search (a coarse lattice is enough to
# see a smooth spot's slope, and keeps the search to milliseconds).
SAMPLES = 6
# Print sits within this distance of a cell's centre (as vision.cells).
MIDDLE = 0.26
# Where the spot's centre may be, in cells from the board's edge (a lamp
# just off the board still shines on its edge), on a half-cell lattice,
# then refined. Farther out, a wide spot is only a slope across the board,
# which a lamp's falloff makes too (the shading field's business).
MARGIN = 0.5
STEP = 0.5
# Spot radii tried (Gaussian sigma, in cells): from a sharp glint on one
# tile to a sheen over half the board.
SIGMAS = (0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8)
# Taken off only when the spot explains at least this share of the
# variation inside cells and its peak adds at least MIN_PEAK levels (of
# 255) in every channel.
MIN_SHARE = 0.3
MIN_PEAK = 12.0
MAX_PEAK = 300.0
# A lamp's core clips the sensor, so the spot fitted around it may add more
# than full scale at its centre (a lamp just off the board's edge, BITS
# tracking 659: the tiles beside it washed pale, every drop there missed).
# That is believed only from a spot that explains most of what varies
# inside cells; a slope read as a spot explains little.
CLEAR_SHARE = 0.5
MAX_CLEAR_PEAK = 450.0
# A sample the fitted spot leaves this many robust spreads off is a grid
# line bent into the cell by the lens, left out of a second look.
LINE_SPREADS = 4.0
# Leaving samples out makes any spot explain more of what is left, so the
# second look must explain this much (a clear spot: the lamp's core in 652
# explains 0.8; spurious glints on glare-free tables half).
SECOND_SHARE = 0.6
# ... or from one whose centre the sensor clipped: the pixels within this
# many cells of it (LITS 5041: the core white on a dark board, the spot's
# fitted peak 394 levels).
CORE = 0.25
# A spot draws a slope across the cells on its flanks (where it still adds
# this share of its peak); it must not leave one with three times what
# varied there: that cell is flat, and the spot is no highlight.
REACH = 0.25
SLOPE_WORSE = 3.0
# A spot must add at least this share of its brightest channel's light in
# every channel that had room for it (see _not_the_lamps_colour).
LAMPS_COLOUR = 0.25
# Light is added: what the camera sees at a spot's centre is at least what
# the spot adds there. A fitted spot may overshoot a flat-topped lamp's disc,
# and the core is a median over CORE cells, so at least this share of it
# (of full scale, where it would add more) must be seen (see _more_than_seen).
SEEN_AT_CORE = 0.5
# When no highlight is found and fewer than this share of the cells show a
# sample unclipped in all three channels, it is looked for again in the
# least clipped channel alone (see _one_channel), and believed only of a
# spot that explains at least CLEAR_SHARE.
SEEN_SHARE = 0.5
# A spot is fitted in three channels only to at least this many samples
# free to vary inside their cells (a cell's samples less one, summed): twice
# the spot's six numbers. Fewer, it is looked for in one channel.
FREEDOM = 12
# A spot centred more than MARGIN off the board is weighed against one
# this many cells farther out (see _a_slope_off_the_board).
OUTWARD = 0.5
# Hypotheses weighed at once (memory: CHUNK x cells x samples floats).
CHUNK = 128
# Samples this bright in any channel are clipped: what they say of the
# spot is a lower bound, so they stay out of the fit.
CLIPPED = 250


@dataclass(frozen=True)
class Highlight:
    """A round spot centred at ``x``, ``y`` (in cells, x along columns from
    the board's left edge): a sum of Gaussians, ``sigmas`` (in cells) with
    ``peaks`` (n, 3) levels each adds at the centre per BGR channel (a
    sharp glint on a broad sheen); ``share`` of the variation inside cells
    it explains."""

    x: float
    y: float
    sigmas: tuple[float, ...]
    peaks: np.ndarray
    share: float
    # the spot drawn at a board image's size, kept: the tracker takes the
    # same highlight off every still frame
    _drawn: dict[tuple[int, int, int, int], np.ndarray] = field(
        default_factory=dict, compare=False, repr=False
    )

    def drawn(self, h: int, w: int, rows: int, cols: int) -> np.ndarray:
        """The levels added over a rectified board image ``h`` x ``w``: (h, w, 3)."""
        key = (h, w, rows, cols)
        if key not in self._drawn:
            ys = (np.arange(h) + 0.5) * rows / h
            xs = (np.arange(w) + 0.5) * cols / w
            self._drawn[key] = self.at(ys[:, None], xs[None, :]).astype(np.float32)
        return self._drawn[key]

    def alone(self) -> list[Highlight]:
        """Each width of a glint on a sheen alone (none for a one-width spot).

        The fit sees only what varies inside cells, so a broad width's slope
        across a cell is small and its level poorly held: a shadow's slope
        or a lamp's falloff can be read into it, and taking that level off
        everywhere darkens the whole board (simulated BITS 13394: a sheen
        2.8 cells wide adding 63 levels read a dark print as black tiles)."""
        if len(self.sigmas) < 2:
            return []
        return [
            Highlight(self.x, self.y, (sigma,), self.peaks[i : i + 1], self.share)
            for i, sigma in enumerate(self.sigmas)
        ]

    def lies_on(self, rows: int, cols: int) -> np.ndarray:
        """(rows, cols) bool: the cells whose centre it adds MIN_PEAK levels
        to or more, in some channel."""
        ys, xs = np.mgrid[0:rows, 0:cols] + 0.5
        return np.asarray(self.at(ys, xs).max(axis=-1) >= MIN_PEAK)

    def at(self, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """Levels added at positions (in cells): shape of ``ys`` + (3,)."""
        d2 = (np.asarray(ys) - self.y) ** 2 + (np.asarray(xs) - self.x) ** 2
        out = np.zeros((*np.shape(d2), 3))
        for sigma, peak in zip(self.sigmas, self.peaks, strict=True):
            out += np.exp(-d2 / (2 * sigma**2))[..., None] * peak
        return out


@cache
def _lattice(rows: int, cols: int, samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample positions in cells (y, x), each (rows, cols, M), on a ring in
    each cell: inside its inner 70% (edges and grid lines stay out) but
    outside the middle, where a tile's symbol or a LITS X / O is printed."""
    frac = 0.15 + (np.arange(samples) + 0.5) / samples * 0.7
    fy, fx = np.meshgrid(frac, frac, indexing="ij")
    ring = np.maximum(np.abs(fy - 0.5), np.abs(fx - 0.5)) >= MIDDLE
    fy, fx = fy[ring], fx[ring]
    ys = np.arange(rows)[:, None, None] + fy[None, None, :]
    xs = np.arange(cols)[None, :, None] + fx[None, None, :]
    return (
        np.broadcast_to(ys, (rows, cols, len(fy))).copy(),
        np.broadcast_to(xs, (rows, cols, len(fx))).copy(),
    )


def _samples(board: np.ndarray, rows: int, cols: int, samples: int) -> np.ndarray:
    """BGR values at the lattice: (rows, cols, samples**2, 3) float64."""
    h, w = board.shape[:2]
    ys, xs = _lattice(rows, cols, samples)
    py = np.minimum((ys * h / rows).astype(np.intp), h - 1)
    px = np.minimum((xs * w / cols).astype(np.intp), w - 1)
    return np.asarray(board[py, px], dtype=np.float64)


def _best(
    v: np.ndarray,
    usable: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    centres: np.ndarray,
    sigmas: np.ndarray,
) -> tuple[int, np.ndarray, float]:
    """Every (centre, sigma) hypothesis against the within-cell variation,
    CHUNK at a time (a few MiB, not tens).

    ``v`` (C, S, 3) the samples centred per cell (:func:`_centred`),
    ``usable`` (C, S) weights (0 for clipped), ``ys``/``xs`` (C, S)
    positions; ``centres`` (H, 2) (y, x), ``sigmas`` (H,). Returns the best
    hypothesis's index, its amplitude (3,) and the sum of squares it explains."""
    best, amp, gain = 0, np.zeros(3), -1.0
    for start in range(0, len(centres), CHUNK):
        c, s = centres[start : start + CHUNK], sigmas[start : start + CHUNK]
        d2 = (ys[..., None] - c[:, 0]) ** 2 + (xs[..., None] - c[:, 1]) ** 2  # (C, S, H)
        phi = _centred(np.exp(-d2 / (2 * s**2)), usable)
        num = np.einsum("csh,csk->hk", phi, v)  # (H, 3)
        den = np.maximum((phi**2).sum(axis=(0, 1)), 1e-12)  # (H,)
        a = num / den[:, None]
        # Only light added in every channel counts as a highlight.
        explained = np.where((a > 0).all(axis=1), (num**2 / den[:, None]).sum(axis=1), 0.0)
        i = int(np.argmax(explained))
        if explained[i] > gain:
            best, amp, gain = start + i, a[i], float(explained[i])
    return best, amp, gain


def find_highlight(
    board: np.ndarray, rows: int, cols: int, skip: np.ndarray | None = None
) -> Highlight | None:
    """The lamp's highlight on a rectified board (BGR uint8), or None.

    ``skip`` (rows, cols) bool: cells left out of the fit (a printed symbol
    there varies far more inside the cell than any highlight does)."""
    values = _samples(board, rows, cols, SAMPLES).reshape(rows * cols, -1, 3)
    ys, xs = (a.reshape(rows * cols, -1) for a in _lattice(rows, cols, SAMPLES))
    unclipped = values < CLIPPED
    usable: np.ndarray = np.asarray(unclipped.all(axis=2), dtype=np.float64)
    if skip is not None:
        usable *= ~np.asarray(skip, bool).reshape(-1, 1)
    # Only a cell with two usable samples or more shows anything vary
    # inside it: with too few such samples the spot's six numbers (centre,
    # width, a level per channel) are anything (simulated BITS 3190, red
    # clipped over the whole ivory print under a warm light: 6 such samples
    # in 3 cells fitted a "spot" adding 325 levels of blue, and every blue
    # tile near it read dark green for the rest of the game).
    kept = usable.sum(axis=1)
    varied = float(np.maximum(kept - 1, 0).sum())
    found = _judged(board, values, usable, ys, xs, rows, cols) if varied >= FREEDOM else None
    # Cells the sensor clipped in some channel at every sample: where a
    # spot is brightest, the three-channel fit sees only its fall-off.
    blinded = ~np.any(np.all(unclipped, axis=2), axis=1)
    if skip is not None:
        blinded &= ~np.asarray(skip, bool).reshape(-1)
    too_clipped = np.count_nonzero(usable.any(axis=1)) < SEEN_SHARE * rows * cols
    if found is None and (too_clipped or blinded.any()):
        # Too clipped to tell, or blind where it matters: a second look in
        # the least clipped channel, believed only of a clear spot
        # (simulated BITS 3311, a warm light on the ivory print: the core's
        # nine cells clipped in red; fitted to the rest, the best "spot"
        # lay off the board, explaining a quarter of what varied, and
        # none was taken off: a black tile under the core read grey).
        one, seen = _one_channel(values, unclipped, usable, skip)
        if seen is not usable:
            found = _judged(board, one, seen, ys, xs, rows, cols)
            if found is not None and found.share < CLEAR_SHARE:
                found = None
            if found is not None and not too_clipped and not _over(found, blinded, rows, cols):
                # Looked at for the blinded cells, it must lie on them or
                # beside them: elsewhere it is the slope of a light's
                # gradient, not what clipped them (simulated BITS 3184: a
                # warm gradient clipped the ivory print's top rows, and a
                # streak down the left column was taken off as a "spot").
                found = None
    return found


def _over(spot: Highlight, blinded: np.ndarray, rows: int, cols: int) -> bool:
    """Whether the cell under ``spot``'s centre is one of ``blinded`` (C,)
    or shares a side with one."""
    r = int(np.clip(np.floor(spot.y), 0, rows - 1))
    c = int(np.clip(np.floor(spot.x), 0, cols - 1))
    cells = np.asarray(blinded, bool).reshape(rows, cols)
    near = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return any(0 <= y < rows and 0 <= x < cols and cells[y, x] for y, x in near)


def _judged(
    board: np.ndarray,
    values: np.ndarray,
    usable: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    rows: int,
    cols: int,
) -> Highlight | None:
    """The spot that best explains the samples ``values`` (C, S, 3) where
    ``usable`` (C, S), if it passes for a lamp's highlight (see
    :func:`find_highlight`)."""
    found = _spot(values, usable, ys, xs, rows, cols)
    if found is None:
        return None
    spot, share = found
    seen = usable
    if share < MIN_SHARE:
        # A lens bends the grid's lines into the edge of some cells' sample
        # rings (bright lines on a dark print), and they, not the spot, are
        # most of what varies there (simulated BITS tracking 652: the lamp's
        # core over the print read as a grey tile). What the spot leaves far
        # off in a few samples is such a line: judged again without them.
        v = _centred(values, usable)
        left = np.abs(v - _centred(spot.at(ys, xs), usable)).max(axis=-1)
        spread = 1.4826 * float(np.median(left[usable > 0]))
        stray = left > LINE_SPREADS * max(spread, 1.0)
        seen = usable * ~stray
        again = _spot(values, seen, ys, xs, rows, cols)
        if again is None or again[1] < SECOND_SHARE:
            return None
        spot, share = again
    if _a_slope_off_the_board(values, seen, ys, xs, spot, rows, cols):
        return None
    peak = spot.peaks.sum(axis=0)
    # A highlight adds light in every channel, enough to matter, and no
    # more than full scale at its centre (more is a slope read as a spot)
    # unless it is clearly a spot (see CLEAR_SHARE).
    if share < MIN_SHARE or float(peak.min()) < MIN_PEAK:
        return None
    core = _core(board, spot, rows, cols)  # what the camera sees at its centre
    clear = share >= CLEAR_SHARE or _core_clipped(core)
    if float(peak.max()) > (MAX_CLEAR_PEAK if clear else MAX_PEAK):
        return None
    if _not_the_lamps_colour(core, spot) or _more_than_seen(core, spot):
        return None
    if _slopes_missing(values, usable, ys, xs, spot, rows, cols):
        return None
    return Highlight(spot.x, spot.y, spot.sigmas, spot.peaks, share)


def _a_slope_off_the_board(
    values: np.ndarray,
    usable: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    spot: Highlight,
    rows: int,
    cols: int,
) -> bool:
    """Whether a spot whose refined centre lies more than :data:`MARGIN`
    off the board (past where the search started from) explains less than
    one centred :data:`OUTWARD` cells farther out would (the best of any
    radius in :data:`SIGMAS` at either place): the fit would keep moving
    away, so what it fits is a slope across the board (a lamp's fall-off),
    not a spot.

    Simulated BITS tracking 3459: a warm lamp came on and its fall-off over
    the light print fitted a "spot" 0.88 cells below the bottom row, 1.8
    cells wide, adding 315 levels of red; with its centre off the board no
    core was there to check it against, and taken off it left the purple
    tile beneath it black (Lab 0, 0, 0) for the rest of the game. Farther
    out, ever wider spots explained more (0.54 of what varied there, 0.57
    half a cell out, 0.58 a cell and a half out). A true spot off the edge
    explains less as it moves away (read-eval tables 3148, 3170: 0.30 to
    0.29, 0.89 to 0.87). Within MARGIN of the edge the lamp's core may lie
    just off the board, clipped on its edge cells, and a spot a little
    farther out and wider fits the fall-off the sensor left as well (fresh
    read table 13103, a true highlight 0.25 cells off the right edge: its
    better fit refused there, an edge cell read unsure)."""
    if -MARGIN <= spot.x <= cols + MARGIN and -MARGIN <= spot.y <= rows + MARGIN:
        return False
    away = np.array([spot.y - rows / 2, spot.x - cols / 2])
    away *= OUTWARD / float(np.hypot(*away))
    here = np.array([spot.y, spot.x])
    v = _centred(values, usable)
    sig = np.asarray(SIGMAS)
    explained = [
        _best(v, usable, ys, xs, np.repeat(centre[None], len(sig), axis=0), sig)[2]
        for centre in (here, here + away)
    ]
    return explained[1] > explained[0]


def _one_channel(
    values: np.ndarray, unclipped: np.ndarray, usable: np.ndarray, skip: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The samples as the least clipped channel alone sees them, in all
    three channels, and which of them are usable (``unclipped`` (C, S, 3)).

    A warm lamp switched on over a light print clips red and green in
    nearly every cell, so hardly a sample is unclipped in all three; the
    lamp's core is plain to see, but the fit had nothing to see it by and
    none was taken off (simulated BITS 2433: a black tile under the core
    read as the print). Blue still shows the spot's whole fall-off. The
    spot found there is taken to add as much in every channel: a lamp's
    reflection is near white (see _not_the_lamps_colour), and what it adds
    in a clipped channel cannot be measured anyway."""
    c = int(unclipped.sum(axis=(0, 1)).argmax())
    seen = np.asarray(unclipped[..., c], dtype=np.float64)
    if skip is not None:
        seen *= ~np.asarray(skip, bool).reshape(-1, 1)
    if seen.sum() <= usable.sum():
        return values, usable
    return np.repeat(values[..., c : c + 1], 3, axis=2), seen


def _slopes_missing(
    values: np.ndarray,
    usable: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    spot: Highlight,
    rows: int,
    cols: int,
) -> bool:
    """Whether the spot draws a slope across a cell that shows none: a
    highlight is smooth and round, so every cell on its flanks varies
    with it, while a tile's cast shadow over half of one cell is a step
    that no neighbour shares (simulated BITS tracking 2514, no lamp's
    reflection at all: a glint fitted to the shadow's edge was taken off
    and the bare print beside the new tile read as a grey tile).

    The flanks: cells the spot still lights by ``REACH`` of its peak,
    their centres at least its narrowest width from its centre (a lamp's
    disc may be flat there: read-eval table 4031, the core over a bare
    cell hardly varied; farther out a real highlight may fade faster than
    the round spot fitted to it: table 3051). A cell there that the spot
    leaves with ``SLOPE_WORSE`` times what varied in it is flat."""
    v = _centred(values, usable)
    lit = spot.at(ys, xs)
    drawn = _centred(lit, usable)
    own = (v**2).sum(axis=(1, 2))
    left = ((v - drawn) ** 2).sum(axis=(1, 2))
    cy, cx = np.divmod(np.arange(rows * cols), cols)
    flank = np.hypot(cy + 0.5 - spot.y, cx + 0.5 - spot.x) >= min(spot.sigmas)
    reached = lit.max(axis=(1, 2)) >= REACH * float(spot.peaks.sum(axis=0).max())
    # A cell the lamp's core clipped more than the board's own print is
    # clipped keeps only the samples farthest from it, where a real spot
    # fades faster than the round one fitted (read-eval table 3101, a true
    # highlight: 13 of 20 samples clipped beside its core).
    kept = usable.sum(axis=1)
    clipped = usable.shape[1] - kept
    core = clipped > np.median(clipped) + usable.shape[1] / 4
    shaded = flank & reached & ~core
    # What varies in a cell is at least the picture's noise over the
    # samples it kept (a cell the lamp's core clipped but for two samples
    # varied by next to nothing: table 4078, a true highlight).
    noise = float(np.median(own[kept > 0] / kept[kept > 0])) if (kept > 0).any() else 0.0
    return bool((left[shaded] > SLOPE_WORSE * np.maximum(own, noise * kept)[shaded]).any())


def _core(board: np.ndarray, spot: Highlight, rows: int, cols: int) -> np.ndarray | None:
    """The median BGR level of the pixels within CORE cells of the spot's
    centre (None: the centre lies off the board)."""
    h, w = board.shape[:2]
    cy, cx = spot.y * h / rows, spot.x * w / cols
    r = CORE * h / rows
    y0, y1 = max(int(cy - r), 0), min(int(cy + r) + 1, h)
    x0, x1 = max(int(cx - r), 0), min(int(cx + r) + 1, w)
    if y0 >= y1 or x0 >= x1:
        return None
    return np.asarray(np.median(board[y0:y1, x0:x1].reshape(-1, 3), axis=0), dtype=np.float64)


def _core_clipped(core: np.ndarray | None) -> bool:
    """Whether the sensor clipped at the spot's centre (``core``, see
    :func:`_core`, is at full scale in some channel): the lamp's core is
    seen there, so the spot fitted around it may well add more than full
    scale."""
    return core is not None and bool((core >= CLIPPED).any())


def _not_the_lamps_colour(core: np.ndarray | None, spot: Highlight) -> bool:
    """Whether the spot adds far less light in some channel than in the
    brightest, though that channel had room for it at the spot's centre
    (``core``, see :func:`_core`).

    A highlight is the lamp's own light reflected off the gloss, so its
    colour is the lamp's: never far from white, even a warm lamp's (every
    channel adds at least two fifths of the brightest one's 8-bit levels
    on 45 of the 46 tuning tables in 3000-3059 and 4000-4099 that show a
    highlight, 2500-6600 K). A channel already near full scale takes only
    what room it has left (the 46th, table 4059: an orange board under a
    warm lamp, red near clipping, the spot adds 13 levels of red to 92 of
    green). A spot that adds light in only one or two channels with room
    in the third is a coloured print read as one (simulated BITS 2496: the
    dots on a yellow tile under a lamp, its red clipped, fitted as a spot
    adding 380 levels of red and 28 of blue; taken off, the red tile beside
    it read black)."""
    if core is None:
        return False
    peak = spot.peaks.sum(axis=0)
    room = np.maximum(255.0 - core, 1.0)
    return bool((peak / np.minimum(float(peak.max()), room)).min() < LAMPS_COLOUR)


def _more_than_seen(core: np.ndarray | None, spot: Highlight) -> bool:
    """Whether the spot adds more light at its centre, in some channel, than
    the camera sees there (``core``, see :func:`_core`): a highlight is
    added on top of whatever lies under it, so the level at its core is at
    least its peak (or full scale).

    A sharp spot fitted to colour bleeding across a cell's edge is no light
    added: its colour is the neighbour's, its centre lies on the dark cell
    (simulated BITS tracking 2605: a yellow tile's edge over the black half
    beside it fitted as a glint adding 285 levels of red where 61 were
    seen; kept for the rest of the game, it later turned a grey tile there
    blue and a legal drop was called illegal). On the 50 true highlights
    of the tuning tables 3000-3059 and 4000-4099 the core shows at least
    0.9 of the peak."""
    if core is None:
        return False
    peak = spot.peaks.sum(axis=0)
    return bool((core < SEEN_AT_CORE * np.minimum(peak, float(CLIPPED))).any())


def _spot(
    values: np.ndarray, usable: np.ndarray, ys: np.ndarray, xs: np.ndarray, rows: int, cols: int
) -> tuple[Highlight, float] | None:
    """The round spot that best explains what varies inside cells, and the
    share of that variation it explains (None: nothing varies)."""
    v = _centred(values, usable)  # what varies inside cells
    total = float((v**2).sum())
    if total <= 0:
        return None
    cy = np.arange(-MARGIN, rows + MARGIN + 1e-9, STEP)
    cx = np.arange(-MARGIN, cols + MARGIN + 1e-9, STEP)
    grid = np.array([(y, x) for y in cy for x in cx])
    sig = np.asarray(SIGMAS)
    centres = np.repeat(grid, len(sig), axis=0)
    sigmas = np.tile(sig, len(grid))
    best, _, _ = _best(v, usable, ys, xs, centres, sigmas)
    # refine around the best: quarter, then eighth steps, neighbouring radii
    for step, scale in ((STEP / 2, 1.2), (STEP / 4, 1.1)):
        y0, x0 = centres[best]
        s0 = sigmas[best]
        fine = np.array(
            [(y0 + dy * step, x0 + dx * step) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]
        )
        fs = np.array([s0 / scale, s0, s0 * scale])
        centres = np.repeat(fine, len(fs), axis=0)
        sigmas = np.tile(fs, len(fine))
        best, amp, explained = _best(v, usable, ys, xs, centres, sigmas)
    y, x = centres[best]
    spot = Highlight(float(x), float(y), (float(sigmas[best]),), amp[None, :], 0.0)
    spot = _two_widths(v, usable, ys, xs, spot, explained)
    return spot, _explained(v, usable, ys, xs, spot) / total


def _centred(a: np.ndarray, usable: np.ndarray) -> np.ndarray:
    """``a`` (C, S, ...) minus its mean over each cell's usable samples, zero where unusable."""
    w = usable.reshape(usable.shape + (1,) * (a.ndim - 2))
    n = np.maximum(usable.sum(axis=1), 1.0).reshape((-1, 1) + (1,) * (a.ndim - 2))
    return np.asarray((a - (a * w).sum(axis=1, keepdims=True) / n) * w)


def _explained(
    v: np.ndarray, usable: np.ndarray, ys: np.ndarray, xs: np.ndarray, spot: Highlight
) -> float:
    """Within-cell sum of squares (of ``v``, centred per cell) the spot takes away."""
    r = v - _centred(spot.at(ys, xs), usable)
    return float((v**2).sum() - (r**2).sum())


def _two_widths(
    v: np.ndarray,
    usable: np.ndarray,
    ys: np.ndarray,
    xs: np.ndarray,
    spot: Highlight,
    single: float,
) -> Highlight:
    """A glint on a sheen: the best pair of widths at the spot's centre, each
    adding light in every channel, when it explains more than one width."""
    widths = sorted({*SIGMAS, *spot.sigmas})
    d2 = (ys - spot.y) ** 2 + (xs - spot.x) ** 2
    basis = {w: _centred(np.exp(-d2 / (2 * w**2)), usable) for w in widths}
    best, best_gain = spot, single
    for i, w1 in enumerate(widths):
        for w2 in widths[i + 1 :]:
            b = np.stack([basis[w1], basis[w2]], axis=-1).reshape(-1, 2)
            gram = b.T @ b + 1e-9 * np.eye(2)
            rhs = b.T @ v.reshape(-1, 3)  # (2, 3)
            amp = np.linalg.solve(gram, rhs)
            if (amp <= 0).any():
                continue
            gain = float((rhs * amp).sum())
            if gain > best_gain:
                best, best_gain = Highlight(spot.x, spot.y, (w1, w2), amp, 0.0), gain
    return best


def remove_highlight(
    board: np.ndarray, highlight: Highlight | None, rows: int, cols: int
) -> np.ndarray:
    """The rectified board (BGR uint8) with the highlight subtracted. A
    pixel clipped in any channel lost how bright it was: taking the spot
    off would leave a dark hole. It stays as it was, a highlight that the
    cell's own statistics drop (brighter than the cell in every channel)
    or, where it covers the cell, a colour the reader doubts (see
    :func:`take_off` for reading its other channels)."""
    if highlight is None:
        return board
    clean = _without_spot(board, highlight, rows, cols)
    clipped = (board >= CLIPPED).any(axis=-1)
    clean[clipped] = board[clipped]
    return np.asarray(clean)


def take_off(
    board: np.ndarray, highlight: Highlight | None, rows: int, cols: int
) -> tuple[np.ndarray, np.ndarray | None]:
    """The rectified board (BGR uint8) with the highlight subtracted, and
    which of its channels (h, w, 3) bool are only lower bounds (None: none).

    A pixel clipped in every channel lost its colour too: taking the spot
    off would leave a grey hole. It stays as it was, a highlight that the
    cell's own statistics drop (brighter than the cell in every channel)
    or, where it covers the cell, a colour the reader doubts. A pixel
    clipped in some channels still measures the others: a red tile under
    the lamp clips red while green and blue, with the spot off, are red's
    own (BITS tuning table 3038: the whole cell had been left white, read
    grey). Its clipped channel says only that the tile is at least full
    scale less the spot there: that is its value, marked a lower bound.
    """
    if highlight is None:
        return board, None
    clean = _without_spot(board, highlight, rows, cols)
    each = np.asarray(board >= CLIPPED)
    every = np.asarray(each.all(axis=-1))
    clean[every] = board[every]
    bound = each & ~every[..., None]
    return np.asarray(clean), (bound if bound.any() else None)


def _without_spot(board: np.ndarray, highlight: Highlight, rows: int, cols: int) -> np.ndarray:
    """``board`` (BGR uint8) less the spot drawn at its size, clipped to 0..255."""
    spot = highlight.drawn(board.shape[0], board.shape[1], rows, cols)
    return np.asarray(np.clip(board.astype(np.float32) - spot, 0, 255).astype(np.uint8))
