"""LITS symbols come in pairs: the board turned half round swaps X and O.

The rulebook's swap ("O may swap symbols with X ... by rotating the board 180
degrees") works because every printed X has an O on the cell turned 180
degrees about the board's centre, and every blank cell a blank one (the
built-in layouts and the generator keep this too: :mod:`engine.lits.layout`).
So where both cells of such a pair are uncovered, each tells the other:
a symbol the camera could not read (``?``: glare, a shadow's edge) is the
other's partner, and when the two disagree with the rule, the one read less
surely gives way.

A home-made board need not be paired so: the rule is used only when the
pairs read surely agree with it (``AGREE`` of them), never on a board that
shows otherwise.

>>> import numpy as np
>>> codes = np.full((10, 10), ".")
>>> codes[0, 0], codes[9, 9] = "X", "O"   # a pair read surely
>>> codes[0, 1], codes[9, 8] = "?", "X"   # an X whose partner glare hid
>>> codes[5, 5] = "L"                     # a piece: its cell says nothing
>>> fixed, changed = paired(codes, np.full((10, 10), 0.9))
>>> str(fixed[0, 1]), int(changed.sum())
('O', 1)
"""

from __future__ import annotations

import numpy as np

PARTNER = {"X": "O", "O": "X", ".": "."}
UNSURE = "?"
# Share of the surely read uncovered pairs that must follow the rule before
# it is used on the others: a paired board reads nearly all its sure pairs
# paired (a misread symbol breaks one), an unpaired one about a third.
AGREE = 0.9
# A symbol read at least this surely counts as sure, for AGREE.
SURE = 0.6


def paired(
    codes: np.ndarray, confidence: np.ndarray, uncovered: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Codes (rows, cols) with each uncovered cell's symbol made to agree
    with its half-turn partner's, and the mask of cells changed.

    ``codes``: ``X`` ``O`` ``.`` uncovered, ``?`` unsure, anything else a
    piece (covered cells say nothing of their symbol); ``confidence`` (rows,
    cols) 0..1 as read; ``uncovered``: which ``?`` cells are known to be
    uncovered board whose symbol was not read (default: all; a ``?`` whose
    colour was in doubt may be a piece)."""
    out = codes.copy()
    rows, cols = codes.shape
    board = np.isin(codes, list(PARTNER)) | (codes == UNSURE)
    if uncovered is not None:
        board &= (codes != UNSURE) | uncovered
    pairs = []
    for r in range(rows):
        for c in range(cols):
            q = (rows - 1 - r, cols - 1 - c)
            if (r, c) < q and board[r, c] and board[q]:
                pairs.append(((r, c), q))
    sure = [
        (a, b)
        for a, b in pairs
        if codes[a] in PARTNER and codes[b] in PARTNER and min(confidence[a], confidence[b]) >= SURE
    ]
    if not sure:
        return out, np.zeros(codes.shape, bool)
    agree = sum(PARTNER[codes[a]] == codes[b] for a, b in sure)
    if agree < AGREE * len(sure):
        return out, np.zeros(codes.shape, bool)
    for a, b in pairs:
        x, y = codes[a], codes[b]
        if x == UNSURE and y == UNSURE:
            continue
        if x == UNSURE:
            out[a] = PARTNER[y]
        elif y == UNSURE:
            out[b] = PARTNER[x]
        elif PARTNER[x] != y:
            # The less sure one gives way; an even tie says nothing.
            if confidence[a] < confidence[b]:
                out[a] = PARTNER[y]
            elif confidence[b] < confidence[a]:
                out[b] = PARTNER[x]
    return out, out != codes
