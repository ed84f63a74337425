"""The table service with the real engines and a real SQLite file.

Every "restart" below is a new Table on the same file, as after a reboot.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from device.hub import Message
from device.store import Store, StoreError
from device.table import Table, TableError
from engine.errors import ActionError

LITS_SETUP = {"players": ["Ann", "Bob"], "layout": "crossfire"}
I_MIDDLE = {"type": "place", "shape": "I", "cells": [[4, 4], [4, 5], [4, 6], [4, 7]]}
# an I right under the first one: same shape touching (the rulebook's figure 2)
I_UNDER = {"type": "place", "shape": "I", "cells": [[5, 4], [5, 5], [5, 6], [5, 7]]}
L_UNDER = {"type": "place", "shape": "L", "cells": [[5, 4], [6, 4], [7, 4], [7, 5]]}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "table.sqlite"


@pytest.fixture
def table(path):
    t = Table(Store(path), pin="2468")
    yield t
    t.close()


def restart(path) -> Table:
    return Table(Store(path), pin="2468")


def collect(table: Table) -> list[Message]:
    got: list[Message] = []
    table.listen(got.append)
    return got


# -- the game: record, resume, publish -----------------------------------


def test_a_lits_game_resumes_exactly_where_it_was(table, path):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    table.apply(L_UNDER)
    before = table.state()["view"]
    assert before["pieces"] == 2 and before["turn"] == {"player": "Ann", "symbol": "X"}

    again = restart(path)
    assert again.game_name == "lits"
    assert again.state()["view"] == before
    # and play goes on from there: Ann (X) places the third piece
    events = again.apply({"type": "place", "shape": "T", "cells": [[3, 6], [3, 7], [3, 8], [2, 7]]})
    assert events[0]["type"] in ("placed", "illegal")


def test_an_accepted_action_is_stored_then_published(table, path):
    seen = collect(table)
    table.new_game("lits", LITS_SETUP)
    events = table.apply(I_MIDDLE, source="camera")
    assert [e["type"] for e in events] == ["placed", "turn"]
    record = Store(path).active_game()
    assert record is not None
    assert [(e.kind, e.source) for e in record.entries] == [("action", "camera")]
    assert record.entries[0].events == events
    assert [m.kind for m in seen] == ["game", "game"]
    assert seen[-1].data["change"] == "action" and seen[-1].data["events"] == events


def test_an_illegal_placement_changes_nothing_and_raises_an_alert(table, path):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    view = table.state()["view"]
    seen = collect(table)
    events = table.apply(I_UNDER)
    assert events[0]["type"] == "illegal"
    assert events[0]["reason"] == "same_shape_touching"
    assert table.state()["view"] == view
    [alert] = table.alerts()
    assert alert["kind"] == "illegal" and alert["reason"] == "same_shape_touching"
    assert alert["player"] == "Bob" and alert["can_overrule"]
    assert [5, 4] in alert["cells"]
    assert [m.kind for m in seen] == ["alert"]
    # kept in the history, never replayed
    record = Store(path).active_game()
    assert record is not None
    assert [e.kind for e in record.entries] == ["action", "refused"]
    assert restart(path).state()["view"] == view


def test_players_may_overrule_a_placement_rule_and_it_survives_a_restart(table, path):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    table.apply(I_UNDER)
    [alert] = table.alerts()
    result = table.resolve_alert(alert["id"], "overrule")
    assert result["events"][0]["type"] == "placed"
    assert result["events"][0]["overruled"] == "same_shape_touching"
    assert table.alerts() == []
    assert table.state()["view"]["pieces"] == 2
    assert restart(path).state()["view"]["pieces"] == 2


def test_accepting_a_verdict_clears_the_alert_and_keeps_the_game(table):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    table.apply(I_UNDER)
    [alert] = table.alerts()
    table.resolve_alert(alert["id"], "accept")
    assert table.alerts() == []
    assert table.state()["view"]["pieces"] == 1


def test_an_alert_answered_wrongly_is_refused(table):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    table.apply(I_UNDER)
    [alert] = table.alerts()
    with pytest.raises(TableError) as err:
        table.resolve_alert(alert["id"], "confirm", ["R"])
    assert err.value.reason == "bad_decision"
    with pytest.raises(TableError) as err:
        table.resolve_alert(999, "accept")
    assert (err.value.reason, err.value.status) == ("unknown_alert", 404)
    assert len(table.alerts()) == 1


def test_undo_is_recorded_and_replayed(table, path):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    table.apply(L_UNDER)
    [undone] = table.undo()
    assert undone["type"] == "undone" and undone["action"]["shape"] == "L"
    assert table.state()["view"]["pieces"] == 1
    again = restart(path)
    assert again.state()["view"]["pieces"] == 1
    again.undo()
    with pytest.raises(TableError) as err:
        again.undo()
    assert err.value.reason == "nothing_to_undo"
    assert restart(path).state()["view"]["pieces"] == 0


def test_a_malformed_action_is_refused_and_nothing_is_recorded(table, path):
    table.new_game("lits", LITS_SETUP)
    for bad in ({"type": "fly"}, {"type": "place", "shape": "Q", "cells": [[0, 0]]}, {}):
        with pytest.raises(ActionError):
            table.apply(bad)
    with pytest.raises(ActionError):
        table.apply(["not", "a", "dict"])  # type: ignore[arg-type]
    record = Store(path).active_game()
    assert record is not None and record.entries == []


def test_a_full_disk_refuses_the_action_and_the_game_stays_as_it_was(table, path):
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    view = table.state()["view"]
    # SQLite's page limit fails writes exactly as a full disk does (SQLITE_FULL).
    # Cap the file at its size, then fill the log's last page with small
    # history-only rows, so the next placement cannot fit.
    db = table.store._db
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    gid = table.state()["record"]
    with pytest.raises(StoreError):
        for n in range(10000):
            table.store.append(gid, "refused", {"n": n}, [], "test", 0.0)
    with pytest.raises(StoreError, match="full"):
        table.apply(L_UNDER)
    assert table.state()["view"] == view
    assert restart(path).state()["view"] == view


def test_no_game_yet_and_unknown_games_are_clear_errors(table):
    with pytest.raises(TableError) as err:
        table.apply(I_MIDDLE)
    assert (err.value.reason, err.value.status) == ("no_game", 409)
    with pytest.raises(TableError) as err:
        table.new_game("chess", {})
    assert err.value.reason == "unknown_game"
    with pytest.raises(TableError) as err:
        table.new_game("lits", {"players": ["Ann"]})
    assert err.value.reason == "bad_setup" and "two names" in err.value.message
    assert table.state()["game"] is None


def test_a_new_game_replaces_the_old_one_which_stays_in_the_history(table, path):
    table.new_game("lits", LITS_SETUP)
    first = table.state()["record"]
    table.apply(I_MIDDLE)
    table.new_game("lits", {"players": ["Cy", "Di"], "layout_seed": 3})
    assert table.state()["view"]["pieces"] == 0
    assert table.record(first).entries[0].action == I_MIDDLE
    again = restart(path)
    assert again.state()["view"]["players"] == {"X": "Cy", "O": "Di"}
    # the random layout was spelled out in the record, so it replays the same
    assert again.state()["view"]["layout"] == table.state()["view"]["layout"]


# -- PIN ---------------------------------------------------------------------


def test_the_pin_is_made_once_and_kept(path):
    first = Table(Store(path))
    assert first.pin.isdigit() and len(first.pin) == 4
    assert Table(Store(path)).pin == first.pin
    assert first.check_pin(first.pin) and first.check_pin(f" {first.pin} ")
    for wrong in ("", None, 1234, "0000" if first.pin != "0000" else "1111"):
        assert not first.check_pin(wrong)
    assert Table(Store(path), pin="97531").pin == "97531"


# -- camera side -------------------------------------------------------------


def _jpeg(width: int = 320, height: int = 300) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((height, width, 3), 90, np.uint8))
    assert ok
    return buf.tobytes()


JPEG = _jpeg()


def test_camera_status_is_published_only_when_it_changes(table):
    seen = collect(table)
    table.camera_status("ok")
    table.camera_status("ok")
    table.camera_status("gone", "camera unplugged; retrying")
    assert [m.data["status"] for m in seen] == ["ok", "gone"]
    assert table.state()["camera"]["message"] == "camera unplugged; retrying"
    with pytest.raises(TableError):
        table.camera_status("exploded")


def test_snapshots_are_kept_and_waited_for(table):
    assert table.snapshot() is None
    with pytest.raises(TableError):
        table.set_snapshot(b"GIF89a", 1.0)
    table.set_snapshot(JPEG, 1.5)
    assert table.snapshot() == (JPEG, 1.5, 1)
    assert table.wait_snapshot(after=1, timeout=0.01) is None
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(table.wait_snapshot(1, timeout=5)))
    waiter.start()
    table.set_snapshot(JPEG + b"2", 2.0)
    waiter.join(5)
    assert got and got[0] is not None and got[0][2] == 2  # type: ignore[index]
    assert table.state()["camera"]["snapshot"] == 2


def test_an_unsure_reading_waits_for_the_players_confirmation(table):
    table.new_game("lits", LITS_SETUP)
    seen = collect(table)
    alert_id = table.raise_unsure(0, [[2, 3], [2, 4]], [["L", "T"], ["L", "S"]])
    [alert] = table.alerts()
    assert alert["kind"] == "unsure" and alert["candidates"] == [["L", "T"], ["L", "S"]]
    with pytest.raises(TableError) as err:
        table.resolve_alert(alert_id, "confirm", ["L"])
    assert err.value.reason == "bad_codes"
    with pytest.raises(TableError):
        table.resolve_alert(alert_id, "overrule")
    result = table.resolve_alert(alert_id, "confirm", ["L", "L"])
    assert result["codes"] == ["L", "L"] and result["cells"] == [[2, 3], [2, 4]]
    assert table.alerts() == []
    confirm = [m for m in seen if m.kind == "confirm"]
    assert confirm and confirm[0].data["codes"] == ["L", "L"]


def test_the_tracker_can_raise_its_own_illegal_alert_and_clear_it(table):
    from engine.verdict import Verdict

    table.new_game("lits", LITS_SETUP)
    verdict = Verdict.illegal("two_pieces", "Two new pieces at once.", ((1, 1), (1, 2)))
    alert_id = table.raise_illegal("Ann", verdict)
    [alert] = table.alerts()
    assert alert["id"] == alert_id and alert["cells"] == [[1, 1], [1, 2]]
    assert not alert["can_overrule"]
    with pytest.raises(TableError) as err:
        table.resolve_alert(alert_id, "overrule")
    assert err.value.reason == "cannot_overrule"
    with pytest.raises(TableError):
        table.raise_illegal("Ann", Verdict.ok())
    table.clear_alerts("Ann")
    assert table.alerts() == []


def test_the_calibration_wizard_hooks(table):
    seen = collect(table)
    with pytest.raises(TableError) as err:
        table.calibration_corners([[0, 0], [1, 0], [1, 1], [0, 1]])
    assert err.value.reason == "no_calibration"
    table.calibration_start()
    corners = [[10, 12], [300, 15], [295, 290], [8, 280]]
    table.calibration_snapshot(JPEG, corners, (6, 6), cells=["......"] * 6)
    state = table.calibration()
    assert (state["step"], state["width"], state["height"]) == ("check", 320, 300)
    assert state["corners"] == [[10.0, 12.0], [300.0, 15.0], [295.0, 290.0], [8.0, 280.0]]
    assert table.calibration_image() == JPEG
    table.calibration_corners([[11, 12], [300, 15], [295, 290], [8, 280]])
    assert table.calibration()["step"] == "waiting"
    for bad in ([[1, 2]] * 3, "nope", [[1, "x"]] * 4, [[float("nan"), 0]] * 4):
        with pytest.raises(TableError):
            table.calibration_corners(bad)
    table.calibration_confirm()
    assert table.calibration()["step"] == "done"
    changes = [m.data["change"] for m in seen if m.kind == "calibration"]
    assert changes == ["start", "snapshot", "corners", "confirm"]


def test_a_listener_that_fails_does_not_undo_the_change(table):
    def broken(msg: Message) -> None:
        raise RuntimeError("tracker bug")

    table.listen(broken)
    table.new_game("lits", LITS_SETUP)
    table.apply(I_MIDDLE)
    assert table.state()["view"]["pieces"] == 1


def test_subscribers_catch_up_from_their_last_event_id(table):
    table.new_game("lits", LITS_SETUP)
    sub = table.subscribe()
    assert sub.resync
    table.apply(I_MIDDLE)
    [first] = sub.next(timeout=1)
    table.apply(I_UNDER)  # illegal -> alert
    table.apply(L_UNDER)  # legal
    late = table.subscribe(first.id)
    assert not late.resync
    assert [m.kind for m in late.next(timeout=1)] == ["alert", "game"]


# -- BITS ------------------------------------------------------------------

BITS_SETUP = {"players": ["Ann", "Bo"], "seed": 1, "tasks": ["square"]}


def start_tiles(table: Table) -> None:
    """Both players drop their starting tile flat in the bottom-left corner."""
    for player in table.state()["view"]["players"]:
        table.apply(
            {
                "type": "place",
                "player": player["index"],
                "drop": {"tile": player["start_tile"], "orientation": "horizontal", "column": 0},
            }
        )


def test_a_bits_game_records_seed_and_placements_and_resumes(table, path):
    table.new_game("bits", {"players": ["Ann", "Bo"]})
    seed = table.record().setup["seed"]
    assert isinstance(seed, int)  # the engine picked it; the record keeps it
    start_tiles(table)
    view = table.state()["view"]
    assert view["phase"] == "build" and view["card"]
    assert view["players"][0]["board"][5][:2] != ".."
    assert restart(path).state()["view"] == view


def test_a_bits_illegal_board_is_kept_overruled_and_replayed(table, path):
    table.new_game("bits", BITS_SETUP)
    start_tiles(table)
    view = table.state()["view"]
    board = view["players"][0]["board"]
    # the card's tile held flat in row 4 over an empty column pair: mid-air
    floating = [*board[:3], f"..{view['card']}..", *board[4:]]
    events = table.apply({"type": "place", "player": 0, "rows": floating})
    assert events[0]["type"] == "illegal" and events[0]["reason"] == "mid_air"
    [alert] = table.alerts()
    assert alert["player"] == 0 and alert["can_overrule"]
    assert [3, 2] in alert["cells"] and [3, 3] in alert["cells"]
    # BITS records the refused board (the engine keeps it for the overrule)
    assert table.state()["view"]["players"][0]["board"] == board
    result = table.resolve_alert(alert["id"], "overrule")
    assert result["events"][0]["overruled"] is True
    assert table.state()["view"]["players"][0]["board"] == floating
    again = restart(path)
    assert again.state()["view"] == table.state()["view"]
    # undo is an action in BITS: recorded as one, replayed as one
    table.undo()
    assert table.state()["view"]["players"][0]["board"] == board
    assert restart(path).state()["view"]["players"][0]["board"] == board


def test_a_tapped_cell_is_corrected_and_kept(table, path):
    table.new_game("bits", BITS_SETUP)
    start_tiles(table)
    before = table.state()["view"]["players"][1]["board"]
    events = table.correct_cell(1, [5, 0], "Y")
    assert events[0]["type"] == "board_corrected"
    after = restart(path).state()["view"]["players"][1]["board"]
    assert after[5][0] == "Y" and after[5][1:] == before[5][1:]
    with pytest.raises(ActionError):
        table.correct_cell(1, [9, 9], "Y")


def test_a_lits_symbol_is_corrected(table):
    table.new_game("lits", LITS_SETUP)
    layout = table.state()["view"]["layout"]
    assert layout[0][1] == "."
    table.correct_cell(0, [0, 1], "O")
    assert table.state()["view"]["layout"][0][1] == "O"
