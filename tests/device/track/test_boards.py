"""Two BITS ramps in one camera's view, one player each: both are found,
each is judged against its own player's board, and "every player places the
same tile" holds per ramp (Bo's wrong tile is refused on his ramp only)."""

from __future__ import annotations

from device.track.camera import BoardSpec
from device.track.scenarios import SideBySide, two_ramps

from .helpers import camera, run


def test_two_ramps_in_one_view(tmp_path):
    scripts, setup = two_ramps(3, cards=2, wrong_at=1)
    view = SideBySide([camera(s, art="ivory") for s in scripts])
    boards = [BoardSpec("left", player=0), BoardSpec("right", player=1)]
    result = run(tmp_path, view, "bits", setup, boards=boards)
    verdicts = [(e["board"], e["type"], e.get("reason")) for e in result.events
                if e["type"] in ("placed", "illegal", "cleared")]  # fmt: skip
    assert verdicts == [
        ("left", "placed", None),
        ("right", "placed", None),
        ("left", "placed", None),
        ("right", "illegal", "wrong_tile"),
        ("right", "cleared", None),
        ("right", "placed", None),
        ("left", "placed", None),
        ("right", "placed", None),
    ]
    assert {e["player"] for e in result.of("placed") if e["board"] == "left"} == {0}
    assert {e["player"] for e in result.of("placed") if e["board"] == "right"} == {1}
    players = result.table.game.view()["players"]
    for script, seat in zip(scripts, players, strict=True):
        end = script.scene_at(script.duration).board_text(script.board).splitlines()
        assert seat["board"] == end
    result.table.close()
