"""Which way up the tracker takes a BITS ramp, on rendered play through the
real loop onto a real table.

The first tile on an empty ramp lands on the bottom row; in a corner it
rests as well flat on the bottom row as standing against a side wall, so
gravity cannot say which way up the ramp is. The ramp can: its top (where
a tile is put down before it slides) is a wide stretch of board, the other
edges a rail or a lip close to the grid. The hardest case is the dark
("classic") ramp with a black tile, whose way in is lost in the arm's
shadow."""

from __future__ import annotations

import pytest

from device.track.scenarios import bits_scene

from .helpers import camera, run


@pytest.mark.parametrize("art", ["classic", "slate"])
def test_a_first_flat_tile_in_a_corner_does_not_turn_the_board(tmp_path, art):
    # seed 2 starts with a black tile (KK); "drop" puts it flat in the
    # bottom-left corner, then the next tile flat beside it. The camera is
    # turned a quarter, so in the picture the tiles stand in a column.
    script, setup = bits_scene(2, ["drop", "drop"])
    truth = [sorted(e["cells"]) for e in script.events if e["kind"] == "placed"]
    assert truth == [[[5, 0], [5, 1]], [[5, 2], [5, 3]]]
    result = run(tmp_path, camera(script, art=art, roll_deg=-90.0), "bits", setup)
    placed = [sorted(e["cells"]) for e in result.of("placed")]
    assert placed == truth
    assert "turned" not in result.kinds()
    board = script.scene_at(script.duration).board_text(script.board).splitlines()
    assert result.table.game.view()["players"][0]["board"] == board
    result.table.close()
