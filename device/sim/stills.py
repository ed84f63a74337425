"""Single still frames of random positions: for locators and colour readers
that need many varied boards, not a game's timeline.

>>> shot = still("bits", 3, size=(160, 120))
>>> shot.image.shape, len(shot.truth["corners"]), shot.truth["conditions"]["seed"]
((120, 160, 3), 4, 3)
"""

from __future__ import annotations

import random

import numpy as np

from device.sim.board import BoardSpec
from device.sim.conditions import Conditions
from device.sim.paint import load_paint
from device.sim.renderer import Renderer, Shot
from device.sim.scene import HandPose, Piece, Scene
from device.sim.solids import SYMBOLS


def random_position(game: str, seed: int) -> tuple[BoardSpec, tuple[Piece, ...]]:
    """A position reachable by legal play: 0 to a full game's worth of
    pieces, by the engine's rules."""
    rng = random.Random(f"still:{game}:{seed}")
    if game == "lits":
        from engine.lits import Game, Layout

        layout = Layout.random(seed)
        lits = Game.new({"layout_seed": seed, "settings": {"swap": False}})
        pieces = []
        for _ in range(rng.randint(0, 14)):
            if lits.over:
                break
            move = rng.choice(lits.legal_moves())
            lits.apply(
                {"type": "place", "shape": move.shape, "cells": [list(c) for c in move.cells]}
            )
            pieces.append(Piece(tuple(move.cells), (move.shape,) * 4))
        return BoardSpec.lits(tuple(layout.rows())), tuple(pieces)
    if game != "bits":
        raise ValueError(f"no simulated game {game!r}; choose bits or lits")
    from engine.bits import Board, Tile, legal_drops, load_tileset

    tiles = [*load_tileset().game_tiles, Tile("NN")]
    board = Board.empty()
    symbol = rng.choice(SYMBOLS)
    pieces = []
    for _ in range(rng.randint(0, 18)):
        drops = legal_drops(board, rng.choice(tiles))
        if not drops:
            break
        drop = rng.choice(drops)
        board = board.after(drop)
        pieces.append(Piece(tuple(drop.cells), (drop.first, drop.second), symbol))
    return BoardSpec.bits(), tuple(pieces)


def still(
    game: str,
    seed: int,
    size: tuple[int, int] = (640, 480),
    conditions: Conditions | None = None,
    hand: bool = False,
) -> Shot:
    """One frame of a random position under ``conditions`` (default
    ``Conditions.random(seed)``); with ``hand``, a hand rests over the board.
    ``truth`` has the renderer's keys plus ``conditions`` (a dict)."""
    board, pieces = random_position(game, seed)
    conditions = conditions or Conditions.random(seed, game)
    rng = random.Random(f"still-hand:{game}:{seed}")
    hands: tuple[HandPose, ...] = ()
    if hand:
        paint = load_paint()
        w, h = board.grid_size_mm
        palm = np.array([rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h])
        angle = rng.uniform(0, 2 * np.pi)
        shoulder = palm + 450 * np.array([np.cos(angle), np.sin(angle)])
        hands = (
            HandPose(
                float(palm[0]),
                float(palm[1]),
                rng.uniform(25, 70),
                (float(shoulder[0]), float(shoulder[1])),
                rng.choice(paint.skin_tones()),
                rng.choice(paint.sleeves()),
                curl=rng.uniform(0, 0.6),
            ),
        )
    shot = Renderer(board, conditions, size, seed).render(Scene(pieces, hands=hands))
    shot.truth["conditions"] = conditions.as_dict()
    return shot
