"""LITS pieces are whole tetrominoes: a reading whose pieces do not fit is wrong there.

Every LITS piece is one solid tetromino whose colour follows from its shape
(the L is red, the I yellow, the T green, the S blue). However a game goes,
legal or not, the covered cells of a real board are therefore split exactly
into such pieces. A reading that cannot be split so has misread some cell: a
red L under a warm lamp read yellow beside a real I (seven "yellow" cells), a
piece's corner under a highlight read as the board, a glared board cell read
as a piece.

:func:`pieced` finds, among the readings that do split into pieces, the one
that fits the colours best (the sum of each cell's ΔE-equivalent distance to
what it is said to be). Which piece a covered cell belongs to is the
shape's to say, whatever the colour (a lamp tints plastic); whether a cell
is covered at all flips only where board and piece fit within ``SLACK`` of
each other (the printed symbols and lines tell them apart well), and the
shape overrules at most one piece's worth of clear colours in a group of
touching cells (``MAX_OVERRULED``). A cell
that turns from piece to board reads ``?``: its printed symbol was not read
under the piece's colour. When no split exists within the slack the
reading is left as it was, for the rules to report.

>>> import numpy as np
>>> # A red L (top row and the cell under its left end) read yellow beside a
>>> # yellow I: seven "yellow" cells and one red.
>>> codes = np.array([list("III......."), list("LIIII.....")] + [list("..........")] * 8)
>>> scores = np.full((10, 10, 5), 60.0)   # entries: '.', 'L', 'I', 'T', 'S'
>>> scores[..., 0] = np.where(codes == ".", 2.0, 60.0)
>>> scores[..., 2] = np.where(codes == "I", 4.0, 60.0)
>>> scores[1, 0, 1] = 3.0
>>> scores[0, :3, 1] = 11.0   # the top row fits red nearly as well
>>> fixed, changed = pieced(codes, scores, (".", "L", "I", "T", "S"))
>>> ["".join(r) for r in fixed[:2]]
['LLL.......', 'LIIII.....']
>>> int(changed.sum())
3
"""

from __future__ import annotations

import numpy as np

from engine.lits.bitboard import SIZE
from engine.lits.decode import recoloured
from engine.lits.pieces import LETTERS, PLACEMENTS
from engine.regions import regions

# A cell may be said to be something else than its best match when that
# fits within this many ΔE-equivalent: two colours a lamp can confuse (red
# and yellow under a warm light, a piece's edge and the board under glare)
# are within it, two clear colours are not.
SLACK = 20.0
# The search is exact (branch and bound over the cells in reading order);
# a board whose near ties leave more than this many partial splits to try
# is left as read rather than holding up the frame.
MAX_NODES = 50_000
UNSURE = "?"
# The shape may overrule the colour of at most one piece's cells in a group
# (a lamp tints a piece): a split that must recolour more is not settling a
# doubt but rewriting the reading (LITS 5123: a red L's corner under glare
# read as the board, and the only split recoloured 19 clear cells around it).
MAX_OVERRULED = 4

Cell = tuple[int, int]
# Each piece as it can lie, keyed by its first cell in reading order (where
# a split in reading order must place it).
_STARTING_AT: dict[Cell, list[tuple[str, tuple[Cell, ...]]]] = {}
for _p in PLACEMENTS:
    _STARTING_AT.setdefault(_p.cells[0], []).append((_p.shape, _p.cells))


def pieced(
    codes: np.ndarray, scores: np.ndarray, entry_codes: tuple[str, ...], *, slack: float = SLACK
) -> tuple[np.ndarray, np.ndarray]:
    """Codes (10, 10) split into whole pieces (see the module docstring),
    and the mask of cells changed.

    ``codes``: letters for pieces, ``X`` ``O`` ``.`` for uncovered cells,
    ``?`` unsure; ``scores`` (10, 10, K): each palette entry's distance
    (:attr:`vision.reader.Reading.scores`); ``entry_codes``: the palette's
    codes (K,), entries whose code is not a piece letter are the board.
    The mask also holds the unsure cells nearest a piece's colour that the
    split leaves uncovered: they stay ``?`` (their symbol was not read),
    but are known to be the board."""
    unchanged = codes, np.zeros(codes.shape, bool)
    if codes.shape != (SIZE, SIZE) or scores.shape[:2] != codes.shape:
        return unchanged
    lookup = np.array(entry_codes)
    is_piece = np.isin(lookup, list(LETTERS))
    if is_piece.all() or not all((lookup == letter).any() for letter in LETTERS):
        return unchanged
    # cost[..., 0]: the board; cost[..., 1 + i]: piece LETTERS[i]
    board = scores[..., ~is_piece].min(axis=-1)
    cost = np.stack([board] + [scores[..., lookup == ch].min(axis=-1) for ch in LETTERS], axis=-1)
    # Four cells of one colour in another piece's shape are that piece
    # whatever the colours say (a palette fitted to a board with no yellow
    # piece can call every red cell yellow): the shape comes first.
    rows, _ = recoloured(["".join(row) for row in codes.tolist()])
    shaped = np.array([list(row) for row in rows])
    said = _said(shaped, cost)
    # Board or piece is told apart well (the printed symbols, the lines, a
    # bright print against saturated plastic): only a near tie may flip it.
    # Which piece is told by the split: a region of four cells has one
    # shape, so its colour, however a lamp tints the plastic.
    piece = cost[..., 1:].min(axis=-1)
    least = np.minimum(cost[..., 0], piece)
    allowed = np.empty(cost.shape, bool)
    allowed[..., 0] = cost[..., 0] <= least + slack
    allowed[..., 1:] = (piece <= least + slack)[..., None]
    for cell, label in said.items():
        allowed[cell][label] = True
    # Only cells that could be a piece take part; each group of them that
    # touches is split on its own.
    maybe = np.asarray(allowed[..., 1:].any(axis=-1))
    out = shaped.copy()
    settled = np.zeros(codes.shape, bool)
    near = cost <= least[..., None] + slack
    for group in _groups(maybe):
        split = _cheapest_split(group, cost, allowed)
        if split is None or _overruled(split, said, near) > MAX_OVERRULED:
            continue
        for cell, label in split.items():
            if label > 0 and shaped[cell] == UNSURE:
                # An unsure cell the split covers is that piece's: its
                # letter is the shape's (three sure cells and this one).
                out[cell] = LETTERS[label - 1]
            elif label == said[cell]:
                continue
            elif label > 0:
                out[cell] = LETTERS[label - 1]
            elif shaped[cell] in LETTERS:
                out[cell] = UNSURE  # uncovered, but its symbol was not read
            else:
                # unsure, nearest a piece's colour, but no piece fits it
                # (a lamp's core washed it out beside whole pieces): the
                # board, its symbol still unread
                settled[cell] = True
    return out, (out != codes) | settled


def _overruled(split: dict[Cell, int], said: dict[Cell, int], near: np.ndarray) -> int:
    """Cells a split names as something their colour does not allow (beyond
    the slack of their best fit) and the reading did not say."""
    return sum(1 for cell, label in split.items() if label != said[cell] and not near[cell][label])


def _said(codes: np.ndarray, cost: np.ndarray) -> dict[Cell, int]:
    """What the reading says of each cell: 0 board, 1 + i piece LETTERS[i];
    an unsure cell counts as its best match."""
    said: dict[Cell, int] = {}
    for (r, c), code in np.ndenumerate(codes):
        if code in LETTERS:
            said[(r, c)] = 1 + LETTERS.index(code)
        elif code == UNSURE:
            said[(r, c)] = int(np.argmin(cost[r, c]))
        else:
            said[(r, c)] = 0
    return said


def _groups(mask: np.ndarray) -> list[list[Cell]]:
    """Cells of ``mask`` joined by edges, each group in reading order."""
    rows = ["".join("#" if v else "." for v in row) for row in mask.tolist()]
    return [sorted(cells) for _, cells in regions(rows, "#")]


def _cheapest_split(
    group: list[Cell], cost: np.ndarray, allowed: np.ndarray
) -> dict[Cell, int] | None:
    """The labels (0 board, 1 + i a piece of LETTERS[i]) of the group's cells
    that split its covered cells into whole pieces at the least total cost;
    ``None`` when none does within the slack, or when the search gives up
    (MAX_NODES). A reading that already splits comes back as it is."""
    inside = set(group)
    floor = {cell: float(cost[cell][allowed[cell]].min()) for cell in group}
    labels: dict[Cell, int] = {}
    best: list[tuple[float, dict[Cell, int]]] = []
    nodes = 0

    def search(i: int, spent: float, left: float) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_NODES:
            return False
        if best and spent + left >= best[0][0] - 1e-9:
            return True
        while i < len(group) and group[i] in labels:
            i += 1
        if i == len(group):
            best[:] = [(spent, dict(labels))]
            return True
        cell = group[i]
        options: list[tuple[float, tuple[Cell, ...], int]] = []
        if allowed[cell][0]:
            options.append((float(cost[cell][0]), (cell,), 0))
        for letter, cells in _STARTING_AT.get(cell, ()):
            k = 1 + LETTERS.index(letter)
            if all(q in inside and q not in labels and allowed[q][k] for q in cells):
                options.append((float(sum(cost[q][k] for q in cells)), cells, k))
        options.sort(key=lambda o: o[0])
        for price, cells, k in options:
            for q in cells:
                labels[q] = k
            ok = search(i + 1, spent + price, left - sum(floor[q] for q in cells))
            for q in cells:
                del labels[q]
            if not ok:
                return False
        return True

    finished = search(0, 0.0, sum(floor.values()))
    if not finished or not best:
        return None
    return best[0][1]
