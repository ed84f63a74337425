"""The pages without JavaScript (Flask's test client on the real app, table
and SQLite file): forms, the PIN, corrections, results, languages, offline."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from tests.web_ui.conftest import PIN
from tests.web_ui.play import everyone_places, mid_air, play_game
from web_ui import i18n

WEB_UI = Path(__file__).resolve().parents[2] / "web_ui"
ENGINE = WEB_UI.parent / "engine"
BITS = {"players": ["Ann", "Bo"], "seed": 1, "tasks": ["square"]}


def unlock(client) -> None:
    reply = client.post("/pin", data={"pin": PIN, "next": "/"})
    assert reply.status_code == 302


def text(reply) -> str:
    return reply.get_data(as_text=True)


# -- the table page --------------------------------------------------------


def test_without_a_game_the_page_says_so_and_links_to_set_up(client):
    page = text(client.get("/"))
    assert "No game yet" in page and 'href="/setup"' in page


def test_the_table_page_draws_boards_card_tasks_and_scores(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    page = text(client.get("/"))
    view = table.state()["view"]
    # 2 boards of 36 cells, the building card's 2 and the square card's 4
    assert page.count("data-cell=") == 2 * 36 + 2 + 4
    row5 = view["players"][0]["board"][5]
    for c, code in enumerate(row5):
        assert f'data-cell="5,{c}" data-code="{code}"' in page
    assert 'data-last="1"' in page  # the last placement is highlighted
    assert f'data-tile="{view["card"]}"' in page  # the building card dealt
    assert 'data-card="square"' in page  # the task card in play
    assert 'id="scores"' in page and "Card 1" in page


def test_an_illegal_alert_names_the_rule_and_marks_the_cells(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)})
    page = text(client.get("/"))
    assert 'data-reason="mid_air"' in page and "Illegal placement: Ann" in page
    assert "row 1, column 3" in page  # the cells in words, counted from 1
    assert 'data-cell="0,2" data-code="." data-flag="illegal"' in page
    assert 'value="overrule"' in page


def test_answering_an_alert_with_the_form(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)})
    [alert] = table.alerts()
    unlock(client)
    reply = client.post(f"/alerts/{alert['id']}", data={"decision": "accept"})
    assert reply.status_code == 302 and table.alerts() == []


def test_confirming_an_unsure_reading_with_one_tap(client, table):
    table.new_game("bits", BITS)
    alert_id = table.raise_unsure(0, [[5, 0], [5, 1]], [["R", "P"], ["R", "K"]])
    page = text(client.get("/"))
    assert "red + red" in page and "purple + black" in page
    unlock(client)
    client.post(f"/alerts/{alert_id}", data={"decision": "confirm", "codes": "P,K"})
    assert table.alerts() == []


# -- the PIN ------------------------------------------------------------------


def test_the_pin_is_shown_only_on_the_companions_own_screen(client, table):
    assert f">{PIN}<" in text(client.get("/pin"))
    remote = client.get("/pin", environ_base={"REMOTE_ADDR": "192.168.1.23"})
    assert PIN not in text(remote)


def test_a_change_without_the_pin_goes_to_the_pin_page_and_back(client, table):
    table.new_game("bits", BITS)
    reply = client.post("/undo", headers={"Referer": "http://localhost/results"})
    assert reply.status_code == 302 and reply.location.startswith("/pin?next=/results")
    wrong = client.post("/pin", data={"pin": "0000", "next": "/results"})
    assert wrong.status_code == 403 and "Wrong PIN" in text(wrong)
    right = client.post("/pin", data={"pin": PIN, "next": "/results"})
    assert right.location == "/results"


@pytest.mark.parametrize(
    "target", ["//evil.example/", "http://evil.example/", "javascript:alert(1)"]
)
def test_the_pin_page_never_sends_anyone_to_another_site(client, target):
    reply = client.post("/pin", data={"pin": PIN, "next": target})
    assert reply.location == "/"


def test_a_form_from_another_site_is_refused(client, table):
    table.new_game("bits", BITS)
    unlock(client)
    reply = client.post("/undo", headers={"Origin": "http://evil.example"})
    assert reply.status_code == 403


# -- set-up ---------------------------------------------------------------------


def test_setting_up_bits_with_a_drawn_task_card(client, table):
    form = {
        "game": "bits",
        "player1": "  Ann  ",
        "player2": "寶",
        "player3": "",
        "deck": "physical",
        "task1": "square",
        "cell-0-0": "on",
        "cell-1-0": "on",
        "cell-1-1": "on",
        "new_colour": "B",
        "new_points": "3",
        "new_pile": "2",
        "new_use": "on",
        "pin": PIN,
    }
    reply = client.post("/setup", data=form)
    assert reply.status_code == 302 and reply.location == "/"
    setup = table.record().setup
    assert setup["players"] == ["Ann", "寶"] and setup["deck"] == "physical"
    assert setup["cards"] == [
        {"name": "my-card", "shape": "#./##", "pile": 2, "points": 3, "colour": "B"}
    ]
    assert setup["tasks"] == ["square", "my-card"]


def test_setting_up_lits_on_a_random_layout(client, table):
    unlock(client)
    form = {
        "game": "lits",
        "x_player": "Ann",
        "o_player": "Bo",
        "layout": "random",
        "layout_seed": "7",
    }
    client.post("/setup", data=form)
    view = table.state()["view"]
    assert view["players"] == {"X": "Ann", "O": "Bo"}
    assert sum(row.count("X") for row in view["layout"]) == 30


def test_a_bad_set_up_comes_back_with_the_reason(client, table):
    unlock(client)
    reply = client.post("/setup", data={"game": "lits", "x_player": "Ann"}, follow_redirects=True)
    assert "two names" in text(reply)
    assert table.state()["game"] is None


# -- corrections ------------------------------------------------------------------


def test_tapping_a_cell_offers_the_colours_and_fixes_it(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    page = text(client.get("/cell/1/5/0"))
    assert "row 6, column 1" in page
    assert all(f'data-code="{c}"' in page for c in ".RYBPKN")
    assert 'name="pin"' in page  # not unlocked yet: the PIN goes with the tap
    client.post("/cell/1/5/0", data={"code": "Y", "pin": PIN})
    assert table.state()["view"]["players"][1]["board"][5][0] == "Y"
    assert client.get("/cell/9/0/0").status_code == 404


def test_a_refused_correction_is_explained_on_the_table_page(client, table):
    table.new_game("bits", BITS)
    unlock(client)
    reply = client.post("/cell/0/0/0", data={"code": "Z"}, follow_redirects=True)
    assert "code is one of" in text(reply)


def test_the_page_buttons_only_send_known_actions(client, table):
    table.new_game("bits", BITS)
    unlock(client)
    assert client.post("/act", data={"type": "correct_cell"}).status_code == 400
    assert client.post("/act", data={"type": "drop_out", "player": "x"}).status_code == 400
    everyone_places(table)
    client.post("/act", data={"type": "end_round"})
    assert table.state()["view"]["round"] == 2


# -- results ---------------------------------------------------------------------


def test_results_draw_the_scoring_blocks_and_the_chart(client, table):
    table.new_game("bits", {"players": ["Ann"], "seed": 3, "tasks": ["square"]})
    everyone_places(table)
    # a red 2x2 square built by hand (correct_cell) scores the square card
    for cell in ([4, 4], [4, 5], [5, 4], [5, 5]):
        table.correct_cell(0, cell, "R")
    table.apply({"type": "end_round"})
    page = text(client.get("/results"))
    past = table.state()["view"]["history"][0]
    square = past["scores"][0]["cards"][0]
    assert square["points"] >= 2
    assert 'class="block"' in page and "1:+2" in page
    assert '<polyline class="series s0"' in page
    assert 'data-export="csv"' in page


# -- languages ----------------------------------------------------------------------


def test_chinese_from_the_browser_language_and_english_on_request(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    zh = text(client.get("/", headers={"Accept-Language": "zh-TW,zh;q=0.9"}))
    assert '<html lang="zh-Hant">' in zh and "第 1 回合" in zh and "分數" in zh
    en = client.get("/?lang=en", headers={"Accept-Language": "zh-TW"})
    assert "Round 1 of 3" in text(en) and "lang=en" in en.headers["Set-Cookie"]


def test_an_alert_reads_in_chinese(client, table):
    table.new_game("bits", BITS)
    everyone_places(table)
    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)})
    page = text(client.get("/?lang=zh-Hant"))
    assert "不合規則的放置：Ann" in page and "版塊懸在半空中" in page and "第 1 列第 3 行" in page


def test_both_languages_have_the_same_keys_and_placeholders():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh-Hant")
    assert set(en) == set(zh)
    fields = string.Formatter()
    for key in en:
        names = {f for _, f, _, _ in fields.parse(en[key]) if f}
        assert names == {f for _, f, _, _ in fields.parse(zh[key]) if f}, key


def test_every_key_the_templates_use_is_translated():
    en = i18n.catalogue("en")
    used = set()
    for path in [*WEB_UI.glob("templates/*.html"), WEB_UI / "views.py", WEB_UI / "pages.py"]:
        used |= set(re.findall(r"""_\(\s*["']([a-z][a-z0-9_.]+)["']""", path.read_text()))
    missing = sorted(k for k in used if k not in en and not k.endswith("."))
    assert missing == []


def test_every_engine_reason_has_a_chinese_sentence():
    reasons = set()
    for path in ENGINE.rglob("*.py"):
        reasons |= set(re.findall(r'Verdict\.illegal\(\s*"([a-z_]+)"', path.read_text()))
    assert len(reasons) >= 15  # both engines' refusals
    zh = i18n.catalogue("zh-Hant")
    assert sorted(r for r in reasons if f"reason.{r}" not in zh) == []


# -- offline, installable, joinable -----------------------------------------------


@pytest.mark.parametrize("path", ["/", "/setup", "/results", "/camera", "/join", "/pin"])
def test_pages_load_nothing_from_elsewhere(client, table, path):
    table.new_game("bits", BITS)
    page = text(client.get(path))
    # everything the page loads (src, stylesheets, manifest, icons) and every
    # link but the join address itself (the QR code's URL, this companion)
    loaded = re.findall(r'src="([^"]+)"', page) + re.findall(r'<link[^>]*href="([^"]+)"', page)
    links = re.findall(r'<a (?![^>]*data-join)[^>]*href="([^"]+)"', page)
    assert loaded and links
    for url in loaded + links:
        assert not re.match(r"(https?:)?//", url), url


def test_the_manifest_and_its_icons(client):
    manifest = json.loads(client.get("/manifest.webmanifest").data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        data = client.get(icon["src"]).data
        assert data.startswith(b"\x89PNG")
        width = int.from_bytes(data[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]


def test_the_join_page_shows_a_qr_code_for_phones(client):
    page = text(client.get("/join", base_url="http://192.168.1.50:8080"))
    assert "<svg" in page and "http://192.168.1.50:8080/" in page
    local = text(client.get("/join"))  # opened on the Pi itself
    assert "http://localhost" not in local


def test_fragments_are_the_live_regions(client, table):
    table.new_game("bits", BITS)
    frag = text(client.get("/fragment/table"))
    assert frag.lstrip().startswith('<div class="live"') and "<html" not in frag
    assert client.get("/fragment/nope").status_code == 404


def test_a_fragment_follows_each_change(client, table):
    table.new_game("bits", BITS)
    first = text(client.get("/fragment/table"))
    assert text(client.get("/fragment/table")) == first  # same change: same drawing
    everyone_places(table)
    after = text(client.get("/fragment/table"))
    assert after != first and table.state()["version"] in after
    assert text(client.get("/fragment/table?lang=zh-Hant")) != after


def test_the_calibration_wizard_without_javascript(client, table):
    import cv2
    import numpy as np

    page = text(client.get("/camera"))
    assert 'id="calibrate-start"' in page
    unlock(client)
    client.post("/calibrate/start")
    assert table.calibration()["step"] == "waiting"
    _, buf = cv2.imencode(".jpg", np.zeros((480, 640, 3), np.uint8))
    corners = [[40, 30], [600, 35], [590, 450], [45, 440]]
    table.calibration_snapshot(buf.tobytes(), corners, (6, 6), cells=["......"] * 5 + ["RR...."])
    page = text(client.get("/camera"))
    assert 'viewBox="0 0 640 480"' in page and page.count('class="handle"') == 4
    assert 'name="corner-0-x" value="40.0"' in page
    assert 'data-cell="5,1" data-code="R"' in page  # the board as read, to confirm
    form = {f"corner-{i}-x": str(x) for i, (x, _) in enumerate(corners)}
    form |= {f"corner-{i}-y": str(y) for i, (_, y) in enumerate(corners)}
    form["corner-0-x"] = "42.5"
    client.post("/calibrate/corners", data=form)
    assert table.calibration()["corners"][0] == [42.5, 30.0]
    bad = client.post("/calibrate/corners", data={"corner-0-x": "left"}, follow_redirects=True)
    assert "four pairs of numbers" in text(bad)
    client.post("/calibrate/confirm")
    assert table.calibration()["step"] == "done"
    assert 'id="calibrate-start"' in text(client.get("/camera"))


def test_the_wizard_asks_for_room_around_a_board_found_near_the_edge(client, table):
    # The camera side found the grid 0.4 of a cell from the picture's edge:
    # the board's rim may be out of view and the grid a row off, so the
    # page says what to do before anyone confirms (tilewatch calibrate
    # prints the same advice).
    import cv2
    import numpy as np

    unlock(client)
    client.post("/calibrate/start")
    _, buf = cv2.imencode(".jpg", np.zeros((480, 640, 3), np.uint8))
    corners = [[40, 30], [600, 35], [590, 450], [45, 440]]
    table.calibration_snapshot(buf.tobytes(), corners, (6, 6), tight=0.4)
    assert table.calibration()["tight"] == 0.4
    page = text(client.get("/camera"))
    assert 'id="calibrate-framing"' in page
    assert "within 0.4 of a cell of the picture" in page and "Raise or turn the camera" in page
    chinese = text(client.get("/camera?lang=zh-Hant"))
    assert "0.4 格" in chinese
    # room enough: no advice
    table.calibration_snapshot(buf.tobytes(), corners, (6, 6))
    assert table.calibration()["tight"] is None
    assert 'id="calibrate-framing"' not in text(client.get("/camera"))


# -- the end of a game ----------------------------------------------------------

# The rulebook's solo ranks (RULES.md), checked here independently of the engine.
SOLO_RANKS = [
    (31, "master builder"),
    (26, "structural engineer"),
    (21, "foreman"),
    (16, "stone mason"),
    (11, "tile layer"),
    (6, "handyman"),
]


def rulebook_rank(total: int) -> str:
    return next((name for low, name in SOLO_RANKS if total >= low), "clean-up crew")


def test_a_solo_game_to_the_end_shows_the_total_and_the_rank(client, table):
    table.new_game("bits", {"players": ["Ann"], "seed": 0})  # 9 points: handyman
    play_game(table)
    view = table.state()["view"]
    rounds = view["players"][0]["score"]["rounds"]
    assert len(rounds) == 3
    total = sum(rounds)
    page = text(client.get("/results"))
    assert f"Solo rank: {rulebook_rank(total)}" in page
    assert f"<strong>{total}</strong>" in page
    assert page.count('<polyline class="series') == 1
    zh = text(client.get("/results?lang=zh-Hant"))
    assert "單人等級" in zh


def test_a_two_player_game_to_the_end_names_the_winner(client, table):
    table.new_game("bits", {"players": ["Ann", "Bo"], "seed": 8})
    play_game(table)
    view = table.state()["view"]
    totals = [sum(p["score"]["rounds"]) for p in view["players"]]
    best = max(totals)
    leaders = [p["name"] for p, t in zip(view["players"], totals, strict=True) if t == best]
    page = text(client.get("/"))
    assert "Game over" in page and 'id="winner"' in page
    if len(leaders) == 1:  # no tie: the most points wins
        assert f"Winner: {leaders[0]}" in page
    else:  # a tie: the best single round decides, else both win
        assert view["tie_break"] in ("best_round", "shared")


def test_a_lits_game_to_the_end_names_the_winner_and_why(client, table):
    table.new_game("lits", {"players": ["Ann", "Bo"], "layout": "crossfire"})
    play_game(table)
    view = table.state()["view"]
    x, o = view["score"]["X"], view["score"]["O"]
    page = text(client.get("/results"))
    assert f"Winner: {view['winner']}" in page
    if x != o:  # more symbols showing wins (the rulebook)
        assert view["winner_symbol"] == ("X" if x > o else "O")
        assert f"X {x}, O {o}: {view['winner_symbol']} has more symbols showing." in page
    zh = text(client.get("/results?lang=zh-Hant"))
    assert f"X {x}、O {o}" in zh


def test_a_refused_board_stays_visible_after_a_restart(client, table, tmp_path):
    from device.store import Store
    from device.table import Table
    from tests.web_ui.conftest import PIN as pin
    from web_ui import create_app

    table.new_game("bits", BITS)
    everyone_places(table)
    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)})
    table.close()
    again = Table(Store(tmp_path / "tilewatch.sqlite"), pin=pin)
    page = create_app(again).test_client().get("/").get_data(as_text=True)
    assert 'data-refused="mid_air"' in page


def test_a_lits_alert_from_the_camera_names_no_player(client, table):
    table.new_game("lits", {"players": ["Ann", "Bo"]})
    table.raise_unsure(0, [[2, 3]], [["L", "T"]])
    page = text(client.get("/"))
    assert "Not sure what I see</h2>" in page and "red L" in page and "green T" in page


def test_phones_asking_at_once_share_one_drawing():
    import threading
    import time

    from web_ui.pages import FragmentCache

    cache, drawn, got = FragmentCache(), [], []

    def draw() -> str:
        drawn.append(1)
        time.sleep(0.05)
        return "<div>table</div>"

    phones = [
        threading.Thread(target=lambda: got.append(cache.get(("table", "v1"), draw)))
        for _ in range(20)
    ]
    for t in phones:
        t.start()
    for t in phones:
        t.join()
    assert got == ["<div>table</div>"] * 20 and len(drawn) == 1
    cache.get(("table", "v2"), draw)
    assert len(drawn) == 2
