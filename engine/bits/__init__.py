"""The BITS rules engine (Reiner Knizia, 2011): board, tiles, drops, judging,
scoring and the game flow, with every configurable rule in ``data/*.toml``.

>>> board = Board.from_rows(["......"] * 5 + ["RY...."])
>>> len(legal_drops(board, Tile("BB")))
11
>>> score_board(board, [parse_card("shape=#,points=1,pile=2")]).total
2
"""

from engine.bits.board import LAYER_CODES, Board, BoardError
from engine.bits.build import build_order
from engine.bits.cards import (
    CardError,
    Catalogue,
    TaskCard,
    card_from_dict,
    card_from_json,
    load_catalogue,
    parse_card,
)
from engine.bits.data import Settings, TileSet, load_settings, load_tileset
from engine.bits.drops import Drop, can_place, drop, landing, legal_drops
from engine.bits.game import Game
from engine.bits.judge import Turn, card_candidates, infer, judge
from engine.bits.scoring import (
    Block,
    BoardScore,
    CardScore,
    ScoredBlock,
    Standing,
    blocks,
    score_board,
    score_card,
    solo_rank,
    winners,
)
from engine.bits.tiles import CODES, COLOURS, EMPTY, NEUTRAL, NEUTRAL_TILE, Tile

__all__ = [
    "CODES",
    "COLOURS",
    "EMPTY",
    "LAYER_CODES",
    "NEUTRAL",
    "NEUTRAL_TILE",
    "Block",
    "Board",
    "BoardError",
    "BoardScore",
    "CardError",
    "CardScore",
    "Catalogue",
    "Drop",
    "Game",
    "ScoredBlock",
    "Settings",
    "Standing",
    "TaskCard",
    "Tile",
    "TileSet",
    "Turn",
    "blocks",
    "build_order",
    "can_place",
    "card_candidates",
    "card_from_dict",
    "card_from_json",
    "drop",
    "infer",
    "judge",
    "landing",
    "legal_drops",
    "load_catalogue",
    "load_settings",
    "load_tileset",
    "parse_card",
    "score_board",
    "score_card",
    "solo_rank",
    "winners",
]
