"""From a camera frame to what a board shows: find it, keep it oriented, read it.

The expensive parts live in ``vision`` (the grid search, the colour reader);
this module decides when and how the tracker uses them:

- :func:`find_boards`: up to 4 boards of one size in one view (4 BITS ramps),
  each found by the locator with the ones already found painted out,
  ordered left to right;
- corner orders: a located grid's corners come "as the image is upright";
  a tracker needs them "as the board is upright" (row 0 = the ramp's top),
  kept across a knock of the camera (:func:`orient_like`) and chosen once
  from what the game knows (:func:`choose_turn`);
- :func:`read_board`: rectify and read one frame's cells.

Quarter turns follow ``numpy.rot90`` (anticlockwise as the image shows it):
the board read with corners :func:`turned` by ``k`` equals the board read
before, turned with ``numpy.rot90(codes, k)``.

>>> c = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
>>> turned(c, 1).tolist()
[[10.0, 0.0], [10.0, 10.0], [0.0, 10.0], [0.0, 0.0]]
>>> orient_like(turned(c, 3), c).tolist() == c.tolist()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from device.track.vote import Observation
from vision.glare import Highlight
from vision.gridfit import GridFit
from vision.lines import side_ridges
from vision.locate import locate_grid
from vision.orientation import support_score
from vision.palette import Palette
from vision.reader import Reading, read_cells, rectify_around

# Pixels per cell of the rectified board the reader sees (a multiple of 4:
# one warp gives the board and the margin around it, see rectify_around).
CELL_PX = 24
MAX_BOARDS = 4
# What one unit of support (:func:`vision.orientation.support_score`) is
# worth when choosing the way up; the weights below are in these units.
GRAVITY_WEIGHT = 4.0
# Turns whose tiles rest within this of the chosen one's (gravity counts
# GRAVITY_WEIGHT per unit of support) stay in question for the next tiles.
SLIDE_LEAD = 0.9
# What the picture's own upright is worth when choosing the way up (same
# units): a level camera is the rule, a camera turned a quarter the exception.
UPRIGHT_PRIOR = 1.5
# What the tile's colour seen on one side of it only is worth (more than the
# prior: the way in, seen, beats the habit).
TRACK_WEIGHT = 2.0
# What the ramp's frame, clearly widest on one edge (the drop zone at the
# top: :func:`vision.orientation.top_edge`), is worth: more than the prior
# and the track together, far less than one tile hanging in the air.
FRAME_WEIGHT = 4.0
# A found board is painted out this much beyond its outline before searching again.
PAINT_MARGIN = 0.08
# The first tiles that may still show the way up chosen was wrong.
OPEN_TILES = 3


def turned(corners: np.ndarray, quarter_turns: int) -> np.ndarray:
    """Corners ``UL UR LR LL`` of the same grid turned ``quarter_turns`` times
    anticlockwise (the new upper-left is the old upper-right, for one turn)."""
    return np.roll(np.asarray(corners, np.float64), -quarter_turns, axis=0)


def orient_like(corners: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """``corners`` in the cyclic order closest to ``previous`` (the same grid
    seen again after the camera moved a little)."""
    options = [turned(corners, k) for k in range(4)]
    costs = [float(np.linalg.norm(o - previous, axis=1).sum()) for o in options]
    return options[int(np.argmin(costs))]


def with_corners(fit: GridFit, corners: np.ndarray) -> GridFit:
    """The same fit with its corners in another order (or moved)."""
    return GridFit.from_corners(corners, fit.rows, fit.cols, fit.quality, fit.method)


def _paint_out(image: np.ndarray, corners: np.ndarray) -> None:
    centre = corners.mean(axis=0)
    grown = centre + (corners - centre) * (1 + 2 * PAINT_MARGIN)
    fill = [int(v) for v in np.median(image.reshape(-1, image.shape[-1]), axis=0)]
    cv2.fillConvexPoly(image, np.round(grown).astype(np.int32), fill)


def find_boards(
    image: np.ndarray,
    rows: int,
    cols: int,
    count: int = 1,
    hints: Sequence[np.ndarray | None] = (),
) -> list[GridFit]:
    """Up to ``count`` grids of ``rows`` x ``cols`` in ``image``, left to right.

    ``hints``: corners where boards were before (tried first). Each board
    found is painted over before the next search, so the locator never
    finds the same one twice."""
    if not 1 <= count <= MAX_BOARDS:
        raise ValueError(f"one view holds 1 to {MAX_BOARDS} boards, not {count}")
    work = image.copy()
    found: list[GridFit] = []
    pending_hints = [np.asarray(h, np.float64).tolist() for h in hints if h is not None]
    while len(found) < count:
        hint = pending_hints.pop(0) if pending_hints else None
        fit = locate_grid(work, rows, cols, hint=hint)
        if fit is None:
            if hint is not None:
                continue
            break
        found.append(fit)
        if len(found) < count:
            _paint_out(work, fit.corners)
    found.sort(key=lambda f: (float(f.corners[:, 0].mean()), float(f.corners[:, 1].mean())))
    return found


def read_board(
    image: np.ndarray,
    fit: GridFit,
    palette: Palette,
    gains: np.ndarray | None = None,
    fit_palette: bool = False,
    highlight: Highlight | None = None,
    look_for_highlight: bool = False,
    expected: Sequence[str] | None = None,
) -> Reading:
    """Read every cell of the board ``fit`` shows in ``image`` (BGR uint8).

    ``highlight``: a lamp's highlight found before, taken off first;
    ``look_for_highlight``: look for one in this frame (the first look, a
    new light) unless the board prints a symbol in every cell; the reading
    says what was found (``Reading.highlight``); ``expected``: the board as
    the game knows it, in the fit's orientation (see :func:`vision.reader.read_cells`)."""
    # With a little of what lies beyond the grid: its printed outline tells
    # an empty edge cell from a covered one.
    board, around = rectify_around(image, fit.homography, fit.rows, fit.cols, CELL_PX)
    reading = read_cells(
        board,
        fit.rows,
        fit.cols,
        palette,
        gains=gains,
        fit=fit_palette,
        highlight=highlight,
        look_for_highlight=look_for_highlight,
        around=around,
        expected=expected,
    )
    # The printed lines, to tell what changed between looks where colour
    # barely does (see vision.lines.lines_changed).
    return replace(reading, ridges=side_ridges(around, fit.rows, fit.cols, margin=True, near=True))


def _floating(codes: np.ndarray, empty: str) -> int:
    """Covered cells with an empty cell right below them (BITS: impossible
    at rest, but for the one hole a horizontal tile may leave)."""
    covered = codes != empty
    below_empty = np.zeros_like(covered)
    below_empty[:-1] = ~covered[1:]
    return int(np.count_nonzero(covered & below_empty))


def choose_turn(
    codes: np.ndarray,
    accepted: Sequence[str] | None,
    game: str,
    symbols: np.ndarray | None = None,
    layout: Sequence[str] | None = None,
) -> tuple[int, bool]:
    """The quarter turns (0-3) that put a square board read as ``codes``
    (palette codes, ``numpy.rot90`` convention) the way the game has it,
    and whether that was decided (False: a tie, e.g. an empty BITS ramp,
    which looks the same every way round; 0 is returned).

    Votes, in order: agreement with the game's board ``accepted``; for LITS,
    the printed ``symbols`` read against the game's ``layout``; for BITS,
    gravity (tiles rest on the bottom or on tiles)."""
    if codes.shape[0] != codes.shape[1]:
        return 0, True
    scores = []
    for k in range(4):
        c = np.rot90(codes, k)
        score = 0.0
        if accepted is not None:
            score += float(np.count_nonzero(c == np.array([list(r) for r in accepted])))
        if game == "lits" and symbols is not None and layout is not None:
            s = np.rot90(symbols, k)
            lay = np.array([list(r) for r in layout])
            printed = np.isin(s, ["X", "O"]) | np.isin(lay, ["X", "O"])
            score += float(np.count_nonzero((s == lay) & printed))
        if game == "bits":
            score += support_score(c != ".")
        scores.append(score)
    best = max(scores)
    return scores.index(best), scores.count(best) == 1


def slide_turn(
    filled: np.ndarray,
    new: np.ndarray,
    track: np.ndarray,
    margin: int,
    top: tuple[int, float] = (0, 0.0),
) -> tuple[int, list[int]]:
    """BITS: the quarter turns that make the new tiles rest on the bottom
    edge or on tiles *and* put the way they came in above them, and the
    other turns gravity alone cannot rule out (a tile in a corner rests as
    well flat on the bottom row as standing against a side wall), best
    first.

    ``filled`` (rows, cols) bool: the cells the game holds a tile on (in
    the picture's frame; a misread of some other cell must not tip the
    balance); ``new`` (rows, cols) bool: the new cells; ``track`` (rows +
    2*margin, cols + 2*margin): in how many moving frames each cell (and
    the ring) showed the new tile's colour. A tile is held over the ramp's
    top and slides down its column: the right way up, its colour was seen
    above it, never below. ``top``: the edge of the picture's frame the
    ramp's frame says is the top, and how sure that is (0-1, see
    :func:`vision.orientation.top_edge`). Without any such sign, the
    picture's own upright wins (cameras are mounted roughly level:
    :data:`UPRIGHT_PRIOR`).

    A tile standing in the picture's upper-right corner lies flat on the
    bottom row turned 3 times, stands against the left wall turned twice:

    >>> corner = np.zeros((6, 6), bool)
    >>> corner[0:2, 5] = True
    >>> slide_turn(np.zeros((6, 6), bool), corner, np.zeros((8, 8)), 1)
    (3, [2])
    >>> slide_turn(np.zeros((6, 6), bool), corner, np.zeros((8, 8)), 1, top=(2, 1.0))
    (2, [3])
    """
    gravity, scores = [], []
    for k in range(4):
        n, tr = np.rot90(new, k), np.rot90(track, k)
        gravity.append(GRAVITY_WEIGHT * support_score(np.rot90(filled, k) | n))
        score = gravity[-1] + FRAME_WEIGHT * top[1] * (k == top[0] % 4)
        above = below = 0.0
        for col in np.flatnonzero(n.any(axis=0)):
            rows = np.flatnonzero(n[:, col])
            above += tr[: rows.min() + margin, col + margin].sum()
            below += tr[rows.max() + margin + 1 :, col + margin].sum()
        if above + below > 0:
            score += TRACK_WEIGHT * (above - below) / (above + below)
        scores.append(score)
    order = sorted(range(4), key=lambda k: (-scores[k] - UPRIGHT_PRIOR * (k == 0), min(k, 4 - k)))
    # The runners-up are the turns where the tiles rest about as well: the
    # other signs may have been misleading (a dark tile on a dark ramp, its
    # track lost in the arm's shadow), the next tiles' rest will tell.
    lead = gravity[order[0]]
    return order[0], [k for k in order[1:] if gravity[k] > lead - SLIDE_LEAD]


def tiles_seen(obs: Observation, held: Sequence[str] = ()) -> np.ndarray:
    """The cells (rows, cols) bool that lie under tiles as far as the way up
    can tell: those the game holds, and new cells read as a tile (or
    unsure) that join another new cell. A tile covers two cells;
    a lone cell read as a colour is a misread (simulated BITS 1896: a lamp's
    glare in the top corner, read as a tile's cell, rested better turned a
    quarter and turned the whole game's board around)."""
    rows = int(obs.codes.shape[0])
    known = np.zeros(obs.codes.shape, bool)
    if len(held) == rows:
        known = np.array([[ch != "." for ch in row] for row in held], bool)
    new = np.asarray((obs.codes != ".") | ~obs.sure, bool) & ~known
    _, label, stats, _ = cv2.connectedComponentsWithStats(new.astype(np.uint8), connectivity=4)
    paired = np.asarray(stats[label, cv2.CC_STAT_AREA] >= 2)
    return np.asarray(known | (new & paired), bool)


def wrong_way(filled: np.ndarray, turn: int, held: Sequence[str] = ()) -> float:
    """How much better the tiles ``filled`` (rows, cols) bool rest when the
    board is turned ``turn`` more quarter turns (support score difference;
    above 1, the board is the wrong way up). ``held``: the game's board
    (text rows); once it holds more than :data:`OPEN_TILES` tiles the
    question is closed (minus infinity): a fuller board rests about as well
    any way round, and a few misread cells (or a ramp emptied for a new
    round) must not turn it."""
    if sum(ch != "." for row in held for ch in row) > 2 * OPEN_TILES:
        return float("-inf")
    return support_score(np.rot90(filled, turn)) - support_score(filled)
