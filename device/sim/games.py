"""Seeded games played out on the simulated table, as scripts.

The rules come from the engines (``engine.bits``, ``engine.lits``): the
script plays random but rule-abiding players, feeds every placement to the
engine's event-sourced ``Game`` and records the engine's verdict on the
event, so the ground truth has one source. On purpose, some placements break
a rule (BITS: wrong tile, resting in mid-air, pushed under an overhang, a
second neutral; LITS: a piece the rules refuse); such a tile stays until the
player takes it back out, as at a real table.

>>> script = bits_game(4, max_drops=3, illegal=0.0)
>>> [e["kind"] for e in script.events if e["kind"] in ("placed", "removed")]
['placed', 'placed', 'placed']
>>> script.info["game"], script.info["watched"]
('bits', 0)
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
ILLEGAL_KINDS = ("wrong_tile", "mid_air", "under_overhang", "second_neutral")


# --- BITS ---------------------------------------------------------------------
def _piece_of(drop: Any, symbol: str | None) -> Piece:
    return Piece(tuple(drop.cells), (drop.first, drop.second), symbol)


def _free(rows: list[str], cell: tuple[int, int]) -> bool:
    r, c = cell
    return 0 <= r < 6 and 0 <= c < 6 and rows[r][c] == "."


def _mid_air(board: Any, tile: Any) -> tuple[Any, list[tuple[float, float]]] | None:
    """A drop stopped at least one row above where gravity puts it."""
    from engine.bits import legal_drops

    for d in legal_drops(board, tile):
        if d.row >= 1:
            return d._replace(row=d.row - 1), []
    return None


def _under_overhang(
    board: Any, tile: Any, rng: random.Random
) -> tuple[Any, list[tuple[float, float]]] | None:
    """A tile pushed sideways into a hole under an overhang: it slides down
    an open neighbouring column, then sideways. Returns the drop and the
    path (shifts from its final cells) the tile travels."""
    from engine.bits import Drop

    rows = list(board.rows())
    tops = board.tops()
    options = []
    for c in range(6):
        for r in range(5):
            # a vertical hole of two cells in column c, covered from above,
            # standing on the bottom or on a tile
            if not (_free(rows, (r, c)) and _free(rows, (r + 1, c))):
                continue
            if tops[c] > r or (r + 2 < 6 and _free(rows, (r + 2, c))):
                continue
            for side in (-1, 1):
                n = c + side
                if 0 <= n < 6 and tops[n] >= r + 2:
                    options.append((r, c, side))
    if not options:
        return None
    r, c, side = rng.choice(options)
    first, second = tile.orders()[0]
    drop = Drop(first, second, True, c, r)
    return drop, [(0.0, float(side))]


def bits_game(
    seed: int,
    players: int = 2,
    watched: int = 0,
    max_drops: int | None = None,
    illegal: float = 0.12,
) -> Script:
    """A seeded BITS game for ``players`` (1-4), seen by a camera over the
    ramp of player ``watched``; ``illegal`` is the chance that one of that
    player's placements breaks a rule on purpose; ``max_drops`` cuts the
    game short (a test's budget)."""
    from engine.bits import Board, Game, Tile, legal_drops

    if not 1 <= players <= 4 or not 0 <= watched < players:
        raise ValueError("a BITS game has 1-4 players; the watched one is among them")
    names = [f"Player {i + 1}" for i in range(players)]
    game = Game.new({"players": names, "seed": seed})
    rng = random.Random(f"bits:{seed}")
    symbols = rng.sample(SYMBOLS, players)
    board = BoardSpec.bits()
    script = Script(
        board,
        info={
            "game": "bits",
            "seed": seed,
            "players": names,
            "watched": watched,
            "symbol": symbols[watched],
        },
    )
    table = Choreographer(script, seed)
    for event in game.opening_events:
        _note(script, event, watched)
    table.wait(rng.uniform(0.8, 1.5))
    drops = 0
    used_kinds: list[str] = []
    while not game.view()["over"] and (max_drops is None or drops < max_drops):
        view = game.view()
        phase = view["phase"]
        moved = False
        for index, seat in enumerate(view["players"]):
            if seat["dropped_out"] or seat["placed"]:
                continue
            engine_board = Board.from_rows(seat["board"])
            if phase == "start":
                tile = Tile(seat["start_tile"])
                symbol = None  # starting tiles carry no symbol
            else:
                tile = Tile(view["card"])
                symbol = symbols[index]
            choices = legal_drops(engine_board, tile)
            if phase == "build" and not seat["neutral_used"] and rng.random() < 0.08:
                choices = legal_drops(engine_board, Tile("NN")) or choices
            if not choices:
                continue
            chosen = rng.choice(choices)
            if index == watched and phase == "build" and rng.random() < illegal:
                broke = _break_a_rule(
                    game, index, engine_board, tile, chosen, symbol, table, rng, used_kinds, script
                )
                if broke:
                    drops += 1
            after = list(engine_board.after(chosen).rows())
            events = game.apply({"type": "place", "player": index, "rows": after})
            verdict = _verdict(events)
            if index == watched:
                table.drop(_piece_of(chosen, symbol), player=index, **verdict)
                table.wait(rng.uniform(0.5, 1.4))
                drops += 1
                if rng.random() < 0.05:
                    table.rest_hand(rng.uniform(1.0, 2.5))
                if rng.random() < 0.04:
                    table.knock()
                    table.wait(0.6)
            for event in events:
                _note(script, event, watched)
            moved = True
            if max_drops is not None and drops >= max_drops:
                break
        if game.view()["round"] != view["round"] or game.view()["over"]:
            if not game.view()["over"]:
                table.wait(1.0)
                table.clear(round=view["round"])
                table.wait(1.0)
        elif not moved:
            break  # nobody could move and the engine did not advance: stop
    script.info["illegal"] = used_kinds
    script.info["final"] = game.view()["players"][watched]["board"]
    return script


def _verdict(events: list[dict[str, Any]]) -> dict[str, Any]:
    for event in events:
        if event["type"] == "placed":
            return {"legal": True, "reason": "ok"}
        if event["type"] == "illegal":
            return {"legal": False, "reason": event["reason"], "message": event["message"]}
    return {"legal": True, "reason": "ok"}


def _note(script: Script, event: dict[str, Any], watched: int) -> None:
    """Game events the camera's referee would also know about (a new card, a
    round over), stamped with the current script time."""
    kind = event["type"]
    if kind in ("card_revealed", "round_started", "task_revealed", "round_ended", "game_over"):
        fields = {k: v for k, v in event.items() if k != "type" and k != "scores"}
        script.add_event(script.duration, kind, **fields)
    elif kind == "dropped_out" and event.get("player") == watched:
        script.add_event(script.duration, "dropped_out", player=watched)


def _break_a_rule(
    game: Any,
    index: int,
    engine_board: Any,
    tile: Any,
    chosen: Any,
    symbol: str | None,
    table: Choreographer,
    rng: random.Random,
    used: list[str],
    script: Script,
) -> bool:
    """Place a tile that breaks a rule, let the referee refuse it, take it
    back out. Returns whether it happened (the board may not allow it)."""
    from engine.bits import load_tileset

    kinds = [k for k in ILLEGAL_KINDS if k not in used] or list(ILLEGAL_KINDS)
    rng.shuffle(kinds)
    for kind in kinds:
        path: list[tuple[float, float]] = []
        drop = None
        if kind == "wrong_tile":
            wrong = rng.choice([t for t in load_tileset().game_tiles if t != tile])
            first, second = wrong.orders()[0]
            drop = chosen._replace(first=first, second=second)
        elif kind == "mid_air":
            found = _mid_air(engine_board, tile)
            drop, path = found if found else (None, [])
        elif kind == "under_overhang":
            found = _under_overhang(engine_board, tile, rng)
            drop, path = found if found else (None, [])
        elif kind == "second_neutral":
            seat = game.view()["players"][index]
            if not seat["neutral_used"]:
                continue  # only a second one is illegal
            drop = chosen._replace(first="N", second="N")
        if drop is None:
            continue
        after = list(engine_board.after(drop).rows())
        events = game.apply({"type": "place", "player": index, "rows": after})
        verdict = _verdict(events)
        piece = _piece_of(drop, symbol)
        table.drop(piece, via=path, player=index, intended=kind, **verdict)
        table.wait(rng.uniform(1.5, 2.5))  # the phones shout; the player looks
        table.take_back(piece, player=index)
        table.wait(rng.uniform(0.4, 0.9))
        used.append(kind)
        return True
    return False


# --- LITS ---------------------------------------------------------------------
def lits_game(seed: int, moves: int | None = None, illegal: float = 0.05) -> Script:
    """A game of Battle of LITS between two random players, by the engine's
    rules; now and then a player puts down a piece the rules refuse and
    takes it back."""
    from engine.lits import PLACEMENTS, Game, Layout

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
        if count > 0 and rng.random() < illegal:
            covered = {cell for piece in table.resting for cell in piece.cells}
            refused = [
                p for p in PLACEMENTS if not covered & set(p.cells) and p not in game.legal_moves()
            ]
            if refused:
                move = rng.choice(refused)
                events = game.apply(
                    {"type": "place", "shape": move.shape, "cells": [list(c) for c in move.cells]}
                )
                bad = next(e for e in events if e["type"] == "illegal")
                piece = Piece(tuple(move.cells), (move.shape,) * 4)
                table.lay(
                    piece,
                    shape=move.shape,
                    legal=False,
                    reason=bad["reason"],
                    message=bad["message"],
                )
                table.wait(rng.uniform(1.5, 2.5))
                table.take_back(piece)
                table.wait(rng.uniform(0.4, 0.9))
        move = rng.choice(game.legal_moves())
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
        if rng.random() < 0.04:
            table.rest_hand(rng.uniform(1.0, 2.5))
        if rng.random() < 0.03:
            table.knock()
            table.wait(0.6)
    script.info["score"] = game.score()
    script.info["over"] = game.over
    return script


def script_for(game: str, seed: int = 0, players: int = 2, player: int = 0) -> Script:
    """The seeded game ``game`` ("bits" or "lits"). BITS takes the number
    of ``players`` and which ``player``'s ramp (from 0) the camera watches."""
    if game == "bits":
        return bits_game(seed, players=players, watched=player)
    if game == "lits":
        return lits_game(seed)
    raise ValueError(f"no simulated game {game!r}; choose {' or '.join(GAMES)}")
