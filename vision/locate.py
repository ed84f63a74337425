"""Find an R x C grid of square cells in a camera frame, with no markers.

The search, in order:

1. candidates: four-sided outlines among the contours of a locally
   thresholded copy (:mod:`vision.quads`), each scored by the lattice it
   implies (:mod:`vision.lattice`); the best are pulled onto the lines they
   see, and the winner is the best supported lattice that ends at its own
   border;
2. if that is not convincing, lattices grown from cell-like blobs and slid
   to every place in the grid (:mod:`vision.blobs`, :mod:`vision.extend`);
3. if still doubtful, the best outlines are also tried as blocks of the grid
   (a sudoku's 3x3 box, a patch of empty cells), and lattices are built from
   the straight edges' two directions (:mod:`vision.families`); a winner
   that is not convincing is also tried at the pitch and place its lines
   suggest along each axis (:mod:`vision.comb`), then with its cells
   recounted along an axis, one of its end lines kept, or at twice its
   pitch both ways (:func:`recounted`);
4. the winner is refined once more on printed lines between empty cells
   (:mod:`vision.tiles`: raised tiles are seen displaced), its corners are
   measured locally (:mod:`vision.corners`) and named as the picture is upright.

>>> import numpy as np, cv2
>>> board = np.full((480, 640, 3), 230, np.uint8)
>>> for i in range(7):
...     _ = cv2.line(board, (170 + 50 * i, 90), (170 + 50 * i, 390), (30, 30, 30), 3)
...     _ = cv2.line(board, (170, 90 + 50 * i), (470, 90 + 50 * i), (30, 30, 30), 3)
>>> fit = locate_grid(board, 6, 6)
>>> np.round(fit.corners).astype(int).tolist()
[[170, 90], [470, 90], [470, 390], [170, 390]]
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import blobs, comb, extend, families, lattice, tiles
from vision.corners import local_corners
from vision.gridfit import GridFit
from vision.quads import candidate_quads, cell_area_range, without_repeats
from vision.rectify import (
    apply_homography,
    corners_from_homography,
    grid_corners,
    homography_from_corners,
    turn,
    upright_quarters,
)
from vision.squares import square_misfit

# Largest side the outline search looks at; the lattice itself is measured on
# the full-resolution pyramid, so this only bounds the cost of the search.
SEARCH_SIDE = 640
# Candidates refined after the quick ranking.
REFINE_TOP = 6
# Refinement passes per candidate (the winner gets more on the board's lines).
REFINE_PASSES = 3
# When the best lattice is this poorly supported, the best few outlines are
# also tried as blocks of the grid (a sudoku box, a patch of cells left
# uncovered), and lattices are built from the straight edges' directions.
DOUBTFUL = 0.65
# Groups of cell-like blobs fitted as lattices, largest first.
BLOB_GROUPS = 3
EXTEND_TOP = 3
# A refined fit this good ends the search early: blob lattices only for a
# second grid of cells elsewhere in view, no re-combing of the winner.
CONVINCING = 0.8
# Line-family lattices refined when the search is doubtful, and the pitches
# their combs try (a rough lattice spans the board, margins and all).
FAMILY_TOP = 3
FAMILY_PITCHES = (0.35, 1.6)
# Outlines re-combed when the winner is not convincing (see _outlines_recombed):
# a scene seldom gives more than six distinct ones, and each costs one look.
OUTLINE_TOP = 6
# Re-combed lattices refined (see _recomb).
RECOMB_TOP = 4
# A doubtful winner's pitch may be wrong along an axis: the grid's n cells
# may span n + d of its cells, or n times a float (see _recount).
RECOUNTS = (0.5, -2, -1, 1, 2, 2.0)
# ... or at half the pitch along both axes, over a quarter of the grid: a
# crowded ramp's tiles each show a symbol whose edges lie near the cell's
# middle lines, and a lattice can settle on those and the grid's lines
# taken in turn (fresh BITS 20857: 0.57 over the middle of the board, the
# grid 0.82). Its corner may lie on a middle line, so at every half cell.
# A start this close (cells, every corner) to a refined lattice is not refined again.
SAME_PLACE = 0.3
# Once the best is convincing, a start ranked this far below it is not refined.
LAGGING = 0.35
# A fit is accepted when this share of line segments is supported.
MIN_QUALITY = 0.45
# A lattice whose cells could not be squares seen through a lens (see
# vision.squares: boards found in rendered frames score up to about 0.04,
# real photos up to 0.2 (resized to another shape, paper not flat), a
# lattice of 2:1 cells 0.7).
MAX_MISFIT = 0.35
# A grid one or two cells beside the winner is worth reading too when the
# share of its line segments supported is within this much of the
# winner's (see beside).
BESIDE_SLACK = 0.1
# A doubtful winner steps to a better supported placement a cell beside it
# at most this many times (see _neighbours).
NEIGHBOUR_STEPS = 3


def as_bgr_or_gray(image: np.ndarray) -> np.ndarray:
    """uint8 BGR or grey (BGRA loses its alpha)."""
    if image.ndim not in (2, 3) or image.size == 0:
        raise ValueError(f"not an image: shape {image.shape}")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image)
    if image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    return image


def brightness(image: np.ndarray) -> np.ndarray:
    """Max of B, G, R (HSV's V): coloured tiles and stickers stand out from dark
    lines and plastic much more than in plain grey."""
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def orientations(quad: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """The corner orders worth trying for a quad already ordered ``UL UR LR LL``.

    A square grid keeps the upright order; an oblong one may lie either way, so
    the order turned a quarter is tried too (and turned back to the most
    upright of its two readings later)."""
    if rows == cols:
        return [quad]
    return [quad, np.roll(quad, -1, axis=0)]


def locate_grid(
    image: np.ndarray,
    rows: int,
    cols: int,
    hint: GridFit | Sequence[Sequence[float]] | None = None,
) -> GridFit | None:
    """Find the ``rows`` x ``cols`` grid in a BGR (or grey) image; ``None`` if absent.

    ``hint``: a previous fit or four approximate corners tried before the search
    (the search still runs if the hint does not hold up). A winner refined
    from the hint that settled away from it is looked beside a cell at a
    time, even when it convinces: a camera knocked since the hint was
    seen can leave it to settle on lines a row off."""
    if rows < 1 or cols < 1:
        raise ValueError(f"a grid needs at least one row and column, not {rows}x{cols}")
    image = as_bgr_or_gray(image)
    pyramid = lattice.Pyramid(image)

    value = search_copy(image)
    scale = value.shape[0] / image.shape[0]
    quads, cells = candidate_quads(value, rows, cols)
    quads = list(without_repeats(quads))
    starts: list[tuple[np.ndarray, np.ndarray | None]] = []
    hinted: np.ndarray | None = None
    if hint is not None:
        corners = hint.corners if isinstance(hint, GridFit) else np.asarray(hint, np.float64)
        hinted = homography_from_corners(corners, rows, cols)
        starts.append((hinted, None))
    for quad in quads:
        q = quad / scale
        starts += [(homography_from_corners(o, rows, cols), o) for o in orientations(q, rows, cols)]
    ranked = _rank(pyramid, starts, rows, cols)
    top = ranked[:REFINE_TOP]
    won: list[int] = []
    best = _refine_best(pyramid, [H for _, H, _ in top], rows, cols, [v for v, _, _ in top], won)
    # Whether the winner is to be looked beside even when it convinces (see
    # the neighbours stage): the hint's, when it settled away from the hint
    # (where the hint was, the camera has not moved: nothing to mend).
    look_beside = (
        hinted is not None
        and best is not None
        and bool(won)
        and top[won[0]][1] is hinted
        and not _same_place(best[1], hinted, rows, cols)
    )
    cell_like: list[blobs.Blob] | None = None
    if best is not None and best[0] >= CONVINCING:
        # Convincing: only cells away from it are worth a look, and only when
        # enough of them chain up to be a second grid in view (a sudoku's
        # printed solution beside the puzzle, the puzzle's outline missed).
        cell_like = _cell_blobs(
            _elsewhere(cells, best[1], scale, rows, cols), value, scale, rows, cols
        )
        groups = blobs.groups(cell_like)
        if not groups or len(groups[0]) < rows * cols // 4:
            cell_like = []
    if cell_like is None or cell_like:
        # Inner-lattice hypothesis from the cells themselves. (Judging every
        # cell-sized contour of a board full of printed marks costs as much
        # as the rest of the search, hence only when needed.)
        if cell_like is None:
            cell_like = _cell_blobs(cells, value, scale, rows, cols)
        lattices = _from_blobs(pyramid, cell_like, rows, cols)
        top = _rank(pyramid, lattices, rows, cols)[:REFINE_TOP]
        other = _refine_best(pyramid, [H for _, H, _ in top], rows, cols, [v for v, _, _ in top])
        if other is not None and (best is None or other[0] > best[0]):
            best, look_beside = other, False
    if best is None or best[0] < DOUBTFUL:
        # Inner-lattice hypothesis: the best outlines may be blocks of the grid;
        # and the straight edges' two directions, whatever made them.
        blocks = [q for _, _, q in ranked[:EXTEND_TOP] if q is not None]
        grown = [H for q in blocks for _, H in extend.placements(pyramid, q, rows, cols)]
        combed = _from_families(pyramid, value, image.shape[:2], rows, cols)
        combs = [H for _, H, _ in _rank(pyramid, combed, rows, cols)[:FAMILY_TOP]]
        other = _refine_best(pyramid, grown + combs, rows, cols)
        if other is not None and (best is None or other[0] > best[0]):
            best, look_beside = other, False
    if best is not None and best[0] < CONVINCING:
        # Not convincing: perhaps the right directions at the wrong pitch or place.
        recombed = _recomb(pyramid, best, rows, cols)
        look_beside = look_beside or recombed is not best
        best = recombed
    if best is not None and best[0] < CONVINCING:
        recounted_best = _recount(pyramid, best, rows, cols)
        look_beside = look_beside and recounted_best is best
        best = recounted_best
    if best is not None and best[0] >= MIN_QUALITY and (best[0] < CONVINCING or look_beside):
        # Only a fit good enough to keep: one cell out is a slip to mend,
        # while beside a poor one lies only another poor one. A comb's
        # winner is looked beside even when it convinces: a comb takes its
        # place from where the lines lie, and a rail's edge can move that
        # a row (fresh BITS 18241: 0.81 on the rail, the grid a row up 0.86).
        # So is the hint's, when it settled away from the hint: a camera
        # knocked a cell or so since (a profile's corners) leaves the hint
        # to settle where lines lie a row off, and a convincing winner
        # ends the search (fresh 18983 and 19249: 0.84 a row off; the
        # true grid 0.92 and 0.89, which the search without the hint
        # finds). One that settled where the hint was is not: the camera
        # has not moved, most nights, and looking beside costs 40 ms.
        best = _neighbours(pyramid, best, rows, cols)
    if best is None or best[0] < CONVINCING:
        # Last: every stage above starts from the winner or from refined
        # outlines; an outline's own lines, re-combed, can hold the grid.
        outlines = [homography_from_corners(q / scale, rows, cols) for q in quads]
        found = _outlines_recombed(pyramid, outlines[:OUTLINE_TOP], best, rows, cols)
        if found is not best and found is not None and found[0] >= MIN_QUALITY:
            found = _neighbours(pyramid, found, rows, cols)
        best = found
    if best is None or best[0] < MIN_QUALITY:
        return None
    return _as_fit(image, pyramid, best, rows, cols, {"candidates": float(len(starts))})


def _as_fit(
    image: np.ndarray,
    pyramid: lattice.Pyramid,
    best: Refined,
    rows: int,
    cols: int,
    details: dict[str, float] | None = None,
) -> GridFit:
    """The refined lattice ``best`` as a fit: refined once more on the
    board's lines, corners measured locally, named as the picture is upright."""
    score, H, s, found = best
    H, found = _on_the_board(image, pyramid, H, found, rows, cols)
    corners = apply_homography(np.linalg.inv(H), local_corners(H, rows, cols, found))
    # A square lattice fits in four ways: name the corners as the picture is upright.
    k = upright_quarters(corners, rows, cols)
    return GridFit(
        rows,
        cols,
        np.roll(corners, -k, axis=0),
        turn(H, rows, cols, k),
        float(np.clip(score, 0, 1)),
        "search",
        {"border": s.border, "between": s.between, **(details or {})},
    )


def beside(
    image: np.ndarray, fit: GridFit, slack: float = BESIDE_SLACK, reach: int = 2
) -> list[GridFit]:
    """The placements up to ``reach`` cells up, down, left and right of a
    found grid that the picture's lines support nearly as well (within
    ``slack`` of its quality), refined, best first. Lines alone cannot
    always choose among them: a ramp's dark rail below the last row has
    edges as straight as a row of tiles (tuning 3164: the true grid, a row
    up, 0.61 against 0.67), a title band's letters and rule make rows as
    good as the grid's two cells above it (fresh 14070: 0.557 against
    0.555), so the caller weighs what the cells read as
    (:func:`vision.photo.read_photo`)."""
    image = as_bgr_or_gray(image)
    pyramid = lattice.Pyramid(image)
    shifts = [(0, sign * d) for d in range(1, reach + 1) for sign in (-1, 1)]
    shifts += [(dy, dx) for dx, dy in shifts]
    starts = [
        np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy], [0.0, 0.0, 1.0]]) @ fit.homography
        for dx, dy in shifts
    ]
    return _elsewhere_as_good(image, pyramid, fit, starts, slack)


def doubled(image: np.ndarray, fit: GridFit, slack: float = BESIDE_SLACK) -> list[GridFit]:
    """The lattices at twice a found grid's pitch along both axes
    (:func:`twice_both_ways`) that the picture's lines support nearly as well
    (within ``slack`` of its quality), refined, best first. Lines alone
    cannot always tell the grid from its quarter at half the pitch: a
    crowded ramp's tiles each show a symbol whose edges lie on the
    grid's middle lines, and raised tiles seen steeply hide the grid's
    own (fresh BITS 21884: the quarter 0.62, the grid 0.61), so the
    caller weighs what the cells read as (:func:`vision.photo.read_photo`)."""
    rows, cols = fit.rows, fit.cols
    image = as_bgr_or_gray(image)
    pyramid = lattice.Pyramid(image)
    starts = twice_both_ways(fit.homography, rows, cols)
    ranked = _rank(pyramid, [(S, None) for S in starts], rows, cols)
    return _elsewhere_as_good(image, pyramid, fit, [S for _, S, _ in ranked[:RECOMB_TOP]], slack)


def _elsewhere_as_good(
    image: np.ndarray,
    pyramid: lattice.Pyramid,
    fit: GridFit,
    starts: list[np.ndarray],
    slack: float,
) -> list[GridFit]:
    """Each start refined on its own, kept when its lines are supported
    within ``slack`` of ``fit``'s quality and it did not settle back where
    ``fit`` is; best first."""
    rows, cols = fit.rows, fit.cols
    out = []
    for start in starts:
        found = _refine_best(pyramid, [start], rows, cols)
        if found is None or found[0] < max(MIN_QUALITY, fit.quality - slack):
            continue
        moved = apply_homography(fit.homography, corners_from_homography(found[1], rows, cols))
        if np.linalg.norm(moved - grid_corners(rows, cols), axis=1).mean() < 0.5:
            continue  # settled back where the grid was
        out.append(_as_fit(image, pyramid, found, rows, cols))
    return sorted(out, key=lambda f: -f.quality)


def refined_at(image: np.ndarray, corners: np.ndarray, rows: int, cols: int) -> GridFit | None:
    """The lattice refined from four given corners (UL UR LR LL, any
    naming), whatever its quality: where a grid was seen before, for the
    caller to weigh (:func:`vision.photo.read_photo`); ``None`` if the
    refinement fails."""
    image = as_bgr_or_gray(image)
    pyramid = lattice.Pyramid(image)
    start = homography_from_corners(np.asarray(corners, np.float64), rows, cols)
    found = _refine_best(pyramid, [start], rows, cols)
    return None if found is None else _as_fit(image, pyramid, found, rows, cols)


def search_copy(image: np.ndarray) -> np.ndarray:
    """The brightness (:func:`brightness`) of ``image`` on a copy no larger than
    ``SEARCH_SIDE``, where outlines and edges are searched."""
    h, w = image.shape[:2]
    scale = min(1.0, SEARCH_SIDE / max(h, w))
    value = brightness(image)
    if scale < 1.0:
        value = cv2.resize(value, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return value


def _elsewhere(
    cells: list[np.ndarray], homography: np.ndarray, scale: float, rows: int, cols: int
) -> list[np.ndarray]:
    """The contours (search-copy pixels, ``scale`` times the image's) whose
    first point lies over a cell away from the lattice ``homography`` (more
    than a cell outside its border)."""
    if not cells:
        return cells
    first = np.array([c[0, 0] for c in cells], np.float64) / scale
    g = apply_homography(homography, first)
    with np.errstate(invalid="ignore"):
        near = (g[:, 0] > -1) & (g[:, 0] < cols + 1) & (g[:, 1] > -1) & (g[:, 1] < rows + 1)
    return [c for c, inside in zip(cells, near, strict=True) if not inside]


def _cell_blobs(
    cells: list[np.ndarray], value: np.ndarray, scale: float, rows: int, cols: int
) -> list[blobs.Blob]:
    """The cell-like blobs among ``cells`` (contours in the search copy
    ``value``, ``scale`` times the image), in image pixels."""
    sizes = cell_area_range(value.shape[:2], rows, cols)
    return [b.scaled(1 / scale) for b in blobs.cell_blobs(cells, *sizes)]


def _from_blobs(
    pyramid: lattice.Pyramid, found: list[blobs.Blob], rows: int, cols: int
) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Starts from lattices grown from cell-like blobs (:mod:`vision.blobs`),
    each block slid to its best places in the grid."""
    starts: list[tuple[np.ndarray, np.ndarray | None]] = []
    for group in blobs.groups(found)[:BLOB_GROUPS]:
        fitted = blobs.lattice_of(group, cols, rows)
        if fitted is not None:
            starts += [(H, None) for _, H in extend.place_block(pyramid, *fitted, rows, cols)]
    return starts


def _from_families(
    pyramid: lattice.Pyramid, value: np.ndarray, shape: tuple[int, int], rows: int, cols: int
) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Starts from the straight edges' two directions (:mod:`vision.families`),
    their pitch and place re-found along each axis (:mod:`vision.comb`)."""
    scale = value.shape[0] / shape[0]
    segs = families.segments(value) / scale
    rough = families.lattices(segs, families.vanishing_points(segs), rows, cols)
    starts: list[tuple[np.ndarray, np.ndarray | None]] = []
    for H in rough:
        starts += [(c, None) for c in _combs(pyramid, H, rows, cols, FAMILY_PITCHES)]
    return starts


def _combs(
    pyramid: lattice.Pyramid,
    H: np.ndarray,
    rows: int,
    cols: int,
    pitches: tuple[float, float] = comb.PITCHES,
) -> list[np.ndarray]:
    """:func:`vision.comb.recombs` of lattice ``H``; none where its view
    cannot be made (a degenerate lattice)."""
    try:
        return comb.recombs(pyramid, H, rows, cols, pitches=pitches)
    except (np.linalg.LinAlgError, cv2.error):
        return []


def _outlines_recombed(
    pyramid: lattice.Pyramid,
    outlines: list[np.ndarray],
    best: Refined | None,
    rows: int,
    cols: int,
) -> Refined | None:
    """The winner, or a lattice re-combed from one of the outlines
    (:mod:`vision.comb`) before any refinement, whichever is better
    supported once refined. An outline of the whole ramp, header and rails
    and all, has the grid's directions and its lines inside it; refined
    as it is, it settles on whatever lines lie near its own, and the
    winner's own re-combing (:func:`_recomb`) starts from there, cells
    away (fresh 16765, a full ramp at a slant: no lattice near the grid
    at all; re-combed inside the ramp's rails it is 0.85)."""
    starts: list[tuple[np.ndarray, np.ndarray | None]] = []
    for H in outlines:
        starts += [(c, None) for c in _combs(pyramid, H, rows, cols)]
    ranked = _rank(pyramid, starts, rows, cols)
    found = _refine_best(pyramid, [H for _, H, _ in ranked[:RECOMB_TOP]], rows, cols)
    if found is None or (best is not None and found[0] <= best[0]):
        return best
    return found


def _rank(
    pyramid: lattice.Pyramid,
    starts: list[tuple[np.ndarray, np.ndarray | None]],
    rows: int,
    cols: int,
) -> list[tuple[float, np.ndarray, np.ndarray | None]]:
    """Quick lattice score of every start (with generous tolerance), best first."""
    ranked = []
    for H, quad in starts:
        try:
            s = lattice.support(lattice.look(pyramid, H, rows, cols), tolerance=0.3)
        except (np.linalg.LinAlgError, cv2.error):
            continue
        ranked.append((s.value, H, quad))
    ranked.sort(key=lambda t: -t[0])
    return ranked


Refined = tuple[float, np.ndarray, lattice.Support, list[lattice.LinePoints]]


def _on_the_board(
    image: np.ndarray,
    pyramid: lattice.Pyramid,
    H: np.ndarray,
    found: list[lattice.LinePoints],
    rows: int,
    cols: int,
) -> tuple[np.ndarray, list[lattice.LinePoints]]:
    """The winner's last refinement: on the printed lines between empty cells,
    away from the raised tiles whose tops are seen displaced (see
    :mod:`vision.tiles`), or on every line when the board is empty or too
    full. Keeps the fit as it is when the new one strays (more than a fifth of
    a cell at a corner)."""
    empty = tiles.empty_cells(image, H, rows, cols)
    only = None if empty.all() else tiles.board_segments(empty)
    try:
        H2, found2 = lattice.refine(pyramid, H, rows, cols, iterations=2, reach=0.25, only=only)
    except (np.linalg.LinAlgError, cv2.error):
        return H, found
    moved = apply_homography(H, corners_from_homography(H2, rows, cols)) - grid_corners(rows, cols)
    if not np.all(np.isfinite(moved)) or np.abs(moved).max() > 0.2:
        return H, found
    return H2, found2


def _ends(overhang: float) -> float:
    """Quality factor for lines running on past the border (a block of a larger
    grid, or a grid printed next to another). Real boards show some
    continuation (text beside a printed grid, a ramp's ticks), so only most of
    a side's lines going on counts, up to halving the quality."""
    return 1.0 - 2.0 * max(0.0, overhang - 0.75)


def _recomb(pyramid: lattice.Pyramid, best: Refined, rows: int, cols: int) -> Refined:
    """The winner with each axis's pitch and place re-found from the lines
    (:mod:`vision.comb`), if such a lattice is better supported once refined:
    a lattice that took a row of header art or table for cells, or an
    outline of the whole board for the grid, has the true one beside it."""
    H = best[1]
    starts: list[tuple[np.ndarray, np.ndarray | None]] = []
    for other in _combs(pyramid, H, rows, cols):
        moved = apply_homography(H, corners_from_homography(other, rows, cols))
        if np.all(np.isfinite(moved)) and np.abs(moved - grid_corners(rows, cols)).max() > 0.25:
            starts.append((other, None))
    ranked = _rank(pyramid, starts, rows, cols)
    found = _refine_best(pyramid, [H for _, H, _ in ranked[:RECOMB_TOP]], rows, cols)
    if found is None or found[0] <= best[0]:
        return best
    # Only another placement counts (its corners moved half a cell on average):
    # a lattice that settled nearer is the winner pulled by raised tiles'
    # displaced edges.
    moved = apply_homography(H, corners_from_homography(found[1], rows, cols))
    shift = np.linalg.norm(moved - grid_corners(rows, cols), axis=1).mean()
    return found if shift >= 0.5 else best


def recounted(H: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """Lattices with ``H``'s directions whose pitch along one axis is another
    multiple of ``H``'s: the grid's ``n`` cells spanning ``m`` of ``H``'s for
    each ``m`` that ``RECOUNTS`` names (``n + d``, or ``n`` times a float),
    with either end line of ``H`` on each of the grid's lines; then
    those at twice ``H``'s pitch along both axes (:func:`twice_both_ways`).

    >>> starts = recounted(np.eye(3), 6, 6)
    >>> len(starts)
    217
    >>> S = starts[7 + 3]  # six cells over three of H's, its last line the grid's fourth
    >>> float(S[0, 0]), float(S[0, 2])
    (2.0, -9.0)
    """
    out = []
    for axis, n in ((0, cols), (1, rows)):
        for d in RECOUNTS:
            m = n * d if isinstance(d, float) else n + d
            for end in (0, n):
                for line in range(n + 1):
                    # grid coordinate = n / m * (H's coordinate - end) + line
                    S = np.eye(3)
                    S[axis, axis], S[axis, 2] = n / m, line - n / m * end
                    out.append(S @ H)
    return out + twice_both_ways(H, rows, cols)


def twice_both_ways(H: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """Lattices at twice ``H``'s pitch along both axes, ``H`` a quarter of
    the grid with its first corner at every half cell of the grid's first
    half (it may lie on the grid's middle lines: see ``RECOUNTS``).

    >>> starts = twice_both_ways(np.eye(3), 6, 6)
    >>> len(starts)
    49
    >>> S = starts[-1]  # H's cells halves of the grid's, H's corner at its centre
    >>> float(S[0, 0]), float(S[0, 2]), float(S[1, 2])
    (0.5, 3.0, 3.0)
    """
    return [
        np.array([[0.5, 0.0, gx], [0.0, 0.5, gy], [0.0, 0.0, 1.0]]) @ H
        for gx in np.arange(cols + 1) / 2
        for gy in np.arange(rows + 1) / 2
    ]


def _recount(pyramid: lattice.Pyramid, best: Refined, rows: int, cols: int) -> Refined:
    """The winner, or a lattice with its directions and a multiple of its
    pitch along one axis (:func:`recounted`), whichever is better supported
    once refined. Tiles' raised sides seen at a slant, a star in each tile,
    the half-cell ticks of a ramp's rail: lines at a pitch near the grid's,
    or half of it, which a lattice can settle on with its cells miscounted
    (fresh 13211: six cells across eight columns' lines, 0.46 against the
    true grid's 0.88; fresh 13728: six across three, 0.50 against 0.86). A
    refinement only mends a start within about 0.4 of a cell of the grid, so
    the starts are every such recount, ranked quickly, the best refined."""
    ranked = _rank(pyramid, [(S, None) for S in recounted(best[1], rows, cols)], rows, cols)
    found = _refine_best(pyramid, [S for _, S, _ in ranked[:RECOMB_TOP]], rows, cols)
    if found is None or found[0] <= best[0]:
        return best
    return found


def _neighbours(pyramid: lattice.Pyramid, best: Refined, rows: int, cols: int) -> Refined:
    """The winner, or the placement a cell beside it (of eight) that is
    better supported once refined, and from there again, up to
    NEIGHBOUR_STEPS cells. A full ramp's tiles, its rim and the table's
    edge make a lattice of cell-sized lines one cell past the grid on two
    sides; the true grid, one cell in, sees its own printed lines. Each
    step starts afresh from where the last settled, so a step the wrong
    way can be taken back (fresh simulated BITS 17823: the grid, refined
    with a corner a fifth of a cell out, 0.77; a column left, 0.83; from
    there a column right, the grid again, 0.88. One step stopped a column
    off, every tile read a column over)."""
    for _ in range(NEIGHBOUR_STEPS):
        H = best[1]
        shifted = [
            np.array([[1.0, 0.0, -dx], [0.0, 1.0, -dy], [0.0, 0.0, 1.0]]) @ H
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if dx or dy
        ]
        ranked = _rank(pyramid, [(S, None) for S in shifted], rows, cols)
        found = _refine_best(pyramid, [S for _, S, _ in ranked], rows, cols)
        if found is None or found[0] <= best[0]:
            break
        best = found
    return best


def _refine_best(
    pyramid: lattice.Pyramid,
    starts: list[np.ndarray],
    rows: int,
    cols: int,
    quick: list[float] | None = None,
    won: list[int] | None = None,
) -> Refined | None:
    """Refine the starts in order and keep the best; stop at a convincing one.

    A start within ``SAME_PLACE`` cells of a lattice already refined would
    settle on it again, so it is skipped; with ``quick`` (the starts' quick
    ranks), once the best is convincing, starts ranked ``LAGGING`` below it
    end the search."""
    best: Refined | None = None
    done: list[np.ndarray] = []
    for n, H in enumerate(starts):
        k = len(done)
        lagging = quick is not None and best is not None and quick[n] < best[0] - LAGGING
        if lagging and best is not None and best[0] >= CONVINCING:
            break
        if any(_same_place(H, D, rows, cols) for D in done):
            continue
        try:
            H2, found, s = lattice.refine_supported(pyramid, H, rows, cols, REFINE_PASSES)
            rank = s.value
            if square_misfit(H2, (pyramid.shape[1], pyramid.shape[0])) > MAX_MISFIT:
                # Not square cells through any lens: half a board stretched
                # over the grid, lines of the ramp taken for cells.
                done.append(H2)
                continue
            # A grid that ends at its border beats a block cut from a larger one
            # (the check costs a look; it can only lower a rank, so skip it for
            # a candidate that is already behind).
            if best is None or rank > best[0]:
                rank *= _ends(lattice.overhang(pyramid, H2, rows, cols))
        except (np.linalg.LinAlgError, cv2.error):
            continue
        done.append(H2)
        if best is None or rank > best[0]:
            best = (rank, H2, s, found)
            if won is not None:
                won[:] = [n]
        if k >= 1 and best[0] >= CONVINCING:
            break  # the ranking's top two rarely both miss when one is this clear
    return best


def _same_place(H: np.ndarray, other: np.ndarray, rows: int, cols: int) -> bool:
    """Whether lattice ``other`` has its corners within ``SAME_PLACE`` cells of
    ``H``'s (measured in ``H``'s cells), whatever their names (the same grid
    turned a quarter is the same place)."""
    try:
        moved = apply_homography(H, corners_from_homography(other, rows, cols))
    except np.linalg.LinAlgError:
        return False
    gap = np.abs(moved[:, None, :] - grid_corners(rows, cols)[None, :, :]).max(axis=2)
    return bool(np.all(gap.min(axis=1) < SAME_PLACE))
