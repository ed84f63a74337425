"""Read every cell of a rectified board: ``read_cells`` -> :class:`Reading`.

This is what the tracker calls on every still frame, so it is stateless and
fast: features (:mod:`vision.cells`), the light's colour
(:mod:`vision.constancy`, or a full palette fit for an uncalibrated single
photo, :mod:`vision.palette_fit`), classification (:mod:`vision.classify`),
and the printed symbol on cells that carry one (:mod:`vision.symbols`).

>>> from vision.palette import Entry, Palette
>>> from vision.colour import lab_to_bgr
>>> p = Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 2.0), neutral=True),
...     Entry("R", "red", (45.0, 62.0, 40.0)), Entry("B", "blue", (36.0, 18.0, -53.0))])
>>> board = np.zeros((60, 90, 3), np.uint8)
>>> for (r, c), k in np.ndenumerate(np.array([[0, 1, 2], [2, 0, 1]])):
...     board[r * 30:(r + 1) * 30, c * 30:(c + 1) * 30] = lab_to_bgr(p.lab[k]).round()
>>> print(read_cells(board, 2, 3, p))
.RB
B.R
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.cells import bound_channels, cell_features, patch_share
from vision.classify import (
    LINE_PENALTY,
    LINES_TWO,
    PRINT_MIN,
    Match,
    bare_penalty,
    clipped_channels,
    line_penalty,
    match,
    print_penalty,
    scores_linear,
    settled_by_colour,
)
from vision.colour import linear_to_lab
from vision.constancy import START_SPREADS, balance
from vision.glare import CLIPPED, Highlight, find_highlight, remove_highlight, take_off
from vision.lines import (
    MARGIN,
    MIN_SIDES,
    Lines,
    empty_pairs,
    line_evidence,
    margin_px,
    print_lines,
)
from vision.palette import GREYISH, Palette
from vision.palette_fit import COLOURFUL, fit_palette
from vision.rectify import rectify
from vision.shading import lift_edges, measure_shading
from vision.symbols import read_symbols

# A printed X or O read at least this surely settles a cell whose colour was
# left unsure as the board showing it (see _add_symbols).
SURE_PRINT = 0.6
# A frame of play leaves a pixel clipped in any channel as it was (see
# read_cells), the spot's light still in it. Where the spot adds at least
# BLIND_LEVEL levels (of 255) in every channel, a quarter of full scale, a
# pixel clipped in all three is white whatever lies there (a grey tile
# clips as the print does); where it adds twice that, a pixel clipped in
# some channel is off by as much as tells colours apart in the others. A
# cell with BLIND_SHARE of its patch so is left unsure (see
# _blind_under_core).
BLIND_LEVEL = 64.0
BLIND_SHARE = 0.5
# A cell this much clipped, or this many levels under the highlight's
# spot, may have its printed lines washed out (see _washed).
WASHED_SHARE = 0.01
WASHED_SPOT = 40.0
# A cell this share of the way from the board's colour to the least
# colourful tile colour (a*, b*) is a tile, whatever lines it shows (see
# _not_the_boards): a lamp's glint tints an empty cell 30 from the board
# (simulated BITS 13322), against the 56 of blue; tiles are seen 54-72
# away (14542).
TILE_SHARE = 0.7


@dataclass(frozen=True)
class Reading:
    """What one frame shows, cell by cell.

    ``codes`` (rows, cols) one-character strings (``?`` = unsure);
    ``confidence`` (rows, cols) 0..1; ``lab`` (rows, cols, 3) each cell's
    CIELAB colour after white balance (what a profile learns from);
    ``entry`` (rows, cols) int, the palette entry each cell is closest to
    (even when unsure); ``distance`` and ``margin`` (rows, cols) in ΔE;
    ``gains`` (3,) the white balance used (linear R, G, B); ``palette`` the
    palette the cells were matched against (fitted, for a single photo);
    ``scores`` (rows, cols, K) every entry's ΔE-equivalent distance;
    ``field`` (rows, cols) the brightness across the board that was divided
    out (ones when shading was off); ``highlight`` the lamp's highlight
    that was taken off first (None: none); ``ridges`` (rows, cols, 4) the
    printed lines on every cell's sides, when a frame of play was read
    (:func:`vision.lines.side_ridges`; None for a photo); ``printed``
    (rows, cols) the share of each cell's middle showing print (a tile's
    symbol; see :func:`vision.cells.cell_features`).
    """

    codes: np.ndarray
    confidence: np.ndarray
    lab: np.ndarray
    entry: np.ndarray
    distance: np.ndarray
    margin: np.ndarray
    gains: np.ndarray
    palette: Palette
    scores: np.ndarray
    field: np.ndarray
    highlight: Highlight | None = None
    ridges: np.ndarray | None = None
    printed: np.ndarray | None = None

    @property
    def rows(self) -> list[str]:
        """Board text lines, top row first (the DESIGN.md contract)."""
        return ["".join(row) for row in self.codes.tolist()]

    def __str__(self) -> str:
        return "\n".join(self.rows)

    def unsure(self) -> list[tuple[int, int]]:
        """Cells that read ``?``, as (row, col)."""
        return [(int(r), int(c)) for r, c in np.argwhere(self.codes == "?")]


def read_cells(
    rectified_bgr: np.ndarray,
    rows: int,
    cols: int,
    palette: Palette,
    *,
    gains: np.ndarray | None = None,
    fit: bool = False,
    shading: bool = True,
    field: np.ndarray | None = None,
    inset: float = 0.15,
    highlight: Highlight | None = None,
    look_for_highlight: bool | None = None,
    around: np.ndarray | None = None,
    expected: Sequence[str] | None = None,
    bounds: bool = False,
    steps: bool = False,
) -> Reading:
    """Read a rectified board (BGR uint8, borders = the grid's outer edges).

    ``gains``: white balance to start from (a profile's, or the last frame's);
    each frame is still corrected from its own neutral cells.
    ``fit``: fit the palette to this photo first (no calibration: a single
    photo of a finished board); slower (tens of milliseconds), not per frame.
    ``shading``: correct uneven brightness across the board first;
    ``field``: the brightness field to use instead of measuring it again (the
    last still frame's ``Reading.field``: the lamps have not moved); a
    shadow's sharp edge is then divided out cell by cell, not lifted
    pixel by pixel (:func:`vision.shading.lift_edges`).
    ``highlight``: the lamp's highlight to take off first (found once, when
    the view or the light changed: :func:`vision.glare.find_highlight`).
    ``around``: the same board rectified with :data:`vision.lines.MARGIN`
    cells of what lies beyond it on every side (:func:`rectify_around`), so
    the printed lines of the grid's outline count too.
    ``look_for_highlight``: look for one in this image when none is given
    (default: for a single photo, ``fit``); on a board that prints symbols
    (LITS) the cells showing one stay out of the search, their print hiding
    a highlight's slopes. The reading says what was taken off
    (``Reading.highlight``).
    ``expected``: the board as the game knows it (one string per row of
    codes, a code outside the palette, e.g. ``?``, where it does not know):
    it only decides the light when the cells alone leave it open (see
    :func:`vision.constancy.frame_cost`); every cell is still read as it looks.
    ``bounds``: a channel the sensor clipped, the highlight taken off, is
    read as a lower bound (:func:`vision.glare.take_off`); else a pixel
    clipped in any channel is left as it was, and a cell the spot's core
    washes out so is read '?' (see :func:`_blind_under_core`). For a single
    photo: on the tuning tables it read 9 more boards of 400 right, while
    frames of play, whose cells the tracker also judges from how they
    change, read worse with it (simulated BITS games 954 and 961: a false
    verdict each).
    ``steps``: a sharp shadow's edge across a cell is not print (see
    :func:`vision.cells.cell_features`); for a single photo.
    """
    look = fit if look_for_highlight is None else look_for_highlight
    known_codes = _indices(expected, palette, rows, cols)
    symbols = None
    if any(palette.symbols):
        # Printed symbols (a LITS X or O) are print too, finer than the colour
        # lattice sees: a cell showing one is board, never a piece. They are
        # read before a highlight comes off (a smooth spot draws no strokes,
        # while taking it off around a clipped core leaves edges that do:
        # LITS 5031, an O under the core read X) and after (the spot may hide
        # faint print: LITS 5041, an O read X); each cell keeps the surer.
        symbols = read_symbols(rectified_bgr, rows, cols)
    if highlight is None and look:
        # A printed X or O varies inside its cell far more than a highlight
        # does: the cells showing one stay out of the search.
        skip = None if symbols is None else symbols[0] != "."
        search = rectified_bgr
        if shading and field is None:
            # A hard shadow's lit side is a broad bright patch to the
            # highlight's search (simulated LITS 1023, no lamp's reflection
            # at all: a spot three cells wide found over the lit half was
            # taken off every later frame, and the pieces there read
            # black): the search looks at the board with the shadow lifted.
            unlifted, _ = cell_features(rectified_bgr, rows, cols, inset, around=skip)
            before = measure_shading(unlifted, _kinds(symbols), palette.past_most)
            if before.edges:
                search = lift_edges(rectified_bgr, before.edges, rows, cols)
        highlight = find_highlight(search, rows, cols, skip=skip)
        if highlight is None and skip is None:
            # Symbols printed on tiles (BITS) vary inside their cells far
            # more than a spot does; on a crowded ramp they are most of what
            # varies (simulated BITS 3335, a camera knocked over a full
            # slate ramp: the spot found in its place explained a sixth of
            # the variation, and none was taken off for the rest of the
            # game). A second search leaves the cells showing print out.
            # At least a third of the cells must be left to see a spot's fall-off
            # by (simulated BITS 3144: seven bare cells, a shadow's edge taken
            # for a broad green "spot").
            _, marks = cell_features(search, rows, cols, inset)
            marked = marks >= PRINT_MIN
            if marked.any() and np.count_nonzero(~marked) >= rows * cols / 3:
                second = find_highlight(search, rows, cols, skip=marked)
                # ... and it must lie on the board: with the print left out,
                # a slope across the bare cells fits a "spot" beyond the
                # grid's edge (simulated BITS 3399 after a knock: one a cell
                # above the top row, taken off, read half the ramp black).
                if second is not None and 0 <= second.x <= cols and 0 <= second.y <= rows:
                    highlight = second
    blind = None
    raw = rectified_bgr
    if bounds:
        rectified_bgr, bound = take_off(rectified_bgr, highlight, rows, cols)
    else:
        if highlight is not None:
            blind = _blind_under_core(rectified_bgr, highlight, rows, cols, inset)
        rectified_bgr, bound = remove_highlight(rectified_bgr, highlight, rows, cols), None
    margin = around is not None
    if symbols is not None and highlight is not None:
        symbols = _surer(symbols, read_symbols(rectified_bgr, rows, cols))
    shows = None if symbols is None else symbols[0] != "."
    linear, printed = cell_features(rectified_bgr, rows, cols, inset, around=shows, steps=steps)
    if shows is not None:
        printed = np.maximum(printed, np.where(shows, 1.0, 0.0))
    clipped = clipped_channels(linear)
    if bound is not None:
        # What the highlight's spot left of a clipped channel is a lower
        # bound, as a clipped channel is: matched the same way.
        clipped = clipped | bound_channels(bound, rows, cols, inset)
    divide = field
    if not shading:
        field = divide = np.ones((rows, cols))
    elif field is None:
        shade = measure_shading(linear, _kinds(symbols), palette.past_most)
        field = divide = shade.field
        if shade.edges:
            # A shadow's sharp edge: lifted pixel by pixel, and the cells
            # read again, so a cell it crosses is read in one light; what
            # is left to divide out is the smooth part.
            lifted = lift_edges(rectified_bgr, shade.edges, rows, cols)
            linear, printed = cell_features(lifted, rows, cols, inset, around=shows, steps=steps)
            if shows is not None:
                printed = np.maximum(printed, np.where(shows, 1.0, 0.0))
            # (a channel clipped before it was lifted is still a lower bound)
            clipped = clipped | clipped_channels(linear)
            divide = shade.smooth
    if shading:
        # A clipped channel is a lower bound: divided by a field above one it
        # would only get looser, so it keeps its value there.
        f = np.asarray(divide, dtype=np.float64)[..., None]
        linear = np.where(clipped & (f > 1), linear, linear / f)
    lines: Lines | None = None
    known = None
    if np.count_nonzero(palette.board):
        # Printed grid lines tell an empty cell from a covered one whatever
        # the colours (a black tile on a dark print, a highlight, a board
        # that a change of light made look like a grey tile). Whether the
        # print is light or dark is learnt from the cells whose colour is
        # the board's: under the last frame's light when there is one (every
        # frame of play), else under the light this photo is read with first.
        start, seen, relit = None, palette, False
        if gains is not None and not fit:
            start = scores_linear(linear, gains, palette, clipped)
            known = start  # the balance need not score the start again
            nearest = start.min(axis=-1).ravel()
            k = len(nearest) // 2
            if np.partition(nearest, k)[k] > START_SPREADS * palette.thresholds.spread:
                start, relit = None, True  # the light changed: read it first
        if start is None:
            used_gains, seen, first = _read_colours(
                linear, clipped, printed, palette, gains, fit, expected=known_codes
            )
            start, gains = first.scores, used_gains if fit else gains
        # Every frame of play is read against the last frame's light, and the
        # lines are looked at only when some cell's colour could go either
        # way, or when that light no longer fits and was found anew: one
        # colour over every cell is as well explained dark as light
        # (simulated BITS 21181, an empty ivory ramp under a strong cast,
        # read with a profile: 36 black cells, none doubtful). A single
        # photo (fit) always looks: its whole palette may have slipped (the
        # board taken for black tiles).
        if fit or relit or _doubtful(start, seen):
            empty = _thought_empty(start, seen)
            # cells first read as a grey colour (a single photo's seams, below)
            greys = seen.greys[start.argmin(axis=-1)] if fit else None
            seen_lines = _for_lines(rectified_bgr, around, highlight, rows, cols, bounds)
            # Seams are judged in a single photo, whose colours are fitted
            # to it: read under a profile's light or the last frame's, a
            # new light can leave every cell near both the print and black
            # (simulated BITS 12012 read with a profile: the first look
            # took blue and purple tiles for the board, 0-4 nearer it than
            # black, and their seams made two empty cells black).
            unseen = _washed(raw, highlight, rows, cols) if fit else None
            lines = line_evidence(
                seen_lines,
                rows,
                cols,
                empty=empty,
                sparse=fit,
                margin=margin,
                seams=fit,
                unseen=unseen,
                lean=_lean(start, seen) if fit else None,
            )
    if fit and lines is not None:
        lines = _not_the_boards(lines, linear, gains, palette, empty, greys)
    used_gains, used_palette, m = _read_colours(
        linear, clipped, printed, palette, gains, fit, lines, known, known_codes
    )
    if fit and line_penalty(lines, palette) is not None and _sides_between(empty) < MIN_SIDES:
        # A single photo's first look may take a dark print for black tiles
        # everywhere: no cell was thought empty, so the lines were judged
        # without knowing what a line looks like on this board. The lines
        # have since found the board: judge them again, knowing it.
        again = _thought_empty(m.scores, used_palette)
        if _sides_between(again) >= MIN_SIDES:
            lines = line_evidence(
                seen_lines,
                rows,
                cols,
                empty=again,
                sparse=fit,
                margin=margin,
                seams=fit,
                unseen=unseen,
                lean=_lean(m.scores, used_palette) if fit else None,
            )
            greys = used_palette.greys[m.scores.argmin(axis=-1)]
            lines = _not_the_boards(lines, linear, gains, palette, again, greys)
            used_gains, used_palette, m = _read_colours(
                linear, clipped, printed, palette, gains, fit, lines, known
            )
    if fit and lines is not None and not _thought_empty(m.scores, used_palette).any():
        # No cell read as the board: a ramp is hardly ever full, and a dark
        # print looks like black tiles. The print's own lines still show
        # between its empty cells, lighter than anything else light on the
        # board (print_lines): those cells are the board whatever their
        # colour, as clearly as a cell showing lines on two sides.
        shown = print_lines(seen_lines, rows, cols, margin)
        if shown.any():
            lines = replace(
                lines,
                most=np.where(shown, np.maximum(lines.most, 1.0), lines.most),
                second=np.where(shown, np.maximum(lines.second, 1.0), lines.second),
            )
            used_gains, used_palette, m = _read_colours(
                linear, clipped, printed, palette, gains, fit, lines, known
            )
    lab = linear_to_lab(linear * used_gains)
    codes = m.codes()
    confidence = m.confidence
    if blind is not None and blind.any():
        codes, confidence = np.where(blind, "?", codes), np.where(blind, 0.0, confidence)
    if symbols is not None:
        codes, confidence = _add_symbols(symbols, used_palette, m.index, codes, confidence)
    return Reading(
        codes,
        confidence,
        lab,
        m.best,
        m.distance,
        m.margin,
        used_gains,
        used_palette,
        m.scores,
        np.asarray(field, dtype=np.float64),
        highlight,
        printed=np.asarray(printed, np.float64),
    )


def _not_the_boards(
    lines: Lines,
    linear: np.ndarray,
    gains: np.ndarray | None,
    palette: Palette,
    empty: np.ndarray | None,
    greys: np.ndarray | None = None,
) -> Lines:
    """``lines`` without the lines on two sides of the cells too colourful
    to be the board: where every board colour is grey, a cell whose colour
    (a*, b*) lies farther from that of the cells first thought empty
    (``empty``, under the light a single photo was first read in,
    ``gains``) than TILE_SHARE of the way to the palette's least colourful
    tile colour is a tile, whatever edges it shows. A row of tiles with no
    symbols shows its seams as sharply as the print's lines (simulated
    BITS 14542: a warm lamp, a glint; a whole row of red, blue and purple
    tiles read as lined on two sides, and the palette fitted to that took
    them for the board, under a light that darkened every cell: 23 wrong,
    where the first look had read all 36 right). Measured from the cells
    thought empty, not from grey: a first look may have the light wrong
    (14232, an empty ivory ramp under a 2700 K lamp, first read as 36
    yellow tiles; its lines are what tell it is empty).

    With no cell thought empty, or those thought empty not grey, it is
    measured from the cells first read as any grey colour (``greys``: black
    or grey tiles, the board), when those are grey: the first look that
    took a dark print for black tiles still saw the light right, and the
    colourful cells are tiles (simulated BITS 13697, the ivory print under
    a 2860 K lamp: the print and red tiles thought empty together, 21 from
    grey, its greys 9; red tiles' seams taken for the print, 10 wrong, now
    none. 14156, the classic print without symbols: every empty cell first
    read black, 12 wrong, now 8). Measured from empty cells that are not
    grey, 14149 (the classic print first read as black tiles, two red cells
    thought empty) lost 15 cells. A first look with no grey (14232) leaves
    the lines as they are."""
    if gains is None:
        return lines
    if not palette.board.any() or not palette.greys[palette.board].all():
        return lines
    ab = linear_to_lab(np.asarray(linear, np.float64) * gains)[..., 1:]
    board = None
    for cells in (empty, greys):
        if cells is None or not cells.any():
            continue
        board = np.median(ab[cells], axis=0)
        if np.hypot(*board) < GREYISH:
            break
        board = None  # this look's board is not grey: its light is not to be trusted
    if board is None:
        return lines
    # The least colourful tile colour's distance from the board's (the
    # nominal palette's); a tile is seen at least TILE_SHARE of the way.
    chromatic = ~palette.board & (np.hypot(palette.lab[:, 1], palette.lab[:, 2]) >= COLOURFUL)
    if not chromatic.any():
        return lines
    nominal = np.median(palette.lab[palette.board, 1:], axis=0)
    least = float(np.linalg.norm(palette.lab[chromatic, 1:] - nominal, axis=-1).min())
    tiles = np.linalg.norm(ab - board, axis=-1) > TILE_SHARE * least
    if not tiles.any():
        return lines
    return replace(lines, second=np.where(tiles, 0.0, lines.second))


def _blind_under_core(
    board: np.ndarray, highlight: Highlight, rows: int, cols: int, inset: float
) -> np.ndarray:
    """Cells (rows, cols) bool the lamp's core washes out (see
    BLIND_LEVEL). Such a cell is read from the core's white, as the
    lightest colour: simulated BITS 2433, a warm lamp's core on the ivory
    print; a black tile under it, then a grey one, read as the print,
    surely (a tile refused as half a tile, the other missed). It is left
    unsure instead, for the game or the players to settle."""
    h, w = board.shape[:2]
    clipped = board >= CLIPPED
    yy, xx = np.nonzero(clipped.any(axis=-1))
    # the spot as drawn at this size: kept with the highlight, and taken off
    # this very board next (remove_highlight)
    adds = highlight.drawn(h, w, rows, cols)[yy, xx].min(axis=-1)
    hit = (adds >= 2 * BLIND_LEVEL) | ((adds >= BLIND_LEVEL) & clipped[yy, xx].all(axis=-1))
    if not hit.any():
        return np.zeros((rows, cols), dtype=bool)
    lost = np.zeros((h, w), dtype=bool)
    lost[yy[hit], xx[hit]] = True
    return np.asarray(patch_share(lost, rows, cols, inset) >= BLIND_SHARE)


def _kinds(symbols: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray | None:
    """What each cell shows, as the brightness field's materials: print
    stays in a cell's colour a little (a LITS X darker than an O, both
    than a bare cell), so each kind of print is a material of its own."""
    if symbols is None:
        return None
    # Numbered by np.unique, not by a fixed string: each symbol read, the
    # unsure '?' too, is a kind of its own.
    return np.unique(symbols[0], return_inverse=True)[1].reshape(np.shape(symbols[0]))


def _indices(
    board: Sequence[str] | None, palette: Palette, rows: int, cols: int
) -> np.ndarray | None:
    """``board`` (rows of codes) as palette indices (rows, cols), -1 where a
    code is not the palette's; None without a board or one of another size.

    >>> from vision.palette import Entry, Palette
    >>> p = Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0)),
    ...     Entry("R", "red", (45.0, 60.0, 40.0))])
    >>> _indices([".R", "?."], p, 2, 2).tolist()
    [[0, 1], [-1, 0]]
    """
    if board is None or len(board) != rows or any(len(row) != cols for row in board):
        return None
    codes = list(palette.codes)
    return np.array([[codes.index(c) if c in codes else -1 for c in row] for row in board])


def _read_colours(
    linear: np.ndarray,
    clipped: np.ndarray,
    printed: np.ndarray,
    palette: Palette,
    gains: np.ndarray | None,
    fit: bool,
    lines: Lines | None = None,
    start_scores: np.ndarray | None = None,
    expected: np.ndarray | None = None,
) -> tuple[np.ndarray, Palette, Match]:
    """White balance (or a whole palette fit) and classification of cell colours.

    ``lines``: the printed lines each cell shows (distance added to every
    entry, see :func:`vision.classify.line_penalty`);
    ``start_scores``: the scores under ``gains`` when already known."""
    shape = linear.shape[:-1]
    extra = line_penalty(lines, palette)
    # The palette is fitted to the colours the cells' own sides allow; a
    # seam then judges the two cells on it (fitting to it too moved black
    # nearer blue on tuning table 5026, a black double then left unsure).
    unseamed = line_penalty(lines, palette, seams=False) if fit else extra
    # A double whose colour passes for the print is bare of a symbol when it
    # is a starting tile: its seam outweighs the bare cell's doubt.
    seam = np.zeros(shape, bool) if lines is None or lines.seam is None else lines.seam
    penalty = _plus(print_penalty(printed, palette), unseamed)
    if fit:
        fitted = fit_palette(
            linear,
            palette,
            start=gains,
            clipped=clipped,
            penalty=penalty,
            printed=printed,
            lined=None if extra is None or lines is None else lines.second >= LINES_TWO[1],
        )
        used_gains, used = fitted.gains, fitted.palette
        s = scores_linear(linear, used_gains, used, clipped).reshape(*shape, len(used))
        keep = [palette.names.index(n) for n in used.names]
        lined = None if extra is None else extra[..., keep]
        # Where the fitted colours clearly say board or tile, lines that say
        # otherwise are a neighbour's (see settled_by_colour), and a tile
        # without a symbol is a starting tile (it carries none), not the
        # board; evidence that agrees still counts.
        settled = settled_by_colour(s.reshape(-1, len(used)), used).reshape(shape)
        tile_said = ~used.board[s.argmin(axis=-1)]
        against = settled[..., None] & np.where(tile_said[..., None], ~used.board, used.board)
        if lined is not None:
            # (a seam is no neighbour's line: it stands against the colours)
            lined = np.where(against & ~seam[..., None], 0.0, lined)
        penalty = _plus(print_penalty(printed, used), lined)
        m = match(None, used, s, penalty)
        bare = bare_penalty(printed, m, s)
        if bare is not None:
            bare = np.where(against | seam[..., None], 0.0, bare)
        return used_gains, used, _with_bare(m, used, s, penalty, bare)
    else:
        b = balance(
            linear,
            palette,
            start=gains,
            clipped=clipped,
            penalty=penalty,
            start_scores=start_scores,
            expected=expected,
        )
        used_gains, used = b.gains, palette
        m = b.match.reshaped(shape)  # read under these gains already, penalties included
        s = m.scores if penalty is None else m.scores - penalty
    return used_gains, used, _with_bare(m, used, s, penalty, bare_penalty(printed, m, s))


def _with_bare(
    m: Match, used: Palette, s: np.ndarray, penalty: np.ndarray | None, bare: np.ndarray | None
) -> Match:
    """The match again with the bare cells' penalty added (see
    :func:`vision.classify.bare_penalty`), or ``m`` when there is none."""
    if bare is None or not np.count_nonzero(bare):
        return m
    return match(None, used, s, bare if penalty is None else penalty + bare)


def _surer(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, the surer of two symbol readings (codes, confidence)."""
    take_b = b[1] > a[1]
    return np.where(take_b, b[0], a[0]), np.where(take_b, b[1], a[1])


def _thought_empty(scores: np.ndarray, palette: Palette) -> np.ndarray:
    """Cells (rows, cols) whose best colour (``scores`` (rows, cols, K)
    against ``palette``) is the board's, near enough to count."""
    best = scores.argmin(axis=-1)
    return np.asarray(
        palette.board[best] & (scores.min(axis=-1) <= palette.thresholds.max_distance)
    )


def _lean(scores: np.ndarray, palette: Palette) -> np.ndarray:
    """(rows, cols): how much nearer a cell's colour is to the nearest tile
    than to the board (``scores`` (rows, cols, K) against ``palette``)."""
    return np.asarray(
        scores[..., ~palette.board].min(axis=-1) - scores[..., palette.board].min(axis=-1)
    )


def _sides_between(empty: np.ndarray) -> int:
    """Inner sides between two cells of ``empty`` (rows, cols)."""
    return int(sum(pairs.sum() for pairs in empty_pairs(empty)))


def _doubtful(scores: np.ndarray, palette: Palette) -> bool:
    """Whether any cell's colour lies so near both the board and a tile
    (``scores`` (rows, cols, K)) that the printed lines could decide it."""
    board = scores[..., palette.board].min(axis=-1)
    tile = scores[..., ~palette.board].min(axis=-1)
    return bool(np.count_nonzero(np.abs(board - tile) < LINE_PENALTY))


def _plus(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Sum of two optional penalties."""
    if a is None:
        return b
    return a if b is None else a + b


def _add_symbols(
    symbols: tuple[np.ndarray, np.ndarray],
    palette: Palette,
    index: np.ndarray,
    codes: np.ndarray,
    confidence: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Replace the code of cells whose colour carries printed symbols by the symbol read.

    A cell whose colour was left unsure (``index`` -1) but whose print
    surely shows a symbol (not blank, read at least SURE_PRINT) is that
    board colour's cell showing it: the pieces that cover the board carry
    no print. Its confidence stays the colour's (low: a rule may still
    overrule it)."""
    sym, sym_conf = symbols
    codes = codes.copy()
    confidence = confidence.copy()
    for k, allowed in enumerate(palette.symbols):
        if not allowed:
            continue
        here = index == k
        ok = np.isin(sym, list(allowed))
        codes[here] = np.where(ok[here], sym[here], "?")
        confidence[here] = np.minimum(confidence[here], sym_conf[here])
    marks = [s for allowed in palette.symbols for s in allowed if s != "."]
    shown = (index < 0) & np.isin(sym, marks) & (sym_conf >= SURE_PRINT)
    codes[shown] = sym[shown]
    return codes, confidence


def _washed(board: np.ndarray, highlight: Highlight | None, rows: int, cols: int) -> np.ndarray:
    """Cells (rows, cols) bool whose printed lines a lamp may have washed
    out: some of the cell clipped by the sensor (``board`` BGR uint8, as
    the camera saw it), or the highlight adding WASHED_SPOT levels at its
    middle. On tuning tables 5000-5399 all but one of the pairs of empty
    cells that showed no line between them lay there (the glare's clipped
    core, or a spot just beside it; the one, 5018, under a glare whose
    spot was not found)."""
    h, w = board.shape[:2]
    clipped = (board >= CLIPPED).any(axis=-1)
    at = (np.arange(h) * rows // h)[:, None] * cols + (np.arange(w) * cols // w)[None, :]
    share = np.bincount(at.ravel(), clipped.ravel(), rows * cols) / np.bincount(
        at.ravel(), minlength=rows * cols
    )
    out = share.reshape(rows, cols) >= WASHED_SHARE
    if highlight is not None:
        ys, xs = np.mgrid[0:rows, 0:cols] + 0.5
        out |= highlight.at(ys, xs).max(axis=-1) >= WASHED_SPOT
    return np.asarray(out)


def _for_lines(
    board: np.ndarray,
    around: np.ndarray | None,
    highlight: Highlight | None,
    rows: int,
    cols: int,
    bounds: bool = False,
) -> np.ndarray:
    """The image the printed lines are judged on: ``around`` when given
    (the board with its margin), with the highlight taken off it too (as
    the cells were: ``bounds``, see :func:`read_cells`); else ``board``
    (its highlight already off). Made only when the lines are looked at:
    most frames of play never do."""
    if around is None:
        return board
    edge = margin_px(round(around.shape[0] / (rows + 2 * MARGIN)))
    out = around.copy()
    inner = around[edge:-edge, edge:-edge]
    out[edge:-edge, edge:-edge] = (
        take_off(inner, highlight, rows, cols)[0]
        if bounds
        else remove_highlight(inner, highlight, rows, cols)
    )
    return out


def rectify_around(
    image: np.ndarray, homography: np.ndarray, rows: int, cols: int, cell_px: int
) -> tuple[np.ndarray, np.ndarray]:
    """The board rectified at ``cell_px`` a cell, and ``around`` for
    :func:`read_cells`: the same with MARGIN cells beyond the grid. One warp
    when ``cell_px`` is a multiple of 4 (the margin is whole pixels, the
    board a crop of it), else a second at the nearest multiple (the lines
    are measured at a fixed size whatever the board's)."""
    around_px = max(4, 4 * round(cell_px / 4))
    around = rectify(image, homography, rows, cols, around_px, margin_cells=MARGIN)
    if around_px == cell_px:
        m = margin_px(cell_px)
        return around[m:-m, m:-m], around
    return rectify(image, homography, rows, cols, cell_px), around
