"""The JSON API on a real waitress server: every endpoint, the happy path,
and bad or hostile input. A refusal is a 4xx with ``{"error", "message"}``,
never a 500, and the game stays exactly as it was."""

from __future__ import annotations

import json
import socket
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.table import Table
from tests.web_ui.conftest import PIN, Http, Reply
from tests.web_ui.play import everyone_places, mid_air

BITS = {"game": "bits", "setup": {"players": ["Ann", "Bo"], "seed": 1, "tasks": ["square"]}}
LITS = {"game": "lits", "setup": {"players": ["Ann", "Bo"], "layout": "crossfire"}}
I_MIDDLE = {"type": "place", "shape": "I", "cells": [[4, 4], [4, 5], [4, 6], [4, 7]]}


def jpeg(width: int = 64, height: int = 48) -> bytes:
    img = np.zeros((height, width, 3), np.uint8)
    img[:, : width // 2] = (0, 0, 200)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def frozen(table: Table) -> tuple[str, int]:
    """The game as the phones see it plus how many log entries are on disk."""
    state = table.state()
    entries = len(table.record().entries) if state["game"] else 0
    return json.dumps(state["view"], sort_keys=True), entries


def refused(reply: Reply, status: int, reason: str | None = None) -> dict[str, Any]:
    assert reply.status == status, (reply.status, reply.body[:300])
    assert reply.headers["content-type"].startswith("application/json")
    body = reply.json
    assert set(body) == {"error", "message"} and body["message"]
    if reason:
        assert body["error"] == reason, body
    return dict(body)


def started(http: Http, table: Table, body: dict[str, Any] = BITS) -> None:
    reply = http.post("/api/game", json_body=body, pin=PIN)
    assert reply.status == 201, reply.body


# -- reading ---------------------------------------------------------------


def test_state_before_and_after_a_game_starts(http, table):
    reply = http.get("/api/state")
    assert reply.status == 200 and reply.json["game"] is None
    started(http, table)
    state = http.get("/api/state").json
    assert state["game"] == "bits" and state["view"]["players"][0]["name"] == "Ann"
    assert state["version"].startswith(table.hub.run)


def test_catalogue_lists_task_cards_and_lits_layouts(http):
    cat = http.get("/api/catalogue").json
    names = {c["name"] for c in cat["bits"]["cards"]}
    assert "square" in names and "square" in cat["bits"]["piles"]["1"]
    assert "crossfire" in cat["lits"]["layouts"]


def test_history_record_and_exports(http, table):
    started(http, table)
    everyone_places(table)
    games = http.get("/api/games").json
    assert [g["id"] for g in games] == [1] and games[0]["entries"] == 2
    record = http.get("/api/games/1").json
    assert record["setup"]["seed"] == 1
    assert [e["kind"] for e in record["log"]] == ["action", "action"]
    assert record["view"]["players"][0]["board"] == table.state()["view"]["players"][0]["board"]
    exported = http.get("/api/games/1/export.json")
    assert "attachment" in exported.headers["content-disposition"]
    assert json.loads(exported.body)["log"] == record["log"]
    csv = http.get("/api/games/1/export.csv")
    text = csv.body.decode("utf-8-sig")
    assert text.splitlines()[0] == "game,round,player,card,points"
    assert "1,1,Ann,square,0" in text and "1,,Bo,game total,0" in text
    for path in ("/api/games/99", "/api/games/99/export.json", "/api/games/99/export.csv"):
        refused(http.get(path), 404, "unknown_game_id")


def test_csv_quotes_names_a_spreadsheet_would_run(http, table):
    started(http, table, {"game": "bits", "setup": {"players": ["=cmd()", "Bo"], "seed": 1}})
    text = http.get("/api/games/1/export.csv").body.decode("utf-8-sig")
    assert "'=cmd()" in text and ",=cmd()" not in text


def test_qr_code_is_an_svg_of_the_join_address(http, server):
    reply = http.get("/api/qr.svg")
    assert reply.status == 200 and reply.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in reply.body and b"<title>http://" in reply.body


# -- PIN -------------------------------------------------------------------


def test_changes_need_the_pin(http, table):
    refused(http.post("/api/game", json_body=BITS), 401, "pin_required")
    refused(http.post("/api/game", json_body=BITS, pin="0000"), 403, "wrong_pin")
    assert table.state()["game"] is None


def test_the_pin_endpoint_sets_a_session_and_throttles_guessing(http, table):
    refused(http.post("/api/pin", json_body={"pin": 1234}), 400, "bad_pin")
    ok = http.post("/api/pin", json_body={"pin": PIN})
    assert ok.status == 200 and "session=" in ok.headers["set-cookie"]
    cookie = ok.headers["set-cookie"].split(";")[0]
    made = http.post("/api/game", json_body=BITS, headers={"Cookie": cookie})
    assert made.status == 201
    for _ in range(8):
        refused(http.post("/api/pin", json_body={"pin": "0000"}), 403, "wrong_pin")
    refused(http.post("/api/pin", json_body={"pin": PIN}), 429, "too_many_tries")
    refused(http.post("/api/undo", pin=PIN), 429, "too_many_tries")


def test_requests_from_another_site_are_refused(http, table):
    hostile = {"Origin": "http://evil.example"}
    refused(http.post("/api/game", json_body=BITS, pin=PIN, headers=hostile), 403, "cross_origin")
    assert table.state()["game"] is None


# -- new game --------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "headers", "status", "reason"),
    [
        (b"{}", {"Content-Type": "text/plain"}, 415, "not_json"),
        (b"{not json", {"Content-Type": "application/json"}, 400, "bad_json"),
        (b"[1, 2]", {"Content-Type": "application/json"}, 400, "not_an_object"),
        (b"[" * 20000 + b"]" * 20000, {"Content-Type": "application/json"}, 400, "bad_json"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, {"Content-Type": "application/json"}, 400, "too_deep"),
        (b'{"game": "chess"}', {"Content-Type": "application/json"}, 400, "unknown_game"),
        (b'{"game": ["bits"]}', {"Content-Type": "application/json"}, 400, "unknown_game"),
        (b'{"game": "bits", "setup": 7}', {"Content-Type": "application/json"}, 400, "bad_field"),
        (
            b'{"game": "bits", "setup": {"players": 5}}',
            {"Content-Type": "application/json"},
            400,
            "bad_setup",
        ),
        (
            b'{"game": "bits", "setup": {"players": ["A"], "seed": "x"}}',
            {"Content-Type": "application/json"},
            400,
            "bad_setup",
        ),
        (
            b'{"game": "lits", "setup": {"players": ["A", "A"]}}',
            {"Content-Type": "application/json"},
            400,
            "bad_setup",
        ),
        (
            b'{"game": "bits", "setup": {"players": ["A"], "tasks": [{"shape": "#####/#####"}]}}',
            {"Content-Type": "application/json"},
            400,
            "bad_setup",
        ),
    ],
)
def test_bad_set_ups_are_refused_and_the_game_in_progress_stays(
    http, table, body, headers, status, reason
):
    started(http, table, LITS)
    before = frozen(table)
    refused(http.post("/api/game", body=body, headers=headers, pin=PIN), status, reason)
    assert frozen(table) == before


def test_a_huge_body_is_refused_before_it_is_read(http, table):
    started(http, table)
    before = frozen(table)
    body = b'{"game": "bits", "setup": {"players": ["' + b"A" * 200_000 + b'"]}}'
    reply = http.post("/api/game", body=body, headers={"Content-Type": "application/json"}, pin=PIN)
    refused(reply, 413)
    assert frozen(table) == before


def test_a_body_beyond_the_servers_limit_never_reaches_the_game(server, table):
    """Past waitress's own limit (1 MB) the server answers before Flask;
    the connection is closed and nothing changes."""
    http = Http(server.url)
    started(http, table)
    before = frozen(table)
    with socket.create_connection((http.host, http.port), timeout=10) as s:
        s.sendall(
            b"POST /api/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"X-Table-PIN: " + PIN.encode() + b"\r\nContent-Length: 5000000\r\n\r\n"
        )
        answer = s.recv(200)
    assert answer.startswith(b"HTTP/1.1 413")
    assert frozen(table) == before


def test_new_games_of_both_kinds(http, table):
    made = http.post("/api/game", json_body=LITS, pin=PIN)
    assert made.status == 201 and made.json["view"]["players"] == {"X": "Ann", "O": "Bo"}
    made = http.post("/api/game", json_body=BITS, pin=PIN)
    assert made.json["view"]["tasks"][0]["name"] == "square"
    assert [g["outcome"] for g in http.get("/api/games").json] == [None, "replaced"]


# -- actions ---------------------------------------------------------------


def test_an_action_without_a_game_is_a_conflict(http):
    refused(http.post("/api/actions", json_body=I_MIDDLE, pin=PIN), 409, "no_game")
    refused(http.post("/api/undo", pin=PIN), 409, "no_game")


HOSTILE_ACTIONS = [
    {},
    {"type": None},
    {"type": 7},
    {"type": "explode"},
    {"type": "place"},
    {"type": "place", "player": "Nobody", "rows": ["......"] * 6},
    {"type": "place", "player": True, "rows": ["......"] * 6},
    {"type": "place", "player": 0, "rows": 42},
    {"type": "place", "player": 0, "rows": ["......"] * 5},
    {"type": "place", "player": 0, "rows": ["ZZZZZZ"] * 6},
    {"type": "place", "player": 0, "rows": [None] * 6},
    {"type": "place", "player": 0, "rows": ["......"] * 6, "drop": {}},
    {"type": "place", "player": 0, "drop": "down"},
    {"type": "place", "player": 0, "drop": {"tile": "RY", "orientation": "up", "column": 0}},
    {"type": "place", "player": 0, "drop": {"tile": "QQ", "orientation": "vertical", "column": 0}},
    {"type": "place", "player": 10**30, "rows": ["......"] * 6},
    {"type": "correct_cell", "player": 0, "cell": [0], "code": "R"},
    {"type": "correct_cell", "player": 0, "cell": [0, 0], "code": "RR"},
    {"type": "next_card", "tile": "RY"},
    {"type": "task", "card": {"shape": 5}},
    {"type": "overrule", "player": 0},
    {"type": "drop_out", "player": -1},
]


@pytest.mark.parametrize(
    "action", HOSTILE_ACTIONS, ids=[json.dumps(a)[:40] for a in HOSTILE_ACTIONS]
)
def test_hostile_actions_are_refused_and_change_nothing(http, table, action):
    started(http, table)
    everyone_places(table)
    before = frozen(table)
    reply = http.post("/api/actions", json_body=action, pin=PIN)
    refused(reply, 422, "refused")
    assert frozen(table) == before


def test_an_illegal_placement_is_answered_with_its_verdict_and_an_alert(http, table):
    started(http, table)
    everyone_places(table)
    rows = mid_air(table, 0)
    reply = http.post(
        "/api/actions", json_body={"type": "place", "player": 0, "rows": rows}, pin=PIN
    )
    assert reply.status == 200
    [event] = reply.json["events"]
    assert event["type"] == "illegal" and event["reason"] == "mid_air"
    [alert] = http.get("/api/alerts").json
    assert alert["reason"] == "mid_air" and alert["player"] == 0 and alert["can_overrule"]


def test_undo_and_its_refusal(http, table):
    started(http, table, LITS)
    refused(http.post("/api/undo", pin=PIN), 409, "nothing_to_undo")
    http.post("/api/actions", json_body=I_MIDDLE, pin=PIN)
    reply = http.post("/api/undo", pin=PIN)
    assert reply.status == 200 and reply.json["undone"][0]["action"]["shape"] == "I"
    assert table.state()["view"]["pieces"] == 0


# -- corrections -------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({}, 400, "missing_field"),
        ({"player": "0", "cell": [0, 0], "code": "R"}, 400, "bad_field"),
        ({"player": True, "cell": [0, 0], "code": "R"}, 400, "bad_field"),
        ({"player": 0, "cell": "0,0", "code": "R"}, 400, "bad_field"),
        ({"player": 0, "cell": [0, 0], "code": 5}, 400, "bad_field"),
        ({"player": 0, "cell": [0, 9], "code": "R"}, 422, "refused"),
        ({"player": 0, "cell": [0, 0], "code": "Z"}, 422, "refused"),
        ({"player": 7, "cell": [0, 0], "code": "R"}, 422, "refused"),
        ({"player": 0, "cell": [[0], {}], "code": "R"}, 422, "refused"),
    ],
)
def test_bad_corrections_are_refused(http, table, body, status, reason):
    started(http, table)
    before = frozen(table)
    refused(http.post("/api/corrections", json_body=body, pin=PIN), status, reason)
    assert frozen(table) == before


def test_a_correction_fixes_the_cell_and_is_recorded(http, table):
    started(http, table)
    everyone_places(table)
    reply = http.post(
        "/api/corrections", json_body={"player": 1, "cell": [5, 0], "code": "Y"}, pin=PIN
    )
    assert reply.status == 200 and reply.json["events"][0]["type"] == "board_corrected"
    assert table.state()["view"]["players"][1]["board"][5][0] == "Y"


# -- alerts ------------------------------------------------------------------


def test_answering_alerts(http, table):
    started(http, table)
    everyone_places(table)
    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)})
    [alert] = table.alerts()
    path = f"/api/alerts/{alert['id']}"
    before = frozen(table)
    refused(
        http.post("/api/alerts/999", json_body={"decision": "accept"}, pin=PIN),
        404,
        "unknown_alert",
    )
    refused(http.post("/api/alerts/abc", json_body={"decision": "accept"}, pin=PIN), 404)
    refused(http.post(path, json_body={}, pin=PIN), 400, "missing_field")
    refused(http.post(path, json_body={"decision": 1}, pin=PIN), 400, "bad_field")
    refused(
        http.post(path, json_body={"decision": "confirm", "codes": "R"}, pin=PIN), 400, "bad_field"
    )
    refused(http.post(path, json_body={"decision": "maybe"}, pin=PIN), 400, "bad_decision")
    assert frozen(table) == before and len(table.alerts()) == 1
    reply = http.post(path, json_body={"decision": "overrule"}, pin=PIN)
    assert reply.status == 200 and reply.json["events"][0]["overruled"] is True
    assert table.alerts() == []


def test_confirming_an_unsure_reading(http, table):
    started(http, table)
    alert_id = table.raise_unsure(0, [[5, 0]], [["R", "P"]])
    path = f"/api/alerts/{alert_id}"
    refused(
        http.post(path, json_body={"decision": "confirm", "codes": ["R", "P"]}, pin=PIN),
        400,
        "bad_codes",
    )
    refused(
        http.post(path, json_body={"decision": "confirm", "codes": [["R"]]}, pin=PIN),
        400,
        "bad_codes",
    )
    reply = http.post(path, json_body={"decision": "confirm", "codes": ["P"]}, pin=PIN)
    assert reply.status == 200 and reply.json["codes"] == ["P"]


# -- camera and calibration ----------------------------------------------------


def test_snapshot_before_and_after_the_camera_sends_one(http, table):
    refused(http.get("/api/camera.jpg"), 404, "no_snapshot")
    picture = jpeg()
    table.set_snapshot(picture, 12.5)
    reply = http.get("/api/camera.jpg")
    assert reply.status == 200 and reply.headers["content-type"] == "image/jpeg"
    assert reply.body == picture and reply.headers["x-snapshot"] == "1"


def test_mjpeg_streams_snapshots_and_limits_viewers(server, table, app):
    app.config["MJPEG_MAX_CLIENTS"] = 1
    http = Http(server.url)
    picture = jpeg()
    table.set_snapshot(picture, 1.0)
    with socket.create_connection((http.host, http.port), timeout=10) as s:
        s.sendall(b"GET /api/camera.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while picture not in got:
            chunk = s.recv(65536)
            assert chunk, "stream ended early"
            got += chunk
        assert b"multipart/x-mixed-replace; boundary=frame" in got
        assert b"--frame\r\nContent-Type: image/jpeg" in got
        refused(http.get("/api/camera.mjpg"), 503, "too_many_viewers")


def test_the_calibration_wizard_over_the_api(http, table):
    refused(http.get("/api/calibration.jpg"), 404, "no_snapshot")
    refused(
        http.post("/api/calibration/corners", json_body={"corners": [[0, 0]] * 4}, pin=PIN),
        409,
        "no_calibration",
    )
    refused(http.post("/api/calibration/confirm", pin=PIN), 409, "no_calibration")
    assert http.post("/api/calibration/start", pin=PIN).json["step"] == "waiting"
    table.calibration_snapshot(jpeg(640, 480), [[10, 10], [600, 12], [590, 470], [12, 460]], (6, 6))
    state = http.get("/api/calibration").json
    assert (state["step"], state["width"], state["height"]) == ("check", 640, 480)
    assert http.get("/api/calibration.jpg").status == 200
    for bad in ([[0, 0]] * 3, "x", [["a", "b"]] * 4, [[1e99, 0]] * 4, None):
        refused(http.post("/api/calibration/corners", json_body={"corners": bad}, pin=PIN), 400)
    moved = http.post(
        "/api/calibration/corners",
        json_body={"corners": [[11, 10], [600, 12], [590, 470], [12, 460]]},
        pin=PIN,
    )
    assert moved.json["corners"][0] == [11.0, 10.0]
    assert http.post("/api/calibration/confirm", pin=PIN).json["step"] == "done"


# -- errors are JSON everywhere under /api -----------------------------------------


def test_unknown_paths_and_methods_are_json_errors(http):
    refused(http.get("/api/nothing-here"), 404, "not_found")
    reply = refused(http.get("/api/undo"), 405, "method_not_allowed")
    assert reply["message"]
    refused(http.request("DELETE", "/api/state"), 405)


# -- server-sent events -------------------------------------------------------------


def read_events(s: socket.socket, count: int) -> list[dict[str, Any]]:
    """Read ``count`` SSE data messages from a raw socket (chunked body)."""
    buf, out = b"", []
    while len(out) < count:
        chunk = s.recv(65536)
        assert chunk, "stream closed"
        buf += chunk
        while b"\n\n" in buf:
            block, buf = buf.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    out.append(json.loads(line[6:]))
    return out


def test_events_start_with_the_state_then_follow_every_change(server, table):
    http = Http(server.url)
    with socket.create_connection((http.host, http.port), timeout=10) as s:
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        [state] = read_events(s, 1)
        assert state["kind"] == "state" and state["data"]["game"] is None
        table.new_game("lits", LITS["setup"])
        table.apply(I_MIDDLE)
        new, placed = read_events(s, 2)
    assert new["kind"] == "game" and new["data"]["change"] == "new"
    assert placed["data"]["events"][0]["type"] == "placed"
    # a phone that comes back with the id of the first change gets the second
    with socket.create_connection((http.host, http.port), timeout=10) as s:
        s.sendall(
            b"GET /api/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: "
            + new["id"].encode()
            + b"\r\n\r\n"
        )
        [again] = read_events(s, 1)
    assert again["id"] == placed["id"]


# -- anything at all ------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
ACTION_KEYS = ["player", "rows", "drop", "cell", "code", "tile", "card", "shape", "cells", "symbol"]
ACTIONS = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "place",
                "task",
                "next_card",
                "drop_out",
                "end_round",
                "correct_cell",
                "overrule",
                "undo",
                "swap",
                "x",
            ]
        )
    },
    optional=dict.fromkeys(ACTION_KEYS, JSON_VALUES),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=st.sampled_from(["bits", "lits"]), action=ACTIONS | JSON_VALUES)
def test_no_request_body_makes_a_server_error(client, table, game, action):
    """Whatever arrives, the answer is 2xx or 4xx with a reason; when it is a
    refusal, nothing changed."""
    if table.state()["game"] != game:
        table.new_game(game, BITS["setup"] if game == "bits" else LITS["setup"])
    before = frozen(table)
    for path in ("/api/actions", "/api/corrections", "/api/game", "/api/alerts/1"):
        reply = client.post(path, json=action, headers={"X-Table-PIN": PIN})
        assert reply.status_code < 500, (path, action, reply.data[:200])
        if reply.status_code >= 400:
            assert set(reply.get_json()) == {"error", "message"}
            assert frozen(table) == before, (path, action)
        before = frozen(table)
