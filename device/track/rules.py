"""What the tracker asks of a game: one small adapter per game.

The camera side speaks in boards of palette codes (BITS ``.RYBPKN``; LITS
``LITS`` for covered cells and ``.`` for any uncovered one, whatever symbol
it prints). A :class:`Referee` turns such a board into the engine's
vocabulary, judges it without changing the game (``Game.judge``), builds
the action that records it, and judges a *sequence* of boards on a copy of
the game (two quick placements, tried in both orders).

>>> from engine.bits import Game
>>> game = Game.new({"players": ["Ann"], "seed": 1, "tasks": ["square"]})
>>> ref = BitsReferee(lambda: game, player=0)
>>> ref.accepted()[-1]
'......'
>>> tile = game.view()["players"][0]["start_tile"]
>>> rows = ["......"] * 5 + [tile + "...."]
>>> ref.judge(rows).legal, ref.action(rows)["type"]
(True, 'place')
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.bits import NEUTRAL, Board, Tile, legal_drops
from engine.errors import ActionError
from engine.lits.pieces import COLOURS, shape_of
from engine.regions import regions
from engine.verdict import Verdict

Cell = tuple[int, int]
Rows = list[str]


# How unexpected the neutral tile is against the card's (reader's ΔE): a
# player lays it at most once a round, by choice.
NEUTRAL_COST = 15.0


class NotNow(Exception):
    """The game takes no placement on this board now (no game, the round
    waits for its task card, the game is over)."""


@dataclass(frozen=True)
class Step:
    """One placement of a sequence: the board after it, and its verdict."""

    rows: tuple[str, ...]
    verdict: Verdict


class Referee(Protocol):
    """The game as one board's tracker sees it."""

    game_name: str
    empty: str  # the code of an empty (uncovered) cell
    piece_cells: int  # cells one piece covers

    def accepted(self) -> Rows | None:
        """The board as the game has it (camera codes), None without a game."""

    def judge(self, rows: Sequence[str]) -> Verdict:
        """The game's verdict on this board as the next placement; raises NotNow."""

    def action(self, rows: Sequence[str]) -> dict[str, Any]:
        """The game action that records this board as a placement."""

    def judge_steps(self, boards: Sequence[Sequence[str]]) -> list[Step]:
        """Judge boards one after the other (each legal one applied to a copy
        of the game); stops after the first illegal one."""

    def splits(self, before: Sequence[str], after: Sequence[str]) -> list[list[Rows]]:
        """Ways to see ``after`` as two placements after ``before``: each a
        list of the two boards in order."""

    def alert_player(self) -> int | str | None:
        """Who an alert about this board is for (BITS: the player index;
        LITS: the name of the player to move)."""

    def likely_codes(self, cells: Sequence[Cell]) -> tuple[str, ...]:
        """Codes the game expects on these new cells (BITS: the card's
        tile; LITS: the letter of the shape they form), for settling cells
        the reader could not."""

    def is_piece(self, codes: str) -> bool:
        """Could cells read ``codes`` be one real piece (BITS: no tile is half
        grey, half colour)?"""

    def legal_boards(self, before: Sequence[str]) -> list[tuple[Rows, float]]:
        """Every board one legal placement would make of ``before`` now
        (BITS: each legal drop of the card's tile or the neutral one), each
        with how unexpected it is (in the reader's ΔE: 0 for the card's
        tile, :data:`NEUTRAL_COST` for the neutral tile, which a player
        uses at most once a round); ``[]`` when the game does not say (the
        tracker then reads freely)."""


def new_cells(before: Sequence[str], after: Sequence[str], empty: str) -> list[Cell]:
    """Cells empty in ``before`` and covered in ``after``."""
    return [
        (r, c)
        for r, (old, new) in enumerate(zip(before, after, strict=True))
        for c, (a, b) in enumerate(zip(old, new, strict=True))
        if a == empty and b != empty
    ]


def with_cells(rows: Sequence[str], cells: dict[Cell, str]) -> Rows:
    """``rows`` with some cells set."""
    grid = [list(row) for row in rows]
    for (r, c), code in cells.items():
        grid[r][c] = code
    return ["".join(row) for row in grid]


def _ordered_pairs(
    parts: list[list[Cell]], before: Sequence[str], after: Sequence[str]
) -> list[list[Rows]]:
    first, second = parts
    out = []
    for a, b in ((first, second), (second, first)):
        one = with_cells(before, {cell: after[cell[0]][cell[1]] for cell in a})
        two = with_cells(one, {cell: after[cell[0]][cell[1]] for cell in b})
        out.append([one, two])
    return out


class _Referee:
    """What both games share: the game is fetched on every call (the table
    may start a new one at any time), judged without changes, and a
    sequence of boards is judged on a copy."""

    empty = "."
    piece_cells = 0

    def __init__(self, game: Callable[[], Any]) -> None:
        self._game = game

    def _need(self) -> Any:
        game = self._game()
        if game is None:
            raise NotNow("no game in progress")
        return game

    def _judge_on(self, game: Any, rows: Sequence[str]) -> Verdict:
        """The engine's verdict on ``rows`` for ``game`` (ActionError: not now)."""
        raise NotImplementedError

    def action_on(self, game: Any, rows: Sequence[str]) -> dict[str, Any]:
        """The action recording ``rows`` in ``game``."""
        raise NotImplementedError

    def legal_boards(self, before: Sequence[str]) -> list[tuple[Rows, float]]:
        return []

    def is_piece(self, codes: str) -> bool:
        return True

    def judge(self, rows: Sequence[str]) -> Verdict:
        try:
            return self._judge_on(self._need(), rows)
        except ActionError as err:
            raise NotNow(str(err)) from None

    def action(self, rows: Sequence[str]) -> dict[str, Any]:
        return self.action_on(self._need(), rows)

    def judge_steps(self, boards: Sequence[Sequence[str]]) -> list[Step]:
        game = copy.deepcopy(self._need())
        steps = []
        for rows in boards:
            try:
                verdict = self._judge_on(game, rows)
                if verdict.legal:
                    game.apply(self.action_on(game, rows))
            except ActionError as err:
                raise NotNow(str(err)) from None
            steps.append(Step(tuple(rows), verdict))
            if not verdict.legal:
                break
        return steps


class BitsReferee(_Referee):
    """One player's ramp in a BITS game (``engine.bits.Game``)."""

    game_name = "bits"
    piece_cells = 2

    def __init__(self, game: Callable[[], Any], player: int) -> None:
        super().__init__(game)
        self.player = player

    def accepted(self) -> Rows | None:
        game = self._game()
        if game is None:
            return None
        players = game.view()["players"]
        if self.player >= len(players):
            return None
        return list(players[self.player]["board"])

    def _judge_on(self, game: Any, rows: Sequence[str]) -> Verdict:
        verdict, _ = game.judge(self.player, list(rows))
        return verdict  # type: ignore[no-any-return]

    def action_on(self, game: Any, rows: Sequence[str]) -> dict[str, Any]:
        return {"type": "place", "player": self.player, "rows": list(rows)}

    def splits(self, before: Sequence[str], after: Sequence[str]) -> list[list[Rows]]:
        added = new_cells(before, after, self.empty)
        if len(added) != 4:
            return []
        out: list[list[Rows]] = []
        first = added[0]
        for mate in added[1:]:
            if abs(first[0] - mate[0]) + abs(first[1] - mate[1]) != 1:
                continue
            rest = [c for c in added if c not in (first, mate)]
            if abs(rest[0][0] - rest[1][0]) + abs(rest[0][1] - rest[1][1]) == 1:
                out += _ordered_pairs([[first, mate], rest], before, after)
        return out

    def alert_player(self) -> int | str | None:
        return self.player

    def likely_codes(self, cells: Sequence[Cell]) -> tuple[str, ...]:
        view = self._view()
        tile = self._tile(view)
        if not tile:
            return ()
        # A player may put down the neutral tile instead of the card's (once
        # a round): a grey tile the reader took for the ivory print must not
        # be settled into the card's tile for want of the other choice.
        seat = self._seat(view)
        neutral = view["phase"] != "start" and seat and not seat["neutral_used"]
        return tuple(dict.fromkeys(tile + (NEUTRAL if neutral else "")))

    def _view(self) -> dict[str, Any]:
        game = self._game()
        return {} if game is None else dict(game.view())

    def _seat(self, view: dict[str, Any]) -> dict[str, Any]:
        players = view.get("players", [])
        return dict(players[self.player]) if self.player < len(players) else {}

    def _tile(self, view: dict[str, Any] | None = None) -> str | None:
        """The tile this player places now (the starting tile or the card's)."""
        view = self._view() if view is None else view
        if not view:
            return None
        seat = self._seat(view)
        tile = seat.get("start_tile") if view["phase"] == "start" else view.get("card")
        return str(tile) if tile else None

    def is_piece(self, codes: str) -> bool:
        try:
            Tile(codes)
        except ValueError:
            return False
        return True

    def legal_boards(self, before: Sequence[str]) -> list[tuple[Rows, float]]:
        tile = self._tile()
        if tile is None:
            return []
        board = Board.from_rows(list(before))
        out: list[tuple[Rows, float]] = []
        seen: set[tuple[str, ...]] = set()
        for codes in dict.fromkeys([tile, "NN"]):  # the neutral tile, where the rules allow it
            cost = 0.0 if codes == tile else NEUTRAL_COST
            for drop in legal_drops(board, Tile(codes)):
                rows = list(board.after(drop).rows())
                if tuple(rows) not in seen and self.judge(rows).legal:
                    seen.add(tuple(rows))
                    out.append((rows, cost))
        return out


class LitsReferee(_Referee):
    """The one board of a Battle of LITS game (``engine.lits.Game``).

    Uncovered cells are ``.`` on the camera side; the engine wants the
    printed symbol there, which the game's layout knows."""

    game_name = "lits"
    piece_cells = 4

    def accepted(self) -> Rows | None:
        game = self._game()
        if game is None:
            return None
        return ["".join(ch if ch in "LITS" else "." for ch in row) for row in game.position.rows()]

    def layout(self) -> Rows | None:
        """The printed symbols (``X``, ``O``, ``.``), for orienting the board."""
        game = self._game()
        return None if game is None else list(game.position.layout.rows())

    @staticmethod
    def engine_rows(game: Any, rows: Sequence[str]) -> Rows:
        layout = list(game.position.layout.rows())
        return [
            "".join(ch if ch in "LITS" else printed for ch, printed in zip(row, lay, strict=True))
            for row, lay in zip(rows, layout, strict=True)
        ]

    def _judge_on(self, game: Any, rows: Sequence[str]) -> Verdict:
        if game.over:
            raise ActionError("the game is over")
        verdict, _ = game.judge(self.engine_rows(game, rows))
        return verdict  # type: ignore[no-any-return]

    def action_on(self, game: Any, rows: Sequence[str]) -> dict[str, Any]:
        return {"type": "place", "rows": self.engine_rows(game, rows)}

    def splits(self, before: Sequence[str], after: Sequence[str]) -> list[list[Rows]]:
        added = new_cells(before, after, self.empty)
        if len(added) != 8:
            return []
        only_new = with_cells(
            ["." * len(row) for row in before],
            {cell: after[cell[0]][cell[1]] for cell in added},
        )
        groups = [sorted(cells) for _, cells in regions(only_new, "LITS")]
        if len(groups) != 2 or any(len(g) != 4 for g in groups):
            return []
        return _ordered_pairs(groups, before, after)

    def alert_player(self) -> int | str | None:
        game = self._game()
        return None if game is None else game.turn

    def legal_boards(self, before: Sequence[str]) -> list[tuple[Rows, float]]:
        """Every board one legal piece would make of ``before`` (the game's
        legal placements, each in its shape's colour). A piece's shape says
        its colour, so four changed cells in an S's place are weighed as an
        S even where a warm lamp on a dark print makes the blue look nearer
        the board than the blue."""
        game = self._game()
        if game is None or game.over:
            return []
        return [
            (with_cells(before, dict.fromkeys(piece.cells, piece.shape)), 0.0)
            for piece in game.legal_moves()
        ]

    def likely_codes(self, cells: Sequence[Cell]) -> tuple[str, ...]:
        letter = shape_of(cells)
        return (letter,) if letter in COLOURS else ()


def referee_for(game_name: str, game: Callable[[], Any], player: int = 0) -> Referee:
    """The referee of one board: a BITS player's ramp, or the LITS board."""
    if game_name == "bits":
        return BitsReferee(game, player)
    if game_name == "lits":
        return LitsReferee(game)
    raise ValueError(f"no referee for game {game_name!r}")
