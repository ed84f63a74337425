"""The 6x6 BITS board: which code each cell holds, and which cells form one
tile when that is known.

A board is immutable (like a position, not a game): :meth:`Board.after`
returns the board after a drop. Cells are stored as one bitboard per code
(``R Y B P K N``), so blocks, holes and landing rows are a few integer
operations.

A board read by the camera has colours only: two touching red cells may be
one tile or halves of two. Tile pairing comes from the placement history, so
it is optional: ``board.tiles`` lists the tiles known, and cells outside them
are simply not paired.

>>> board = Board.from_rows(["......"] * 4 + ["..N...", "RYN..."])
>>> board.code_at((5, 1)), board.occupied.bit_count()
('Y', 4)
>>> board.after(Drop("B", "B", True, 0, 3)).rows()[3:]
('B.....', 'B.N...', 'RYN...')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.bits.bitboard import (
    BB_CELL,
    BB_COLUMNS,
    SIZE,
    Cell,
    bit,
    cells,
    column_tops,
    on_grid,
    scan,
)
from engine.bits.drops import Drop
from engine.bits.tiles import CODES, COLOURS, EMPTY, NEUTRAL, UNREADABLE
from engine.boardtext import BoardTextError, format_board_text, parse_board_text

LAYER_CODES = COLOURS + NEUTRAL
"""The order of :attr:`Board.layers`: one bitboard per code."""

_LAYER_INDEX = {code: i for i, code in enumerate(LAYER_CODES)}


class BoardError(ValueError):
    """A board that the engine cannot accept; the message says which cell."""


def check_rows(rows: Sequence[str], name: str = "board") -> tuple[str, ...]:
    """Validate 6 rows of 6 codes. ``?`` (unreadable) is refused with its own
    message: the referee must never guess a cell the camera could not read."""
    if isinstance(rows, str) or not all(isinstance(row, str) for row in rows):
        raise BoardError(f"{name}: rows must be a list of {SIZE} strings")
    text = "\n".join(rows)
    parsed = parse_board_text(text, SIZE, SIZE, CODES + UNREADABLE, name)
    for r, row in enumerate(parsed):
        c = row.find(UNREADABLE)
        if c >= 0:
            raise BoardError(
                f"{name}: row {r + 1}, column {c + 1} is '?' (unreadable); the referee needs"
                " every cell known: correct it first"
            )
    return parsed


class Board:
    """An immutable BITS board. ``layers[i]`` is the bitboard of code
    ``LAYER_CODES[i]``; ``tiles`` the known tiles as 2-cell masks, in the
    order they were placed."""

    __slots__ = ("layers", "tiles")

    def __init__(self, layers: Sequence[int] = (0,) * 6, tiles: Iterable[int] = ()) -> None:
        self.layers: tuple[int, ...] = tuple(layers)
        self.tiles: tuple[int, ...] = tuple(tiles)

    # --- building -------------------------------------------------------
    @classmethod
    def empty(cls) -> Board:
        return cls()

    @classmethod
    def from_rows(cls, rows: Sequence[str], name: str = "board") -> Board:
        """A board from 6 strings of 6 codes, top row first (no tile pairing)."""
        layers = [0] * len(LAYER_CODES)
        for r, row in enumerate(check_rows(rows, name)):
            for c, code in enumerate(row):
                if code != EMPTY:
                    layers[_LAYER_INDEX[code]] |= BB_CELL[SIZE * r + c]
        return cls(layers)

    @classmethod
    def from_text(cls, text: str, name: str = "board") -> Board:
        """A board from board text (DESIGN.md: one line per row, top first)."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines:
            raise BoardTextError(f"{name}: empty; expected {SIZE} rows of {SIZE} cells")
        return cls.from_rows(lines, name)

    def after(self, drop: Drop) -> Board:
        """The board after ``drop``; its two cells must be empty and on the grid."""
        (r1, c1), (r2, c2) = drop.cells
        if not (on_grid((r1, c1)) and on_grid((r2, c2))):
            raise BoardError(f"{drop} sticks out of the grid")
        mask = drop.mask
        if mask & self.occupied:
            raise BoardError(f"{drop} overlaps tiles already on the board")
        layers = list(self.layers)
        layers[_LAYER_INDEX[drop.first]] |= bit((r1, c1))
        layers[_LAYER_INDEX[drop.second]] |= bit((r2, c2))
        return Board(layers, (*self.tiles, mask))

    def with_cell(self, cell: Cell, code: str) -> Board:
        """The board with one cell corrected (a camera misread). A known tile
        that no longer has both halves is forgotten."""
        if not on_grid(cell):
            raise BoardError(f"cell {cell} is off the 6x6 grid")
        if code not in CODES:
            raise BoardError(f"{code!r} is not a BITS cell code ({' '.join(CODES)})")
        mask = bit(cell)
        layers = [layer & ~mask for layer in self.layers]
        if code != EMPTY:
            layers[_LAYER_INDEX[code]] |= mask
        tiles = self.tiles if code != EMPTY else tuple(t for t in self.tiles if not t & mask)
        return Board(layers, tiles)

    def with_tiles(self, tiles: Iterable[int]) -> Board:
        """The same cells with this tile pairing (each mask two filled,
        touching cells)."""
        return Board(self.layers, tiles)

    # --- reading --------------------------------------------------------
    @property
    def occupied(self) -> int:
        r, y, b, p, k, n = self.layers
        return r | y | b | p | k | n

    @property
    def neutral(self) -> int:
        return self.layers[5]

    def layer(self, code: str) -> int:
        """The bitboard of one code (``"."`` gives the empty cells)."""
        if code == EMPTY:
            return ~self.occupied & ((1 << SIZE * SIZE) - 1)
        return self.layers[_LAYER_INDEX[code]]

    def code_at(self, cell: Cell) -> str:
        mask = bit(cell)
        for code, layer in zip(LAYER_CODES, self.layers, strict=True):
            if layer & mask:
                return code
        return EMPTY

    def rows(self) -> tuple[str, ...]:
        """The board text rows, top row first."""
        grid = [[EMPTY] * SIZE for _ in range(SIZE)]
        for code, layer in zip(LAYER_CODES, self.layers, strict=True):
            for i in scan(layer):
                grid[i // SIZE][i % SIZE] = code
        return tuple("".join(row) for row in grid)

    def tops(self) -> tuple[int, ...]:
        """Per column, the row of its highest filled cell (6 when empty)."""
        return column_tops(self.occupied)

    @property
    def holes(self) -> int:
        """Empty cells with a filled cell above them in their column: they can
        never be filled (rulebook, Fig. C)."""
        occupied = self.occupied
        below_a_tile = 0
        for column in BB_COLUMNS:
            filled = occupied & column
            if filled:
                lowest_top = filled & -filled
                below_a_tile |= column & ~(2 * lowest_top - 1)
        return below_a_tile & ~occupied

    def tile_at(self, cell: Cell) -> tuple[Cell, Cell] | None:
        """The two cells of the known tile covering ``cell``, if known."""
        mask = bit(cell)
        for tile in self.tiles:
            if tile & mask:
                first, second = cells(tile)
                return first, second
        return None

    @property
    def unpaired(self) -> int:
        """Filled cells whose tile is not known."""
        paired = 0
        for tile in self.tiles:
            paired |= tile
        return self.occupied & ~paired

    def floating_tiles(self) -> tuple[int, ...]:
        """Known tiles that rest on nothing: no filled cell or bottom edge under
        any of their cells. A board built by legal drops has none."""
        occupied = self.occupied
        bottom = (1 << SIZE) - 1 << (SIZE * (SIZE - 1))
        floating = []
        for tile in self.tiles:
            under = (tile << SIZE) & ~tile
            if not (under & occupied) and not (tile & bottom):
                floating.append(tile)
        return tuple(floating)

    # --- comparing and printing ------------------------------------------
    def same_cells(self, other: Board) -> bool:
        return self.layers == other.layers

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.layers == other.layers and set(self.tiles) == set(other.tiles)

    def __hash__(self) -> int:
        return hash(self.layers)

    def __str__(self) -> str:
        return format_board_text(self.rows())

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self  # immutable

    def __repr__(self) -> str:
        return f"Board.from_rows({list(self.rows())!r})"
