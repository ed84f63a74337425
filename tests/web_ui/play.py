"""Driving a real game through the Table as the camera does: it sends the
board it sees (``rows``); the engine judges. Legal boards come from the
engine's own drop list, so a test never hand-writes a wrong one."""

from __future__ import annotations

from typing import Any

from device.table import Table
from engine.bits.board import Board
from engine.bits.drops import legal_drops
from engine.bits.tiles import Tile


def bits_player(table: Table, player: int) -> dict[str, Any]:
    view = table.state()["view"]
    assert view is not None and view["game"] == "bits"
    return dict(view["players"][player])


def seen_after_drop(table: Table, player: int, choice: int = 0) -> list[str] | None:
    """The board ``player`` would show after dropping the tile they must
    place now (the start tile, or the building card) in the ``choice``-th
    legal way; None when it fits nowhere."""
    view = table.state()["view"]
    p = view["players"][player]
    tile = p["start_tile"] if view["phase"] == "start" else view["card"]
    board = Board.from_rows(p["board"])
    drops = legal_drops(board, Tile.parse(tile))
    if not drops:
        return None
    return list(board.after(drops[choice % len(drops)]).rows())


def camera_places(table: Table, player: int, choice: int = 0) -> list[dict[str, Any]]:
    """The camera sees ``player`` place their tile (or drop out when it fits
    nowhere, as the players would tell the companion)."""
    rows = seen_after_drop(table, player, choice)
    if rows is None:
        return table.apply({"type": "drop_out", "player": player}, source="phone")
    return table.apply({"type": "place", "player": player, "rows": rows}, source="camera")


def everyone_places(table: Table, choice: int = 0) -> None:
    view = table.state()["view"]
    for p in view["players"]:
        if not p["dropped_out"] and not p["placed"]:
            camera_places(table, p["index"], choice)


def mid_air(table: Table, player: int) -> list[str]:
    """``player``'s board with the current card's tile held flat in the top
    row over columns 3-4: in mid-air (the board is nearly empty)."""
    view = table.state()["view"]
    rows = list(view["players"][player]["board"])
    tile = view["card"]
    assert rows[0][2:4] == "..", "the top row must be free for this picture"
    rows[0] = rows[0][:2] + tile + rows[0][4:]
    return rows
