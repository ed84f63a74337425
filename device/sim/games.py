"""Seeded games played out on the simulated table, as scripts.

``script_for("bits", seed)`` / ``script_for("lits", seed)`` give a whole
game with hands, slides, pauses and the occasional knock of the camera;
every placement event carries what the rules say about it.
"""

from __future__ import annotations

import random
from typing import Any

from device.sim.board import BoardSpec
from device.sim.motion import Choreographer
from device.sim.scene import Piece
from device.sim.script import Script
from device.sim.solids import SYMBOLS

GAMES = ("bits", "lits")


def bits_game(seed: int, drops: int = 10) -> Script:
    """A BITS board filling up tile by tile (gravity only, legal drops)."""
    board = BoardSpec.bits()
    rng = random.Random(f"bits:{seed}")
    script = Script(board, info={"game": "bits", "seed": seed})
    table = Choreographer(script, seed)
    symbol = rng.choice(SYMBOLS)
    tops = [board.rows] * board.cols  # first filled row per column
    table.wait(rng.uniform(0.8, 1.5))
    for number in range(drops):
        options: list[tuple[tuple[int, int], ...]] = []
        for c in range(board.cols):
            if tops[c] >= 2:
                options.append(((tops[c] - 2, c), (tops[c] - 1, c)))
            if c + 1 < board.cols:
                row = min(tops[c], tops[c + 1]) - 1
                if row >= 0:
                    options.append(((row, c), (row, c + 1)))
        if not options:
            break
        cells = rng.choice(options)
        codes = (rng.choice("RYBPK"), rng.choice("RYBPK"))
        for r, c in cells:
            tops[c] = min(tops[c], r)
        table.drop(Piece(cells, codes, symbol), number=number + 1, legal=True, reason="ok")
        table.wait(rng.uniform(0.6, 1.6))
        if rng.random() < 0.1:
            table.knock()
            table.wait(0.8)
    return script


def lits_game(seed: int, moves: int | None = None) -> Script:
    """A game of Battle of LITS between two random players, by the engine's
    rules: every piece is a legal move of the moment."""
    from engine.lits import Game, Layout

    layout = Layout.random(seed)
    game = Game.new(
        {"players": ["X player", "O player"], "layout_seed": seed, "settings": {"swap": False}}
    )
    board = BoardSpec.lits(tuple(layout.rows()))
    rng = random.Random(f"lits:{seed}")
    script = Script(board, info={"game": "lits", "seed": seed, "layout": list(layout.rows())})
    table = Choreographer(script, seed)
    table.wait(rng.uniform(0.8, 1.5))
    count = 0
    while not game.over and (moves is None or count < moves):
        legal = game.legal_moves()
        move = rng.choice(legal)
        events = game.apply(
            {"type": "place", "shape": move.shape, "cells": [list(c) for c in move.cells]}
        )
        placed: dict[str, Any] = next(e for e in events if e["type"] == "placed")
        table.lay(
            Piece(tuple(move.cells), (move.shape,) * len(move.cells)),
            number=placed["number"],
            player=placed["player"],
            shape=move.shape,
            legal=True,
            reason="ok",
        )
        count += 1
        table.wait(rng.uniform(0.5, 1.5))
    script.info["score"] = game.score()
    return script


def script_for(game: str, seed: int = 0) -> Script:
    """The seeded demo game ``game`` ("bits" or "lits")."""
    if game == "bits":
        return bits_game(seed)
    if game == "lits":
        return lits_game(seed)
    raise ValueError(f"no simulated game {game!r}; choose {' or '.join(GAMES)}")
