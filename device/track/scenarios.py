"""Simulated play for measuring and testing the tracker.

- :func:`sim_game`: one of the simulator's seeded games (``device.sim.games``)
  with the table set-up that deals the same cards, so the engine behind the
  table judges exactly what the simulated players did;
- :class:`Lamp`: a lamp switched on part way through a stream: from ``at``
  seconds every frame gets a warm light that falls off across the picture,
  faded in over a few frames, as a real bulb does;
- :func:`quick_pair`: two pieces put down within a second (a quick second
  tile, two pieces in a row), which the simulator's players never do.

Everything here is seeded: the same arguments give the same frames.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from device.sim.board import BoardSpec
from device.sim.motion import Choreographer
from device.sim.scene import NO_BUMP, Bump, Piece, Placed
from device.sim.script import Moment, Script
from device.sources.base import Frame, FrameSource
from device.sources.simulated import SimulatedSource

_SLIDE_MM_S2 = 900.0  # as device.sim.motion: a tile's acceleration down the ramp


def table_setup(script: Script) -> tuple[str, dict[str, Any]]:
    """The game and the table set-up matching a simulated game's script."""
    return setup_from_info({"game": script.board.game, **script.info})


def setup_from_info(info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The game and table set-up from a script's ``info`` (as
    ``tilewatch simulate`` writes it to ``truth.json``)."""
    game = str(info.get("game", "bits"))
    if game == "bits":
        players = list(info.get("players") or ["Player 1"])
        return game, {"players": players, "seed": int(info.get("seed", 0))}
    setup: dict[str, Any] = {
        "players": ["X player", "O player"],
        "settings": {"swap": False},
    }
    if "layout" in info:
        setup["layout_rows"] = list(info["layout"])
    else:
        setup["layout_seed"] = int(info.get("seed", 0))
    return game, setup


def sim_game(game: str, seed: int, moves: int | None = None) -> Script:
    """The simulator's seeded game: BITS solo (the camera sees the only
    ramp, so every card's tile is on camera) or LITS; ``moves`` cuts it
    short after that many placements."""
    from device.sim.games import bits_game, lits_game

    if game == "bits":
        return bits_game(seed, players=1, max_drops=moves)
    if game == "lits":
        return lits_game(seed, moves=moves)
    raise ValueError(f"no simulated game {game!r}")


@dataclass(frozen=True)
class LampLight:
    """A lamp's light on the picture: ``strength`` extra light where it is
    brightest (0.5 = half as bright again), falling off away from
    ``(x, y)`` (fractions of the frame); ``warmth`` how much redder than
    blue it is (0 = white)."""

    at: float
    strength: float = 0.5
    x: float = 0.9
    y: float = 0.1
    warmth: float = 0.35
    fade_s: float = 0.15

    def gain(self, shape: tuple[int, int], t: float) -> np.ndarray | None:
        """(h, w, 3) float32 gain (BGR) at stream time ``t``, or None before ``at``."""
        if t < self.at:
            return None
        on = min(1.0, (t - self.at) / self.fade_s) if self.fade_s > 0 else 1.0
        h, w = shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = np.hypot(xx / w - self.x, yy / h - self.y)
        falloff = 1.0 / (1.0 + 2.5 * d * d)
        colour = np.array([1 - self.warmth, 1.0, 1 + self.warmth * 0.6], np.float32)
        gain: np.ndarray = 1.0 + on * self.strength * falloff[..., None] * colour
        return gain


class Lamp(FrameSource):
    """Frames of ``source`` with a lamp switched on at ``light.at``."""

    def __init__(self, source: FrameSource, light: LampLight) -> None:
        self.source = source
        self.light = light
        self.name = f"{source.name}+lamp"
        self._gain: tuple[float, np.ndarray] | None = None

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is None:
            return None
        gain = self._gain_at(frame.image.shape[:2], frame.t)
        if gain is None:
            return frame
        lit = np.clip(frame.image.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        meta = {**frame.meta, "lamp": True}
        return Frame(lit, frame.t, frame.index, meta)

    def _gain_at(self, shape: tuple[int, int], t: float) -> np.ndarray | None:
        light = self.light
        if t < light.at:
            return None
        settled = t >= light.at + light.fade_s
        if settled and self._gain is not None:
            return self._gain[1]
        gain = light.gain(shape, t)
        if settled and gain is not None:
            self._gain = (t, gain)
        return gain

    def close(self) -> None:
        self.source.close()


def quick_pair(
    board: BoardSpec,
    resting: tuple[Piece, ...],
    first: Piece,
    second: Piece,
    gap_s: float = 0.6,
    lead_s: float = 1.0,
    tail_s: float = 2.0,
    bump: Bump = NO_BUMP,
) -> Script:
    """A still board, then ``first`` and ``second`` put down ``gap_s``
    apart (BITS: dropped down the ramp from above the grid; LITS: lowered
    onto their cells), then stillness. Events say when each came to rest.
    ``bump``: where the camera sits (after an earlier knock)."""
    script = Script(board, info={"game": board.game, "kind": "quick_pair"})
    script.add_clip(lead_s, resting, lambda t: Moment(bump=bump))
    moves = [_Move(first, 0.0, board), _Move(second, gap_s, board)]
    total = max(m.end for m in moves)

    def moment(t: float) -> Moment:
        return Moment(tuple(m.at(t) for m in moves if t >= m.start), (), bump, in_motion=True)

    start = script.add_clip(total, resting, moment)
    for m in moves:
        cells = [list(c) for c in m.piece.cells]
        codes = "".join(m.piece.codes)
        script.add_event(start + m.end, "placed", cells=cells, codes=codes, legal=True, reason="ok")
    script.add_clip(tail_s, (*resting, first, second), lambda t: Moment(bump=bump))
    return script


@dataclass(frozen=True)
class _Move:
    """One piece on its way: a BITS tile slides down from above the grid,
    a LITS piece is lowered; it stays where it stopped."""

    piece: Piece
    start: float
    board: BoardSpec

    @property
    def rows(self) -> float:
        return min(r for r, _ in self.piece.cells) + 1.25

    @property
    def seconds(self) -> float:
        if self.board.game == "lits":
            return 0.5
        return math.sqrt(2 * self.rows * self.board.cell_mm / _SLIDE_MM_S2)

    @property
    def end(self) -> float:
        return self.start + self.seconds

    def at(self, t: float) -> Placed:
        x = min(max((t - self.start) / self.seconds, 0.0), 1.0)
        if self.board.game == "lits":
            return Placed(self.piece, (0.0, 0.0), 30.0 * (1 - x))
        return Placed(self.piece, (-self.rows * (1 - x * x), 0.0), 0.0)


def bits_scene(
    seed: int, steps: Sequence[str | tuple[str, float]]
) -> tuple[Script, dict[str, Any]]:
    """A short solo BITS game played by a script of ``steps``, for tests:

    - ``"drop"``: the tile the game asks for, dropped where the rules allow
      (the first legal place from the left on the lowest row);
    - ``("wait", s)``, ``("rest", s)`` (a hand lies over the board for ``s``
      seconds), ``"knock"`` (the camera is bumped);
    - ``("quick", s)``: the next two tiles, the second ``s`` seconds after
      the first (no hands: they are let go above the ramp);
    - ``("bad", s)``: the tile the game asks for, left resting a row above
      where it would land (in mid-air, against the rules) for ``s``
      seconds, then taken back out;
    - ``("neutral", s)``: the grey neutral tile instead of the card's,
      dropped where it lands first from the left on the lowest row: kept
      when the rules allow it (once a round), else (a second one) left
      there ``s`` seconds, then taken back out.

    Returns the script and the table set-up that deals the same cards."""
    from engine.bits import Board, Game, Tile, legal_drops

    setup = {"players": ["Player 1"], "seed": seed}
    game = Game.new(setup)
    board = BoardSpec.bits()
    script = Script(board, info={"game": "bits", "seed": seed, "players": ["Player 1"]})
    table = Choreographer(script, seed)
    table.wait(1.0)

    def next_drop() -> tuple[Piece, list[str]]:
        view = game.view()
        seat = view["players"][0]
        tile = Tile(seat["start_tile"] if view["phase"] == "start" else view["card"])
        before = Board.from_rows(seat["board"])
        chosen = min(legal_drops(before, tile), key=lambda d: (-d.row, d.column, d.vertical))
        after = list(before.after(chosen).rows())
        game.apply({"type": "place", "player": 0, "rows": after})
        return Piece(tuple(chosen.cells), (chosen.first, chosen.second)), after

    for step in steps:
        kind, arg = (step, 0.0) if isinstance(step, str) else step
        if kind == "bad":
            view = game.view()
            seat = view["players"][0]
            tile = Tile(seat["start_tile"] if view["phase"] == "start" else view["card"])
            lands = [d for d in legal_drops(Board.from_rows(seat["board"]), tile) if d.row >= 1]
            high = min(lands, key=lambda d: (-d.row, d.column))
            high = high._replace(row=high.row - 1)
            piece = Piece(tuple(high.cells), (high.first, high.second))
            table.drop(piece, push=False, player=0, legal=False, reason="mid_air")
            table.wait(arg)
            table.take_back(piece, player=0)
            table.wait(1.0)
        elif kind == "neutral":
            seat = game.view()["players"][0]
            before = Board.from_rows(seat["board"])
            drop = min(legal_drops(before, Tile("NN")), key=lambda d: (-d.row, d.column))
            piece = Piece(tuple(drop.cells), (drop.first, drop.second))
            after = list(before.after(drop).rows())
            verdict, _ = game.judge(0, after)
            table.drop(piece, push=False, player=0, legal=verdict.legal, reason=verdict.reason)
            if verdict.legal:
                game.apply({"type": "place", "player": 0, "rows": after})
                table.wait(1.0)
            else:
                table.wait(arg)
                table.take_back(piece, player=0)
                table.wait(1.0)
        elif kind == "drop":
            piece, _ = next_drop()
            table.drop(piece, push=False, player=0, legal=True, reason="ok")
            table.wait(1.0)
        elif kind == "wait":
            table.wait(arg)
        elif kind == "rest":
            table.rest_hand(arg)
        elif kind == "knock":
            table.knock()
            table.wait(0.6)
        elif kind == "quick":
            first, _ = next_drop()
            second, _ = next_drop()
            pair = quick_pair(
                board, table.resting, first, second, gap_s=arg, lead_s=0.1, bump=table.bump
            )
            start = script.duration
            for clip in pair.clips:
                script.add_clip(clip.seconds, clip.resting, clip.motion)
            for event in pair.events:
                script.add_event(
                    start + event["t"],
                    event["kind"],
                    **{k: v for k, v in event.items() if k not in ("t", "kind")},
                )
            table.resting = (*table.resting, first, second)
            table.wait(1.0)
        else:
            raise ValueError(f"unknown step {kind!r}")
    return script, setup


def two_ramps(
    seed: int, cards: int, wrong_at: int | None = None
) -> tuple[list[Script], dict[str, Any]]:
    """A two-player BITS game on two ramps side by side, for tests: Ann on
    the left ramp, Bo on the right; each drops the starting tile, then the
    tile of every card, ``cards`` times, Ann first. At card ``wrong_at`` Bo
    first drops another tile than the card shows, lets it lie, takes it back
    and drops the right one. One script per ramp, on the same clock."""
    from engine.bits import Board, Game, Tile, legal_drops, load_tileset

    setup = {"players": ["Ann", "Bo"], "seed": seed}
    game = Game.new(setup)
    scripts = [
        Script(BoardSpec.bits(), info={"game": "bits", "seed": seed, "players": ["Ann", "Bo"]})
        for _ in range(2)
    ]
    hands = [Choreographer(script, seed * 7 + i) for i, script in enumerate(scripts)]
    for hand in hands:
        hand.wait(1.0)

    def lowest(board: Any, tile: Any) -> Any:
        return min(legal_drops(board, tile), key=lambda d: (-d.row, d.column, d.vertical))

    for n in range(cards + 1):
        for p in (0, 1):
            view = game.view()
            seat = view["players"][p]
            tile = Tile(seat["start_tile"] if view["phase"] == "start" else view["card"])
            board = Board.from_rows(seat["board"])
            before = scripts[p].duration
            if p == 1 and n == wrong_at:
                other = next(t for t in load_tileset().game_tiles if t != tile)
                bad = lowest(board, other)
                piece = Piece(tuple(bad.cells), (bad.first, bad.second))
                hands[p].drop(piece, push=False, player=p, legal=False, reason="wrong_tile")
                hands[p].wait(2.0)
                hands[p].take_back(piece, player=p)
                hands[p].wait(0.6)
            chosen = lowest(board, tile)
            game.apply({"type": "place", "player": p, "rows": list(board.after(chosen).rows())})
            piece = Piece(tuple(chosen.cells), (chosen.first, chosen.second))
            hands[p].drop(piece, push=False, player=p, legal=True, reason="ok")
            hands[p].wait(0.8)
            hands[1 - p].wait(scripts[p].duration - before)
    return scripts, setup


class SideBySide(FrameSource):
    """One camera seeing several tables' worth of frames side by side (the
    frames of ``sources``, same height, joined left to right); the ground
    truth of each part is kept in ``meta["parts"]``."""

    def __init__(self, sources: Sequence[FrameSource]) -> None:
        self.sources = list(sources)
        self.name = "+".join(s.name for s in self.sources)

    def read(self) -> Frame | None:
        frames = [s.read() for s in self.sources]
        if any(f is None for f in frames):
            return None
        parts = [f for f in frames if f is not None]
        image = np.hstack([f.image for f in parts])
        return Frame(image, parts[0].t, parts[0].index, {"parts": [f.meta for f in parts]})

    def close(self) -> None:
        for source in self.sources:
            source.close()


def simulated(script: Script, fps: float = 10.0, seed: int = 0, **options: Any) -> SimulatedSource:
    """A frame source playing ``script``."""
    return SimulatedSource(script, fps=fps, seed=seed, **options)
