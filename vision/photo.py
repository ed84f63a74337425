"""One photo to one reading: locate the grid, rectify it, read every cell.

The glue the ``read`` and ``calibrate`` commands and the evaluation share.
Arrays in, arrays out, nothing kept between calls.

>>> import cv2
>>> from vision.palette import Entry, Palette
>>> from vision.colour import lab_to_bgr
>>> p = Palette.from_entries("demo", [Entry(".", "board", (92.0, 0.0, 0.0), neutral=True),
...     Entry("R", "red", (45.0, 62.0, 40.0))])
>>> img = np.full((240, 320, 3), 90, np.uint8)
>>> red = [int(v) for v in lab_to_bgr(p.lab[1]).round()]
>>> img[60:180, 100:220] = [int(v) for v in lab_to_bgr(p.lab[0]).round()]
>>> img[120:180, 160:220] = red
>>> out = read_photo(img, 2, 2, p, corners=[[100, 60], [220, 60], [220, 180], [100, 180]])
>>> out.reading.rows
['..', '.R']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.classify import SENSOR_BLACK_L
from vision.glare import Highlight
from vision.gridfit import GridFit
from vision.locate import BESIDE_SLACK, CONVINCING, beside, doubled, locate_grid, refined_at
from vision.palette import STRAY, Palette
from vision.reader import Reading, read_cells, rectify_around

# Pixels per cell of the rectified board: enough for the symbol reader,
# never more than the photo has.
MIN_CELL_PX = 16
MAX_CELL_PX = 64
# A reading with a profile that leaves more than this share of the cells
# unsure is read again with the profile's colours fitted to the photo.
UNSURE_SHARE = 0.04
# A spot found in a single photo is left on when the colours as seen fit
# the palette this many times better than with it off (mean distance): a
# real highlight's colours fit within a factor of 1.4 either way on the
# tuning tables; the tiles' sides seen at a slant, taken off, fit six
# times worse (simulated 5148).
CLEARLY = 2.0
# A grid a cell or two beside the one found replaces it when its cells fit the
# palette this many times better (mean distance) with no more doubts: on
# tuning 3164 (a ramp's rail read as the last row) 1.8 times. With a
# profile, against the grid where calibration saw it: most nights the
# camera has not moved, and a column of the slate ramp's black tiles read
# as its print fitted the profile's colours 1.33 times better a column off
# (simulated 13739).
BESIDE_CLEARLY = 1.5
# Without a profile only the lines speak for the grid found, and a ramp's
# margin and rail make lines as good as a column of cells, so a grid beside
# it needs to fit only this many times better. On 1950 fresh BITS tables
# (13100-13399, 13600-13749, 14050-15749) read without a profile, 14 showed
# placements beside the grid that the lines supported nearly as well:
# where the true grid's cells fit better they did so by 1.27 to 4.9 times,
# and the one placement a cell off that fit better did so by 1.05 (15705, a
# second neutral). At 1.5 the true grid lost at 1.27 (15738: the grid found
# took the slate ramp's margin and rail for a column, 3.6 against 2.8 ΔE).
FOUND_CLEARLY = 1.2
# A grid beside the one found with fewer doubts replaces it when its cells
# also fit the palette this many times better: a cell unsure on the true
# grid is no reason to take a grid a column off that fits about as well
# (simulated BITS 16365 with a profile: one cell unsure on the true grid,
# 4.36 against 4.08 ΔE a column off; tuning 3164, the rail read as a row:
# 1.22 times). On every placement recorded on 1950 fresh BITS tables
# without a profile, about 1300 with one, and 800 LITS, only 16365 changes.
FEWER_DOUBTS = 1.1
# A cell a profile leaves unsure takes the code the profile's colours,
# fitted to the photo, read it as with at least this confidence (see
# _settle_unsure), and reports no more than SETTLED_CONFIDENCE: of the
# six such cells looked at on the tuning tables (6000-6149, 10000-10149),
# the four the fit read right came at 1.0, the two it read wrong at 0.78
# and 0.40.
SETTLE_CONFIDENCE = 0.9
SETTLED_CONFIDENCE = 0.5
# A placement whose every corner lies within this many of its cells of
# where calibration saw the grid is the one it saw: no placement a whole
# cell off can be nearer.
AT_HOME = 0.5


@dataclass(frozen=True)
class PhotoReading:
    """``fit``: where the grid is; ``rectified``: the board seen from above
    (BGR uint8, ``cell_px`` per cell); ``reading``: the cells; ``fitted``:
    the same cells read with the palette's colours fitted to this photo,
    when that was read already (a profile's reading that left many cells
    unsure), so it is not read twice; ``around``: the board rectified with
    a margin beyond the grid (see :func:`vision.reader.rectify_around`),
    kept to read the cells again without warping the photo again."""

    fit: GridFit
    rectified: np.ndarray
    cell_px: int
    reading: Reading
    fitted: Reading | None = None
    around: np.ndarray | None = None


def cell_px_for(fit: GridFit) -> int:
    """Rectified pixels per cell for a grid of this size in the photo."""
    per_cell = fit.side_px() / max(fit.rows, fit.cols)
    return int(np.clip(round(per_cell), MIN_CELL_PX, MAX_CELL_PX))


def read_photo(
    image: np.ndarray,
    rows: int,
    cols: int,
    palette: Palette,
    *,
    grid: GridFit | None = None,
    corners: Sequence[Sequence[float]] | np.ndarray | None = None,
    hint: GridFit | Sequence[Sequence[float]] | np.ndarray | None = None,
    gains: np.ndarray | None = None,
    fit_palette: bool = True,
    steps: bool = True,
    seen: Sequence[Sequence[float]] | np.ndarray | None = None,
) -> PhotoReading | None:
    """Read the ``rows`` x ``cols`` grid in ``image`` (BGR uint8); ``None`` if no grid.

    ``grid``: the grid already found (e.g. by markers); ``corners``: the
    grid's outer corners (UL UR LR LL), trusted as given; otherwise the
    locator searches (``hint``: corners to try first, e.g. a
    profile's). ``gains``/``fit_palette``: see :func:`vision.reader.read_cells`
    (a calibrated palette reads with ``fit_palette=False``). ``steps``: a
    sharp shadow's edge across a cell is not print (as a single photo is
    read; frames of play are read without, see :func:`vision.cells.cell_features`).
    A grid the search found is read up to two cells to each side too
    where the lines support those placements nearly as well; with a
    profile, only a grid that does not convince or lies away from where
    calibration saw it, and one cell
    (:func:`vision.locate.beside`), and the reading that fits the palette
    clearly better, with no more doubts, is kept. ``seen``: the
    corners where calibration saw the grid (a profile's); of the grid found
    and those beside it, the one at that place (within half a cell) is the
    one the others must read clearly better than; when none is there, the
    grid refined from there is read too. A grid the search found whose
    cells read in aligned 2x2 blocks (:func:`quartered`) is read at twice
    its pitch too (:func:`vision.locate.doubled`). With a profile's
    palette, cells it leaves unsure are then read with its colours fitted
    to this photo (:func:`_settle_unsure`)."""
    # A grid the search found (here, or a profile's search) may be a cell
    # off; corners given, markers or a tracked grid are taken as they are.
    searched = corners is None and (grid is None or grid.method == "search")
    if grid is not None:
        pass
    elif corners is not None:
        grid = GridFit.from_corners(np.asarray(corners, dtype=np.float64), rows, cols)
    else:
        tried: GridFit | Sequence[Sequence[float]] | None = (
            hint.tolist() if isinstance(hint, np.ndarray) else hint
        )
        found = locate_grid(image, rows, cols, hint=tried)
        if found is None:
            return None
        grid = found
    away = seen is not None and grid.cells_from(seen) >= AT_HOME
    if searched and (seen is None or grid.quality < CONVINCING or away):
        # Lines may belong to a placement a cell or two off (a ramp's rail
        # taken for a row): of the grids beside it that the lines support
        # nearly as well, one whose cells read clearly as the game's
        # colours, and no less surely, is the board. Where the
        # profile saw the grid, that placement is the one to beat: most
        # nights the camera has not moved, and a knock that moves it by
        # just one cell's pitch is rarer than lines as good a cell off
        # (simulated BITS 13739: black tiles down the edge on the slate
        # print, the grid found a column off read closer to the palette).
        # Two cells off only without a profile (simulated 14070: the title
        # band two rows up). With one, the place calibration saw is the
        # incumbent, and on 950 fresh tables a placement two cells off won
        # only once, wrongly: a column of the tray's margin read with the
        # calibrated colours fitted them better than the true grid's cells
        # (13739: 3.6 against 8.0 ΔE). Without a profile even lines that
        # convince are weighed so: a rail beside the grid can support a
        # placement a column off as well as the grid's own lines (fresh
        # 16951: 0.82, the grid 0.88 but never refined; 18022: 0.82
        # against 0.75). With one, a convincing grid stands: its colours
        # can fit a rail's row (fresh 16680, weighed, lost its right grid),
        # and a shadow or a glare on the true grid can fit them worse than
        # a placement a cell off (fresh 22817, a camera knocked most of a
        # cell: the true grid at 0.96 read 7.1 ΔE off, a row off 3.7).
        # Unless a placement beside it lies where calibration saw the grid:
        # that one is then the one to beat, as among any others, since the
        # lines can convince a row off the place the hint started from
        # (fresh 23271, the classic print under a warm lamp: 0.81 a row
        # down, 0.78 where calibration saw it; 25 cells read wrong). Only
        # the placements beside it: 17048's camera was knocked a cell and a
        # half, and its old place, refined (below), read 1.5 times closer
        # to the profile's colours than the true grid under a warm lamp and
        # a shadow.
        places = [grid, *beside(image, grid, reach=1 if seen is not None else 2)]
        home = _at_home(places, seen)
        if seen is not None and grid.quality >= CONVINCING and home == 0:
            places = [grid]
        refined: GridFit | None = None
        if seen is not None and home == 0 and away and grid.quality < CONVINCING:
            # None is where calibration saw the grid: its lines there may
            # be too faint to compete (simulated BITS 14420, the ivory
            # print at a slant, 0.24 of segments), so that placement,
            # refined from there, is read too, and must read clearly
            # better: a knocked camera's old place holds no grid (14307,
            # 14534, when it was the one to beat). Fewer doubts at a
            # slightly better fit do not do: that is for a placement the
            # lines support nearly as well, and these lines hardly support
            # it (fresh 18161: the grid found right at 0.80; the old place,
            # refined, 0.25 and a cell and a half off, read with one doubt
            # fewer and a fit 1.12 times better, took 24 cells wrong).
            refined = refined_at(image, np.asarray(seen, np.float64), grid.rows, grid.cols)
            if refined is not None and refined.cells_from(seen) >= AT_HOME:
                # ... while it stays there: refined onto lines half a cell
                # and more away, it is no longer the place calibration saw,
                # only a placement the lines support worse (fresh 23688, a
                # camera knocked most of a cell: the old place settled 0.57
                # cells from it at 0.49, a cell off the true grid at 0.79,
                # and under a glare on the true grid's corner read 2.2
                # times closer to the profile's colours; 28 cells wrong).
                refined = None
            if refined is not None:
                places.append(refined)
                if refined.quality >= grid.quality - BESIDE_SLACK:
                    # The lines support it nearly as well as the grid found
                    # (as beside's placements): the place calibration saw
                    # is then the one to beat, as it would be among those
                    # (fresh BITS 18992: the board's bottom edge past the
                    # frame, the true grid 0.55; the search's, two rows
                    # up over the title, 0.65, its dark band read as empty
                    # cells: 2.5 ΔE and one doubt against 2.3 and none,
                    # not clearly worse, so it held the board).
                    home = len(places) - 1
        out = _read_at(image, places[home], palette, gains, fit_palette, steps)
        clearly = FOUND_CLEARLY if seen is None else BESIDE_CLEARLY
        for other in places[:home] + places[home + 1 :]:
            there = _read_at(image, other, palette, gains, fit_palette, steps)
            if _better_beside(there.reading, out.reading, palette, clearly, other is not refined):
                out = there
    else:
        out = _read_at(image, grid, palette, gains, fit_palette, steps)
    if searched and quartered(out.reading.codes):
        # Every cell read as its neighbours in aligned 2x2 blocks: the
        # grid's quarter at half its pitch (each tile's symbol taken for
        # a line between cells). Of the lattices at twice the pitch the
        # lines support nearly as well, the best that does not read so
        # is the board.
        for other in doubled(image, out.fit):
            there = _read_at(image, other, palette, gains, fit_palette, steps)
            if not quartered(there.reading.codes):
                out = there
                break
    if not fit_palette and out.reading.unsure():
        # Settled only once the grid is chosen: cells filled in by a fit
        # would make a grid a cell off look as sure as the board (6023).
        out = _settle_unsure(out, palette, gains, steps)
    return out


def quartered(codes: np.ndarray) -> bool:
    """Whether a reading is a grid's quarter seen at half its pitch: along
    each axis, its cells pair up (from the first or the second) into blocks
    that read as one code, at least two whole blocks, and not all the same
    code. A real board's cells seldom do: BITS tiles are two cells long and
    LITS pieces four, so each pair of rows would have to repeat.

    >>> quartered(np.array([list("RRBB"), list("RRBB"), list("..KK"), list("..KK")]))
    True
    >>> quartered(np.array([list("xRRB"), list("xRRB"), list(".YYK"), list("xYYK")]))
    True
    >>> quartered(np.array([list("RRBB"), list("RRBY"), list("..KK"), list("..KK")]))
    False
    >>> quartered(np.array([list("...."), list("...."), list("...."), list("....")]))
    False
    """
    codes = np.asarray(codes)
    rows, cols = codes.shape
    for r0 in (0, 1):
        for c0 in (0, 1):
            r1, c1 = r0 + (rows - r0) // 2 * 2, c0 + (cols - c0) // 2 * 2
            if (r1 - r0) * (c1 - c0) < 8:
                continue  # fewer than two whole blocks
            block = codes[r0:r1, c0:c1]
            same = (block[0::2] == block[1::2]).all() and (block[:, 0::2] == block[:, 1::2]).all()
            if same and len(np.unique(block)) > 1 and "?" not in block:
                return True
    return False


def _read_at(
    image: np.ndarray,
    grid: GridFit,
    palette: Palette,
    gains: np.ndarray | None,
    fit_palette: bool,
    steps: bool,
) -> PhotoReading:
    """Read the cells of ``grid`` in ``image`` (see :func:`read_photo`)."""
    rows, cols = grid.rows, grid.cols
    px = cell_px_for(grid)
    # A little beyond the grid too: its printed outline tells an empty edge
    # cell from a covered one.
    rectified, around = rectify_around(image, grid.homography, rows, cols, px)

    # A lamp's highlight on glossy tiles is looked for with a profile or
    # without (the profile knows the colours, not where tonight's lamp shines).
    # What varies inside cells is not always a highlight (a steep view shows
    # the tiles' sides standing over the next cells), so a spot found is
    # taken off only when the colours as seen do not fit the palette clearly
    # better than the colours it leaves.
    def read(highlight: Highlight | None, fit: bool, look: bool = False) -> Reading:
        return _read_rectified(
            rectified, around, grid, palette, gains, fit, highlight, steps, look=look
        )

    reading = read(None, fit_palette, look=True)
    if reading.highlight is not None:
        seen = read(None, fit_palette)
        if _worse_off(reading, seen):
            # A glint on a sheen may hold a level its broad part never had
            # (see Highlight.alone): before the spot is given up, each width
            # is tried alone, and the one that fits best and is not worse
            # off is taken off (simulated BITS 13394: the glint alone read
            # every cell right; with its sheen the print read black).
            alone = [read(part, fit_palette) for part in reading.highlight.alone()]
            kept = [part for part in alone if not _worse_off(part, seen)]
            reading = min(kept, key=_misfit) if kept else seen
    if not fit_palette and _unexplained(reading):
        # The light is not what the profile knew (a lamp switched on since):
        # fit the profile's own colours to this photo, and keep whichever
        # reading is surer.
        refit = read(reading.highlight, True)
        if len(refit.unsure()) < len(reading.unsure()):
            reading = refit
        return PhotoReading(grid, rectified, px, reading, fitted=refit, around=around)
    return PhotoReading(grid, rectified, px, reading, around=around)


def _read_rectified(
    rectified: np.ndarray,
    around: np.ndarray,
    grid: GridFit,
    palette: Palette,
    gains: np.ndarray | None,
    fit: bool,
    highlight: Highlight | None,
    steps: bool,
    look: bool = False,
) -> Reading:
    """The cells of ``grid`` on its rectified board (``around``: the same
    with a margin, whose printed outline tells an empty edge cell from a
    covered one)."""
    return read_cells(
        rectified,
        grid.rows,
        grid.cols,
        palette,
        gains=gains,
        fit=fit,
        highlight=highlight,
        look_for_highlight=look,
        around=around,
        bounds=True,
        steps=steps,
    )


def _settle_unsure(
    photo: PhotoReading,
    palette: Palette,
    gains: np.ndarray | None,
    steps: bool,
) -> PhotoReading:
    """A profile's reading with its unsure cells read again, the profile's
    own colours fitted to this photo: a cell that fit reads surely, and
    confidently (SETTLE_CONFIDENCE), takes that code, no surer than
    SETTLED_CONFIDENCE; the rest stay unsure.

    On the six tuning tables looked at (6067, 6089, 6106, 6126, 10013,
    10039), each cell the profile left unsure was one no colour of the
    profile fits (30 ΔE or more from every one), under a lamp's glare or a
    shadow: what the daylight profile and one white balance cannot
    explain, the photo's own colours can. Its other fields (``entry``
    aside) stay the profile's reading's."""
    here = photo.reading
    again = photo.fitted
    if again is None:
        assert photo.around is not None  # every reading of _read_at keeps it
        again = _read_rectified(
            photo.rectified, photo.around, photo.fit, palette, gains, True, here.highlight, steps
        )
    take = (here.codes == "?") & (again.codes != "?") & (again.confidence >= SETTLE_CONFIDENCE)
    if not take.any():
        return photo
    # (the fitted palette is the profile's own entries, refitted: a code
    # read there is an entry of the profile's too)
    entry = here.entry.copy()
    for r, c in np.argwhere(take):
        entry[r, c] = here.palette.entries_for(str(again.codes[r, c]))[0]
    settled = replace(
        here,
        codes=np.where(take, again.codes, here.codes),
        entry=entry,
        confidence=np.where(
            take, np.minimum(again.confidence, SETTLED_CONFIDENCE), here.confidence
        ),
    )
    return replace(photo, reading=settled)


def _at_home(places: Sequence[GridFit], seen: Sequence[Sequence[float]] | np.ndarray | None) -> int:
    """The index of the placement within :data:`AT_HOME` cells of the
    corners calibration ``seen`` (the nearest, if more than one), else 0
    (the grid found)."""
    if seen is None:
        return 0
    gaps = [place.cells_from(seen) for place in places]
    nearest = int(np.argmin(gaps))
    return nearest if gaps[nearest] < AT_HOME else 0


def _better_beside(
    there: Reading, here: Reading, palette: Palette, clearly: float, lined: bool = True
) -> bool:
    """Whether the reading of a grid a cell or two off (``there``) is the board
    rather than ``here``: its cells fit the palette ``clearly`` times better
    (:data:`BESIDE_CLEARLY`, :data:`FOUND_CLEARLY`) with no more doubts, or
    a little better (:data:`FEWER_DOUBTS`) with fewer doubts, when the
    lines support it nearly as well (``lined``; simulated BITS 3164 with a
    profile: the ramp's rail read as a row of black and two unsure cells,
    5.0 ΔE off on average; the true grid 4.1, every cell sure)."""
    doubts, ours = _doubts(there, palette), _doubts(here, palette)
    misfit, our_misfit = _misfit(there), _misfit(here)
    if lined and doubts < ours and FEWER_DOUBTS * misfit <= our_misfit:
        return True
    return doubts <= ours and clearly * misfit < our_misfit


def _worse_off(taken: Reading, seen: Reading) -> bool:
    """Whether the colours a spot taken off leaves (``taken``) fit the
    palette clearly worse (:data:`CLEARLY`) than the colours as seen: over
    the whole board (the palette is fitted to it all), or over the cells
    the spot lies on (a spot fitted to what varies in one cell, a bare cell
    walled in by tiles, no lamp at all: simulated BITS 13150, the cell
    darkened to a grey tile, one cell of 36 moving the board's mean too
    little to tell)."""
    assert taken.highlight is not None
    if _blacked(taken, seen):
        return True
    on = taken.highlight.lies_on(*taken.codes.shape)
    return CLEARLY * _misfit(seen) < _misfit(taken) or CLEARLY * _misfit(seen, on) < _misfit(
        taken, on
    )


def _blacked(taken: Reading, seen: Reading) -> bool:
    """Whether a spot taken off leaves a cell at the sensor's black that the
    photo shows lighter: a lamp cannot have added more light than the cell
    sent the camera, so the spot is not the lamp's (simulated BITS 14356,
    ivory ramp, a glint in the middle: fitted with a sheen adding 150 to 230
    levels over three cells, nineteen cells taken to black; a profile's
    colours fitted to what was left read that as a board of black and
    empty cells, each as sure as the rest)."""
    return bool(np.any((taken.lab[..., 0] < SENSOR_BLACK_L) & (seen.lab[..., 0] >= SENSOR_BLACK_L)))


def _misfit(reading: Reading, cells: np.ndarray | None = None) -> float:
    """How badly a reading's cells (``cells`` (rows, cols) bool: those only)
    fit its palette: their mean distance to the colour each was read as
    (ΔE-equivalent, penalties included)."""
    distance = reading.distance if cells is None or not cells.any() else reading.distance[cells]
    return float(np.mean(distance))


def _doubts(reading: Reading, palette: Palette) -> int:
    """Cells a reading cannot stand behind: unsure ones, and those read as a
    colour beyond the number one board can show, one stray tile aside
    (:data:`vision.palette.STRAY`): a row of BITS grey is a rail or a shadow, not three grey
    tiles."""
    codes = np.asarray(reading.codes)
    counts = np.array([(codes == code).sum() for code in palette.codes])
    return len(reading.unsure()) + int(palette.beyond_most(counts, stray=STRAY))


def _unexplained(reading: Reading) -> bool:
    """Whether a reading leaves many cells unsure (more than UNSURE_SHARE)."""
    return len(reading.unsure()) > UNSURE_SHARE * reading.codes.size
