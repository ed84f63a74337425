"""A palette: the colours a camera can see on a board, as data.

The values come from a TOML file (``calibration/palettes/*.toml``, loaded by
``calibration.palette``) or from a calibration profile; vision code only
ever receives a :class:`Palette`, never a colour written in code.

Each entry has a one-character cell code (``R``, ``.``, ``L`` ...), a name for
people, a nominal CIELAB colour (true L*a*b*, D65), a scatter (how far the
same colour typically wanders between cells and frames, in ΔE), and two flags:
``neutral`` (grey: safe to measure the light's colour on) and ``symbols`` (the
printed symbols a cell of this colour may show, read by shape: ``X``, ``O``,
``.`` for blank). ``plain`` marks a colour that never carries print (the
empty BITS board, a LITS piece): a cell showing a symbol is not that colour.
``board`` marks the printed board itself, whose colour differs between copies
and editions (dark, ivory, slate...): its nominal value is only a first
guess, learnt by calibration or fitted freely to a photo.

A code may have several entries: *variants* of one thing that differ between
copies of a game (a dark or an ivory board print). A reading picks whichever
variant fits; telling two variants of one code apart is never "unsure". A
calibration keeps only the variants it saw (:meth:`Palette.only`).

>>> p = Palette.from_entries("demo", [
...     Entry(".", "board", (90.0, 0.0, 2.0), neutral=True),
...     Entry("R", "red", (45.0, 62.0, 40.0)),
... ])
>>> p.codes, p.neutral.tolist()
(('.', 'R'), [True, False])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

# Chroma below which a colour is told apart by lightness alone (greys: a
# black tile, a dark board print, a grey tile).
GREYISH = 12.0

# Shapes the symbol reader knows (vision.symbols); a palette lists which of them
# a cell may show, using these letters as the cell codes they read as.
SYMBOL_SHAPES = ("X", "O", ".")


def _frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only: a cached array is shared by every caller."""
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Entry:
    """One palette colour, as written in a palette file."""

    code: str
    name: str
    lab: tuple[float, float, float]
    neutral: bool = False
    spread: float | None = None  # None: the palette's default
    symbols: tuple[str, ...] = ()
    plain: bool = False
    board: bool = False
    most: int | None = None  # cells of this entry one board can show (None: any number)


# Cells of a colour beyond its ``most`` that one board can still show: one
# domino dropped against the rules (RULES.md: "a second neutral in one
# round") stays on the board until its player takes it back, and a reading
# must show it for the engine to flag it. Simulated BITS 15705: a second
# neutral on the board, the true grid's four grey cells two beyond the
# palette's most, so the grid a column off, leaving two greys out, won on
# fewer doubts with as good a fit; fresh 21159, 21146, 21203, 21250, 21244
# lost their true grey cells when a single photo's colour fit charged them.
STRAY = 2


@dataclass(frozen=True)
class Thresholds:
    """When a cell reads ``?``, and how strictly colours are compared.

    ``max_distance``: ΔE from the best colour beyond which nothing fits.
    ``min_margin``: ΔE by which the best must beat the second best.
    ``lightness_weight``: weight of L* in ΔE (below 1 forgives shading).
    ``spread``: default scatter of one colour, ΔE (sets the confidence scale).
    ``drift``: how far a printing, a camera or a lamp may move a colour from
    its nominal value, ΔE (used only when fitting a palette to one photo).
    ``neutral_drift``: the same for the a*, b* of neutral colours: a grey
    stays grey, which is what lets a fit find the colour of the light.
    ``board_drift``: the same for the board's print (any lightness, a tint).
    """

    max_distance: float = 30.0
    min_margin: float = 5.0
    lightness_weight: float = 0.5
    spread: float = 6.0
    drift: float = 20.0
    neutral_drift: float = 4.0
    board_drift: float = 60.0

    @property
    def unexplained(self) -> float:
        """What a cell no colour explains costs in a fit, in squared
        spreads: ``(max_distance / spread) ** 2`` (30 and 6: 25)."""
        return (self.max_distance / self.spread) ** 2


@dataclass(frozen=True)
class Palette:
    """Arrays over the palette's K entries, in file order.

    ``lab`` (K, 3) float64, ``spread`` (K,), ``neutral`` (K,) bool;
    ``symbols[k]`` the symbol codes entry k may show ('' tuple: none).
    """

    name: str
    codes: tuple[str, ...]
    names: tuple[str, ...]
    lab: np.ndarray
    spread: np.ndarray
    neutral: np.ndarray
    symbols: tuple[tuple[str, ...], ...]
    thresholds: Thresholds = field(default_factory=Thresholds)
    plain: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    board: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    most: np.ndarray = field(default_factory=lambda: np.zeros(0))
    game: str | None = None

    @classmethod
    def from_entries(
        cls,
        name: str,
        entries: Sequence[Entry],
        thresholds: Thresholds | None = None,
        game: str | None = None,
    ) -> Palette:
        th = thresholds or Thresholds()
        if not entries:
            raise ValueError(f"palette {name!r} has no colours")
        codes = tuple(e.code for e in entries)
        names = [e.name for e in entries]
        if len(set(names)) != len(names):
            raise ValueError(f"palette {name!r} repeats a colour name: {', '.join(names)}")
        for e in entries:
            if len(e.code) != 1 or e.code == "?":
                raise ValueError(f"palette {name!r}: code {e.code!r} must be one character, not ?")
            bad = [s for s in e.symbols if s not in SYMBOL_SHAPES]
            if bad:
                raise ValueError(
                    f"palette {name!r}: {e.code!r} lists unknown symbols {bad}; "
                    f"known: {' '.join(SYMBOL_SHAPES)}"
                )
        return cls(
            name=name,
            codes=codes,
            names=tuple(e.name for e in entries),
            lab=np.array([e.lab for e in entries], dtype=np.float64),
            spread=np.array(
                [th.spread if e.spread is None else e.spread for e in entries], dtype=np.float64
            ),
            neutral=np.array([e.neutral for e in entries], dtype=bool),
            symbols=tuple(tuple(e.symbols) for e in entries),
            thresholds=th,
            game=game,
            plain=np.array([e.plain for e in entries], dtype=bool),
            board=np.array([e.board for e in entries], dtype=bool),
            most=np.array([np.inf if e.most is None else e.most for e in entries], np.float64),
        )

    def __len__(self) -> int:
        return len(self.codes)

    def beyond_most(self, counts: np.ndarray, stray: int = 0) -> np.ndarray:
        """Cells read beyond what one board can show (each entry's ``most``,
        plus ``stray`` cells of a tile dropped against the rules: see
        :data:`STRAY`), from ``counts`` (..., K), cells read as each entry: (...).

        >>> p = Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0)),
        ...     Entry("N", "grey", (60.0, 0.0, 0.0), most=2)])
        >>> p.beyond_most(np.array([[31, 5], [34, 2]])).tolist()  # 5 greys: 3 too many
        [3.0, 0.0]
        >>> p.beyond_most(np.array([[31, 5], [34, 2]]), stray=STRAY).tolist()  # 1 beyond a stray
        [1.0, 0.0]
        """
        allowed = self.most + stray
        return np.asarray(np.maximum(0.0, np.asarray(counts) - allowed).sum(axis=-1))

    @cached_property
    def past_most(self) -> int | None:
        """The fewest cells of one colour that no board can show of any
        entry with a ``most``, a stray tile's included (None when no entry
        has one): so many cells one level below the board, in one band, are
        the board in a shadow, not grey tiles (:mod:`vision.shading`).

        >>> Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0)),
        ...     Entry("N", "grey", (60.0, 0.0, 0.0), most=2)]).past_most
        5
        >>> Palette.from_entries("demo", [Entry(".", "board", (90.0, 0.0, 0.0))]).past_most is None
        True
        """
        if not self.limited:
            return None
        return int(self.most[np.isfinite(self.most)].max()) + STRAY + 1

    @cached_property
    def limited(self) -> bool:
        """Whether any entry has a ``most`` (cells one board can show)."""
        return bool(np.isfinite(self.most).any())

    @cached_property
    def linear(self) -> np.ndarray:
        """The colours in linear-light RGB (K, 3), as a camera balanced for them shows them."""
        from vision.colour import lab_to_linear

        return lab_to_linear(self.lab)

    @cached_property
    def strict(self) -> Palette:
        """The same palette with lightness counted in full (for judging a whole frame)."""
        return replace(self, thresholds=replace(self.thresholds, lightness_weight=1.0))

    @cached_property
    def tiles(self) -> np.ndarray:
        """(K,) bool: the tiles' colours that may carry a player's symbol:
        not the board, not a grey, not plain, and not read by a printed
        symbol (a LITS X or O is board)."""
        shapes = np.array([bool(s) for s in self.symbols], dtype=bool)
        return np.asarray(~self.plain & ~self.board & ~self.neutral & ~shapes)

    @cached_property
    def greys(self) -> np.ndarray:
        """(K,) bool: entries that are grey, marked neutral or nearly
        without colour (a black tile: it sets no white balance, yet no lamp
        makes it blue)."""
        return np.asarray(self.neutral | (np.hypot(self.lab[:, 1], self.lab[:, 2]) < GREYISH))

    @cached_property
    def lightness_weights(self) -> np.ndarray:
        """Weight of L* in each entry's ΔE (K,).

        Shading mostly changes lightness, so colourful entries forgive it
        (``lightness_weight``); but greys differ only in lightness, so for
        them it counts in full."""
        chroma = np.hypot(self.lab[:, 1], self.lab[:, 2])
        return np.where(chroma < GREYISH, 1.0, self.thresholds.lightness_weight)

    def index(self, code: str) -> int:
        """The first entry with this code."""
        return self.codes.index(code)

    def entries_of(self, code: str) -> list[int]:
        """Every entry (variant) with this code."""
        return [k for k, c in enumerate(self.codes) if c == code]

    def entries_for(self, cell_code: str) -> list[int]:
        """Entries a cell reading ``cell_code`` belongs to: its own code's
        variants, or the entries whose printed symbols include it (LITS ``X``)."""
        own = self.entries_of(cell_code)
        return own or [k for k, s in enumerate(self.symbols) if cell_code in s]

    @cached_property
    def code_ids(self) -> np.ndarray:
        """(K,) int: entries with the same code share an id (variants).
        Worked out once (every frame's match asks): read-only."""
        unique = list(dict.fromkeys(self.codes))
        return _frozen(np.array([unique.index(c) for c in self.codes]))

    @cached_property
    def rivals(self) -> np.ndarray:
        """(K, K) bool: entry j is of another code than entry i (the
        runner-up a cell read as i is measured against: variants of one
        code never make it unsure). Read-only."""
        ids = self.code_ids
        return _frozen(ids[:, None] != ids[None, :])

    @cached_property
    def score_scale(self) -> np.ndarray:
        """(K,) what each entry's ΔE is multiplied by to become a score: the
        palette's default spread over the entry's own. Read-only."""
        return _frozen(self.thresholds.spread / np.maximum(self.spread, 1e-6))

    def only(self, keep: np.ndarray | Sequence[bool]) -> Palette:
        """The palette restricted to the entries where ``keep`` is true."""
        k = np.asarray(keep, dtype=bool)
        if not k.any():
            raise ValueError(f"palette {self.name!r}: cannot keep no colours")
        idx = np.flatnonzero(k)
        return replace(
            self,
            codes=tuple(self.codes[i] for i in idx),
            names=tuple(self.names[i] for i in idx),
            lab=self.lab[idx],
            spread=self.spread[idx],
            neutral=self.neutral[idx],
            symbols=tuple(self.symbols[i] for i in idx),
            plain=self.plain[idx],
            board=self.board[idx],
            most=self.most[idx],
        )

    def with_lab(self, lab: np.ndarray, spread: np.ndarray | None = None) -> Palette:
        """The same palette with other colours (a fitted or learnt version)."""
        lab = np.asarray(lab, dtype=np.float64).reshape(len(self), 3)
        sp = self.spread if spread is None else np.asarray(spread, dtype=np.float64)
        return replace(self, lab=lab, spread=sp)

    @property
    def cell_codes(self) -> str:
        """Every code a reading with this palette can contain (``?`` included)."""
        seen: list[str] = []
        for code, syms in zip(self.codes, self.symbols, strict=True):
            for c in syms or (code,):
                if c not in seen:
                    seen.append(c)
        return "".join(seen) + "?"
