"""The board texture: table, print, ramp and pieces, for one viewpoint.

The flat print is drawn once; raised things (BITS ramp rails and lip, every
tile or piece, their shadows) depend on where the lens is (parallax), so they
are redrawn when the camera moves or the pieces change, and cached between.
"""

from __future__ import annotations

import numpy as np

from device.sim.art import print_board, table_texture
from device.sim.board import BoardSpec
from device.sim.canvas import Canvas
from device.sim.conditions import Conditions
from device.sim.paint import load_paint
from device.sim.scene import Piece, Placed
from device.sim.solids import (
    Light,
    View,
    cast_shadow,
    draw_prism,
    edge_cells,
    inset,
    outline,
    symbol_ink,
    symbol_polygon,
)

# How far beyond the board's frame the detailed texture reaches (mm): room
# for shadows and for raised edges leaning outwards.
MARGIN_MM = 45.0
_SHADOW = 0.42  # darkness of a piece's cast shadow
_CONTACT = 0.3  # darkness where a piece meets the board
_SYMBOL_SIZE = 0.2  # symbol radius, share of a cell


class Tabletop:
    """Draws the board region (table, print, solids) at ``ppm`` pixels per mm."""

    def __init__(self, board: BoardSpec, conditions: Conditions, art: str, ppm: float) -> None:
        self.board = board
        self.conditions = conditions
        self.art = art
        x0, y0, x1, y1 = board.outer_rect_mm()
        self.rect_mm = (x0 - MARGIN_MM, y0 - MARGIN_MM, x1 + MARGIN_MM, y1 + MARGIN_MM)
        table = table_texture(conditions.table, self.rect_mm, ppm, conditions.seed)
        self.flat = Canvas(table, (self.rect_mm[0], self.rect_mm[1]), ppm)
        print_board(self.flat, board, art)
        self.paint = load_paint()
        self.colours = self.paint.board(board.game, art)
        self.light = Light(conditions.light_azimuth_deg, conditions.light_elevation_deg)

    @property
    def ppm(self) -> float:
        return self.flat.ppm

    # --- what stands on the board ----------------------------------------
    def _structure(self) -> list[tuple[np.ndarray, float]]:
        """BITS ramp rails and bottom lip: (outline mm, height)."""
        b = self.board
        if not b.rail_mm:
            return []
        x0, y0, x1, y1 = b.board_rect_mm()

        def box(a: float, c: float, d: float, e: float) -> np.ndarray:
            return np.array([[a, c], [d, c], [d, e], [a, e]], dtype=np.float64)

        return [
            (box(x0 - b.rail_mm, y0, x0, y1 + b.lip_mm), b.rail_height_mm),
            (box(x1, y0, x1 + b.rail_mm, y1 + b.lip_mm), b.rail_height_mm),
            (box(x0, y1, x1, y1 + b.lip_mm), b.lip_height_mm),
        ]

    def _piece_outline(
        self, piece: Piece, shift: tuple[float, float], merge: bool = True
    ) -> np.ndarray:
        s = self.board.cell_mm
        loop = outline(piece.cells, merge) * s + np.array([shift[1] * s, shift[0] * s])
        return inset(loop, self.board.gap_mm / 2)

    def _cell_squares(self, piece: Piece, shift: tuple[float, float]) -> list[np.ndarray]:
        s, g = self.board.cell_mm, self.board.gap_mm / 2
        squares = []
        for r, c in piece.cells:
            x, y = (c + shift[1]) * s, (r + shift[0]) * s
            squares.append(
                np.array(
                    [[x + g, y + g], [x + s - g, y + g], [x + s - g, y + s - g], [x + g, y + s - g]]
                )
            )
        return squares

    def _shadow_parts(self, placed: Placed) -> list[np.ndarray]:
        return self._cell_squares(placed.piece, placed.shift)

    def draw_piece(self, canvas: Canvas, placed: Placed, view: View) -> None:
        """One tile or piece (with its printed symbols) at its place and lift."""
        piece = placed.piece
        b = self.board
        base = placed.lift_mm
        top = base + b.piece_height_mm
        colours = [self.paint.piece(b.game, code) for code in piece.codes]
        one_colour = len(set(piece.codes)) == 1
        poly = self._piece_outline(piece, placed.shift, merge=one_colour)
        edge_colours = None
        if not one_colour:
            by_cell = dict(zip(piece.cells, colours, strict=True))
            edge_colours = [by_cell[cell] for cell in edge_cells(outline(piece.cells, merge=False))]
        draw_prism(canvas, poly, base, top, colours[0], b.bevel_mm, view, self.light, edge_colours)
        if not one_colour:
            self._draw_halves(canvas, placed, colours, view, top)
        if piece.symbol and self.conditions.tile_symbols:
            self._draw_symbols(canvas, placed, colours, view, top)

    def _draw_halves(
        self,
        canvas: Canvas,
        placed: Placed,
        colours: list[tuple[int, int, int]],
        view: View,
        top: float,
    ) -> None:
        s, edge = self.board.cell_mm, self.board.gap_mm / 2 + self.board.bevel_mm
        cells = placed.piece.cells
        for (r, c), colour in zip(cells, colours, strict=True):
            x, y = (c + placed.shift[1]) * s, (r + placed.shift[0]) * s
            # inner edges (towards the other half) run to the cell border
            left = edge if (r, c - 1) not in cells else 0.0
            right = edge if (r, c + 1) not in cells else 0.0
            upper = edge if (r - 1, c) not in cells else 0.0
            lower = edge if (r + 1, c) not in cells else 0.0
            square = np.array(
                [
                    [x + left, y + upper],
                    [x + s - right, y + upper],
                    [x + s - right, y + s - lower],
                    [x + left, y + s - lower],
                ]
            )
            canvas.fill_polygon(view.lift(square, top), colour)

    def _draw_symbols(
        self,
        canvas: Canvas,
        placed: Placed,
        colours: list[tuple[int, int, int]],
        view: View,
        top: float,
    ) -> None:
        s = self.board.cell_mm
        shape = symbol_polygon(placed.piece.symbol or "circle") * (_SYMBOL_SIZE * s)
        for (r, c), colour in zip(placed.piece.cells, colours, strict=True):
            centre = np.array([(c + 0.5 + placed.shift[1]) * s, (r + 0.5 + placed.shift[0]) * s])
            canvas.fill_polygon(view.lift(shape + centre, top + 0.05), symbol_ink(colour))

    def _shadow(self, canvas: Canvas, placed: Placed) -> None:
        """The shadow a piece casts (and, resting, its contact shadow)."""
        blur = 0.6 + 0.18 * self.board.piece_height_mm + 0.12 * placed.lift_mm
        cast_shadow(
            canvas,
            self._shadow_parts(placed),
            placed.lift_mm,
            placed.lift_mm + self.board.piece_height_mm,
            self.light,
            _SHADOW,
            blur,
            _CONTACT if placed.lift_mm == 0 else 0.0,
        )

    def _draw_solids(self, canvas: Canvas, placed: list[Placed], view: View) -> None:
        """Shadows first (they fall on the board), then solids far to near."""
        blur = 0.6 + 0.18 * self.board.piece_height_mm
        for poly, height in self._structure():
            cast_shadow(
                canvas, [poly], 0.0, height, self.light, _SHADOW, blur + 0.1 * height, _CONTACT
            )
        for p in placed:
            self._shadow(canvas, p)
        foot = np.asarray(view.centre_xy)
        items: list[tuple[float, Placed | tuple[np.ndarray, float]]] = []
        for poly, height in self._structure():
            items.append((float(np.linalg.norm(poly.mean(axis=0) - foot)), (poly, height)))
        for p in placed:
            centre = np.mean(self._piece_outline(p.piece, p.shift), axis=0)
            items.append((float(np.linalg.norm(centre - foot)) - 1000.0 * p.lift_mm, p))
        for _, item in sorted(items, key=lambda it: -it[0]):
            if isinstance(item, Placed):
                self.draw_piece(canvas, item, view)
            else:
                poly, height = item
                draw_prism(canvas, poly, 0.0, height, self.colours["rail"], 1.5, view, self.light)

    def texture(self, view: View, resting: tuple[Piece, ...]) -> Canvas:
        """The board region with the ramp and every resting piece."""
        canvas = Canvas(self.flat.image.copy(), self.flat.origin, self.flat.ppm)
        self._draw_solids(canvas, [Placed(p) for p in resting], view)
        return canvas

    def with_moving(self, base: Canvas, view: View, moving: tuple[Placed, ...]) -> Canvas:
        """``base`` plus pieces in motion (drawn last: they ride on top)."""
        canvas = Canvas(base.image.copy(), base.origin, base.ppm)
        for p in moving:
            self._shadow(canvas, p)
        for p in sorted(moving, key=lambda m: m.lift_mm):
            self.draw_piece(canvas, p, view)
        return canvas


def detail_ppm(scale_px_per_mm: float) -> float:
    """Texture resolution for a board seen at ``scale_px_per_mm`` in the
    image: a little finer than the image, so the warp never magnifies."""
    return float(min(max(1.4 * scale_px_per_mm, 2.0), 12.0))
