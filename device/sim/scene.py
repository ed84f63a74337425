"""What is on the table at one instant: pieces at rest, pieces in motion,
hands, and how far the camera has been knocked. Plain frozen data, so a
script can build one per frame and the renderer can cache on it.

>>> board = BoardSpec.bits()
>>> scene = Scene.from_text(board, "......\\n......\\n......\\n......\\n......\\nRY..BB")
>>> [p.codes for p in scene.resting]
[('R', 'Y'), ('B', 'B')]
>>> print(scene.board_text(board).splitlines()[-1])
RY..BB
"""

from __future__ import annotations

from dataclasses import dataclass

from device.sim.board import BoardSpec
from engine.boardtext import parse_board_text
from engine.regions import regions

Cell = tuple[int, int]

BITS_CODES = "RYBPKN"
LITS_CODES = "LITS"


@dataclass(frozen=True)
class Piece:
    """A physical piece at rest: the cells it covers and what each shows.
    A BITS tile is two cells (one colour each); a LITS piece four cells of
    one letter. ``symbol`` is the player's mark printed on each half (BITS)."""

    cells: tuple[Cell, ...]
    codes: tuple[str, ...]
    symbol: str | None = None

    def __post_init__(self) -> None:
        if len(self.cells) != len(self.codes) or not self.cells:
            raise ValueError("a piece needs one code per cell")


@dataclass(frozen=True)
class Placed:
    """A piece away from its rest: shifted by (rows, cols) and lifted."""

    piece: Piece
    shift: tuple[float, float] = (0.0, 0.0)
    lift_mm: float = 0.0


@dataclass(frozen=True)
class HandPose:
    """A hand over the table. The palm centre is at ``(x_mm, y_mm)`` on the
    board plane, ``height_mm`` above it; the arm runs back to the shoulder
    at ``shoulder`` (plane mm, usually off the image), fingers point away
    from it. ``curl`` 0 = flat open hand, 1 = fingers gripping a piece."""

    x_mm: float
    y_mm: float
    height_mm: float
    shoulder: tuple[float, float]
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    curl: float = 0.0
    left: bool = False


Bump = tuple[float, float, float, float, float, float]  # shift x y z mm, turn x y z deg
NO_BUMP: Bump = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Scene:
    resting: tuple[Piece, ...] = ()
    moving: tuple[Placed, ...] = ()
    hands: tuple[HandPose, ...] = ()
    bump: Bump = NO_BUMP

    @classmethod
    def from_text(cls, board: BoardSpec, text: str, symbol: str | None = None) -> Scene:
        """Pieces at rest read from board text. LITS pieces are the
        same-letter regions (the rules keep equal pieces apart); BITS tiles
        are paired into dominoes, any pairing that covers every cell."""
        return cls(resting=pieces_from_text(board, text, symbol))

    def board_cells(self, board: BoardSpec) -> list[list[str]]:
        grid = [[board.empty_code(r, c) for c in range(board.cols)] for r in range(board.rows)]
        for piece in self.resting:
            for (r, c), code in zip(piece.cells, piece.codes, strict=True):
                grid[r][c] = code
        return grid

    def board_text(self, board: BoardSpec) -> str:
        return "\n".join("".join(row) for row in self.board_cells(board))


def pieces_from_text(board: BoardSpec, text: str, symbol: str | None = None) -> tuple[Piece, ...]:
    if board.game == "lits":
        rows = parse_board_text(text, board.rows, board.cols, "LITSXO.", name="LITS position")
        return tuple(
            Piece(tuple(sorted(cells)), (code,) * len(cells))
            for code, cells in regions(rows, LITS_CODES)
        )
    rows = parse_board_text(text, board.rows, board.cols, BITS_CODES + ".", name="BITS board")
    filled = [(r, c) for r in range(board.rows) for c in range(board.cols) if rows[r][c] != "."]
    pairs = _dominoes(set(filled), sorted(filled))
    return tuple(Piece(cells, tuple(rows[r][c] for r, c in cells), symbol) for cells in pairs)


def _dominoes(free: set[Cell], order: list[Cell]) -> list[tuple[Cell, ...]]:
    """Pair cells into dominoes, preferring a perfect pairing; a cell that
    cannot be paired becomes a one-cell piece so any text still renders."""
    result: list[tuple[Cell, ...]] = []

    def solve(i: int) -> bool:
        while i < len(order) and order[i] not in free:
            i += 1
        if i == len(order):
            return True
        r, c = order[i]
        # below first: tiles dropped vertically stack in columns
        for other in ((r + 1, c), (r, c + 1)):
            if other in free:
                free.difference_update({(r, c), other})
                result.append(((r, c), other))
                if solve(i + 1):
                    return True
                result.pop()
                free.update({(r, c), other})
        return False

    saved = set(free)
    if len(free) % 2 == 0 and solve(0):
        return result
    free, result = saved, []
    for cell in order:  # greedy fallback
        if cell not in free:
            continue
        r, c = cell
        mate = next((o for o in ((r + 1, c), (r, c + 1)) if o in free), None)
        free.discard(cell)
        if mate:
            free.discard(mate)
            result.append((cell, mate))
        else:
            result.append((cell,))
    return result
