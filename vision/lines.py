"""Printed grid lines around each cell: does the board show there, or a piece?

Colour alone cannot always tell an empty cell from a tile: a black tile on a
dark board print, a grey tile under a highlight, an ivory board under a warm
lamp that looks like a yellow tile. Structure can. The board's grid lines
are printed between the cells, so an empty cell shows a thin line (lighter
or darker than its ground) along its sides; a tile or a piece lies on top of
them and hides them. A line is thin, so it shows as a *ridge* across the
side: the pixels on the side differ from the pixels a little way off on
both hands, by the same sign as the board's other lines.

Per side the ridge is measured on a grey copy of the board at ``Q`` pixels a
cell (area-averaged, so sensor noise is averaged away), over the middle of
the side (the corners, where tile bevels meet, stay out), allowing the line
a pixel off (a lens's barrel, a corner found a little off). Ridges are
scaled by the board's typical line (a high percentile of all inner sides,
so a board half covered still sets it; on a board mostly covered, the
weaker quarter of the sides between two cells thought empty, when there
are enough of them; in a single photo with a few empty cells, none of
them known, the median of the sides that stand out at all), and the
line's polarity (light or dark print) is taken from the sides the caller
says are most likely between two empty cells, else from light ridges
outnumbering dark ones (grooves between tiles are dark on any print, a
light ridge is print), else from the sides of the cells thought empty,
else from the stronger sign.

A raised tile hides the line beside it on a neighbour's side too (its top
leans away from the lens, its bevel and shadow fall there), so an empty
cell beside tiles may show a line on one side only. What holds: an empty
cell shows a line on at least one inner side, almost always on two, and a
covered cell shows two only rarely (a half-line peeks out beside a tile).
So a cell's evidence is its clearest side (``most``) and its second
clearest (``second``). The grid's outer sides can be judged only when the
image carries a margin beyond them (``margin``), and then only on a board
whose frame shows the outline apart from the tiles (each edge measured on
its own: at a tilt the far edge looks thin, the near one broad); an empty
edge cell walled in by tiles has no other side to show.

>>> import cv2
>>> board = np.full((120, 120, 3), 200, np.uint8)
>>> for i in (0, 40, 80, 119):
...     _ = cv2.line(board, (i, 0), (i, 119), (60, 60, 60), 2)
...     _ = cv2.line(board, (0, i), (119, i), (60, 60, 60), 2)
>>> board[38:82, 38:82] = (30, 30, 200)          # a red tile hides its lines
>>> ev = line_evidence(board, 3, 3)
>>> (ev.second > 0.5).astype(int).tolist()
[[1, 1, 1], [1, 0, 1], [1, 1, 1]]
>>> abs(round(float(ev.most[1, 1]), 2)), ev.polarity
(0.0, -1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Pixels a cell for the ridge measurement.
Q = 16
# Along a side, only this part (pixels of Q) counts: corners stay out.
ALONG = (3, 13)
# A line's strength is scaled by this percentile of the board's inner sides.
SCALE_PERCENTILE = 80
# Sides between two cells thought empty needed to learn the print's polarity
# from them; fewer, and the stronger sign of all ridges decides (which a
# nearly full board's grooves between tiles may get wrong).
MIN_SIDES = 3
# Below this ridge (8-bit grey levels) a board has no visible lines at all.
MIN_LINE = 3.0
# Light ridges (twice MIN_LINE) outnumbering dark ones this many times over
# say the print is light, whatever the cells thought empty say.
LIGHT_SHARE = 2.0
# On a print with light lines, a cell showing lines on two sides at this
# share of the board's line is empty, whatever its colour said (see
# line_evidence: the sides towards it).
EVIDENT = 0.7
# An edge of the grid's outline is judged only where its covered cells' ridge
# stays under this share of its empty cells' line.
OUTER_CLEAR = 0.5
# A seam: the side between two cells thought empty showing under this share
# of the line those sides show (their median), when at least SEAM_SIDES such
# sides are seen. Measured on tuning tables 5000-5399 (the true corners, the
# lamp's clipped cells left out; in units of the lower quarter of the sides
# between two empty cells): those sides 0.74 or more but for one in 200,
# the side between two black cells under tiles at most 0.08, between two
# cells of any one colour 0.44 (one in 200 over it: a bevel's light edge).
SEAM_SHARE = 0.25
SEAM_SIDES = 4
# ... and beside a side along the same grid line showing this share of it,
# for two cells each with a tile colour within SEAM_NEAR of its colour
# beyond the board's (11130: a black double 16, the empty cells beside it
# 28; LITS pieces 40 or more).
SEAM_ALONG = 0.5
SEAM_NEAR = 25.0
# A light ridge is print (the grooves between raised tiles are dark on every
# print), and the line between two empty cells shows whole, while a tile
# hides the half beside it: on a board read with no cell as the board (its
# print taken for a tile colour), the light sides this many times stronger
# than the next light side down are lines between two empty cells (see
# print_lines). Simulated BITS, the single photos read with no cell as the
# board whose empty cells show light lines (six on tuning tables
# 13100-20149): those sides 46-83 grey levels, the strongest other light
# side 3-25.
STANDS_OUT = 2.0
# Between two looks, a side keeping less than this share of its line lost
# it (see lines_changed).
LINE_LEFT = 0.5
# ... of a side that held at least this ridge (8-bit grey levels): away
# from lines, ridges reach 14 on the tuning games.
HELD_LINE = 15.0
_PAD = 4
_ACROSS = np.arange(-_PAD, _PAD)  # 8 pixels across each side, the side between 3 and 4
# Cells of what lies around the grid that a rectified image may carry on
# every side (``margin=True``): enough to judge the grid's outer sides too.
MARGIN = _PAD / Q


def margin_px(cell_px: int) -> int:
    """Pixels of margin (MARGIN cells) around a rectified grid of ``cell_px``
    a cell; ``cell_px`` must be a multiple of 4 so the margin is whole pixels."""
    if cell_px % 4:
        raise ValueError(f"a margin needs cell_px a multiple of 4, not {cell_px}")
    return round(MARGIN * cell_px)


def _profiles(
    rectified_bgr: np.ndarray, rows: int, cols: int, margin: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Grey profiles across every vertical side (rows, cols+1, 8) and every
    horizontal side (rows+1, cols, 8), each averaged along the side's middle.
    ``margin``: the image carries MARGIN cells around the grid (else the
    grid's edges are padded by copying, and its outer sides show nothing)."""
    image = rectified_bgr
    h, w = image.shape[:2]
    pad = 2 * _PAD if margin else 0
    if h > 2 * (Q * rows + pad) and w > 2 * (Q * cols + pad):
        # Area averaging by a whole factor is OpenCV's fast path; a finer
        # bilinear step first keeps lines of a pixel or two.
        size = (2 * (cols * Q + pad), 2 * (rows * Q + pad))
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (cols * Q + pad, rows * Q + pad), interpolation=cv2.INTER_AREA)
    if not margin:
        small = cv2.copyMakeBorder(small, _PAD, _PAD, _PAD, _PAD, cv2.BORDER_REPLICATE)
    g = small.astype(np.float32)
    a0, a1 = ALONG
    xs = (np.arange(cols + 1) * Q + _PAD)[:, None] + _ACROSS[None, :]
    v = g[_PAD : _PAD + rows * Q][:, xs].reshape(rows, Q, cols + 1, 2 * _PAD)[:, a0:a1].mean(1)
    ys = (np.arange(rows + 1) * Q + _PAD)[:, None] + _ACROSS[None, :]
    h = g[:, _PAD : _PAD + cols * Q][ys].reshape(rows + 1, 2 * _PAD, cols, Q)[..., a0:a1].mean(-1)
    return v, h.transpose(0, 2, 1)


def _ridge(profile: np.ndarray) -> np.ndarray:
    """Signed ridge at the middle of each profile (..., 8), the line allowed a pixel off.

    The middle must stand out from *both* hands the same way (lighter than
    each, or darker than each), so a step (a tile's edge beside the board)
    is no line."""
    p = np.moveaxis(profile, -1, 0)
    pairs = (p[:-1] + p[1:]) / 2  # pairs[i] = mean of pixels i, i+1
    centre = pairs[2:5]  # the line a pixel before, on, and after the side
    left = np.stack([p[0], pairs[0], pairs[1]])
    right = np.stack([pairs[5], pairs[6], p[7]])
    light = np.minimum(centre - left, centre - right)
    dark = np.minimum(left - centre, right - centre)
    r = np.where(light > 0, light, np.where(dark > 0, -dark, 0.0))
    pick = np.abs(r).argmax(axis=0)
    return np.asarray(np.take_along_axis(r, pick[None], axis=0)[0])


def _ridge_near(profile: np.ndarray) -> np.ndarray:
    """Signed ridge of each profile (..., 8) anywhere within two pixels of
    its middle (a line a grid found a little off puts beside the side),
    each place against the single pixels on both hands: the clearest."""
    p = np.moveaxis(profile, -1, 0)
    pairs = (p[:-1] + p[1:]) / 2
    centre = pairs[1:6]  # a line two pixels before the side .. two after
    left, right = p[0:5], p[3:8]
    light = np.minimum(centre - left, centre - right)
    dark = np.minimum(left - centre, right - centre)
    r = np.where(light > 0, light, np.where(dark > 0, -dark, 0.0))
    pick = np.abs(r).argmax(axis=0)
    return np.asarray(np.take_along_axis(r, pick[None], axis=0)[0])


def _on_sides(v: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Ridges of the vertical (rows, cols+1) and horizontal (rows+1, cols)
    sides as each cell's (rows, cols, 4): top, right, bottom, left."""
    return np.stack([h[:-1], v[:, 1:], h[1:], v[:, :-1]], axis=-1)


def side_ridges(
    rectified_bgr: np.ndarray, rows: int, cols: int, margin: bool = False, near: bool = False
) -> np.ndarray:
    """Signed ridge (8-bit grey levels) on each cell's sides: (rows, cols, 4),
    sides in the order top, right, bottom, left; positive = lighter than
    around. ``margin``: see :func:`_profiles`; ``near``: the clearest ridge
    near the side (:func:`_ridge_near`), not on it."""
    v, h = _profiles(rectified_bgr, rows, cols, margin)
    ridge = _ridge_near if near else _ridge
    return _on_sides(ridge(v), ridge(h))


@dataclass(frozen=True)
class Lines:
    """Printed lines seen on each cell's sides (the outline's too, with a
    margin), in units of the board's typical line: ``most`` (rows, cols)
    the clearest side (of those towards cells thought empty, or towards
    the outline where it can be judged, when known), ``second`` the next
    (both 0 where the board shows no lines at all); ``polarity`` +1 for
    light print, -1 for dark; ``walled`` (rows, cols) bool: no neighbour
    thought empty, so a missing line says less (an empty hole under an
    overhang shows none); ``seam`` (rows, cols) bool: cells thought empty
    showing no line towards another cell thought empty (see :func:`find_seams`).
    """

    most: np.ndarray
    second: np.ndarray
    polarity: float
    walled: np.ndarray | None = None
    seam: np.ndarray | None = None


def line_evidence(
    rectified_bgr: np.ndarray,
    rows: int,
    cols: int,
    empty: np.ndarray | None = None,
    ridges: np.ndarray | None = None,
    sparse: bool = False,
    margin: bool = False,
    seams: bool = False,
    unseen: np.ndarray | None = None,
    lean: np.ndarray | None = None,
) -> Lines:
    """How clearly each cell shows printed lines on its sides (see the module docstring).

    ``empty`` (rows, cols) bool: cells thought empty (e.g. read as the board
    by colour), to learn the print's polarity from; when fewer than
    MIN_SIDES sides lie between two of them (or without it) the stronger
    sign among the clearest ridges decides. ``ridges``: :func:`side_ridges`
    when already measured. ``sparse``: a single photo, nothing known of the
    board; when fewer than a fifth of the sides show a line and the cells
    thought empty do not say what one looks like, the sides that stand out
    do. (In play the board is known and the lines only settle doubtful
    cells: there a tile's edge standing out on a full ramp must not set the
    scale, simulated BITS 519.) ``margin``: the image carries MARGIN cells
    around the grid, so the grid's outer sides can be judged too
    (:func:`_judge_outline` says where this board's frame shows them).
    ``seams``: find the doubles' seams among the cells thought empty
    (:func:`find_seams`); ``unseen`` (rows, cols) bool: cells whose lines a
    lamp's glare may have washed out (no seam is judged there); ``lean``:
    see :func:`find_seams`."""
    if ridges is None:
        ridges = side_ridges(rectified_bgr, rows, cols, margin)
    sign = _polarity(ridges, empty)
    signed = sign * ridges
    inner = np.concatenate([signed[:, :-1, 1].ravel(), signed[:-1, :, 2].ravel()])
    scale = _quantile(inner, SCALE_PERCENTILE / 100) if len(inner) else 0.0
    overall = scale
    between = _between(signed, empty)
    if len(between) >= MIN_SIDES:
        # On a board mostly covered, most inner sides are a tile's and the
        # percentile lands on them; the sides between two cells thought
        # empty show what a line looks like on this board.
        scale = max(scale, _quantile(between, 0.25))
    if scale < MIN_LINE and sparse:
        # Fewer than a fifth of the sides show a line (a few empty cells on
        # a full ramp) and none of the cells thought empty is: what the
        # sides that do stand out show is what a line looks like here.
        shown = inner[inner >= MIN_LINE]
        if len(shown) >= MIN_SIDES:
            scale = _quantile(shown, 0.5)
    seam = None
    if seams and empty is not None:
        # judged on the ridges near each side: a side that shows no line
        # anywhere near it (a grid found a few pixels off puts an empty
        # pair's line beside it: simulated BITS 5020)
        near = sign * side_ridges(rectified_bgr, rows, cols, margin, near=True)
        seam = find_seams(near, empty, unseen, lean)
    if scale < MIN_LINE:
        none = np.zeros((rows, cols))
        return Lines(none, none, sign, seam=seam)
    scaled = signed / scale
    # Without a margin the outer sides are the image's edges: nothing to see.
    outline = _judge_outline(signed, empty) if margin else None
    scaled[_outer(rows, cols)] = -np.inf
    if outline is not None:
        scaled = np.maximum(scaled, outline)
    ordered = np.sort(scaled, axis=-1)
    most, second = (np.where(np.isfinite(v), v, 0.0) for v in (ordered[..., 3], ordered[..., 2]))
    walled: np.ndarray = np.zeros((rows, cols), bool)
    if empty is not None:
        # A side shared with a covered neighbour shows no line whatever this
        # cell is (the neighbour's raised edge hides it): "no line at all"
        # counts over the sides towards cells thought empty; a cell walled in
        # by tiles is judged on all its sides, but says less (``walled``).
        across = _neighbours(np.asarray(empty, dtype=bool))
        if outline is not None:
            across |= np.isfinite(outline)  # no tile beyond the grid hides its outline
        walled = np.asarray(~across.any(axis=-1))
        if sign > 0:
            # A light line is print: the grooves between raised tiles are
            # dark on every print. So a neighbour showing light lines on
            # two sides is empty, whatever its colour said (a dark print
            # and black tiles: the cells thought empty by colour are as
            # likely tiles), and the line towards it counts.
            across |= _neighbours(second >= EVIDENT)
        seen = np.where(across, scaled, -np.inf).max(axis=-1)
        # A hole walled in by tiles shows what little of its lines the
        # tiles leave: judged against the board's lines overall.
        loose = most * scale / max(overall, MIN_LINE)
        most = np.where(walled, loose, np.maximum(seen, -1.0))
    return Lines(np.asarray(most, np.float64), np.asarray(second, np.float64), sign, walled, seam)


def find_seams(
    signed: np.ndarray,
    empty: np.ndarray,
    unseen: np.ndarray | None = None,
    lean: np.ndarray | None = None,
) -> np.ndarray:
    """Cells (rows, cols) bool thought ``empty`` that are a double's halves,
    found by the sides between cells thought empty that show no line.

    Two empty cells always show the line printed between them; a side
    without one has a tile on at least one hand (a tile hides the line
    beside it, and the line between its own halves is not there at all).
    So the sides without a line are covered by the fewest doubles lying on
    such sides, each taken where it covers the most of them, the colours
    (``lean`` (rows, cols): lower where a cell's colour is nearer a tile's
    than the board's) deciding a tie. That is a tile whose colour passes
    for the print: a black double on a dark print, a starting tile without
    a symbol (simulated BITS 11130, read as bare board on the bottom row,
    where the frame's outline showed beside it as a line would beside an
    empty cell; on 5183 the same, but tiles all along the seam's grid line
    leave nothing to say where the line would run, and it is not judged).
    ``signed``: ridges (rows, cols, 4) with
    the print's polarity applied; ``unseen``: cells left out (a lamp's
    clipped glare hides lines on empty cells too).

    >>> signed = np.zeros((2, 3, 4))
    >>> signed[:, :-1, 1] = 20.0                      # lines between the columns
    >>> signed[:-1, :, 2] = 20.0                      # and between the rows
    >>> signed[0, 0, 2] = 0.5                         # none under (0, 0),
    >>> signed[0, 0, 1] = signed[1, 0, 1] = 1.0       # nor right of it and of (1, 0)
    >>> find_seams(signed, np.ones((2, 3), bool)).astype(int).tolist()
    [[1, 0, 0], [1, 0, 0]]
    """
    e = np.asarray(empty, dtype=bool)
    if unseen is not None:
        e = e & ~np.asarray(unseen, dtype=bool)
    across, down = empty_pairs(e)
    right, below = signed[:, :-1, 1], signed[:-1, :, 2]
    out = np.zeros(e.shape, bool)
    between = np.concatenate([right[across], below[down]])
    if len(between) < SEAM_SIDES:
        return out
    line = _quantile(between, 0.5)
    if line < MIN_LINE:
        return out
    # A side is judged only beside a line on the same grid line, a side
    # along (the grid is right there: a grid found a few pixels off, or a
    # tall tile's wall at a tilt, hides the line between two empty cells
    # walled in by tiles, simulated BITS 5020, 5110 and 11084)
    shown_right = right >= SEAM_ALONG * line
    shown_below = below >= SEAM_ALONG * line
    beside_right = np.zeros_like(shown_right)
    beside_right[1:] |= shown_right[:-1]
    beside_right[:-1] |= shown_right[1:]
    beside_below = np.zeros_like(shown_below)
    beside_below[:, 1:] |= shown_below[:, :-1]
    beside_below[:, :-1] |= shown_below[:, 1:]
    gap_right = across & (right < SEAM_SHARE * line) & beside_right
    gap_below = down & (below < SEAM_SHARE * line) & beside_below
    if lean is not None:
        # only a tile whose colour passes for the print can be read as it
        # (a LITS piece never does: its pieces' cells show no line between
        # them, and the X and O print near them may hide one)
        near = np.asarray(lean) <= SEAM_NEAR
        gap_right &= near[:, :-1] & near[:, 1:]
        gap_below &= near[:-1] & near[1:]
    gaps = [((int(r), int(c)), (int(r), int(c) + 1)) for r, c in np.argwhere(gap_right)]
    gaps += [((int(r), int(c)), (int(r) + 1, int(c))) for r, c in np.argwhere(gap_below)]
    left = set(gaps)
    while left:
        # the double touching the most sides still open; then the tile-like
        ranks = [_cover(pair, left, lean) for pair in gaps]
        best = gaps[ranks.index(min(ranks))]
        for cell in best:
            out[cell] = True
        left = {g for g in left if not set(g) & set(best)}
    return out


def print_lines(
    rectified_bgr: np.ndarray, rows: int, cols: int, margin: bool = False
) -> np.ndarray:
    """Cells (rows, cols) bool on both hands of an inner side whose light
    ridge stands out as a printed line between two empty cells: the light
    sides, strongest first, down to the first that is STANDS_OUT times the
    next (at least 2 * MIN_LINE; a side under MIN_LINE counts as MIN_LINE).
    For a single photo that read no cell as the board, whatever the colours
    said (simulated BITS 19750: the classic near-black print taken for black
    tiles, eight empty cells read black; three sides between them 46-62
    grey levels, the next light side 15).

    >>> board = np.full((120, 120, 3), 30, np.uint8)   # a dark print
    >>> _ = cv2.line(board, (44, 40), (76, 40), (200, 200, 200), 2)  # one line shows
    >>> print_lines(board, 3, 3).astype(int).tolist()
    [[0, 1, 0], [0, 1, 0], [0, 0, 0]]
    """
    ridges = side_ridges(rectified_bgr, rows, cols, margin)
    right, below = ridges[:, :-1, 1], ridges[:-1, :, 2]
    sides = np.concatenate([right.ravel(), below.ravel()])
    order = np.argsort(-sides)
    strength = np.maximum(sides[order], MIN_LINE)
    cut = 0
    for i in range(len(order) - 1):
        if strength[i] < 2 * MIN_LINE:
            break
        if strength[i] >= STANDS_OUT * strength[i + 1]:
            cut = i + 1
            break
    chosen = np.zeros(len(sides), bool)
    chosen[order[:cut]] = True
    across = chosen[: right.size].reshape(right.shape)
    down = chosen[right.size :].reshape(below.shape)
    out = np.zeros((rows, cols), bool)
    out[:, :-1] |= across
    out[:, 1:] |= across
    out[:-1] |= down
    out[1:] |= down
    return out


def lines_changed(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Cells (rows, cols) bool whose printed lines all went between two
    looks at the same board: ``before`` and ``now`` ridges (rows, cols, 4)
    (:func:`side_ridges`, with a margin).

    A tile hides the lines on every side of the cells it covers (its edges
    are steps, not lines, and its halves have none between them), however
    near its colour is to the print's: a black double put down on a dark
    print changes the cells' colour by a few units but their lines from the
    board's typical line to none (simulated BITS 3195, under a lamp just
    switched on: the sides of the double's cells fell from 17-64 to -18-16
    while the board's other sides kept theirs within 3). A cell beside it
    loses one side's line only (a cell's neighbours on two sides are never
    one tile's halves). A cell must have shown a line on two sides or more.
    Lines that came are no sign: a cell walled in by tiles shows them all
    again when its neighbours are swept off at a round's end.

    >>> before = np.full((2, 2, 4), 20.0)
    >>> now = before.copy()
    >>> now[0, 0] = 1.0                                   # all of (0, 0)'s sides gone
    >>> now[0, 1, 3] = now[1, 0, 0] = 1.0                 # its neighbours' sides towards it
    >>> lines_changed(before, now).astype(int).tolist()
    [[1, 0], [0, 0]]
    """
    polarity = 1.0 if float(np.median(before)) >= 0 else -1.0
    b, n = polarity * np.asarray(before), polarity * np.asarray(now)
    out = np.zeros(b.shape[:2], bool)
    lined = b[b > 0]
    if lined.size < SEAM_SIDES:
        return out
    held = b >= max(SEAM_SHARE * _quantile(lined, 0.5), HELD_LINE)
    if np.count_nonzero(held) < SEAM_SIDES:
        return out
    # Lines vary across a board (its light, the lens), so each side is
    # measured against itself, with the change of light taken out: the
    # median ratio of the lines held (a tile covers a few sides, not most).
    # The board's typical line is no measure when one look is of a full
    # ramp and the other of a swept one (simulated BITS 3200: a hole walled
    # in by tiles, against the full ramp's typical "line", its noise, lost
    # its lines when the round was swept, and was taken for a black double
    # put down). Unchanged sides keep 0.95-1.05.
    light = max(_quantile(n[held] / b[held], 0.5), 0.0)
    gone = held & (n < LINE_LEFT * light * b)
    out[:] = (held.sum(-1) >= 2) & ~(held & ~gone).any(-1)
    return out


def _cover(
    pair: tuple[tuple[int, int], tuple[int, int]],
    open_: set[tuple[tuple[int, int], tuple[int, int]]],
    lean: np.ndarray | None,
) -> tuple[int, float]:
    """How a double on ``pair`` ranks for :func:`find_seams`: the sides still
    ``open_`` it covers (more first), then its cells' colours (tile-like first)."""
    touched = sum(1 for g in open_ if set(g) & set(pair))
    colour = 0.0 if lean is None else float(lean[pair[0]] + lean[pair[1]])
    return (-touched, colour)


def empty_pairs(empty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The inner sides between two cells of ``empty`` (rows, cols) bool:
    vertical ones (rows, cols - 1), each on its left cell's right, and
    horizontal ones (rows - 1, cols), each under its upper cell."""
    e = np.asarray(empty, dtype=bool)
    return e[:, :-1] & e[:, 1:], e[:-1] & e[1:]


def _between(ridges: np.ndarray, empty: np.ndarray | None) -> np.ndarray:
    """Ridges (1-D) on the sides between two cells thought ``empty``."""
    if empty is None:
        return np.zeros(0)
    across, down = empty_pairs(empty)
    return np.concatenate([ridges[:, :-1, 1][across], ridges[:-1, :, 2][down]])


def _outer(rows: int, cols: int) -> np.ndarray:
    """(rows, cols, 4) bool: the side (top, right, bottom, left) is on the grid's outline."""
    out = np.zeros((rows, cols, 4), bool)
    out[0, :, 0] = out[:, -1, 1] = out[-1, :, 2] = out[:, 0, 3] = True
    return out


def _judge_outline(signed: np.ndarray, empty: np.ndarray | None) -> np.ndarray | None:
    """The grid's outer sides in units of this board's outline (``signed``
    ridges (rows, cols, 4), the print's polarity applied): (rows, cols, 4),
    0 where a tile lies, 1 where the board shows, -inf on the sides that
    cannot be judged (and every inner side); None when none can.

    The outline is the frame's edge as much as a grid line, and each edge
    looks different (at a tilt the far edge is thin, the near one broad, a
    tile hides part of it and leaves part): so each edge is measured apart,
    between its cells thought ``empty`` and those thought covered (the
    median of each; of the whole outline for an edge with fewer than two
    of one kind), and judged only where the two stand well apart (the
    covered level under OUTER_CLEAR of the empty one, which a board art
    whose frame hides its outline does not give)."""
    if empty is None:
        return None
    rows, cols = signed.shape[:2]
    outer = _outer(rows, cols)
    e = np.broadcast_to(np.asarray(empty, dtype=bool)[..., None], signed.shape)
    all_empty, all_tiles = signed[outer & e], signed[outer & ~e]
    if len(all_empty) < MIN_SIDES or len(all_tiles) < MIN_SIDES:
        return None
    out = np.full(signed.shape, -np.inf)
    for side in range(4):
        here, ridge, cells_empty = outer[..., side], signed[..., side], e[..., side]
        shown, hidden = ridge[here & cells_empty], ridge[here & ~cells_empty]
        line = _quantile(shown if len(shown) >= 2 else all_empty, 0.5)
        tile = max(0.0, _quantile(hidden if len(hidden) >= 2 else all_tiles, 0.5))
        if line < MIN_LINE or tile > OUTER_CLEAR * line:
            continue
        out[..., side] = np.where(here, (ridge - tile) / (line - tile), -np.inf)
    return out if np.isfinite(out).any() else None


def _neighbours(cells: np.ndarray) -> np.ndarray:
    """(rows, cols, 4) bool: the cell across each side (top, right, bottom,
    left) is in ``cells``; False off the grid."""
    out = np.zeros((*cells.shape, 4), bool)
    out[1:, :, 0] = cells[:-1]
    out[:, :-1, 1] = cells[:, 1:]
    out[:-1, :, 2] = cells[1:]
    out[:, 1:, 3] = cells[:, :-1]
    return out


def _polarity(ridges: np.ndarray, empty: np.ndarray | None) -> float:
    """+1 for light lines, -1 for dark ones."""
    if empty is not None:
        e = np.asarray(empty, dtype=bool)
        between = _between(ridges, e)
        if len(between) >= MIN_SIDES:
            return 1.0 if _quantile(between, 0.5) >= 0 else -1.0
        # A nearly full board has few sides between two empty cells, and the
        # grooves between raised tiles (dark, on any print) outnumber its
        # lines. Light ridges, though, are print: when they outnumber the
        # dark ones, the print is light (whichever cells a palette slip
        # took for empty). Otherwise the inner sides of the cells thought
        # empty show the print (no groove lies beside a cell no tile covers).
        inner = ~_outer(*ridges.shape[:2])
        sides = ridges[inner]  # each inner side twice: once per cell
        lit, dim = sides[sides >= 2 * MIN_LINE], sides[sides <= -2 * MIN_LINE]
        if len(lit) >= 2 * MIN_SIDES and (
            len(lit) > LIGHT_SHARE * len(dim) or lit.sum() > -LIGHT_SHARE * dim.sum()
        ):
            return 1.0
        own = ridges[e][inner[e]]
        own = own[np.abs(own) >= MIN_LINE]
        if len(own) >= MIN_SIDES:
            # Weighed, not counted: an empty cell among tiles shows their
            # grooves and shadows on most of its sides, its print's line on
            # the few it shares with another hole (simulated BITS 13041: a
            # slate ramp's light lines 29-47 levels, the grooves -4 to -16,
            # six of nine sides).
            return 1.0 if float(own.sum()) >= 0 else -1.0
    flat = ridges.ravel()
    strong = flat[np.abs(flat) >= _quantile(np.abs(flat), 0.5)]
    return 1.0 if float(np.sign(strong).sum()) >= 0 else -1.0


def _quantile(values: np.ndarray, q: float) -> float:
    """The ``q`` quantile (nearest rank) of a 1-d array: one partition, no interpolation."""
    k = min(int(q * len(values)), len(values) - 1)
    return float(np.partition(values, k)[k])
