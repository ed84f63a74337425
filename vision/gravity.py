"""BITS tiles rest: a reading where a tile floats is probably wrong there.

Tiles slide down the ramp and stop on the bottom edge or on another tile. A
hole can stay only under the other half of a lying tile (an overhang). So a
cell read as a tile with an empty cell straight below it, and with no resting
tile beside it, floats: when the empty board was nearly as good a match (a
dark board print and a black tile differ by a few ΔE), it is the board.
Unsure cells in such places are settled the same way. The board must be the
right way up (row 0 = the ramp's top): see :mod:`vision.orientation`.

The neutral tile is a grey domino, grey on both halves, so a grey cell with
no grey neighbour is misread (a black tile lifted by glare, a dark board
print): it takes its next best colour, or ``?``, and where a tile would float
it is the board whatever its colour said. And every tile covers two cells:
when the filled cells cannot all be paired into dominoes that each rest
(a lying tile on the bottom or with a filled cell under either half, a
standing one with a filled cell under its lower half; grey only with grey),
the cheapest one or two cells to flip between board and tile that pair them
are flipped (a right reading of a legal board always pairs so). A cell read
plainly as the board is not made a tile: a tile dropped in mid-air, an
illegal drop the engine must flag, keeps its holes (INVENT_SLACK). A
black starting tile (no symbol) on a dark print, read as the board under a
tile that stood on it, is found this way: the tile above cannot rest.

>>> import numpy as np
>>> codes = np.array([list("..K."), list("...."), list("RRYB")])
>>> scores = np.zeros((3, 4, 2))        # entries: '.', 'K'
>>> scores[..., 0] = np.where(codes == ".", 0.0, 7.0)   # K cell: board 7 away...
>>> scores[..., 1] = np.where(codes == "K", 3.0, 20.0)  # ...K only 3
>>> ["".join(row) for row in settled(codes, scores, (".", "K"))[0]]
['....', '....', 'RRYB']
"""

from __future__ import annotations

import itertools

import numpy as np

from vision.classify import BARE_PENALTY, print_cost

# A floating tile cell becomes board when the board's match is within this
# many ΔE of the tile's (ΔE-equivalent scores).
SLACK = 8.0
# The neutral tile is a grey domino: both halves grey. A cell read grey with
# no grey beside it is something else (a glared black tile, a shadowed
# board): its next best code when that is within LONE_SLACK, else unsure.
NEUTRAL = "N"
LONE_SLACK = 15.0
# Every tile covers two cells, so the filled cells of a right reading can be
# paired into dominoes. When they cannot, the cheapest one or two cells to
# flip between board and tile (ΔE-equivalent cost: how much worse the
# other reading fits) that make them pair up, each within FLIP_SLACK, are
# flipped; among the CANDIDATES cheapest cells only.
FLIP_SLACK = 20.0
CANDIDATES = 8
# A cell read as the board is made a tile only within INVENT_SLACK: a tile
# dropped illegally in mid-air (RULES.md: what a camera can see go wrong)
# leaves a hole under it that reads plainly as the board, and inventing a
# black tile there would hide the very drop the engine must flag (simulated
# BITS 13706, 14165, 14540: holes 11-17 nearer the board than black, filled
# with black). The black tiles the pairing rightly finds on the dark
# classic print read within 10 of the board (within 14 without a profile,
# where the fitted palette is rougher). On the fresh tables 13100-13399,
# 13600-13749 and 14050-14549 read with a profile a cap of 10 gave the
# same boards; 8 and 14 one fewer each (13368's black half found at 9;
# 14165's holes 12-13 from black).
INVENT_SLACK = 12.0
# Unsure cells the dominoes may decide (every way of filling them is tried),
# and how much nearer its best tile colour a covered one must be than its
# next (else which tile it is stays unsure).
MAX_UNSURE = 6
TILE_MARGIN = 5.0
# A state of an unsure cell in _decided: covered by a tile of some colour
# other than grey (pairing asks only whether a cell is covered, and grey).
ANY_TILE = -1
# Every round starts with a starting tile: a double without a symbol,
# dropped on the empty ramp (RULES.md), so a ramp with tiles shows one
# lying on the bottom row or standing on the bottom edge. Its halves show
# no print, as the board does; only where the tiles carry symbols (this
# share of the cells read as tiles show print) does "no print" say so.
SYMBOL_TILES = 0.5


def _resting(full: np.ndarray) -> np.ndarray:
    """Cells that rest: on the bottom row, on a resting cell, or beside one
    on the same row (the other half of a lying tile over a hole)."""
    rows = full.shape[0]
    rest = np.zeros_like(full)
    rest[-1] = full[-1]
    for r in range(rows - 2, -1, -1):
        row = full[r] & rest[r + 1]
        # a lying tile's second half rests through its neighbour
        grown = row.copy()
        for _ in range(full.shape[1]):
            left = np.zeros_like(grown)
            left[1:] = grown[:-1]
            right = np.zeros_like(grown)
            right[:-1] = grown[1:]
            new = grown | (full[r] & (left | right))
            if np.array_equal(new, grown):
                break
            grown = new
        rest[r] = grown
    return rest


def settled(
    codes: np.ndarray,
    scores: np.ndarray,
    entry_codes: tuple[str, ...],
    empty: str = ".",
    bare: np.ndarray | None = None,
    greyish: np.ndarray | None = None,
    printed: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Codes (rows, cols) with lone grey cells and floating near-board cells
    fixed (see the module docstring), and a mask of changes.

    ``scores`` (rows, cols, K): each palette entry's distance (Reading.scores);
    ``entry_codes``: the palette's codes (K,), so the board's entries are known;
    ``bare`` (rows, cols) bool: cells showing no print (see :func:`_starting`);
    ``greyish`` (rows, cols) bool: cells whose colour looks grey (see
    :func:`_decided`; without it, the cells read grey); ``printed``
    (rows, cols): each cell's share of print, when known (see
    :func:`_starting`)."""
    board = np.array([c == empty for c in entry_codes])
    if not board.any():
        return codes, np.zeros(codes.shape, bool)
    out = _lone_neutrals(codes, scores, entry_codes)
    if bare is not None:
        out = _starting(out, scores, entry_codes, board, empty, bare, printed, greyish)
    board_score = scores[..., board].min(axis=-1)
    best_score = scores.min(axis=-1)
    # A lone grey cell's colour was wrong whatever it said: where a tile
    # would float, only the board is left.
    near_board = (board_score - best_score <= SLACK) | ((codes == NEUTRAL) & (out != NEUTRAL))
    for _ in range(codes.shape[0]):
        full = out != empty
        floating = full & ~_resting(full) & near_board
        if not floating.any():
            break
        out = np.where(floating, empty, out)
    out = _paired(out, scores, entry_codes, board, empty)
    out = _decided(
        out, scores, entry_codes, board, empty, codes == NEUTRAL if greyish is None else greyish
    )
    return out, out != codes


def _filled(codes: np.ndarray, scores: np.ndarray, board: np.ndarray, empty: str) -> np.ndarray:
    """Cells (rows, cols) bool holding a tile: read as one, or unsure with a
    tile colour nearest."""
    return np.asarray(np.where(codes == "?", ~board[scores.argmin(axis=-1)], codes != empty))


def _tile_codes(scores: np.ndarray, board: np.ndarray, lookup: np.ndarray) -> np.ndarray:
    """Each cell's nearest tile colour (rows, cols), whatever it was read as."""
    return np.asarray(lookup[np.where(board, np.inf, scores).argmin(axis=-1)])


def _bottom_pairs(rows: int, cols: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where a tile dropped on the empty ramp rests: standing on the bottom
    edge, or lying on the bottom row."""
    bottom = rows - 1
    standing = [((bottom - 1, c), (bottom, c)) for c in range(cols)]
    lying = [((bottom, c), (bottom, c + 1)) for c in range(cols - 1)]
    return standing + lying


def _starting(
    codes: np.ndarray,
    scores: np.ndarray,
    entry_codes: tuple[str, ...],
    board: np.ndarray,
    empty: str,
    bare: np.ndarray,
    printed: np.ndarray | None = None,
    greyish: np.ndarray | None = None,
) -> np.ndarray:
    """Codes with the round's starting tile found where the reading took it
    for the board (see SYMBOL_TILES): a ramp with tiles but no bare double
    at the bottom, where two bare cells there, one or both read as the
    board, would be one (the board's cells as their nearest tile colour,
    not the neutral grey, each within FLIP_SLACK), gets the cheapest such
    pair as that double (simulated BITS 13777: a black starting double
    standing in the corner of the classic near-black print, read as the
    print). Where it is seen, other bare cells read as tiles are looked at
    (:func:`_printed_others`). A single photo only: the tracker knows the
    starting tile from the card.

    A double at the bottom read as one tile colour, showing a little print
    (``printed``: each cell's share), may be the starting tile all the
    same: a neighbour's edge or shadow reads as a trace of print. It is
    taken to be (seen) when disbelieving its print costs less (in the
    classifier's ΔE, :func:`vision.classify.print_cost`) than the
    cheapest pair found, its cells' colour costs forgiven the bare charge
    (simulated BITS 18622: a blue double standing on the bottom edge with
    print 0.03 and 0.08, two tiles on the ramp; a black double was made
    of two empty corner cells of the dark print, 24 from black and 0.2
    from the print). ``greyish`` (rows, cols) bool: cells whose colour
    looks grey (see :func:`_printed_others`)."""
    rows, cols = codes.shape
    full = _filled(codes, scores, board, empty)
    read_tiles = full & (codes != "?")
    if not read_tiles.any() or np.mean(~bare[read_tiles]) < SYMBOL_TILES:
        return codes
    bare_tiles = bare & read_tiles  # (beyond the starting double: the print, see _printed_others)
    pairs = _bottom_pairs(rows, cols)
    seen = [
        (a, b)
        for a, b in pairs
        if full[a] and full[b] and codes[a] == codes[b] != NEUTRAL and bare[a] and bare[b]
    ]
    if seen:
        return _printed_others(codes, scores, board, empty, bare_tiles, seen, greyish)
    tile_code = _tile_codes(scores, board, np.array(entry_codes))
    cost = np.maximum(scores[..., ~board].min(axis=-1) - scores[..., board].min(axis=-1), 0.0)
    best: tuple[float, tuple[tuple[int, int], ...]] | None = None
    # a half read as a tile already keeps its code; a half read as the
    # board (or unsure) takes its nearest tile colour
    said = np.where(read_tiles, codes, tile_code)
    for a, b in pairs:
        if (read_tiles[a] and read_tiles[b]) or not (bare[a] and bare[b]):
            continue
        if said[a] != said[b] or said[a] == NEUTRAL:
            continue
        flip = [c for c in (a, b) if not read_tiles[c]]
        # A bare cell's tile colours that can pass for the print were
        # charged up to BARE_PENALTY for showing no symbol (see
        # vision.classify.bare_penalty); the starting tile shows none, so
        # that much is not held against it (simulated BITS 14245 and
        # 13704: black starting doubles on the classic print, 26 and 24.5
        # nearer the print with the charge, 16 and 14.5 without).
        if max(cost[c] for c in flip) > FLIP_SLACK + BARE_PENALTY:
            continue
        total = float(sum(cost[c] for c in flip))
        if best is None or total < best[0]:
            best = (total, tuple(flip))
    if best is None:
        return codes
    if printed is not None:
        ink = print_cost(printed)
        shown = [
            (float(ink[a] + ink[b]), (a, b))
            for a, b in pairs
            if read_tiles[a] and read_tiles[b] and codes[a] == codes[b] != NEUTRAL
        ]
        forgiven = sum(max(float(cost[c]) - BARE_PENALTY, 0.0) for c in best[1])
        if shown and (cheapest := min(shown))[0] < forgiven:
            return _printed_others(codes, scores, board, empty, bare_tiles, [cheapest[1]], greyish)
    out = codes.copy()
    for c in best[1]:
        out[c] = said[c]
    return out


def _printed_others(
    codes: np.ndarray,
    scores: np.ndarray,
    board: np.ndarray,
    empty: str,
    bare_tiles: np.ndarray,
    seen: list[tuple[tuple[int, int], tuple[int, int]]],
    greyish: np.ndarray | None = None,
) -> np.ndarray:
    """Codes with the bare cells read as tiles beyond the round's starting
    double read as the board, where that is within FLIP_SLACK: a round has
    one starting tile, and every other tile shows a symbol. ``seen``: the
    bare doubles at the bottom that could be it; those no flip could make
    the board are it, else every one is kept (simulated BITS 14110, the
    classic print: the yellow starting double lying in the bottom-left
    corner, and a hole one cell wide and two deep under a purple tile's
    overhang, its lines hidden, read as a bare black double standing on
    the bottom edge). A cell whose colour does not look grey (``greyish``,
    when known) is a tile whatever its print: the print is neutral, and a
    tile's symbol goes unseen under a glare or a shadow's edge (simulated
    BITS 19807: a red and a yellow half, chroma 33 and 41, 16 nearer their
    colours than the print, read as the board). On every cached BITS
    reading (about 11000, tuning tables 13100-20149) such flips were wrong
    51 times of 54; most were undone by the pairing after."""
    cost = scores[..., board].min(axis=-1) - scores[..., ~board].min(axis=-1)
    sure = [(a, b) for a, b in seen if min(cost[a], cost[b]) > FLIP_SLACK]
    others = bare_tiles.copy()
    for a, b in sure or seen:
        others[a] = others[b] = False
    if not others.any():
        return codes
    flip = others & (cost <= FLIP_SLACK) & (codes != NEUTRAL)
    if greyish is not None:
        flip &= greyish
    return np.where(flip, empty, codes)


def _decided(
    codes: np.ndarray,
    scores: np.ndarray,
    entry_codes: tuple[str, ...],
    board: np.ndarray,
    empty: str,
    greyish: np.ndarray | None = None,
) -> np.ndarray:
    """Codes with the unsure cells that the dominoes decide: a ``?`` whose
    colour lies between the board and one tile colour (each within
    FLIP_SLACK of its best), where every way of filling the unsure cells
    that pairs the tiles into resting dominoes agrees on it (empty, or
    covered). At most MAX_UNSURE cells are tried; a board that pairs no
    way (a tile left in mid-air) is left as it is.

    A ramp holds one neutral tile at most (each player has one): a way of
    filling that makes more grey cells than two, or than were read grey,
    does not count (simulated BITS 14434: two cells under a lamp's core,
    nearest grey, beside the neutral tile standing in the next column).
    An unsure cell that looks grey (``greyish``) and is nearest the
    neutral grey may also be its nearest other tile colour: glare lifts a
    black tile to grey, and where only that colour pairs the cell is that
    tile, when it is within FLIP_SLACK of the best and TILE_MARGIN clear of
    the next (13693: a black half under glare, grey 13, black 32, no grey
    beside it). One that pairs only as the board is the board however far
    its colour from the print's: the light print in a shadow, or walled in
    by raised tiles, looks grey (13200 and 13281, the ivory print: cells
    of L* 56-59 where it shows 87-90, no other tile colour near). A cell
    nearest grey that does not look grey is not taken so (6106: a red half
    under a glare, chroma 22, nearest grey at 30 and black at 38, stays
    unsure). One whose tile colour is unclear is also tried as some tile
    not grey (ANY_TILE): where no tile of any colour pairs, it is the board
    (15000: the lamp's core over the print, L* 97, nearest the print and
    every tile colour far; a tile there would float)."""
    unsure = [tuple(int(v) for v in ix) for ix in np.argwhere(codes == "?")]
    if not unsure or len(unsure) > MAX_UNSURE:
        return codes
    lookup = np.array(entry_codes)
    neutral = lookup == NEUTRAL
    best = scores.min(axis=-1)
    tile_k, _, tile_clear = _nearest(scores, board, best)
    colour_k, colour_near, colour_clear = _nearest(scores, board | neutral, best)
    full = codes != empty
    grey = codes == NEUTRAL
    most_grey = max(2, int(np.count_nonzero(grey)))
    # each unsure cell: empty (None), its nearest tile colour, and when that
    # is grey, its nearest other tile colour if that is within FLIP_SLACK
    said_grey = np.zeros(codes.shape, bool) if greyish is None else greyish
    other = colour_near & said_grey
    # (and when no tile colour is clearly its, "some tile not grey"
    # (ANY_TILE): where no tile of any colour pairs, the cell is the board
    # however unsure its colour, a lamp's core over the print)
    options = [
        [None, int(tile_k[c])]
        + ([int(colour_k[c])] if neutral[tile_k[c]] and other[c] else [])
        + ([] if tile_clear[c] else [ANY_TILE])
        for c in unsure
    ]
    feasible = []
    for states in itertools.product(*options):
        trial, g = full.copy(), grey.copy()
        for c, k in zip(unsure, states, strict=True):
            trial[c] = k is not None
            g[c] = k is not None and k != ANY_TILE and bool(neutral[k])
        if np.count_nonzero(g) <= most_grey and _dominoes(trial, g):
            feasible.append(states)
    near_board = scores[..., board].min(axis=-1) - best <= FLIP_SLACK
    out = codes.copy()
    for i, c in enumerate(unsure):
        said = {f[i] for f in feasible}
        named = said - {ANY_TILE}
        if ANY_TILE in said and any(k is None or neutral[k] for k in named):
            continue  # covered or not, grey or not: open
        if len(named) != 1:
            continue  # (only ANY_TILE: a tile, of a colour nothing names)
        k = named.pop()
        if k is None or k == tile_k[c]:
            # between the board and its nearest tile colour; or grey, pairing
            # only as the board: the print in shade, however far it looks
            shaded = k is None and neutral[tile_k[c]] and said_grey[c]
            if (near_board[c] or shaded) and (tile_clear[c] or k is None):
                out[c] = empty if k is None else lookup[k]
        elif colour_clear[c]:
            out[c] = lookup[k]  # a grey that cannot be the neutral tile
    return out


def _nearest(
    scores: np.ndarray, excluded: np.ndarray, best: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell's nearest entry (rows, cols) but the ``excluded`` (K,) ones,
    whether it is near (within FLIP_SLACK of ``best``), and whether it is
    clear (near, and TILE_MARGIN nearer than the next)."""
    allowed = np.where(excluded, np.inf, scores)
    order = np.argsort(allowed, axis=-1)
    nearest = allowed.min(axis=-1)
    gap = np.take_along_axis(allowed, order[..., 1:2], axis=-1)[..., 0] - nearest
    near = nearest - best <= FLIP_SLACK
    return order[..., 0], near, near & (gap >= TILE_MARGIN)


def _paired(
    codes: np.ndarray,
    scores: np.ndarray,
    entry_codes: tuple[str, ...],
    board: np.ndarray,
    empty: str,
) -> np.ndarray:
    """Codes whose filled cells pair into resting dominoes, by flipping the
    cheapest one or two cells between board and tile when they do not (see
    FLIP_SLACK); failing that, into dominoes at all.

    A board may hold a tile a player left in mid-air (an illegal drop not yet
    taken back): then no cheap flip makes every tile rest, and the cells
    still have to pair. An unsure cell counts as whatever its best entry is."""
    lookup = np.array(entry_codes)
    best = scores.argmin(axis=-1)
    full = _filled(codes, scores, board, empty)
    grey = np.where(codes == "?", lookup[best] == NEUTRAL, codes == NEUTRAL)
    if _dominoes(full, grey):
        return codes
    board_score = scores[..., board].min(axis=-1)
    tile_score = scores[..., ~board].min(axis=-1)
    cost = np.where(full, board_score - tile_score, tile_score - board_score)
    cost = np.maximum(cost, 0.0)
    order = [tuple(ix) for ix in np.argwhere(cost <= np.where(full, FLIP_SLACK, INVENT_SLACK))]
    order.sort(key=lambda ix: float(cost[ix]))
    order = order[:CANDIDATES]
    floating = int((full & ~_resting(full)).sum())
    sets = [(a,) for a in order] + [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
    tile_code = _tile_codes(scores, board, lookup)

    def cheapest(resting: bool) -> tuple[tuple[int, int], ...] | None:
        found: tuple[float, tuple[tuple[int, int], ...]] | None = None
        for cells in sets:
            total = float(sum(cost[c] for c in cells))
            if found is not None and total >= found[0]:
                continue
            trial, g = full.copy(), grey.copy()
            for c in cells:
                trial[c] = ~trial[c]
                # a cell made a tile is the tile its colour is nearest: a
                # grey one is half of the neutral double, and pairs only so
                # (simulated BITS 13134: an empty cell beside a blue tile
                # made grey, 18 nearer empty, to pair the blue one)
                g[c] = bool(trial[c]) and tile_code[c] == NEUTRAL
            if int((trial & ~_resting(trial)).sum()) > floating:
                continue
            if _dominoes(trial, g & trial) if resting else _dominoes(trial, rest=False):
                found = (total, cells)
        return None if found is None else found[1]

    flips = cheapest(True)
    if flips is None and not _dominoes(full, rest=False):
        flips = cheapest(False)
    if flips is None:
        return codes
    out = codes.copy()
    for c in flips:
        out[c] = empty if full[c] else tile_code[c]
    return out


def _dominoes(full: np.ndarray, grey: np.ndarray | None = None, rest: bool = True) -> bool:
    """Whether the filled cells (rows, cols) can all be paired into dominoes
    that rest (a perfect matching over the resting pairs only: augmenting
    paths, black to white squares of the checkerboard).

    A pair rests when a lying one is on the bottom row or has a filled cell
    under either half, a standing one a filled cell (or the bottom edge)
    under its lower half: whatever tile fills that cell rests in turn, so
    pairs that rest one by one make a board that stands. ``grey`` cells (the
    neutral tile, grey on both halves) pair only with each other. With
    ``rest`` False any two neighbours pair."""
    cells = [tuple(ix) for ix in np.argwhere(full)]
    if len(cells) % 2:
        return False
    black = [c for c in cells if (c[0] + c[1]) % 2 == 0]
    if 2 * len(black) != len(cells):
        return False
    rows, cols = full.shape
    under = np.ones((rows + 1, cols), bool)  # the bottom edge holds like a tile
    under[:rows] = full
    g = np.zeros_like(full) if grey is None else grey
    mate: dict[tuple[int, int], tuple[int, int]] = {}

    def rests(a: tuple[int, int], b: tuple[int, int]) -> bool:
        if g[a] != g[b]:
            return False
        if not rest:
            return True
        if a[0] == b[0]:
            return bool(under[a[0] + 1, a[1]] or under[b[0] + 1, b[1]])
        return bool(under[max(a[0], b[0]) + 1, a[1]])

    def augment(c: tuple[int, int], seen: set[tuple[int, int]]) -> bool:
        r, k = c
        for n in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            if not (0 <= n[0] < rows and 0 <= n[1] < cols and full[n]) or n in seen:
                continue
            if not rests(c, n):
                continue
            seen.add(n)
            if n not in mate or augment(mate[n], seen):
                mate[n] = c
                return True
        return False

    return all(augment(c, set()) for c in black)


def _lone_neutrals(
    codes: np.ndarray, scores: np.ndarray, entry_codes: tuple[str, ...]
) -> np.ndarray:
    """Codes with every grey cell that has no grey neighbour (edge-joined)
    replaced by its next best code, or ``?`` when none is near."""
    grey = codes == NEUTRAL
    if not grey.any():
        return codes.copy()
    is_grey = np.array([c == NEUTRAL for c in entry_codes])
    # an unsure neighbour that may be grey may be the tile's other half
    maybe = grey | (
        (codes == "?") & (scores[..., is_grey].min(axis=-1) - scores.min(axis=-1) <= LONE_SLACK)
    )
    beside = np.zeros_like(grey)
    beside[1:] |= maybe[:-1]
    beside[:-1] |= maybe[1:]
    beside[:, 1:] |= maybe[:, :-1]
    beside[:, :-1] |= maybe[:, 1:]
    lone = grey & ~beside
    out = codes.copy()
    if not lone.any():
        return out
    others = np.where(is_grey, np.inf, scores)
    k = others.argmin(axis=-1)
    near = others.min(axis=-1) - scores.min(axis=-1) <= LONE_SLACK
    lookup = np.array(entry_codes)
    out[lone] = np.where(near, lookup[k], "?")[lone]
    return out
