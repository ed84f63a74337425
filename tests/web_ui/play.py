"""Driving a real game through the Table as the camera does (see
``web_ui.tools.autoplay``), plus the illegal pictures tests need."""

from __future__ import annotations

from device.table import Table
from web_ui.tools.autoplay import camera_places, everyone_places, play_cards, play_game

__all__ = ["camera_places", "everyone_places", "mid_air", "play_cards", "play_game"]


def mid_air(table: Table, player: int) -> list[str]:
    """``player``'s board with the current card's tile held flat in the top
    row over columns 3-4: in mid-air (the board is nearly empty)."""
    view = table.state()["view"]
    rows = list(view["players"][player]["board"])
    tile = view["card"]
    assert rows[0][2:4] == "..", "the top row must be free for this picture"
    rows[0] = rows[0][:2] + tile + rows[0][4:]
    return rows
