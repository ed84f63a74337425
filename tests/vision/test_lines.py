"""Printed grid lines: empty cells show them, tiles hide them (vision.lines)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.palette import load_palette
from tests.vision.simtable import read_sim_table
from tests.vision.synth import Light, render_board
from vision.lines import line_evidence
from vision.reader import read_cells

BITS = load_palette("bits")
BOARD = ["......", "......", "..K...", ".YKB..", "PKRBN.", "RKYYKP"]
EMPTY = np.array([[c == "." for c in row] for row in BOARD])


def dark_print(palette=BITS):
    """The BITS palette with a dark board print (L* 21) a few ΔE from the black tile."""
    lab = palette.lab.copy()
    lab[palette.index(".")] = (21.0, -0.5, -3.0)
    return palette.with_lab(lab)


def light_lines_on_dark_print(board: list[str], kelvin: float, noise: float, seed: int):
    """``board`` rendered on the dark print (:func:`dark_print`) with light lines."""
    return render_board(
        board,
        dark_print(),
        Light(kelvin=kelvin),
        cell_px=48,
        noise=noise,
        seed=seed,
        line_lab=(85.0, 0.0, 2.0),
    )


@pytest.mark.parametrize("line_lab", [(25.0, 0.0, 0.0), (85.0, 0.0, 2.0)], ids=["dark", "light"])
def test_empty_cells_show_lines_and_tiles_hide_them(line_lab):
    pal = BITS if line_lab[0] < 50 else dark_print()
    image = render_board(
        BOARD, pal, Light(kelvin=3000), cell_px=48, noise=3, seed=4, line_lab=line_lab
    )
    lines = line_evidence(image, 6, 6, empty=EMPTY)
    assert lines.polarity == (1.0 if line_lab[0] > 50 else -1.0)
    assert (lines.second[EMPTY] > 0.5).mean() >= 0.9
    # A tile beside an empty cell may show that cell's half of the line on one
    # side, never on two; most tiles show none at all.
    assert (lines.second[~EMPTY] < 0.5).all()
    assert (lines.most[~EMPTY] < 0.35).mean() >= 0.75


def test_a_board_without_lines_gives_no_evidence():
    flat = np.full((240, 240, 3), 128, np.uint8)
    lines = line_evidence(flat, 6, 6)
    assert not lines.most.any() and not lines.second.any()


def test_lines_tell_black_tiles_from_a_dark_print_without_symbols():
    # No symbol on the tiles and the board's print is nearly black: colour
    # alone cannot say which cells are empty; the light grid lines can.
    pal = dark_print()
    light = Light(kelvin=3500, exposure=0.8)
    image = render_board(
        BOARD,
        pal,
        light,
        cell_px=48,
        noise=2,
        seed=5,
        line_lab=(85.0, 0.0, 2.0),
        tile_symbols=False,
    )
    assert read_cells(image, 6, 6, pal).rows == BOARD


def raised_tiles(cells: list[str], px: int = 40, over: int = 3) -> np.ndarray:
    """A top-down board with dark grid lines on a light print, and raised
    tiles: each covers its cell and ``over`` pixels beyond (hiding the lines
    on all its sides, as a real tile's bevel and shadow do), with a dark
    groove where two tiles meet."""
    rows, cols = len(cells), len(cells[0])
    img = np.full((rows * px, cols * px, 3), 205, np.uint8)
    for i in range(rows + 1):
        img[max(0, i * px - 1) : i * px + 1] = 60
    for j in range(cols + 1):
        img[:, max(0, j * px - 1) : j * px + 1] = 60
    colours = {"R": (40, 40, 190), "K": (35, 35, 35), "B": (170, 80, 30), "Y": (30, 200, 240)}
    for (r, c), code in np.ndenumerate(np.array([list(row) for row in cells])):
        if code != ".":
            y0, x0 = max(0, r * px - over), max(0, c * px - over)
            img[y0 : (r + 1) * px + over, x0 : (c + 1) * px + over] = colours[code]
    for (r, c), code in np.ndenumerate(np.array([list(row) for row in cells])):
        if code == ".":
            continue
        if c + 1 < cols and cells[r][c + 1] != ".":
            img[r * px : (r + 1) * px, (c + 1) * px - 1 : (c + 1) * px + 1] = 25
        if r + 1 < rows and cells[r + 1][c] != ".":
            img[(r + 1) * px - 1 : (r + 1) * px + 1, c * px : (c + 1) * px] = 25
    return img


# A hole under a lying tile (r5 c1), walled in by tiles on every inner side.
HOLED = ["......", "......", "......", "..Y...", "KKYB..", "R.BYYR"]


def test_a_hole_walled_in_by_tiles_says_less_and_grooves_are_no_lines():
    from vision.classify import LINE_PENALTY, WALLED_SHARE, line_penalty

    empty = np.array([[c == "." for c in row] for row in HOLED])
    lines = line_evidence(raised_tiles(HOLED), 6, 6, empty=empty)
    assert lines.polarity == -1.0
    walled = np.zeros((6, 6), bool)
    walled[5, 1] = True  # the hole: K above, R and B beside
    walled[5, 3] = True  # Y between B, Y and B above: no empty neighbour
    walled[4, 2] = True  # Y under Y, beside K and B, above B
    assert lines.walled is not None
    assert lines.walled.tolist() == walled.tolist()
    # Tiles with an empty neighbour are judged on the sides towards it only:
    # the groove between two tiles (as dark as a line) does not count.
    tiles_open = ~empty & ~walled
    assert (lines.most[tiles_open] < 0.35).all()
    assert (lines.most[empty & ~walled] > 0.7).all()
    # The hole shows no line at all (its tiles hide them) but is only half
    # as likely covered as an open cell showing none.
    pen = line_penalty(lines, BITS)
    assert pen is not None
    board = BITS.index(".")
    assert pen[5, 1, board] <= WALLED_SHARE * LINE_PENALTY + 1e-9
    assert pen[tiles_open][:, board].min() == pytest.approx(LINE_PENALTY)


def test_a_nearly_full_board_takes_its_lines_colour_from_its_empty_cells():
    # Light lines on a dark print, five cells left empty and none beside
    # another; between the tiles run dark grooves (raised tiles' shadowed
    # gaps), more of them than the lines showing. The empty cells' own sides
    # say the print is light.
    board = ["KYRBPN", "Y.BR.K", "RBPKYB", "P.YRBR", "BRK.PY", "NPBY.R"]
    empty = np.array([[c == "." for c in row] for row in board])
    image = light_lines_on_dark_print(board, kelvin=4000, noise=2, seed=5)
    tile = ~empty
    for r in range(6):  # the grooves between two tiles, over the print
        for k in range(1, 6):
            if tile[r, k - 1] and tile[r, k]:
                image[r * 48 : (r + 1) * 48, k * 48 - 1 : k * 48 + 1] = 12
            if tile[k - 1, r] and tile[k, r]:
                image[k * 48 - 1 : k * 48 + 1, r * 48 : (r + 1) * 48] = 12
    lines = line_evidence(image, 6, 6, empty=empty)
    assert lines.polarity == 1.0
    assert (lines.most[empty] > 0.5).all()


# Mostly black tiles on a dark print: most inner sides lie between two tiles.
CROWDED = ["KK..KK", "KKK.KK", "K.KKKK", "KK.KKK", "KK..KK", "KKYYKK"]


def crowded_dark_print(px: int = 40, over: int = 3, cells: list[str] = CROWDED) -> np.ndarray:
    """Light grid lines on a dark print, nearly covered by raised black tiles
    (each hides the lines on its sides, as a real tile's bevel does)."""
    img = np.full((6 * px, 6 * px, 3), 45, np.uint8)
    for i in range(7):
        img[max(0, i * px - 1) : i * px + 1] = 170
        img[:, max(0, i * px - 1) : i * px + 1] = 170
    colours = {"K": (28, 28, 28), "Y": (30, 200, 240), "N": (140, 140, 140)}
    for (r, c), code in np.ndenumerate(np.array([list(row) for row in cells])):
        if code != ".":
            y0, x0 = max(0, r * px - over), max(0, c * px - over)
            img[y0 : (r + 1) * px + over, x0 : (c + 1) * px + over] = colours[code]
    noise = np.random.default_rng(3).normal(0, 2, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def test_a_line_is_measured_on_the_sides_between_empty_cells():
    # Most inner sides are covered, so a percentile of all of them is a
    # covered side's (noise); the sides between two empty cells say what a
    # line looks like on this board.
    empty = np.array([[c == "." for c in row] for row in CROWDED])
    lines = line_evidence(crowded_dark_print(), 6, 6, empty=empty)
    assert lines.polarity == 1.0
    assert np.median(lines.most[empty]) == pytest.approx(1.0, abs=0.3)
    assert (lines.most[~empty] < 0.35).all()


# Four empty cells in a block on a full ramp: fewer than a fifth of the inner
# sides show a line. A palette slip took the grey tile (r4-5 c2) for the board.
FOUR = ["KKKKKK", "KKKKYY", "KKKKKK", "KN..KK", "KN..KK", "KKKKKK"]


def test_a_few_empty_cells_show_their_lines_when_a_grey_tile_is_taken_for_the_board():
    image = crowded_dark_print(cells=FOUR)
    slip = np.array([[c == "N" for c in row] for row in FOUR])
    lines = line_evidence(image, 6, 6, empty=slip, sparse=True)
    # The grey tile's edges are dark (its own sides say "dark print"), but
    # light ridges can only be print: they outnumber the dark ones.
    assert lines.polarity == 1.0
    empty = np.array([[c == "." for c in row] for row in FOUR])
    # What a line looks like is learnt from the sides that stand out, not
    # from the sides' 80th percentile (a tile's side here): each empty cell
    # shows its inner sides as whole lines, the tiles none.
    assert lines.second[empty] == pytest.approx(1.0, abs=0.3)
    assert (lines.second[~empty] < 0.35).all()


def test_a_dark_print_is_not_taken_for_black_tiles_beside_grey_tiles_taken_for_it():
    # A rendered photo (classic dark print, no symbols, a warm lamp): the
    # fit's first look takes the two grey tiles for the board and the print
    # for black tiles. The print's light lines, seen on the few sides
    # between empty cells, put each colour back.
    read = read_sim_table("bits", 3005, BITS)
    assert (read.truth == "N").sum() == 2 and (read.truth == ".").sum() >= 6
    assert (read.codes[read.truth == "N"] == "N").all()
    assert not (read.codes[read.truth == "."] == "K").any()
    assert (read.codes == read.truth).sum() >= 34


def test_black_tiles_crowding_a_dark_print_in_a_photo_are_told_by_its_lines():
    # A rendered photo (raised tiles seen at a tilt, no symbols): the fit's
    # first look takes the whole print for black tiles, so no cell is
    # thought empty when the lines are first judged; judged again once the
    # board is found, they tell each black tile from the print.
    read = read_sim_table("bits", 3017, BITS)
    black = read.truth == "K"
    assert black.sum() >= 6
    assert (read.codes[black] == "K").all()
    assert not (read.codes[read.truth == "."] == "K").any()  # nor print taken for tiles


def test_a_light_print_seen_in_a_few_holes_outweighs_the_grooves_between_tiles():
    # A rendered photo of a full ramp on a dark print with light lines, a
    # lamp's highlight on it: the fit's first look takes the purple tiles
    # for the board, so the cells thought empty say nothing of the lines.
    # The grooves between tiles (dark, faint) outnumber the light lines of
    # the few empty holes, but the lines are far clearer: the print is
    # light, its holes are read empty and the purple tiles purple.
    read = read_sim_table("bits", 3097, BITS)
    purple, empty = read.truth == "P", read.truth == "."
    assert purple.sum() >= 6 and empty.sum() >= 4
    assert (read.codes[purple] == "P").all()
    assert (read.codes[empty] != "P").all()
    assert (read.codes[empty] == ".").sum() >= empty.sum() - 2  # two walled-in holes still K


def test_a_few_holes_lines_outweigh_the_grooves_around_them_under_a_profile():
    # BITS table 13041, a slate ramp with light lines, nearly full: four
    # holes, only two of them side by side. Read with a profile made on
    # another moment of the table, the holes' own sides showed the tiles'
    # grooves (-4 to -16 levels) on six of nine sides and their lines (29
    # to 47) on three: counted, the print was dark, every tile "showed two
    # lines", and a grid one column off (the ramp's wall read as six holes)
    # fitted the palette better and was kept: 27 cells wrong. Weighed, the
    # print is light and the board is read as it lies.
    from device.evals.read import calibrate_on, sim_board, still_frames

    profile = calibrate_on("bits", 13041, BITS)
    assert profile is not None
    frame = next(still_frames("bits", 13041, 1))
    board = sim_board("bits", 13041, frame, profile.palette, profile)
    assert board.found and board.wrong == []


# Top row: an empty cell (c3) between two tiles, over a tile: walled in on
# every inner side; only the grid's outline, above it, can show it is empty.
OUTLINED = ["KK.KK.", "KKKKK.", "......", "......", "..K...", ".YKK.."]


def framed_board(cells: list[str], px: int = 40, frame: int = 20, outline: int = 170) -> np.ndarray:
    """A top-down dark print with light grid lines and raised black tiles (as
    :func:`crowded_dark_print`), rectified with MARGIN cells of the ramp's
    ``frame`` around it; the grid's outline is drawn in ``outline`` grey."""
    from vision.lines import margin_px

    rows, cols = len(cells), len(cells[0])
    m = margin_px(px)
    img = np.full((rows * px + 2 * m, cols * px + 2 * m, 3), frame, np.uint8)
    img[m:-m, m:-m] = crowded_dark_print(px, 3, cells)
    for i in (0, rows * px):  # the outline, over what the inner lines left
        img[m + max(0, i - 1) : m + i + 1, m - 1 : -m + 1] = outline
    for j in (0, cols * px):
        img[m - 1 : -m + 1, m + max(0, j - 1) : m + j + 1] = outline
    # The border tiles cover their half of the outline too.
    for (r, c), code in np.ndenumerate(np.array([list(row) for row in cells])):
        if code != "." and (r in (0, rows - 1) or c in (0, cols - 1)):
            y0, x0 = m + r * px - 3, m + c * px - 3
            img[y0 : m + (r + 1) * px + 3, x0 : m + (c + 1) * px + 3] = 28
    return img


def test_the_grids_outline_tells_an_empty_edge_cell_walled_in_by_tiles():
    empty = np.array([[c == "." for c in row] for row in OUTLINED])
    image = framed_board(OUTLINED)
    lines = line_evidence(image, 6, 6, empty=empty, margin=True)
    assert lines.walled is not None
    assert not lines.walled[0, 2]  # the outline above it is seen
    assert lines.most[0, 2] == pytest.approx(1.0, abs=0.3)
    # The border tiles hide their part of the outline.
    edge = np.zeros((6, 6), bool)
    edge[[0, -1], :] = edge[:, [0, -1]] = True
    assert (lines.most[edge & ~empty] < 0.35).all()
    # Without the margin the outline is the image's edge: the cell is walled
    # in and shows nothing.
    from vision.lines import margin_px

    m = margin_px(40)
    bare = line_evidence(image[m:-m, m:-m], 6, 6, empty=empty)
    assert bare.walled is not None and bare.walled[0, 2]
    assert bare.most[0, 2] < 0.35


def test_an_outline_the_frame_hides_is_not_judged():
    # The frame is as light as the outline: no ridge there, on tiles or on
    # empty cells alike, so the outline says nothing and the edge cells are
    # judged on their inner sides as before.
    empty = np.array([[c == "." for c in row] for row in OUTLINED])
    lines = line_evidence(framed_board(OUTLINED, frame=170), 6, 6, empty=empty, margin=True)
    assert lines.walled is not None and lines.walled[0, 2]
    assert lines.most[0, 2] < 0.35


def test_empty_edge_cells_walled_in_by_tiles_are_read_from_the_outline_in_a_photo():
    # A rendered photo (classic dark print, no symbols, tilted 39 degrees):
    # r5 c1 is empty with blue tiles above and below and a red one beside;
    # its only other side is the grid's outline, whose light line tells it
    # from a black tile. (Read as unsure before the outline was looked at.)
    read = read_sim_table("bits", 3028, BITS)
    assert read.truth[4, 0] == "."
    assert (read.truth[3, 0], read.truth[5, 0], read.truth[4, 1]) == ("B", "B", "R")
    assert read.codes[4, 0] == "."
    assert (read.codes == read.truth).all()


def _ridges_on_a_light_printed_grid(rows: int = 4, cols: int = 4) -> np.ndarray:
    """Signed ridges (rows, cols, 4) of a board whose every inner side shows
    a line of 20 levels (light print); sides are changed by the tests."""
    signed = np.zeros((rows, cols, 4))
    signed[:, :-1, 1] = signed[:, 1:, 3] = 20.0
    signed[:-1, :, 2] = signed[1:, :, 0] = 20.0
    return signed


def test_a_side_without_a_line_between_two_cells_read_empty_is_a_doubles_seam():
    from vision.lines import find_seams

    signed = _ridges_on_a_light_printed_grid()
    signed[3, 1, 1] = signed[3, 2, 3] = 0.5  # r3: c1 and c2 under one tile
    # the tile hides the lines on its other sides towards empty cells too
    signed[2, 1, 2] = signed[2, 2, 2] = 2.0
    signed[3, 0, 1] = signed[3, 3, 3] = 1.0
    found = find_seams(signed, np.ones((4, 4), bool))
    assert found.astype(int).tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]]


def test_a_seam_is_judged_only_beside_a_line_seen_along_the_same_grid_line():
    # Two empty cells walled in by tiles, seen at a tilt with the grid found
    # a few pixels off: nothing along their side shows where the line runs,
    # so its absence says nothing.
    from vision.lines import find_seams

    signed = _ridges_on_a_light_printed_grid()
    signed[0, 1, 1] = 0.0  # r0: between c1 and c2 ...
    signed[1, 1, 1] = 0.0  # ... and the side below it along the same grid line
    empty = np.ones((4, 4), bool)
    empty[1, 1] = empty[1, 2] = False  # a tile below the pair
    assert not find_seams(signed, empty).any()
    signed[1, 1, 1] = 20.0  # a line along it after all: the grid is right there
    empty[1, 1] = empty[1, 2] = True
    assert find_seams(signed, empty)[0, 1:3].all()


def test_a_seam_needs_a_tile_colour_that_passes_for_the_print():
    from vision.lines import SEAM_NEAR, find_seams

    signed = _ridges_on_a_light_printed_grid()
    signed[3, 1, 1] = 0.5
    lean = np.full((4, 4), SEAM_NEAR + 30.0)  # every tile colour far from these cells
    assert not find_seams(signed, np.ones((4, 4), bool), lean=lean).any()
    lean[3, 1:3] = SEAM_NEAR - 10.0  # black, a few units beyond the dark print
    assert find_seams(signed, np.ones((4, 4), bool), lean=lean)[3, 1:3].all()


def test_a_starting_double_read_as_the_dark_print_is_told_by_its_seam():
    # A rendered photo (tuning table 11130: classic dark print, a warm lamp):
    # the starting tile, black and without a symbol, lies on the bottom two
    # cells of c0, its colour within a few units of the print. Beside it the
    # outline and the empty cells' lines show as beside an empty cell, so
    # its sides say nothing; but the line between its own two cells, which
    # two empty cells always show, is not there.
    read = read_sim_table("bits", 11130, BITS)
    assert (read.truth[4, 0], read.truth[5, 0], read.truth[4, 1], read.truth[5, 1]) == (
        "K",
        "K",
        ".",
        ".",
    )
    assert (read.codes == read.truth).all()


@pytest.mark.parametrize("seed", [5020, 5110, 11084])
def test_two_empty_cells_walled_in_by_tiles_at_a_tilt_are_no_seam(seed):
    # Rendered photos tilted 33-39 degrees with the grid found 5-6 pixels off
    # at a corner: two empty cells between tall tiles show no line between
    # them, and no side along that grid line shows one either.
    read = read_sim_table("bits", seed, BITS)
    empty = read.truth == "."
    # (5020 leaves one of them unsure, as before seams were judged)
    assert not np.isin(read.codes[empty], list("RYBPKN")).any()


def _game_lines(seed: int, *times: float) -> list[np.ndarray]:
    """The printed lines (side ridges) of simulated BITS game ``seed`` at
    ``times``, its lamp on as `tilewatch eval track` switches it on, read
    on the grid located in the first frame."""
    from device.sources.simulated import SimulatedSource
    from device.track.observe import CELL_PX
    from device.track.scenarios import Lamp, LampLight, sim_game
    from vision.lines import side_ridges
    from vision.locate import locate_grid
    from vision.reader import rectify_around

    script = sim_game("bits", seed, None)
    at = script.duration * (0.35 + 0.3 * ((seed * 7919) % 100) / 100)
    source = Lamp(
        SimulatedSource(script, fps=10, seed=seed, conditions=f"random:{seed}"),
        LampLight(at=at, x=(seed % 3) / 2, y=0.1),
    )
    frames = []
    for t in times:
        frame = source.read()
        while frame is not None and frame.t < t - 1e-6:
            frame = source.read()
        assert frame is not None
        frames.append(frame.image)
    fit = locate_grid(frames[0], 6, 6)
    assert fit is not None
    return [
        side_ridges(
            rectify_around(f, fit.homography, 6, 6, CELL_PX)[1], 6, 6, margin=True, near=True
        )
        for f in frames
    ]


def test_a_black_double_put_down_on_the_dark_print_takes_its_cells_lines_away():
    # Simulated BITS game 3195: a black double put down on the bottom right
    # of the dark print just after a lamp came on. Its cells' colour moved
    # by a few units (read as the print); their lines went on every side.
    from vision.lines import lines_changed

    before, after = _game_lines(3195, 72.0, 75.5)
    changed = lines_changed(before, after)
    assert sorted(map(tuple, np.argwhere(changed).tolist())) == [(4, 5), (5, 5)]


def test_a_lamp_switched_on_over_a_still_board_changes_no_cells_lines():
    # The same game a moment before: the lamp comes on (71.7 s) over the
    # empty ramp, every line brighter by a fifth.
    from vision.lines import lines_changed

    before, after = _game_lines(3195, 71.5, 72.2)
    assert not lines_changed(before, after).any()


def test_a_ramp_swept_at_a_rounds_end_puts_no_tile_down():
    # Simulated BITS 3200, the tracker's lines as a round ended: before, a
    # full ramp (ridges ~3 but at a hole two cells deep, walled in by
    # tiles, and beside it); after, the swept print, every line ~42. The
    # hole's lines stayed: no tile was put down there, though against the
    # full ramp's typical "line" (noise) they looked like a change of light.
    from vision.lines import lines_changed

    before = np.full((6, 6, 4), 3.25)
    before[4, 3] = (11.0, -1.0, 46.0, 43.0)
    before[5, 3] = (46.0, -2.0, 61.0, 2.0)
    before[4, 2] = (41.0, 43.0, 0.0, 4.0)
    after = np.full((6, 6, 4), 42.0)
    assert not lines_changed(before, after).any()


def test_a_neighbour_showing_lines_on_two_sides_counts_as_empty_whatever_its_colour():
    # A dark print and black tiles without symbols (simulated BITS 17087,
    # with a profile): colour cannot tell them apart, so the cells thought
    # empty are as likely the black tiles. An empty cell whose only
    # neighbour thought empty is a tile saw no line towards it and was
    # taken for covered. A neighbour showing light lines on two sides is
    # empty whatever its colour said (a groove is dark on every print): the
    # line towards it counts.
    image = light_lines_on_dark_print(BOARD, kelvin=5000, noise=3, seed=4)
    wrong = np.zeros((6, 6), bool)
    wrong[[2, 3, 4], [2, 2, 1]] = True  # black tiles thought empty, no empty cell
    lines = line_evidence(image, 6, 6, empty=wrong)
    # (2, 1) and (3, 0): empty cells beside the black tiles, no cell
    # thought empty but those; their lines towards the true empties show.
    assert lines.most[2, 1] > 0.5 and lines.most[3, 0] > 0.5
    assert (lines.most[EMPTY] > 0.5).mean() >= 0.9
    # no tile shows lines on two sides, so none is counted as empty
    assert (lines.second[~EMPTY] < 0.5).all()


def test_on_a_print_with_dark_lines_the_grooves_between_tiles_are_not_taken_for_lines():
    # The ivory print's lines are dark, and so are the grooves between
    # raised tiles. A tile with grooves on two sides is not an empty cell,
    # so its neighbours' sides towards it say nothing (a light line is
    # print on every board; a dark one may be a groove).
    ridges = np.zeros((6, 6, 4))  # top, right, bottom, left; negative: dark
    line = -20.0
    for r in range(4):  # rows 0-3 empty: lines between them
        ridges[r, :-1, 1] = ridges[r, 1:, 3] = line
        if r < 3:
            ridges[r, :, 2] = ridges[r + 1, :, 0] = line
    for r in (4, 5):  # six doubles standing on the bottom edge: grooves between
        ridges[r, :-1, 1] = ridges[r, 1:, 3] = line
    empty = np.zeros((6, 6), bool)
    empty[:4] = True
    lines = line_evidence(np.zeros((288, 288, 3), np.uint8), 6, 6, empty=empty, ridges=ridges)
    assert lines.polarity == -1.0
    assert (lines.most[:4] > 0.5).all()
    # the doubles' top halves: a groove on each side, no line towards an empty cell
    assert (lines.second[4, 1:5] >= 0.7).all()
    assert (lines.most[4] < 0.5).all()
