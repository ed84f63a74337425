"""A game of Battle of LITS, event-sourced, with plain JSON at its edges.

The live table service and the camera tracker drive it with JSON actions and
get JSON events back; the list of accepted actions is the whole record, so a
game is stored as ``(game.setup, game.actions)`` and rebuilt with
:meth:`Game.replay`.

Actions (``"type"`` plus fields):

- ``place``: ``{"rows": [10 strings]}`` (the board after the move, as the
  camera reads it) or ``{"shape": "L", "cells": [[r, c], ...]}``. Returns a
  ``placed`` event, or ``illegal`` (reason, message, cells) and changes
  nothing.
- ``overrule``: the same fields; the players accept a piece the referee
  refused for a placement rule (``not_touching``, ``same_shape_touching``,
  ``square_covered``).
- ``swap``: O's first turn only, instead of placing: the players exchange
  symbols and the first player places again. ``turn_board`` (default: the
  ``swap_turns_board`` setting) turns the recorded board 180 degrees, as the
  rulebook does with the real one.
- ``correct_cell``: ``{"cell": [r, c], "symbol": "X"}`` fixes a misread
  printed symbol of the layout.
- ``pass``: always refused: passing is not allowed while a piece fits, and
  the game is over when none does.

An action that is malformed or not allowed now raises
:class:`engine.errors.ActionError` and leaves the game as it was.

>>> game = Game.new({"players": ["Ann", "Bob"], "layout": "crossfire"})
>>> [e["type"] for e in game.apply({"type": "place", "shape": "I",
...                                 "cells": [[4, 4], [4, 5], [4, 6], [4, 7]]})]
['placed', 'turn']
>>> game.view()["turn"]
{'player': 'Bob', 'symbol': 'O'}
>>> game.apply({"type": "swap"})[1]
{'type': 'turn', 'player': 'Ann', 'symbol': 'O', 'legal_moves': 150, 'can_swap': False}
>>> game.view()["players"]
{'X': 'Bob', 'O': 'Ann'}
>>> Game.replay(game.setup, game.actions) == game
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.boardtext import BoardTextError
from engine.errors import ActionError
from engine.lits.bitboard import SIZE, Cell, where
from engine.lits.judge import judge, judge_piece
from engine.lits.layout import DEFAULT_LAYOUT, Layout, LayoutError
from engine.lits.pieces import COLOURS, SUPPLY, Placement
from engine.lits.position import Position
from engine.lits.score import winner
from engine.verdict import Verdict

JSON = dict[str, Any]

DEFAULT_SETTINGS: JSON = {"supply": SUPPLY, "swap": True, "swap_turns_board": True}
DEFAULT_PLAYERS = ("Player 1", "Player 2")
OVERRULABLE = ("not_touching", "same_shape_touching", "square_covered")
_LAYOUT_KEYS = ("layout", "layout_text", "layout_rows", "layout_seed")
_SETUP_KEYS = {"game", "players", "layout_name", "settings", *_LAYOUT_KEYS}


@dataclass(frozen=True)
class _State:
    position: Position
    x_player: int  # index in players of who plays X now
    to_move: int  # index of the player whose turn it is
    swapped: bool
    placers: tuple[int, ...]  # who placed each piece, in order
    legal: int  # legal placements now (bitboard over placement numbers)


# What an action handler returns: the new state, the events, and the action
# to record (None: nothing changed, e.g. an illegal placement).
_Outcome = tuple[_State, list[JSON], JSON | None]


class Game:
    """One game: players, layout, settings, and the accepted actions."""

    def __init__(self, setup: JSON) -> None:
        self._setup = _normalise_setup(setup)
        first, second = self._setup["players"]
        self._players: tuple[str, str] = (first, second)
        self._supply: int = self._setup["settings"]["supply"]
        layout = Layout.parse(self._setup["layout_rows"], self._setup["layout_name"])
        position = Position.empty(layout)
        self._state = _State(position, 0, 0, False, (), position.legal_set(self._supply))
        self._actions: list[JSON] = []

    # -- building -------------------------------------------------------

    @classmethod
    def new(cls, setup: JSON) -> Game:
        """A game from a setup dict: ``players`` (two names, X first),
        one of ``layout`` (a built-in name), ``layout_text``, ``layout_rows``
        or ``layout_seed`` (a random layout), and ``settings`` (``supply``,
        ``swap``, ``swap_turns_board``). Bad setups raise ActionError."""
        return cls(setup)

    @classmethod
    def replay(cls, setup: JSON, actions: Sequence[JSON]) -> Game:
        """Rebuild a game from its setup and accepted actions."""
        game = cls(setup)
        for number, action in enumerate(actions, start=1):
            try:
                events = game.apply(action)
            except ActionError as err:
                raise ActionError(f"action {number} cannot be replayed: {err}") from err
            refused = [e for e in events if e["type"] == "illegal"]
            if refused:
                raise ActionError(f"action {number} cannot be replayed: {refused[0]['message']}")
        return game

    @property
    def setup(self) -> JSON:
        """The setup, normalised: the layout is spelled out, so a replay does
        not depend on built-in files or the random generator."""
        setup: JSON = _copy(self._setup)
        return setup

    @property
    def actions(self) -> list[JSON]:
        """The accepted actions, normalised (placements by shape and cells)."""
        return [_copy(a) for a in self._actions]

    # -- reading --------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._state.position

    @property
    def players(self) -> dict[str, str]:
        """``{"X": name, "O": name}``: who plays which symbol now."""
        x = self._state.x_player
        return {"X": self._players[x], "O": self._players[1 - x]}

    @property
    def over(self) -> bool:
        return not self._state.legal

    @property
    def turn(self) -> str | None:
        """The name of the player to place next, ``None`` once the game is over."""
        return None if self.over else self._players[self._state.to_move]

    @property
    def can_swap(self) -> bool:
        s = self._state
        return bool(self._setup["settings"]["swap"]) and len(s.placers) == 1 and not s.swapped

    def legal_moves(self) -> list[Placement]:
        return self.position.legal_moves(self._supply)

    def score(self) -> dict[str, int]:
        return self.position.score()

    def result(self) -> tuple[str | None, str | None]:
        """``(winner's name, why)`` once the game is over, else ``(None, None)``."""
        if not self.over:
            return None, None
        symbol, why = winner(self.score(), self._symbol_of(self._state.placers[-1]))
        assert symbol is not None  # a finished game has a last placer
        return self.players[symbol], why

    def judge(self, after_rows: str | Sequence[str]) -> tuple[Verdict, Placement | None]:
        """Judge the board the camera sees now as the next move; changes nothing."""
        try:
            return judge(self.position, after_rows, self._supply)
        except BoardTextError as err:
            raise ActionError(str(err)) from err

    def view(self) -> JSON:
        """Everything the phones show, as JSON."""
        s = self._state
        name, why = self.result()
        last = None
        if s.position.pieces:
            piece = s.position.pieces[-1]
            last = {
                **piece.to_json(),
                "player": self._players[s.placers[-1]],
                "symbol": self._symbol_of(s.placers[-1]),
            }
        return {
            "game": "lits",
            "rows": list(s.position.rows()),
            "layout": list(s.position.layout.rows()),
            "layout_name": self._setup["layout_name"],
            "players": self.players,
            "turn": None if self.over else self._turn_json(),
            "can_swap": self.can_swap,
            "swapped": s.swapped,
            "pieces": len(s.position.pieces),
            "supply": s.position.supply_left(self._supply),
            "last_placement": last,
            "score": self.score(),
            "legal_moves": s.legal.bit_count(),
            "over": self.over,
            "winner": name,
            "winner_symbol": None if name is None else _symbol_named(self.players, name),
            "why": why,
        }

    def __str__(self) -> str:
        return str(self.position)

    def __eq__(self, other: object) -> bool:
        """Two games are equal when they have the same setup and record."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._setup == other._setup and self._actions == other._actions

    __hash__ = None  # type: ignore[assignment]  # a game changes: not hashable

    # -- changing -------------------------------------------------------

    def apply(self, action: JSON) -> list[JSON]:
        """Apply one action; return the events. See the module docstring."""
        if not isinstance(action, dict):
            raise ActionError(f"an action is a JSON object, not {type(action).__name__}")
        kind = action.get("type")
        handlers = {
            "place": self._place,
            "overrule": self._overrule,
            "swap": self._swap,
            "correct_cell": self._correct_cell,
            "pass": self._pass,
        }
        if kind not in handlers:
            raise ActionError(f"unknown action type {kind!r}; one of {', '.join(handlers)}")
        state, events, record = handlers[kind](action)
        if record is not None:
            self._state = state
            self._actions.append(record)
        return events

    def undo(self) -> JSON:
        """Take back the last accepted action; returns it."""
        if not self._actions:
            raise ActionError("nothing to undo")
        rebuilt = Game.replay(self._setup, self._actions[:-1])
        self._state = rebuilt._state
        return self._actions.pop()

    # -- the actions ----------------------------------------------------

    def _place(self, action: JSON, overrule: bool = False) -> _Outcome:
        if self.over:
            raise ActionError(f"the game is over: {self.result()[1]}")
        verdict, piece = self._judge_action(action)
        if not verdict.legal:
            if not overrule:
                return self._state, [self._illegal(verdict, piece)], None
            if piece is None or verdict.reason not in OVERRULABLE:
                raise ActionError(
                    f"cannot overrule {verdict.reason}: {verdict.message} "
                    f"(only {', '.join(OVERRULABLE)} can be overruled)"
                )
        assert piece is not None  # a legal verdict names its piece
        s = self._state
        position = s.position.place(piece)
        state = replace(
            s,
            position=position,
            to_move=1 - s.to_move,
            placers=(*s.placers, s.to_move),
            legal=position.legal_set(self._supply),
        )
        placed: JSON = {
            "type": "placed",
            "number": len(position.pieces),
            "player": self._players[s.to_move],
            "symbol": self._symbol_of(s.to_move),
            **piece.to_json(),
            "colour": COLOURS[piece.shape],
            "supply_left": position.supply_left(self._supply)[piece.shape],
            "message": verdict.message,
        }
        kind = "place"
        if not verdict.legal:
            placed["overruled"] = verdict.reason
            placed["message"] = f"Overruled by the players: {verdict.message}"
            kind = "overrule"
        return state, [placed, *self._after(state)], {"type": kind, **piece.to_json()}

    def _overrule(self, action: JSON) -> _Outcome:
        return self._place(action, overrule=True)

    def _swap(self, action: JSON) -> _Outcome:
        _only_keys(action, {"type", "turn_board"})
        if not self._setup["settings"]["swap"]:
            raise ActionError("the swap rule is off in this game's settings")
        if not self.can_swap:
            raise ActionError(
                "O may swap only on O's first turn, instead of placing the second piece"
            )
        turn_board = action.get("turn_board", self._setup["settings"]["swap_turns_board"])
        if not isinstance(turn_board, bool):
            raise ActionError("turn_board is true or false")
        s = self._state
        swapper = s.to_move
        position = s.position.turned() if turn_board else s.position
        state = replace(
            s,
            position=position,
            x_player=swapper,
            to_move=s.placers[0],  # the player who placed first places again
            swapped=True,
            legal=position.legal_set(self._supply),
        )
        first = self._players[s.placers[0]]
        swapped: JSON = {
            "type": "swapped",
            "player": self._players[swapper],
            "players": {"X": self._players[swapper], "O": first},
            "turned_board": turn_board,
            "message": f"{self._players[swapper]} swapped and now plays X; {first} plays O "
            "and places again.",
        }
        return state, [swapped, *self._after(state)], {"type": "swap", "turn_board": turn_board}

    def _correct_cell(self, action: JSON) -> _Outcome:
        _only_keys(action, {"type", "cell", "symbol"})
        cell = _cell(action.get("cell"))
        symbol = action.get("symbol")
        if symbol not in ("X", "O", "."):
            raise ActionError(f"symbol is 'X', 'O' or '.', not {symbol!r}")
        s = self._state
        was = s.position.layout.symbol(cell)
        if was == symbol:
            raise ActionError(f"{where(cell)} already prints {symbol!r}")
        try:
            layout = s.position.layout.with_symbol(cell, symbol)
        except LayoutError as err:  # pragma: no cover - cell and symbol checked above
            raise ActionError(str(err)) from err
        state = replace(s, position=s.position.with_layout(layout))
        corrected: JSON = {
            "type": "layout_corrected",
            "cell": list(cell),
            "symbol": symbol,
            "was": was,
            "score": state.position.score(),
        }
        events = [corrected]
        if not state.legal:
            events.extend(self._game_over(state))
        return state, events, {"type": "correct_cell", "cell": list(cell), "symbol": symbol}

    def _pass(self, action: JSON) -> _Outcome:
        if self.over:
            raise ActionError(f"the game is over: {self.result()[1]}")
        example = self.legal_moves()[0]
        raise ActionError(
            f"passing is not allowed while a piece can be placed: {self._state.legal.bit_count()}"
            f" placements are possible, e.g. {named_piece(example)}"
        )

    # -- helpers --------------------------------------------------------

    def _judge_action(self, action: JSON) -> tuple[Verdict, Placement | None]:
        if "rows" in action:
            _only_keys(action, {"type", "rows"})
            rows = action["rows"]
            if not isinstance(rows, list | str):
                raise ActionError("rows is a list of 10 strings")
            return self.judge(rows)
        _only_keys(action, {"type", "shape", "cells"})
        shape = action.get("shape")
        raw = action.get("cells")
        if not isinstance(shape, str) or not isinstance(raw, list) or not raw:
            raise ActionError(
                'a placement is {"rows": [...]} or {"shape": "L", "cells": [[row, col], ...]}'
            )
        cells = [_cell(c) for c in raw]
        try:
            return judge_piece(self.position, shape, cells, self._supply)
        except ValueError as err:
            raise ActionError(str(err)) from err

    def _symbol_of(self, player: int, state: _State | None = None) -> str:
        return "X" if player == (state or self._state).x_player else "O"

    def _turn_json(self, state: _State | None = None) -> JSON:
        s = state or self._state
        return {"player": self._players[s.to_move], "symbol": self._symbol_of(s.to_move, s)}

    def _after(self, state: _State) -> list[JSON]:
        """The event that follows a move: whose turn, or the end of the game."""
        if state.legal:
            turn: JSON = {"type": "turn", **self._turn_json(state)}
            turn["legal_moves"] = state.legal.bit_count()
            # O may still swap instead of placing the second piece.
            turn["can_swap"] = (
                self._setup["settings"]["swap"] and len(state.placers) == 1 and not state.swapped
            )
            return [turn]
        return self._game_over(state)

    def _game_over(self, state: _State) -> list[JSON]:
        score = state.position.score()
        symbol, why = winner(score, self._symbol_of(state.placers[-1], state))
        assert symbol is not None
        x = state.x_player
        names = {"X": self._players[x], "O": self._players[1 - x]}
        return [
            {
                "type": "game_over",
                "score": score,
                "winner": names[symbol],
                "winner_symbol": symbol,
                "why": why,
            }
        ]

    def _illegal(self, verdict: Verdict, piece: Placement | None) -> JSON:
        s = self._state
        return {
            "type": "illegal",
            "player": self._players[s.to_move],
            **verdict.to_json(),
            "placement": None if piece is None else piece.to_json(),
            "can_overrule": piece is not None and verdict.reason in OVERRULABLE,
        }


def named_piece(piece: Placement) -> str:
    return f"{piece.shape} at {where(piece.cells[0])}"


def _symbol_named(players: dict[str, str], name: str) -> str:
    return "X" if players["X"] == name else "O"


def _cell(raw: object) -> Cell:
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise ActionError(f"a cell is [row, col] counted from 0, not {raw!r}")
    row, col = raw
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ActionError(f"cell {[row, col]} is off the 10x10 board (rows and columns 0-9)")
    return (row, col)


def _only_keys(action: JSON, allowed: set[str]) -> None:
    extra = sorted(set(action) - allowed)
    if extra:
        raise ActionError(f"{action['type']} does not take {', '.join(extra)}")


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON, so callers cannot change the game's record."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def _normalise_setup(setup: JSON) -> JSON:
    if not isinstance(setup, dict):
        raise ActionError("a setup is a JSON object")
    extra = sorted(set(setup) - _SETUP_KEYS)
    if extra:
        raise ActionError(f"unknown setup keys: {', '.join(extra)}")
    if setup.get("game", "lits") != "lits":
        raise ActionError(f"this is a Battle of LITS setup, not {setup['game']!r}")
    players = setup.get("players", list(DEFAULT_PLAYERS))
    if (
        not isinstance(players, list | tuple)
        or len(players) != 2
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise ActionError("players is a list of two names, X's player first")
    players = [p.strip() for p in players]
    if players[0] == players[1]:
        raise ActionError("the two players need different names")
    layout = _setup_layout(setup)
    settings = dict(DEFAULT_SETTINGS)
    given = setup.get("settings", {})
    if not isinstance(given, dict):
        raise ActionError("settings is a JSON object")
    extra = sorted(set(given) - set(DEFAULT_SETTINGS))
    if extra:
        raise ActionError(
            f"unknown settings: {', '.join(extra)} (known: {', '.join(DEFAULT_SETTINGS)})"
        )
    settings.update(given)
    supply = settings["supply"]
    if not isinstance(supply, int) or isinstance(supply, bool) or not 1 <= supply <= 25:
        raise ActionError("settings.supply is the number of pieces of each shape, 1 to 25")
    for key in ("swap", "swap_turns_board"):
        if not isinstance(settings[key], bool):
            raise ActionError(f"settings.{key} is true or false")
    return {
        "game": "lits",
        "players": players,
        "layout_name": setup.get("layout_name", layout.name),
        "layout_rows": list(layout.rows()),
        "settings": settings,
    }


def _setup_layout(setup: JSON) -> Layout:
    given = [key for key in _LAYOUT_KEYS if key in setup]
    if len(given) > 1:
        raise ActionError(f"give one layout, not {' and '.join(given)}")
    key = given[0] if given else "layout"
    value = setup.get(key, DEFAULT_LAYOUT)
    name = setup.get("layout_name", "")
    if not isinstance(name, str):
        raise ActionError("layout_name is a string")
    try:
        if key == "layout":
            if not isinstance(value, str):
                raise ActionError("layout is the name of a built-in layout")
            return Layout.builtin(value)
        if key == "layout_seed":
            if not isinstance(value, int) or isinstance(value, bool):
                raise ActionError("layout_seed is a whole number")
            return Layout.random(value)
        if key == "layout_rows" and not (
            isinstance(value, list) and all(isinstance(row, str) for row in value)
        ):
            raise ActionError("layout_rows is a list of 10 strings")
        if key == "layout_text" and not isinstance(value, str):
            raise ActionError("layout_text is a string of 10 lines")
        return Layout.parse(value, name or "custom")
    except (LayoutError, BoardTextError) as err:
        raise ActionError(str(err)) from err
