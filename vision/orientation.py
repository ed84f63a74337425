"""Which edge of a BITS grid is the ramp's bottom, from where the tiles rest.

Tiles slide down the ramp and stop on the bottom edge or on other tiles, so in
the right orientation the filled cells stand in columns on the bottom row
(a hole under an overhanging tile is legal but rare). Turn the board a quarter
and the same tiles hang in the air. Each of the four quarter turns is scored
by how well its filled cells are supported; the margin between the best and
the runner-up is the confidence (0 for an empty board, which says nothing).

The turn convention is :func:`numpy.rot90` with ``k = -quarters`` (clockwise),
the same as ``calibration.orientation``: ``quarters`` clockwise turns of the
grid as read bring the ramp's bottom to the bottom.

Which cells are filled comes from the caller when it knows (the colour reader's
codes), or from the pixels (see :func:`filled_from_pixels`).

Gravity cannot tell the ways up of a tile lying in a corner apart (flat on the
bottom row, or standing against the side wall). The ramp itself can: its top,
where a tile is put down before it slides, is a wide stretch of board, while
the sides carry rails and the bottom a lip close to the grid. :func:`frame_widths`
measures how far the board reaches beyond each edge of the grid before the
table shows; :func:`top_edge` names the edge clearly wider than the others.

>>> cells = np.array([list(r) for r in ["....", "....", "..Y.", "RBYK"]]) != "."
>>> gravity_quarters(cells)
(0, 0.625)
>>> gravity_quarters(np.rot90(cells, -1))[0]  # seen turned clockwise: 3 more turns
3
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.rectify import grid_to_pixels

# CIELAB distance from the empty board beyond which a cell holds a tile.
FILLED_DELTA_E = 22.0
# How far beyond the grid :func:`frame_widths` looks, in cells: past a drop
# zone of a little over two cells, with room to see the table behind it.
FRAME_REACH = 3.0
# A width this close to the reach is the reach (widths are whole pixels).
REACH_TOLERANCE = 0.01
# Frame and table closer than this (CIELAB) cannot be told apart.
FRAME_CONTRAST = 8.0
# Neighbouring lines of one material beside the grid differ by less than
# this (CIELAB; far below the grid line's or a printed border's contrast).
FRAME_FLAT = 5.0


def support_score(filled: np.ndarray) -> float:
    """How well the filled cells rest (row 0 = top), per filled cell: +1 for a
    supported cell, -2 for a floating one, plus a small bonus for a bottom row
    fuller than the top one. A cell is supported on the bottom row, on a filled
    cell, or beside a supported cell (the other half of a lying tile, which
    may overhang a hole). 1.0 is a perfect pile; below 0, tiles hang in the air."""
    full = np.asarray(filled, bool)
    n = int(full.sum())
    if n == 0:
        return 0.0
    below = np.zeros_like(full)
    below[:-1] = full[1:]
    below[-1] = True  # the bottom edge holds the last row
    supported = full & below
    beside = np.zeros_like(full)
    beside[:, 1:] |= supported[:, :-1]
    beside[:, :-1] |= supported[:, 1:]
    supported |= full & beside
    floating = full & ~supported
    fill = (full[-1].sum() - full[0].sum()) / full.shape[1]
    return float(supported.sum() - 2 * floating.sum()) / n + 0.25 * float(fill)


def gravity_quarters(filled: np.ndarray) -> tuple[int, float]:
    """Clockwise quarter turns (0..3) putting the tiles at the bottom, and a
    confidence 0..1: the best score's lead over the runner-up, full at a lead
    of 0.4 (a lead under 0.1 was right only about half the time on simulated
    games, with the true cells given)."""
    scores = [support_score(np.rot90(filled, -k)) for k in range(4)]
    order = np.argsort(scores)[::-1]
    lead = scores[order[0]] - scores[order[1]]
    return int(order[0]), float(np.clip(lead / 0.4, 0.0, 1.0))


def cell_colours(rectified: np.ndarray, rows: int, cols: int, inset: float = 0.25) -> np.ndarray:
    """Median CIELAB (L 0..100, a, b) of each cell's inner patch: ``(rows, cols, 3)``.

    ``rectified``: BGR uint8 from :func:`vision.rectify.rectify`, whole cells of
    equal size. (8-bit Lab: plenty to tell a tile from the board, and fast.)"""
    h, w = rectified.shape[:2]
    ch, cw = h // rows, w // cols
    lab = cv2.cvtColor(np.ascontiguousarray(rectified[: ch * rows, : cw * cols]), cv2.COLOR_BGR2LAB)
    y0, x0 = int(inset * ch), int(inset * cw)
    cells = lab.reshape(rows, ch, cols, cw, 3)[:, y0 : ch - y0, :, x0 : cw - x0]
    patch = cells.transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1, 3)
    med = np.median(patch, axis=2)
    out: np.ndarray = med * np.array([100 / 255, 1.0, 1.0]) - np.array([0.0, 128.0, 128.0])
    return out


def bits_orientation(
    rectified: np.ndarray, rows: int = 6, cols: int = 6, filled: np.ndarray | None = None
) -> tuple[int, float]:
    """``(quarters, confidence)`` for a rectified BITS board (see the module doc).

    ``filled``: ``(rows, cols)`` bool when the caller has read the cells;
    otherwise it is judged from the pixels."""
    if filled is not None:
        return gravity_quarters(np.asarray(filled, bool))
    return gravity_quarters(filled_from_pixels(cell_colours(rectified, rows, cols)))


def filled_from_pixels(colours: np.ndarray) -> np.ndarray:
    """Cells unlike the empty board: ``(rows, cols)`` bool from cell colours.

    The empty board is the colour most cells share: all empty cells are one
    printed colour, while tiles come in five colours (this fails only on a
    nearly full board, where orientation matters least)."""
    flat = colours.reshape(-1, 3)
    near = np.linalg.norm(flat[:, None] - flat[None], axis=2) < FILLED_DELTA_E / 2
    empty = np.median(flat[near[int(np.argmax(near.sum(axis=1)))]], axis=0)
    full: np.ndarray = np.linalg.norm(colours - empty, axis=2) > FILLED_DELTA_E
    return full


def frame_widths(
    image: np.ndarray,
    homography: np.ndarray,
    rows: int,
    cols: int,
    reach: float = FRAME_REACH,
    px: int = 8,
) -> tuple[np.ndarray, np.ndarray]:
    """How far the board reaches beyond each edge of its grid before the
    table shows, in cells: ``(widths, measured)``, each ``(4,)``, for the
    upper, right, lower and left edge of the grid as ``homography`` (image
    pixels -> grid cells) has it; edge ``k`` is the one
    ``numpy.rot90(board, k)`` puts on top.

    The table is what lies ``reach`` cells out on the edges seen that far;
    each edge is followed outwards (the median colour along lines parallel
    to it, so print on the board does not count) until every line beyond
    looks more like the table than like the board just outside the grid.
    ``measured`` is False where the view ends before the table shows (the
    width is then how far the board was seen: a lower bound), and the width
    is NaN where the edge is not seen at all or the board there looks like
    the table. ``image``: BGR uint8."""
    m = round(reach * px)
    size = (cols * px + 2 * m, rows * px + 2 * m)
    warp = grid_to_pixels(px, reach) @ np.asarray(homography, np.float64)
    board = cv2.warpPerspective(image, warp, size, flags=cv2.INTER_AREA)
    seen = cv2.warpPerspective(
        np.full(image.shape[:2], 255, np.uint8),
        warp,
        size,
        flags=cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    lab = cv2.cvtColor(board.astype(np.float32) / 255, cv2.COLOR_BGR2LAB)
    lines, extent = [], []
    for k in range(4):
        colours, inside = np.rot90(lab, k), np.rot90(seen, k) > 0
        span = slice(m + px // 2, colours.shape[1] - m - px // 2)  # the edge, not the corners
        lines.append(np.median(colours[:m, span][::-1], axis=1))  # (m, 3) outwards
        whole = inside[:m, span][::-1].all(axis=1)
        extent.append(m if whole.all() else int(np.argmin(whole)))
    return _widths(np.array(lines), np.array(extent), px)


def _widths(
    lines: np.ndarray, extent: np.ndarray, px: int, near: float = 0.3, run: float = 0.3
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`frame_widths` from each edge's line colours ``(4, m, 3)``
    (outwards) and how many of them the view covers ``(4,)``."""
    m = lines.shape[1]
    widths, measured = np.full(4, np.nan), np.zeros(4, bool)
    n_far = max(1, int(0.4 * px))
    far = [lines[k, -n_far:] for k in range(4) if extent[k] == m]
    if not far:
        return widths, measured
    table = np.median(np.concatenate(far), axis=0)
    start, last_run = int(near * px), round(run * px)
    # the board just outside the grid on each edge (past the grid's outer line)
    frames = np.array([_frame_colour(lines[k], max(1, px // 8), start, px) for k in range(4)])
    apart = np.linalg.norm(frames - table, axis=1) >= FRAME_CONTRAST
    # One edge alone apart from the table says little of the ramp's
    # material: it may be the grid's outer line, taken for the frame where
    # no steady stretch showed (simulated BITS 3638: an ivory ramp on a
    # white table, three edges like the table, the fourth's "frame" the
    # line; every other edge measured against the line looked narrow but
    # the right rail's shadow, named the top surely, and the first tile was
    # recorded a quarter turn off).
    shared = np.median(frames[apart], axis=0) if apart.sum() >= 2 else None
    for k in range(4):
        if extent[k] <= start + last_run:
            continue
        frame = frames[k]
        if not apart[k]:
            # Dark there as the table: a shadow across the strip beside the
            # grid (a side wall's, or a band across the whole ramp), not a
            # frame of another material. The ramp is one material all
            # round: the other edges' frame says what board looks like
            # (simulated BITS 2008: the left strip in shadow left its edge
            # unmeasured, the top's lead counted for nothing, and the
            # first tile was recorded a quarter turn off).
            if shared is None:
                continue
            frame = shared
        seen = lines[k, start : extent[k]]
        to_frame = np.linalg.norm(seen - frame, axis=1)
        tablelike = np.linalg.norm(seen - table, axis=1) < to_frame
        # The table as this edge sees it farthest out, when that is not the
        # frame: a shadow band across the table beside one edge is table,
        # though darker than the table elsewhere and as dark as the frame
        # in it (simulated BITS 3652: a band over the ramp's left rail and
        # the table beside it, measured as 2 cells of frame; the wide top
        # no longer led, and the first tile was recorded a quarter turn
        # off).
        own = np.median(lines[k, extent[k] - n_far : extent[k]], axis=0)
        if np.linalg.norm(own - frame) >= FRAME_CONTRAST:
            tablelike |= np.linalg.norm(seen - own, axis=1) < to_frame
        board = np.flatnonzero(~tablelike)
        last = start + (int(board.max()) + 1 if board.size else 0)
        measured[k] = extent[k] - last >= last_run
        widths[k] = (last if measured[k] else extent[k]) / px
    return widths, measured


def _frame_colour(line: np.ndarray, first: int, start: int, px: int, steady: int = 3) -> np.ndarray:
    """The board's own colour just outside the grid, from one edge's line
    colours ``(m, 3)`` (outwards, ``px`` a cell): the first ``steady``
    lines alike within :data:`FRAME_FLAT`, from ``first`` to half a cell
    past ``start``. The grid's outer line, blurred over a few pixels, and
    a printed border (BITS's dotted red line along the drop zone) change
    from line to line; the frame does not. The lines from ``first`` to
    ``start`` alone landed on the line when the grid was seen large or at
    a slant (simulated BITS 1770, 2122: the drop zone taken for table,
    the first tile recorded a quarter turn off). When no stretch is
    steady so close (a narrow rail, a lip seen at a slant), those lines.

    >>> line = np.array([[37, 0, 5], [45, 0, 6], [37, 0, 5], [47, 0, 7]] + [[70, 0, 9]] * 6, float)
    >>> _frame_colour(line, 1, 2, 8).tolist()
    [70.0, 0.0, 9.0]
    """
    last = start + px // 2 + 1
    steps = np.linalg.norm(np.diff(line[first:last], axis=0), axis=1) < FRAME_FLAT
    for p in range(len(steps) - steady + 2):
        if steps[p : p + steady - 1].all():
            return np.asarray(np.median(line[first + p : first + p + steady], axis=0))
    return np.asarray(np.median(line[first : start + 1], axis=0))


def top_edge(
    widths: np.ndarray, measured: np.ndarray, lead: float = 0.5, reach: float = FRAME_REACH
) -> tuple[int, float]:
    """The edge (0-3, as :func:`frame_widths` numbers them) whose frame is
    wider than every other edge's by ``lead`` cells (the ramp's top, where
    tiles are put in), and how sure that is: 1.0 when every other edge was
    measured, 0.5 when the view cut one off before the table showed (it
    may be wider than it was seen), 0.0 when no edge leads (then the edge
    returned means nothing).

    An edge that looks like the board all the way to ``reach`` was not cut
    off by the view: something there is wider than any drop zone (a side
    wall's shadow on the table, the wall's face seen at a slant). When
    another edge leads the rest, that one is the top, half sure
    (simulated games 937, 1402, 1507: a shadow beyond the wall was taken
    for the top, and the first tile recorded a quarter turn off):

    >>> top_edge(np.array([1.0, 0.8, 1.1, 2.3]), np.ones(4, bool))
    (3, 1.0)
    >>> top_edge(np.array([1.0, 0.8, 0.9, 2.3]), np.array([True, True, False, True]))
    (3, 0.5)
    >>> top_edge(np.array([1.0, 0.8, 1.1, 1.3]), np.ones(4, bool))[1]
    0.0
    >>> top_edge(np.array([0.9, 2.4, 3.0, 0.9]), np.array([True, True, False, True]))
    (1, 0.5)

    An edge cut off at the lip (not seen at all) leaves the top to the
    three seen, half sure; the rails alike say nothing:

    >>> top_edge(np.array([2.4, 1.0, np.nan, 1.1]), np.array([True, True, False, True]))
    (0, 0.5)
    >>> top_edge(np.array([1.2, 1.0, np.nan, 1.1]), np.array([True, True, False, True]))[1]
    0.0

    Nor is such an edge the top when no other leads: it is the widest, as
    anything beyond the reach would be (simulated BITS 1964: the table
    beside the right rail in a shadow as dark as the frame).

    >>> top_edge(np.array([2.4, 3.0, 2.1, 1.5]), np.array([True, False, False, True]))[1]
    0.0
    """
    if np.isnan(widths).all():
        return 0, 0.0
    beyond = ~np.asarray(measured, bool) & (np.nan_to_num(widths) >= reach - REACH_TOLERANCE)
    inside = [k for k in range(4) if not beyond[k]]
    if beyond.any() and len(inside) >= 2 and not np.isnan(widths[inside]).any():
        leader = _leading(widths, inside, lead)
        if leader is not None:
            return leader, 0.5
    best = int(np.nanargmax(widths))
    others = [k for k in range(4) if k != best]
    # One edge cut off by the view at the lip, the two beside the widest
    # measured: the cut one may be the wide one, as an edge seen a little
    # way may (below), but a ramp has one wide edge: the widest of the
    # three seen, leading the other two, is the top, half sure (simulated
    # BITS 2758: the top 2.4 cells wide, the rails 1.0 and 1.1, the lip out
    # of the picture; no sign counted, a black double's slide left no track
    # on the dark print, and the board was recorded a quarter turn off, the
    # whole game after it).
    cut = [k for k in others if np.isnan(widths[k]) and not measured[k]]
    if (
        len(cut) == 1
        and all(measured[k] for k in others if k not in cut)
        and _leading(widths, [k for k in range(4) if k != cut[0]], lead) is not None
    ):
        return best, 0.5
    if any(np.isnan(widths[k]) for k in others):
        return best, 0.0  # an edge not seen at all, or like the table
    if _leading(widths, range(4), lead) is None or beyond[best]:
        return best, 0.0
    return best, 1.0 if all(measured[k] for k in others) else 0.5


def _leading(widths: np.ndarray, edges: Iterable[int], lead: float) -> int | None:
    """The one of ``edges`` (none NaN) wider than each other by ``lead``, if any.

    >>> _leading(np.array([0.9, 2.4, 3.0, 0.9]), [0, 1, 3], 0.5)
    1
    """
    edges = list(edges)
    best = max(edges, key=lambda k: widths[k])
    return best if widths[best] - max(widths[k] for k in edges if k != best) >= lead else None
