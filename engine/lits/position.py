"""A Battle of LITS position: the printed layout and the pieces lying on it.

Like python-chess's ``Board``, ``str(position)`` is the position text (10 rows,
pieces by letter, uncovered cells by symbol) and ``Position.from_rows`` reads
it back.

>>> from engine.lits.pieces import placement_at
>>> position = Position.empty(Layout.builtin("crossfire"))
>>> len(position.legal_moves())
1292
>>> position = position.place(placement_at([(4, 4), (4, 5), (4, 6), (4, 7)]))
>>> print(position.rows()[4])  # was .X..X..O.X: one X and one O covered
.X..IIII.X
>>> position.score()
{'X': 15, 'O': 15}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.lits.bitboard import SIZE, Cell, bit, rotate180
from engine.lits.decode import decode
from engine.lits.layout import Layout
from engine.lits.movegen import legal_set, placements_in
from engine.lits.pieces import LETTERS, SUPPLY, Placement, placement_of_mask


class PositionError(ValueError):
    """Position text that is not a set of whole pieces; the message says why."""


@dataclass(frozen=True)
class Position:
    """``layout`` and the ``pieces`` in the order they were placed (reading
    order for a position read from text). Symbols under pieces of a position
    read from text are unknown and show as blank in ``layout``."""

    layout: Layout
    pieces: tuple[Placement, ...] = ()
    covered: int = field(init=False, repr=False, compare=False)
    _shapes: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shapes = dict.fromkeys(LETTERS, 0)
        covered = 0
        for piece in self.pieces:
            if piece.mask & covered:
                raise PositionError(f"{piece} overlaps a piece already on the board")
            covered |= piece.mask
            shapes[piece.shape] |= piece.mask
        object.__setattr__(self, "covered", covered)
        object.__setattr__(self, "_shapes", shapes)

    @classmethod
    def empty(cls, layout: Layout) -> Position:
        return cls(layout)

    @classmethod
    def from_rows(cls, rows: str | Sequence[str], name: str = "") -> Position:
        """Read position text. Every single-colour region must be one piece of
        its colour's shape (else :class:`PositionError` naming the regions);
        rule breaks between pieces (see :func:`engine.lits.decode.decode`)
        are kept, since players may have overruled the referee."""
        decoded = decode(rows)
        broken = [v for v in decoded.problems if v.reason not in _BOARD_RULES]
        if broken:
            raise PositionError(" ".join(v.message for v in broken))
        lines = rows.splitlines() if isinstance(rows, str) else rows
        layout = Layout.from_rows([line.strip() for line in lines if line.strip()], name)
        return cls(layout, decoded.pieces)

    def place(self, piece: Placement) -> Position:
        """The position with ``piece`` added (no rule is checked here)."""
        return Position(self.layout, (*self.pieces, piece))

    def with_layout(self, layout: Layout) -> Position:
        return Position(layout, self.pieces)

    def turned(self) -> Position:
        """The board rotated 180 degrees, pieces and symbols together."""
        turned = []
        for piece in self.pieces:
            found = placement_of_mask(rotate180(piece.mask))
            assert found is not None  # a turned piece is the same shape elsewhere
            turned.append(found)
        return Position(self.layout.turned(), tuple(turned))

    def shape_mask(self, letter: str) -> int:
        """Cells covered by pieces of shape ``letter``."""
        return self._shapes[letter]

    def count(self, letter: str) -> int:
        """Pieces of shape ``letter`` on the board."""
        return self._shapes[letter].bit_count() // 4

    def supply_left(self, supply: int = SUPPLY) -> dict[str, int]:
        return {letter: max(0, supply - self.count(letter)) for letter in LETTERS}

    def code(self, cell: Cell) -> str:
        """The cell's code in position text: piece letter or printed symbol."""
        b = bit(cell)
        for letter in LETTERS:
            if self._shapes[letter] & b:
                return letter
        return self.layout.symbol(cell)

    def rows(self) -> tuple[str, ...]:
        return tuple("".join(self.code((r, c)) for c in range(SIZE)) for r in range(SIZE))

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def score(self) -> dict[str, int]:
        """Uncovered X and O symbols: each player's points."""
        return {
            "X": (self.layout.x & ~self.covered).bit_count(),
            "O": (self.layout.o & ~self.covered).bit_count(),
        }

    def legal_set(self, supply: int = SUPPLY) -> int:
        """The legal placements as a bitboard over placement numbers."""
        return legal_set(self.covered, self._shapes, supply)

    def legal_moves(self, supply: int = SUPPLY) -> list[Placement]:
        """Every placement the rules allow now, in placement-number order."""
        return placements_in(self.legal_set(supply))

    def is_legal(self, piece: Placement, supply: int = SUPPLY) -> bool:
        return bool(self.legal_set(supply) >> piece.index & 1)

    def piece_at(self, cell: Cell) -> Placement | None:
        b = bit(cell)
        return next((p for p in self.pieces if p.mask & b), None)


# Rules between pieces that a recorded game can break when players overrule.
_BOARD_RULES = {"square_covered", "shape_exhausted", "not_touching"}
