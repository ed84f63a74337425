"""A robot at the table for demos and measurements: it plays a BITS game
through :class:`device.table.Table` exactly as the camera tracker reports
it, by sending the board the camera would see after each drop (``rows``).
Where a tile goes comes from the engine's own list of legal drops, so every
board it sends is one a real player could make.

    table.new_game("bits", {"players": ["Ann", "Bo"], "seed": 5})
    play_cards(table)          # the whole round, card by card
"""

from __future__ import annotations

from typing import Any

from device.table import Table
from engine.bits.board import Board
from engine.bits.drops import legal_drops
from engine.bits.tiles import Tile


def seen_after_drop(view: dict[str, Any], player: int, choice: int = 0) -> list[str] | None:
    """The board ``player`` shows after dropping the tile they must place now
    (their starting tile, or the building card's) in the ``choice``-th legal
    way; None when it fits nowhere."""
    p = view["players"][player]
    tile = p["start_tile"] if view["phase"] == "start" else view["card"]
    board = Board.from_rows(p["board"])
    drops = legal_drops(board, Tile.parse(tile))
    if not drops:
        return None
    return list(board.after(drops[choice % len(drops)]).rows())


def camera_places(table: Table, player: int, choice: int = 0) -> list[dict[str, Any]]:
    """The camera sees ``player`` place their tile; when it fits nowhere the
    players tell the companion that this player drops out."""
    rows = seen_after_drop(table.state()["view"], player, choice)
    if rows is None:
        return table.apply({"type": "drop_out", "player": player}, source="phone")
    return table.apply({"type": "place", "player": player, "rows": rows}, source="camera")


def everyone_places(table: Table, choice: int = 0) -> None:
    for p in table.state()["view"]["players"]:
        if not p["dropped_out"] and not p["placed"]:
            camera_places(table, p["index"], choice)


def play_cards(table: Table, count: int | None = None) -> int:
    """Play ``count`` building cards (the rest of the round when None): each
    player still in places the card's tile, varying where. Returns the
    number of placements made."""
    first = table.state()["view"]["round"]
    made = n = 0
    while count is None or n < count:
        view = table.state()["view"]
        if view["round"] != first or view["phase"] not in ("start", "build"):
            break
        for p in view["players"]:
            now = table.state()["view"]
            seat = now["players"][p["index"]]
            if now["round"] != first:
                return made
            if not seat["dropped_out"] and not seat["placed"]:
                camera_places(table, p["index"], choice=n % 5)
                made += 1
        n += 1
    return made


def play_game(table: Table) -> int:
    """Play the game in progress to its end (BITS: every round; LITS: the
    first legal piece each turn). Returns the number of changes made."""
    made = 0
    while not table.state()["view"]["over"]:
        view = table.state()["view"]
        if view["game"] == "lits":
            game = table.game
            assert game is not None
            piece = game.legal_moves()[0]  # type: ignore[attr-defined]
            table.apply({"type": "place", **piece.to_json()}, source="camera")
            made += 1
        else:
            made += play_cards(table)
    return made
