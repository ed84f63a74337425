"""Tiles stand up from the board: keep the lattice on the board's own lines.

A BITS tile is about a quarter of a cell tall, so its top is seen displaced
from the cell it fills (towards the image's edge, by up to a quarter cell on a
tilted camera), and its edges do not lie on the printed lattice. Once the grid
is found, the cells that look like empty board are picked out, and the lattice
is refined again on the segments between two empty cells (or an empty cell
and the outside), where only printed lines can be seen.

Empty board is the colour most cells share: the empty cells are all one
printed colour, while tiles come in several (see
:func:`vision.orientation.filled_from_pixels`).
"""

from __future__ import annotations

import numpy as np

from vision.lattice import Segments
from vision.orientation import cell_colours, filled_from_pixels
from vision.rectify import rectify

# Below this many empty cells there are too few printed lines to lean on.
MIN_EMPTY_SHARE = 0.12
# Weight of a segment beside a tile. Zero: on simulated ramps even a weight
# of 0.2 let tile edges raise the mean corner error from 1.0% to 1.4%.
TILE_WEIGHT = 0.0


def empty_cells(image: np.ndarray, homography: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols)`` bool: the cells that look like empty board."""
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    top = rectify(image, homography, rows, cols, 16)
    empty: np.ndarray = ~filled_from_pixels(cell_colours(top, rows, cols))
    return empty


def board_segments(empty: np.ndarray) -> Segments | None:
    """Segment weights for :func:`vision.lattice.measure`: 1 with empty board
    (or the grid's outside) on both sides, ``TILE_WEIGHT`` beside a tile;
    ``None`` when the board is too full for printed lines to lead."""
    rows, cols = empty.shape
    if empty.mean() < MIN_EMPTY_SHARE:
        return None
    padded = np.ones((rows + 2, cols + 2), bool)
    padded[1:-1, 1:-1] = empty
    # Vertical line k, segment j: cells (j, k-1) and (j, k) -> padded (j+1, k), (j+1, k+1).
    vertical = (padded[1:-1, :-1] & padded[1:-1, 1:]).T  # (cols + 1, rows)
    horizontal = padded[:-1, 1:-1] & padded[1:, 1:-1]  # (rows + 1, cols)
    if vertical.any(axis=1).sum() < 3 or horizontal.any(axis=1).sum() < 3:
        return None
    return np.where(vertical, 1.0, TILE_WEIGHT), np.where(horizontal, 1.0, TILE_WEIGHT)
