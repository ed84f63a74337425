"""A whole BITS game, event-sourced: a JSON setup plus a list of JSON actions
rebuild the exact state, so persistence stores only those two.

``Game.new(setup)`` starts a game; ``game.apply(action)`` takes one action
(a dict with a ``"type"``) and returns the events it caused (dicts with a
``"type"``). An action that is malformed or not allowed now raises
:class:`engine.errors.ActionError` and changes nothing. An *illegal placement*
is not an error: it is recorded and answered with an ``illegal`` event that
names the broken rule, and the player's board stays as it was.

>>> game = Game.new({"players": ["Ann"], "seed": 1, "tasks": ["square"]})
>>> game.view()["phase"], game.view()["tasks"][0]["name"]
('start', 'square')
>>> tile = game.view()["players"][0]["start_tile"]
>>> events = game.apply({"type": "place", "player": "Ann",
...                      "drop": {"tile": tile, "orientation": "horizontal", "column": 0}})
>>> [event["type"] for event in events]
['placed', 'card_revealed']
>>> Game.replay(game.setup, game.actions) == game
True

Actions (``player`` is an index from 0, or the exact name):

``place``        ``{"player", "rows": [6 strings]}`` the board the camera saw, or
                 ``{"player", "drop": {"tile": "RY", "orientation":
                 "vertical"|"horizontal", "column": c}}`` (``tile`` first half =
                 top or left; the row follows from gravity)
``task``         ``{"card": name | inline | object}`` announce the round's task
                 card (physical deck, or a round the setup left open)
``next_card``    ``{"tile": "RY"}`` announce the building card (physical deck)
``drop_out``     ``{"player"}`` the player leaves the round
``end_round``    ``{}`` the table ends the round now
``correct_cell`` ``{"player", "cell": [r, c], "code": "B"}`` fix a misread cell
``overrule``     ``{"player"}`` accept the player's last refused board anyway
``undo``         ``{}`` take back the last accepted placement (and all after it)

Events: ``placed``, ``illegal``, ``round_started``, ``task_revealed``,
``awaiting_task``, ``start_dealt``, ``card_revealed``, ``card_announced``,
``dropped_out``, ``board_corrected``, ``undone``, ``round_ended``,
``game_over``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bits.board import Board
from engine.bits.cards import CardError, Catalogue, TaskCard, card_from_json, load_catalogue
from engine.bits.data import Settings, TileSet, load_settings, load_tileset
from engine.bits.deck import shuffled
from engine.bits.drops import Drop, can_place, drop
from engine.bits.judge import Turn, card_candidates, judge
from engine.bits.scoring import score_board, solo_rank, winners
from engine.bits.tiles import CODES, Tile
from engine.errors import ActionError
from engine.verdict import Verdict

SETUP_KEYS = (
    "game",
    "players",
    "advanced",
    "deck",
    "seed",
    "tasks",
    "cards",
    "settings",
    "game_tiles",
    "starting_tiles",
)
DECK_MODES = ("virtual", "physical")
MAX_PLAYERS = 4

Action = dict[str, Any]
Events = list[dict[str, Any]]


@dataclass
class Seat:
    """One player's part of the current round."""

    name: str
    board: Board = field(default_factory=Board.empty)
    neutral_used: int = 0
    dropped_out: bool = False
    placed: bool = False
    start_tile: Tile | None = None
    last: Drop | None = None
    refused: dict[str, Any] | None = None  # the last illegal placement, until fixed


@dataclass
class _State:
    seats: list[Seat]
    piles: dict[int, list[TaskCard]]
    round: int = 0
    phase: str = "task"
    tasks: list[TaskCard] = field(default_factory=list)
    deck: list[Tile] = field(default_factory=list)
    start_deck: list[Tile] = field(default_factory=list)
    card: Tile | None = None
    cards_revealed: int = 0
    round_scores: list[list[int]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)


def _fail(message: str) -> ActionError:
    return ActionError(message)


class Game:
    """A BITS game for 1-4 players. Build with :meth:`new` or :meth:`replay`."""

    def __init__(
        self,
        setup: dict[str, Any],
        settings: Settings,
        tileset: TileSet,
        catalogue: Catalogue,
        fixed_tasks: list[TaskCard | None],
    ) -> None:
        self.setup = setup
        self.settings = settings
        self.tileset = tileset
        self.catalogue = catalogue
        self._fixed_tasks = fixed_tasks
        self.actions: list[dict[str, Any]] = []
        self._kept: list[tuple[dict[str, Any], bool]] = []  # (action, placed a tile)
        self._state = self._fresh_state()
        events: Events = []
        self._start_round(self._state, events)
        self.opening_events = events

    # --- construction -----------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Game:
        """A game from a JSON setup::

            {"players": ["Ann", "Bob"],        1-4 unique names
             "advanced": false,                4 rounds instead of 3
             "deck": "virtual" | "physical",   who deals the cards (default virtual)
             "seed": 42,                       virtual deck shuffles (made up if absent)
             "tasks": ["square", null, ...],   fixed task card per round (null: dealt
                                               or announced)
             "cards": [{...}],                 extra task cards for the catalogue
             "settings": {"mirror": true},     see data/settings.toml
             "game_tiles": [...], "starting_tiles": [...]}   see data/tiles.toml

        ``game.setup`` is the setup with the seed filled in: store that one.
        """
        if not isinstance(setup, dict):
            raise _fail("a setup is a JSON object")
        unknown = set(setup) - set(SETUP_KEYS)
        if unknown:
            raise _fail(f"unknown setup key(s): {', '.join(sorted(unknown))}")
        if setup.get("game", "bits") != "bits":
            raise _fail(f"this is the BITS engine, not {setup.get('game')!r}")
        setup = copy.deepcopy(setup)
        players = setup.get("players")
        if (
            not isinstance(players, list)
            or not 1 <= len(players) <= MAX_PLAYERS
            or not all(isinstance(p, str) and p.strip() for p in players)
        ):
            raise _fail(f"players is a list of 1 to {MAX_PLAYERS} names")
        if len(set(players)) != len(players):
            raise _fail("player names must differ")
        if not isinstance(setup.get("advanced", False), bool):
            raise _fail("advanced is true or false")
        if setup.setdefault("deck", "virtual") not in DECK_MODES:
            raise _fail(f"deck is one of {DECK_MODES}")
        seed = setup.setdefault("seed", random.SystemRandom().randrange(2**31))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise _fail("seed is a whole number")
        try:
            settings = load_settings().with_changes(dict(setup.get("settings") or {}))
            tileset = load_tileset().with_tiles(
                setup.get("game_tiles"), setup.get("starting_tiles")
            )
            extra = setup.get("cards") or []
            if not isinstance(extra, list):
                raise CardError("cards is a list of task cards")
            catalogue = load_catalogue().plus(card_from_json(c) for c in extra)
            tasks = setup.get("tasks") or []
            if not isinstance(tasks, list):
                raise CardError("tasks is a list with one card (or null) per round")
            fixed = [None if t is None else card_from_json(t, catalogue) for t in tasks]
        except (ValueError, TypeError) as err:
            raise _fail(str(err)) from None
        if len(players) > len(tileset.starting_tiles):
            raise _fail(f"only {len(tileset.starting_tiles)} starting tiles for {len(players)}")
        rounds = settings.advanced_rounds if setup.get("advanced") else settings.rounds
        if len(fixed) > rounds:
            raise _fail(f"tasks lists {len(fixed)} cards for a {rounds}-round game")
        fixed += [None] * (rounds - len(fixed))
        for n, card in enumerate(fixed, start=1):
            if card is not None:
                _check_task(card, n, fixed[: n - 1], settings)
            elif setup["deck"] == "virtual" and not catalogue.pile(n):
                raise _fail(f"no pile-{n} task card in the catalogue to deal for round {n}")
        return cls(setup, settings, tileset, catalogue, fixed)

    @classmethod
    def replay(cls, setup: dict[str, Any], actions: Sequence[dict[str, Any]]) -> Game:
        """The game exactly as it was after ``actions`` (stored ``game.actions``)."""
        game = cls.new(setup)
        for action in actions:
            game.apply(action)
        return game

    @property
    def rounds(self) -> int:
        advanced = bool(self.setup.get("advanced"))
        return self.settings.advanced_rounds if advanced else self.settings.rounds

    @property
    def virtual(self) -> bool:
        return bool(self.setup["deck"] == "virtual")

    def _fresh_state(self) -> _State:
        piles = {
            n: shuffled(self.catalogue.pile(n), self.setup["seed"], f"pile{n}") for n in range(1, 5)
        }
        return _State(seats=[Seat(name) for name in self.setup["players"]], piles=piles)

    # --- the action interface --------------------------------------------
    def apply(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Take one action; return its events. Raises ActionError (state
        unchanged) when the action is malformed or not allowed now."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise _fail('an action is a JSON object with a "type"')
        kind = action["type"]
        if kind == "undo":
            return self._undo()
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise _fail(f"unknown action type {kind!r}; known: undo, {', '.join(_HANDLERS)}")
        state = copy.deepcopy(self._state)
        events: Events = []
        placed = handler(self, state, action, events)
        self._state = state
        stored = copy.deepcopy(action)
        self.actions.append(stored)
        self._kept.append((stored, placed))
        return events

    def undo(self) -> list[dict[str, Any]]:
        """Take back the last accepted placement (recorded as an ``undo`` action)."""
        return self.apply({"type": "undo"})

    def _undo(self) -> list[dict[str, Any]]:
        last = max((i for i, (_, placed) in enumerate(self._kept) if placed), default=None)
        if last is None:
            raise _fail("no placement to undo")
        taken = self._kept[last][0]
        state = self._fresh_state()
        self._start_round(state, [])
        kept: list[tuple[dict[str, Any], bool]] = []
        for action, _ in self._kept[:last]:
            placed = _HANDLERS[action["type"]](self, state, action, [])
            kept.append((action, placed))
        self._state = state
        self._kept = kept
        self.actions.append({"type": "undo"})
        index = self._player_index(state, taken.get("player"))
        return [{"type": "undone", "player": index, "action": copy.deepcopy(taken)}]

    def judge(self, player: int | str, after_rows: Sequence[str]) -> tuple[Verdict, Drop | None]:
        """Would this board be a legal placement for ``player`` now? Pure: no
        state changes. The drop is given whenever the new cells form a tile."""
        state = self._state
        seat = state.seats[self._player_index(state, player)]
        self._check_placing_phase(state)
        after = self._rows(after_rows)
        return judge(seat.board, after, self._turn(state, seat), self.tileset)

    # --- handlers (each mutates a copy of the state) ---------------------
    def _place(self, state: _State, action: Action, events: Events) -> bool:
        index, seat = self._seat(state, action)
        self._check_placing_phase(state)
        before = seat.board
        if ("rows" in action) == ("drop" in action):
            raise _fail('a place action has either "rows" or "drop"')
        rows: list[str] | None = None
        if "rows" in action:
            after = self._rows(action["rows"])
            rows = list(after.rows())
            verdict, placed = judge(before, after, self._turn(state, seat), self.tileset)
        else:
            placed = self._explicit_drop(before, action["drop"])
            if placed is None:
                verdict = Verdict.illegal(
                    "outside_grid",
                    "That tile does not fit there: it would stick out of the grid.",
                )
            else:
                after = before.after(placed)
                verdict, placed = judge(before, after, self._turn(state, seat), self.tileset)
        if verdict.reason == "no_change":
            raise _fail(f"nothing new on {seat.name}'s board: no placement to judge")
        if not verdict.legal:
            seat.refused = {
                "verdict": verdict.to_json(),
                "rows": rows,
                "drop": placed.to_json() if placed else None,
            }
            events.append(
                {"type": "illegal", "player": index, "name": seat.name, **verdict.to_json()}
            )
            return False
        assert placed is not None
        self._accept(state, index, before.after(placed), placed, events)
        return True

    def _task(self, state: _State, action: Action, events: Events) -> bool:
        if state.phase != "task":
            raise _fail(f"round {state.round} already has its task card")
        try:
            card = card_from_json(action.get("card"), self.catalogue)
        except CardError as err:
            raise _fail(str(err)) from None
        _check_task(card, state.round, state.tasks, self.settings)
        self._reveal_task(state, card, events)
        return False

    def _next_card(self, state: _State, action: Action, events: Events) -> bool:
        if self.virtual:
            raise _fail("the companion deals the building cards in a virtual-deck game")
        if state.phase != "build":
            raise _fail("building cards are turned over after every starting tile is down")
        if state.card is not None:
            raise _fail(f"the building card is already known: {state.card}")
        tile = self._tile(action.get("tile"))
        if tile not in state.deck:
            raise _fail(f"no building card showing {tile} is left in this round's deck")
        state.deck.remove(tile)
        state.card = tile
        events.append({"type": "card_announced", "tile": str(tile), "index": state.cards_revealed})
        return False

    def _drop_out(self, state: _State, action: Action, events: Events) -> bool:
        index, seat = self._seat(state, action)
        self._check_placing_phase(state)
        if seat.dropped_out:
            raise _fail(f"{seat.name} already dropped out of this round")
        seat.dropped_out = True
        could = can_place(seat.board)
        events.append(
            {
                "type": "dropped_out",
                "player": index,
                "name": seat.name,
                "declared": True,
                "could_place": could,
            }
        )
        self._advance(state, events)
        return False

    def _end_round_action(self, state: _State, action: Action, events: Events) -> bool:
        self._check_placing_phase(state)
        self._end_round(state, "called", events)
        return False

    def _correct_cell(self, state: _State, action: Action, events: Events) -> bool:
        index, seat = self._seat(state, action)
        if state.phase == "over":
            raise _fail("the game is over")
        cell, code = action.get("cell"), action.get("code")
        if (
            not isinstance(cell, list)
            or len(cell) != 2
            or not all(isinstance(v, int) and 0 <= v < 6 for v in cell)
        ):
            raise _fail("cell is [row, col], each 0..5")
        if not isinstance(code, str) or len(code) != 1 or code not in CODES:
            raise _fail(f"code is one of {' '.join(CODES)}")
        seat.board = seat.board.with_cell((cell[0], cell[1]), code)
        events.append(
            {"type": "board_corrected", "player": index, "cell": list(cell), "code": code}
        )
        return False

    def _overrule(self, state: _State, action: Action, events: Events) -> bool:
        index, seat = self._seat(state, action)
        self._check_placing_phase(state)
        refused = seat.refused
        if not refused or refused["rows"] is None:
            raise _fail(f"{seat.name} has no refused board to accept")
        placed = None
        if refused["drop"] is not None:
            raw = refused["drop"]
            placed = Drop(
                raw["tile"][0],
                raw["tile"][1],
                raw["orientation"] == "vertical",
                raw["column"],
                raw["row"],
            )
        after = Board.from_rows(refused["rows"])
        tiles = [t for t in seat.board.tiles if (t & after.occupied) == t]
        if placed is not None:
            tiles.append(placed.mask)
        seat.dropped_out = False
        self._accept(state, index, after.with_tiles(tiles), placed, events, overruled=True)
        return True

    # --- rules of the round ------------------------------------------------
    def _accept(
        self,
        state: _State,
        index: int,
        board: Board,
        placed: Drop | None,
        events: Events,
        overruled: bool = False,
    ) -> None:
        seat = state.seats[index]
        tile = placed.tile if placed else None
        event: dict[str, Any] = {
            "type": "placed",
            "player": index,
            "name": seat.name,
            "drop": placed.to_json() if placed else None,
            "tile": str(tile) if tile else None,
            "neutral": bool(tile and tile.is_neutral),
            "round": state.round,
            "overruled": overruled,
        }
        if state.phase == "start":
            if tile is not None and seat.start_tile is None:
                seat.start_tile = tile
                if tile in state.start_deck:
                    state.start_deck.remove(tile)
        elif tile is not None and tile.is_neutral:
            seat.neutral_used += 1
        elif placed is not None and state.card is None and not self.virtual:
            event["could_be"] = [str(t) for t in card_candidates(placed, state.deck)]
            if placed.tile in state.deck:
                state.deck.remove(placed.tile)
                state.card = placed.tile
        seat.board = board
        seat.placed = True
        seat.last = placed
        seat.refused = None
        events.append(event)
        self._advance(state, events)

    def _advance(self, state: _State, events: Events) -> None:
        """Turn over the next card once everyone still in has placed."""
        if state.phase not in ("start", "build"):
            return
        active = [seat for seat in state.seats if not seat.dropped_out]
        if not active:
            self._end_round(state, "all_out", events)
        elif all(seat.placed for seat in active):
            state.phase = "build"
            self._reveal_card(state, events)

    def _reveal_card(self, state: _State, events: Events) -> None:
        if state.cards_revealed >= len(self.tileset.game_tiles):
            self._end_round(state, "deck_empty", events)
            return
        state.card = state.deck.pop(0) if self.virtual else None
        state.cards_revealed += 1
        events.append(
            {
                "type": "card_revealed",
                "index": state.cards_revealed,
                "tile": str(state.card) if state.card else None,
            }
        )
        for index, seat in enumerate(state.seats):
            seat.placed = False
            if not seat.dropped_out and not can_place(seat.board):
                seat.dropped_out = True
                events.append(
                    {
                        "type": "dropped_out",
                        "player": index,
                        "name": seat.name,
                        "declared": False,
                        "could_place": False,
                    }
                )
        if all(seat.dropped_out for seat in state.seats):
            self._end_round(state, "no_room", events)

    def _end_round(self, state: _State, why: str, events: Events) -> None:
        scores = [score_board(seat.board, state.tasks, self.settings) for seat in state.seats]
        while len(state.round_scores) < len(state.seats):
            state.round_scores.append([])
        for index, score in enumerate(scores):
            state.round_scores[index].append(score.total)
        state.history.append(
            {
                "round": state.round,
                "boards": [list(seat.board.rows()) for seat in state.seats],
                "scores": [score.to_json() for score in scores],
            }
        )
        events.append(
            {
                "type": "round_ended",
                "round": state.round,
                "why": why,
                "scores": [
                    {"player": i, "name": seat.name, **scores[i].to_json()}
                    for i, seat in enumerate(state.seats)
                ],
            }
        )
        if state.round >= self.rounds:
            state.phase = "over"
            standing = winners(state.round_scores)
            totals = [sum(rounds) for rounds in state.round_scores]
            events.append(
                {
                    "type": "game_over",
                    "totals": totals,
                    "winners": list(standing.winners),
                    "tie_break": standing.tie_break,
                    "solo_rank": solo_rank(totals[0], self.settings) if len(totals) == 1 else None,
                }
            )
            return
        self._start_round(state, events)

    def _start_round(self, state: _State, events: Events) -> None:
        state.round += 1
        seed = self.setup["seed"]
        for seat in state.seats:
            seat.board = Board.empty()
            seat.neutral_used = 0
            seat.dropped_out = seat.placed = False
            seat.start_tile = seat.last = seat.refused = None
        game_tiles, starting = self.tileset.game_tiles, self.tileset.starting_tiles
        if self.virtual:
            state.deck = shuffled(game_tiles, seed, f"round{state.round}:building")
            state.start_deck = shuffled(starting, seed, f"round{state.round}:starting")
        else:
            state.deck, state.start_deck = list(game_tiles), list(starting)
        state.card = None
        state.cards_revealed = 0
        state.phase = "task"
        events.append({"type": "round_started", "round": state.round})
        card = self._fixed_tasks[state.round - 1]
        if card is None and self.virtual:
            card = self._draw_task(state)
        if card is None:
            events.append({"type": "awaiting_task", "round": state.round})
        else:
            self._reveal_task(state, card, events)

    def _draw_task(self, state: _State) -> TaskCard:
        pile = state.piles[state.round]
        card = pile.pop(0)
        while (
            pile
            and state.round == 3
            and self.settings.redraw_same_shape
            and len(state.tasks) >= 2
            and card.shape.same_as(state.tasks[1].shape, self.settings.mirror)
        ):
            card = pile.pop(0)  # rulebook: same shape as round 2's card, draw again
        return card

    def _reveal_task(self, state: _State, card: TaskCard, events: Events) -> None:
        state.tasks.append(card)
        state.phase = "start"
        events.append({"type": "task_revealed", "round": state.round, "card": card.to_json()})
        if self.virtual:
            for index, seat in enumerate(state.seats):
                seat.start_tile = state.start_deck.pop(0)
                events.append(
                    {"type": "start_dealt", "player": index, "tile": str(seat.start_tile)}
                )

    def _turn(self, state: _State, seat: Seat) -> Turn:
        if state.phase == "start":
            if seat.start_tile is not None:
                tiles: tuple[Tile, ...] = (seat.start_tile,)
            else:
                tiles = tuple(state.start_deck)
            return Turn(
                tiles=tiles,
                neutral=False,
                dropped_out=seat.dropped_out,
                placed=seat.placed,
                card="your starting card",
            )
        tiles = (state.card,) if state.card is not None else tuple(state.deck)
        used = seat.neutral_used >= self.tileset.neutrals_per_round
        return Turn(
            tiles=tiles,
            neutral=True,
            neutral_used=used,
            dropped_out=seat.dropped_out,
            placed=seat.placed,
        )

    # --- reading input -----------------------------------------------------
    @staticmethod
    def _player_index(state: _State, player: Any) -> int:
        if isinstance(player, int) and not isinstance(player, bool):
            if 0 <= player < len(state.seats):
                return player
        elif isinstance(player, str):
            for index, seat in enumerate(state.seats):
                if seat.name == player:
                    return index
        names = ", ".join(seat.name for seat in state.seats)
        raise _fail(f"no player {player!r} (players: {names}; or an index from 0)")

    def _seat(self, state: _State, action: Action) -> tuple[int, Seat]:
        index = self._player_index(state, action.get("player"))
        return index, state.seats[index]

    @staticmethod
    def _check_placing_phase(state: _State) -> None:
        if state.phase == "over":
            raise _fail("the game is over")
        if state.phase == "task":
            raise _fail(f"round {state.round} needs its task card first")

    @staticmethod
    def _rows(rows: Any) -> Board:
        if not isinstance(rows, list | tuple):
            raise _fail("rows is a list of 6 strings of 6 cell codes")
        try:
            return Board.from_rows(list(rows), "board")
        except ValueError as err:
            raise _fail(str(err)) from None

    @staticmethod
    def _tile(text: Any) -> Tile:
        if not isinstance(text, str):
            raise _fail('a tile is two colour codes like "RY"')
        try:
            return Tile.parse(text)
        except ValueError as err:
            raise _fail(str(err)) from None

    @staticmethod
    def _explicit_drop(board: Board, raw: Any) -> Drop | None:
        if not isinstance(raw, dict):
            raise _fail('drop is {"tile": "RY", "orientation": "vertical", "column": 0}')
        order, orientation, column = raw.get("tile"), raw.get("orientation"), raw.get("column")
        if orientation not in ("vertical", "horizontal"):
            raise _fail('orientation is "vertical" or "horizontal"')
        if not isinstance(column, int) or isinstance(column, bool):
            raise _fail("column is a whole number from 0")
        if not isinstance(order, str) or len(order) != 2:
            raise _fail('tile is its two codes, first half first: "RY"')
        try:
            return drop(board, order.upper(), orientation == "vertical", column)
        except ValueError as err:
            raise _fail(str(err)) from None

    # --- what the phones show ------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Everything a phone shows, as JSON."""
        state = self._state
        over = state.phase == "over"
        players = []
        for index, seat in enumerate(state.seats):
            past = state.round_scores[index] if index < len(state.round_scores) else []
            if over:  # the boards stay as the last round left them
                cards, this_round, total = (
                    state.history[-1]["scores"][index]["cards"],
                    past[-1],
                    sum(past),
                )
            else:
                live = score_board(seat.board, state.tasks, self.settings)
                cards, this_round, total = (
                    live.to_json()["cards"],
                    live.total,
                    sum(past) + live.total,
                )
            players.append(
                {
                    "index": index,
                    "name": seat.name,
                    "board": list(seat.board.rows()),
                    "last": [list(c) for c in seat.last.cells] if seat.last else None,
                    "neutral_used": seat.neutral_used >= self.tileset.neutrals_per_round,
                    "dropped_out": seat.dropped_out,
                    "placed": seat.placed,
                    "start_tile": str(seat.start_tile) if seat.start_tile else None,
                    "refused": copy.deepcopy(seat.refused["verdict"]) if seat.refused else None,
                    "score": {
                        "cards": copy.deepcopy(cards),
                        "round": this_round,
                        "rounds": list(past),
                        "total": total,
                    },
                }
            )
        standing = winners(state.round_scores) if over else None
        solo = None
        if over and len(state.seats) == 1:
            solo = solo_rank(sum(state.round_scores[0]), self.settings)
        return {
            "game": "bits",
            "round": state.round,
            "rounds": self.rounds,
            "phase": state.phase,
            "deck": self.setup["deck"],
            "card": str(state.card) if state.card else None,
            "card_number": state.cards_revealed,
            "cards_in_deck": len(self.tileset.game_tiles),
            "tasks": [card.to_json() for card in state.tasks],
            "players": players,
            "history": copy.deepcopy(state.history),
            "over": over,
            "winners": list(standing.winners) if standing else None,
            "tie_break": standing.tie_break if standing else None,
            "solo_rank": solo,
            "settings": self.settings.to_json(),
        }

    def state_json(self) -> dict[str, Any]:
        """The view plus the hidden parts (deck orders): equal games have equal
        state JSON."""
        state = self._state
        return {
            **self.view(),
            "deck_order": [str(t) for t in state.deck],
            "start_deck": [str(t) for t in state.start_deck],
            "piles": {str(n): [c.name for c in pile] for n, pile in state.piles.items()},
            "boards_tiles": [list(seat.board.tiles) for seat in state.seats],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.setup == other.setup and self.state_json() == other.state_json()

    __hash__ = None  # type: ignore[assignment]


def _check_task(
    card: TaskCard, round_number: int, earlier: Sequence[Any], settings: Settings
) -> None:
    if card.pile != round_number:
        raise _fail(
            f"round {round_number} turns over a pile-{round_number} card;"
            f" {card.name!r} is from pile {card.pile}"
        )
    if (
        round_number == 3
        and settings.redraw_same_shape
        and len(earlier) >= 2
        and earlier[1] is not None
        and card.shape.same_as(earlier[1].shape, settings.mirror)
    ):
        raise _fail(
            f"{card.name!r} shows the same shape as round 2's card {earlier[1].name!r}:"
            " the rulebook says to take another pile-3 card"
        )


_HANDLERS = {
    "place": Game._place,
    "task": Game._task,
    "next_card": Game._next_card,
    "drop_out": Game._drop_out,
    "end_round": Game._end_round_action,
    "correct_cell": Game._correct_cell,
    "overrule": Game._overrule,
}
