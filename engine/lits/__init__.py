"""Battle of LITS (Grant Fikes): the rules engine.

The vocabulary, python-chess style: a :class:`Layout` (printed X/O symbols),
:class:`Placement` (one of the 1,292 ways a piece can lie on the board), a
:class:`Position` (layout + pieces; ``str()`` is the position text, with
``legal_moves()`` and ``score()``), :func:`judge` (before, after) -> verdict,
:func:`decode` (one photo's colours -> pieces and problems), and the
event-sourced :class:`Game` that the table service and the camera tracker
drive with JSON actions.
"""

from engine.lits.decode import Decoded, decode, recoloured
from engine.lits.game import Game
from engine.lits.judge import check_placement, judge, judge_piece
from engine.lits.layout import DEFAULT_LAYOUT, Layout, LayoutError, builtin_names
from engine.lits.pieces import (
    COLOURS,
    LETTERS,
    PLACEMENTS,
    SHAPES,
    SUPPLY,
    Placement,
    placement_at,
    shape_of,
)
from engine.lits.position import Position, PositionError
from engine.lits.score import winner
from engine.lits.text import read_rows

__all__ = [
    "COLOURS",
    "DEFAULT_LAYOUT",
    "LETTERS",
    "PLACEMENTS",
    "SHAPES",
    "SUPPLY",
    "Decoded",
    "Game",
    "Layout",
    "LayoutError",
    "Placement",
    "Position",
    "PositionError",
    "builtin_names",
    "check_placement",
    "decode",
    "judge",
    "judge_piece",
    "placement_at",
    "read_rows",
    "recoloured",
    "shape_of",
    "winner",
]
