"""Tiles: the 2-cell dominoes of BITS, named by their two colour codes.

A tile has no front or back, so ``RY`` and ``YR`` are the same tile; which
half goes first is part of a *drop* (see :mod:`engine.bits.drops`).

>>> Tile.parse("yr")
Tile('RY')
>>> Tile.parse("KK").is_double, Tile.parse("NN").is_neutral
(True, True)
>>> Tile.parse("RY").orders()
(('R', 'Y'), ('Y', 'R'))
"""

from __future__ import annotations

from dataclasses import dataclass

EMPTY = "."
COLOURS = "RYBPK"
NEUTRAL = "N"
UNREADABLE = "?"
CODES = EMPTY + COLOURS + NEUTRAL
"""Every code a BITS board may hold (``?`` is vision-only, never here)."""

_ORDER = {code: i for i, code in enumerate(COLOURS + NEUTRAL)}


@dataclass(frozen=True, order=True)
class Tile:
    """A domino: two codes from ``RYBPK``, or ``NN`` for the neutral tile."""

    codes: str

    def __post_init__(self) -> None:
        codes = self.codes.upper()
        if len(codes) != 2 or any(code not in _ORDER for code in codes):
            raise ValueError(
                f"a tile is two colour codes from {' '.join(COLOURS)} (or NN for the"
                f" neutral tile), not {self.codes!r}"
            )
        if (NEUTRAL in codes) and codes != NEUTRAL * 2:
            raise ValueError(f"{self.codes!r}: the neutral tile is grey on both halves (NN)")
        object.__setattr__(self, "codes", "".join(sorted(codes, key=_ORDER.__getitem__)))

    @classmethod
    def parse(cls, text: str) -> Tile:
        return cls(text.strip())

    @property
    def is_double(self) -> bool:
        return self.codes[0] == self.codes[1]

    @property
    def is_neutral(self) -> bool:
        return self.codes == NEUTRAL * 2

    def orders(self) -> tuple[tuple[str, str], ...]:
        """The ways round it can go in: first half (top or left), second half."""
        a, b = self.codes[0], self.codes[1]
        return ((a, b),) if a == b else ((a, b), (b, a))

    def __str__(self) -> str:
        return self.codes

    def __repr__(self) -> str:
        return f"Tile({self.codes!r})"


NEUTRAL_TILE = Tile(NEUTRAL * 2)
