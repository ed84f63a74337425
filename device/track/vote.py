"""Voting the readings of the still frames into one observation.

The colour reader answers for one frame; the tracker acts on what several
still frames agree on. Per cell and per code, the distances (ΔE-like, from
``vision.classify.scores``) are averaged over the frames; the best code wins
when every frame picked it, it beats the runner-up by the palette's
``min_margin`` and lies within its ``max_distance``. Otherwise the cell is
*unsure*, and keeps its few likeliest codes as candidates for the game's
rules (the card's tile) or the players to settle.

Codes are the palette's codes, not the printed symbols: a LITS cell reads
``.`` for "uncovered" whatever symbol it shows (the game knows the layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.classify import scores
from vision.palette import Palette
from vision.reader import Reading

# Codes within this many min_margins of the best stay candidates of an unsure cell.
CANDIDATE_MARGINS = 2.0
MAX_CANDIDATES = 3


@dataclass(frozen=True)
class Observation:
    """One board as the still frames showed it.

    ``codes`` (rows, cols) str: the best code of every cell; ``sure`` (rows,
    cols) bool; ``candidates[r][c]``: the codes cell (r, c) may be, likeliest
    first (just the best code when sure); ``distance`` (rows, cols, len(alphabet)):
    mean distance to every code; ``alphabet``: the codes, in ``distance`` order;
    ``lab`` (rows, cols, 3) the mean colour (what the profile learns from);
    ``frames``: how many readings were voted; ``t``: stream time of the last;
    ``max_distance``: the palette's limit beyond which a code does not fit;
    ``min_margin``: by how much the best code must beat the runner-up.
    """

    codes: np.ndarray
    sure: np.ndarray
    candidates: tuple[tuple[tuple[str, ...], ...], ...]
    distance: np.ndarray
    alphabet: tuple[str, ...]
    lab: np.ndarray
    frames: int
    t: float
    max_distance: float = 30.0
    min_margin: float = 5.0

    @property
    def rows(self) -> list[str]:
        return ["".join(row) for row in self.codes.tolist()]

    def __str__(self) -> str:
        return "\n".join(
            "".join(code if ok else "?" for code, ok in zip(row, sure, strict=True))
            for row, sure in zip(self.codes.tolist(), self.sure.tolist(), strict=True)
        )

    def distance_of(self, cell: tuple[int, int], code: str) -> float:
        """Mean distance of cell ``cell`` to ``code`` (inf if the palette lacks it)."""
        if code not in self.alphabet:
            return float("inf")
        return float(self.distance[cell[0], cell[1], self.alphabet.index(code)])

    def rotated(self, quarter_turns: int) -> Observation:
        """The same observation turned ``quarter_turns`` times anticlockwise
        (``numpy.rot90``), for trying the orientations of a square board."""
        k = quarter_turns % 4
        if k == 0:
            return self
        cand = np.empty(self.codes.shape, dtype=object)
        for r, row in enumerate(self.candidates):
            for c, options in enumerate(row):
                cand[r, c] = options
        turned = np.rot90(cand, k)
        return replace(
            self,
            codes=np.rot90(self.codes, k).copy(),
            sure=np.rot90(self.sure, k).copy(),
            candidates=tuple(tuple(row) for row in turned.tolist()),
            distance=np.rot90(self.distance, k).copy(),
            lab=np.rot90(self.lab, k).copy(),
        )


def code_distances(reading: Reading) -> tuple[tuple[str, ...], np.ndarray]:
    """The palette's codes and each cell's distance to each: the nearest
    variant of a code counts (rows, cols, codes)."""
    palette: Palette = reading.palette
    alphabet = tuple(dict.fromkeys(palette.codes))
    per_entry = scores(reading.lab, palette)
    ids = palette.code_ids
    out = np.full((*per_entry.shape[:-1], len(alphabet)), np.inf)
    for k in range(len(palette)):
        out[..., ids[k]] = np.minimum(out[..., ids[k]], per_entry[..., k])
    return alphabet, out


def vote(readings: Sequence[Reading], t: float = 0.0) -> Observation:
    """Vote ``readings`` (at least one, same board, same palette codes)."""
    if not readings:
        raise ValueError("nothing to vote: no readings")
    alphabet, first = code_distances(readings[0])
    stack = [first] + [code_distances(r)[1] for r in readings[1:]]
    each = np.stack(stack)  # (frames, rows, cols, codes)
    mean = each.mean(axis=0)
    order = np.argsort(mean, axis=-1)
    best = order[..., 0]
    d1 = np.take_along_axis(mean, best[..., None], axis=-1)[..., 0]
    d2 = np.take_along_axis(mean, order[..., 1:2], axis=-1)[..., 0] if len(alphabet) > 1 else d1
    unanimous = (each.argmin(axis=-1) == best[None]).all(axis=0)
    th = readings[0].palette.thresholds
    codes = np.array(alphabet)[best]
    # What each frame's reader said, its printed-line and symbol evidence
    # included. Colour alone may say otherwise (under a lamp the bare print
    # can lie nearer a grey tile, while its lines say board); then the cell
    # is not sure, and what the reader said stays a candidate.
    said = np.stack([np.array(r.palette.codes)[r.entry] for r in readings])
    agree = (said == codes[None]).all(axis=0)
    # And every frame's reader named it: one that left it '?' weighed its
    # lines, print and highlight too and found no clear answer (simulated
    # BITS 2478: the bare print under a lamp's core read '?' in every
    # frame, yet its colour alone sat 5.8 nearer grey than yellow, and a
    # grey tile "resting in mid-air" was refused). A '?' for a board
    # cell's printed symbol (LITS) is the symbol's doubt, not the colour's.
    named = np.stack(
        [
            (r.codes != "?") | np.array([bool(a) for a in r.palette.symbols])[r.entry]
            for r in readings
        ]
    ).all(axis=0)
    sure = unanimous & agree & named & (d2 - d1 >= th.min_margin) & (d1 <= th.max_distance)
    rows, cols = codes.shape
    candidates = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if sure[r, c]:
                row.append((str(codes[r, c]),))
                continue
            limit = d1[r, c] + CANDIDATE_MARGINS * th.min_margin
            picks = [alphabet[k] for k in order[r, c] if mean[r, c, k] <= limit]
            if len(picks) < 2:
                picks = [alphabet[k] for k in order[r, c, :2]]
            picks = picks[:MAX_CANDIDATES]
            for code in dict.fromkeys(said[:, r, c].tolist()):
                if code not in picks:
                    picks = [*picks[: MAX_CANDIDATES - 1], str(code)]
            row.append(tuple(picks))
        candidates.append(tuple(row))
    lab = np.mean([r.lab for r in readings], axis=0)
    return Observation(
        codes,
        sure,
        tuple(candidates),
        mean,
        alphabet,
        lab,
        len(readings),
        t,
        th.max_distance,
        th.min_margin,
    )
