"""The physical board a simulated camera looks at, in millimetres.

World coordinates: x to the right and y towards the player (down the ramp),
both on the board plane with the origin at the grid's upper-left corner;
z points *into* the table, so a height h above the board is ``z = -h``. This
is OpenCV's camera convention (a camera looking straight down has its image x
along world x and image y along world y), so nothing flips between the two.

>>> bits = BoardSpec.bits()
>>> bits.grid_corners_mm()
((0.0, 0.0), (132.0, 0.0), (132.0, 132.0), (0.0, 132.0))
>>> BoardSpec.lits().rows
10
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class BoardSpec:
    """Sizes of one board and its frame. BITS sits in a ramp with raised side
    rails and a lip at the bottom; a LITS board lies flat on the table."""

    game: str  # "bits" or "lits"
    rows: int
    cols: int
    cell_mm: float
    # Printed board around the grid: left, top, right, bottom (mm).
    margin_mm: tuple[float, float, float, float]
    piece_height_mm: float  # tile / piece thickness
    gap_mm: float  # play between neighbouring pieces
    bevel_mm: float
    rail_mm: float = 0.0  # BITS ramp side rails: width (0 = no rails)
    rail_height_mm: float = 0.0
    lip_mm: float = 0.0  # BITS: the ledge along the bottom that tiles rest against
    lip_height_mm: float = 0.0
    layout: tuple[str, ...] = ()  # LITS printed X/O/. layout, one string per row

    @classmethod
    def bits(cls) -> BoardSpec:
        # The ramp's upper part (above the grid) is where a tile is put down
        # before it slides; it carries the logo.
        return cls(
            game="bits",
            rows=6,
            cols=6,
            cell_mm=22.0,
            margin_mm=(8.0, 52.0, 8.0, 6.0),
            piece_height_mm=5.0,
            gap_mm=0.8,
            bevel_mm=1.2,
            rail_mm=12.0,
            rail_height_mm=11.0,
            lip_mm=9.0,
            lip_height_mm=7.0,
        )

    @classmethod
    def lits(cls, layout: tuple[str, ...] | None = None) -> BoardSpec:
        if layout is None:
            layout = tuple("." * 10 for _ in range(10))
        if len(layout) != 10 or any(len(row) != 10 for row in layout):
            raise ValueError("a LITS layout is 10 rows of 10 cells")
        return cls(
            game="lits",
            rows=10,
            cols=10,
            cell_mm=20.0,
            margin_mm=(16.0, 26.0, 16.0, 16.0),
            piece_height_mm=3.0,
            gap_mm=0.6,
            bevel_mm=0.9,
            layout=tuple(layout),
        )

    @property
    def grid_size_mm(self) -> tuple[float, float]:
        return (self.cols * self.cell_mm, self.rows * self.cell_mm)

    def grid_corners_mm(self) -> tuple[tuple[float, float], ...]:
        """Upper-left, upper-right, lower-right, lower-left (DESIGN.md order)."""
        w, h = self.grid_size_mm
        return ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))

    def board_rect_mm(self) -> tuple[float, float, float, float]:
        """The printed board (grid plus margins): x0, y0, x1, y1."""
        left, top, right, bottom = self.margin_mm
        w, h = self.grid_size_mm
        return (-left, -top, w + right, h + bottom)

    def outer_rect_mm(self) -> tuple[float, float, float, float]:
        """Everything that belongs to the board, rails and lip included."""
        x0, y0, x1, y1 = self.board_rect_mm()
        return (x0 - self.rail_mm, y0, x1 + self.rail_mm, y1 + self.lip_mm)

    def cell_rect_mm(self, row: float, col: float) -> tuple[float, float, float, float]:
        s = self.cell_mm
        return (col * s, row * s, (col + 1) * s, (row + 1) * s)

    def empty_code(self, row: int, col: int) -> str:
        """What an uncovered cell shows: BITS '.', LITS its printed symbol."""
        return self.layout[row][col] if self.game == "lits" else "."
