"""What each game's pieces say of a reading, applied after the colours.

A reading is made cell by cell; the game's pieces tie cells together. BITS
tiles rest and pair into dominoes (:mod:`vision.gravity`); LITS pieces are
whole tetrominoes coloured by shape (:mod:`vision.tetrominoes`) and the
board's symbols pair up under a half turn (:mod:`vision.halfturn`) and,
once a profile has seen them, are the ones printed (:mod:`vision.printed`). The
``read`` command and the read evaluation both settle a whole game board this
way, the right way up (row 0 at the board's top).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.lits.pieces import LETTERS
from vision.classify import PRINT_MIN
from vision.gravity import settled
from vision.halfturn import paired
from vision.palette import GREYISH
from vision.printed import as_printed
from vision.reader import Reading
from vision.tetrominoes import pieced

# A cell the rules changed is no surer than this.
RULED_CONFIDENCE = 0.5


def ruled(
    game: str,
    codes: np.ndarray,
    confidence: np.ndarray,
    scores: np.ndarray,
    entry_codes: tuple[str, ...],
    bare: np.ndarray | None = None,
    greyish: np.ndarray | None = None,
    layout: Sequence[str] | None = None,
    printed: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Codes and confidence (rows, cols) of a whole ``game`` board after the
    pieces' own rules; ``scores`` (rows, cols, K) and ``entry_codes`` (K,)
    from the reading; ``bare`` (rows, cols) bool: cells showing no print
    (BITS: the round's starting tile carries no symbol); ``greyish``
    (rows, cols) bool: cells whose colour looks grey (BITS: glare lifts a
    black tile to grey); ``layout`` (LITS): the board's printed symbols as
    a profile learnt them (``?`` where it did not see one), right way up
    as the codes; ``printed`` (rows, cols): each cell's share of print, of
    which ``bare`` says only under PRINT_MIN (BITS: a trace of print on the
    starting tile). Other games' boards come back as they were."""
    if game == "bits":
        codes, moved = settled(
            codes, scores, entry_codes, bare=bare, greyish=greyish, printed=printed
        )
    elif game == "lits":
        codes, moved = pieced(codes, scores, entry_codes)
        # A ? is a symbol not read on the board when its best colour is the
        # board's, or when the split into pieces left it uncovered.
        lookup = np.array(entry_codes)
        board_best = ~np.isin(lookup[scores.argmin(axis=-1)], list(LETTERS))
        uncovered = (codes == "?") & (board_best | moved)
        codes, flipped = paired(codes, np.where(moved, 0.0, confidence), uncovered)
        moved = moved | flipped
        if layout is not None:
            # last: what calibration saw printed outweighs a partner's reading
            codes, told = as_printed(codes, np.where(moved, 0.0, confidence), layout, uncovered)
            moved = moved | told
    else:
        return codes, confidence
    return codes, np.where(moved, np.minimum(confidence, RULED_CONFIDENCE), confidence)


def ruled_reading(
    game: str, reading: Reading, quarter_turns: int, layout: Sequence[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ruled` on a reading turned clockwise ``quarter_turns`` times
    (the right way up): its codes, confidence and scores, and as bare the
    cells whose middle shows less print than a symbol's
    (:data:`vision.classify.PRINT_MIN`), and as greyish those whose
    colour's chroma is under :data:`vision.palette.GREYISH`; ``layout``:
    a profile's (:attr:`calibration.profile.Profile.layout`). What
    ``tilewatch read`` and the read evaluation both do with a whole game
    board."""

    def up(a: np.ndarray) -> np.ndarray:
        return np.rot90(a, -quarter_turns, axes=(0, 1))

    printed = None if reading.printed is None else up(reading.printed)
    bare = None if printed is None else printed < PRINT_MIN
    greyish = up(np.hypot(reading.lab[..., 1], reading.lab[..., 2]) < GREYISH)
    return ruled(
        game,
        up(reading.codes),
        up(reading.confidence),
        up(reading.scores),
        reading.palette.codes,
        bare=bare,
        greyish=greyish,
        layout=layout,
        printed=printed,
    )
