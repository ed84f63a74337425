"""The board's printed symbols, as calibration saw them (Battle of LITS).

A LITS board prints the same X, O and blank cells all game: calibrating on
it, the person confirms every uncovered cell's symbol, so a profile knows
them from then on (:attr:`calibration.profile.Profile.layout`). A symbol the
camera later cannot read, or misreads (glare over an O, a shadow's edge
drawn through a blank cell), is then the one printed there. Cells a piece
covered at calibration are told by their half-turn partner where the board
pairs its symbols (:mod:`vision.halfturn`), else stay unknown (``?``) and
are read as before.

A profile may be used on another board (the other side, a friend's copy):
the layout is used only when the symbols read surely agree with it
(``AGREE`` of them), never on a board that shows otherwise.

>>> layout = learnt_layout(np.array([list("X.L"), list("?LO")]), ("X", "O", "."))
>>> layout  # the L under row 2's blank: its partner (row 1's) is blank
('X.?', '?.O')
>>> codes = np.array([list("X?L"), list(".LO")])
>>> fixed, changed = as_printed(codes, np.full((2, 3), 0.9), layout)
>>> ["".join(r) for r in fixed.tolist()], int(changed.sum())
(['X.L', '.LO'], 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.halfturn import AGREE, PARTNER, SURE, UNSURE, paired

UNKNOWN = UNSURE  # a cell whose symbol was not seen, as halfturn marks one


def learnt_layout(codes: np.ndarray, symbols: Sequence[str]) -> tuple[str, ...]:
    """The layout (one string per row: a symbol, or ``?`` where not seen)
    from a confirmed board ``codes`` (rows, cols), the right way up:
    every cell showing one of ``symbols`` (the board's: ``X`` ``O`` ``.``),
    and each covered cell whose half-turn partner shows one, when the
    board's pairs follow the half-turn rule (:func:`vision.halfturn.paired`
    on the confirmed symbols, every one sure)."""
    codes = np.asarray(codes)
    seen = np.where(np.isin(codes, list(symbols)), codes, UNKNOWN)
    told, _ = paired(seen, np.ones(codes.shape))
    return tuple("".join(row) for row in told.tolist())


def as_printed(
    codes: np.ndarray,
    confidence: np.ndarray,
    layout: Sequence[str],
    uncovered: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Codes (rows, cols) with every uncovered cell the ``layout`` knows
    showing its printed symbol, and the mask of cells changed.

    ``codes``: symbols on uncovered cells, ``?`` unsure, anything else a
    piece (left alone); ``confidence`` (rows, cols) as read; ``uncovered``:
    which ``?`` cells are known to be uncovered board (default: all). Used
    only when the symbols read at least SURE agree with the layout (AGREE of
    them); a board with none read surely is left as read."""
    codes = np.asarray(codes)
    plan = np.array([list(row) for row in layout])
    if plan.shape != codes.shape:
        return codes.copy(), np.zeros(codes.shape, bool)
    symbol = np.isin(codes, list(PARTNER))
    known = plan != UNKNOWN
    sure = symbol & known & (np.asarray(confidence) >= SURE)
    if not sure.any() or (codes[sure] == plan[sure]).mean() < AGREE:
        return codes.copy(), np.zeros(codes.shape, bool)
    board = symbol | (codes == UNKNOWN)
    if uncovered is not None:
        board &= (codes != UNKNOWN) | uncovered
    out = np.where(board & known, plan, codes)
    return out, out != codes
