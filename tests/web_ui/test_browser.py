"""Game night on a phone: Debian's Chromium (Playwright) at 390x844 against
the real server on loopback, a real SQLite file, the real engines. The
camera's part is played through the Table, exactly as the tracker calls it.

``TILEWATCH_SCREENSHOTS=1`` also writes the README's ``docs/img/phone-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_ui.conftest import PHONE
from tests.web_ui.play import everyone_places, mid_air, play_cards

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture
def phone(browser: Any, server: Any, request: pytest.FixtureRequest) -> Any:
    """A phone's browser tab on the table's page; fails the test if the page
    asks anything of any other address (the table has no internet)."""
    lang = getattr(request, "param", "en")
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-TW" if lang == "zh-Hant" else "en-GB",
    )
    page = context.new_page()
    page.set_default_timeout(8000)
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server.url) else elsewhere.append(r.url))
    yield page
    context.close()
    assert elsewhere == [], f"the page fetched from elsewhere: {elsewhere}"


def shot(page: Any, folder: Path | None, name: str) -> None:
    if folder is not None:
        page.screenshot(path=str(folder / f"phone-{name}.png"), full_page=False)


def unlock(page: Any, url: str) -> None:
    """Read the PIN off the companion's own screen (this browser is on the
    same machine) and type it, as the host would."""
    page.goto(url + "pin")
    pin = page.locator("#table-pin").inner_text().strip()
    page.fill("input[name=pin]", pin)
    page.locator("form.panel button[type=submit]").click()
    expect(page.locator("#pin-state[data-unlocked]")).to_be_visible()


def cell(page: Any, player: int, r: int, c: int) -> Any:
    return page.locator(f'section[data-player="{player}"] rect[data-cell="{r},{c}"]')


def wait_live(page: Any) -> None:
    expect(page.locator("#live-dot.on")).to_be_visible()
    page.evaluate("window.__sameLoad = true")


def still_same_load(page: Any) -> bool:
    return bool(page.evaluate("window.__sameLoad === true"))


def test_game_night_in_english(phone, server, table, screenshots):
    page = phone
    unlock(page, server.url)

    # set up a game on the phone
    page.goto(server.url + "setup")
    page.fill("input[name=player1]", "Ann")
    page.fill("input[name=player2]", "Bo")
    page.select_option("select[name=task1]", "square")
    page.locator("summary", has_text="Shuffle").click()
    page.fill("input[name=seed]", "5")
    shot(page, screenshots, "setup")
    page.click("#start-game")
    expect(page.locator("#round")).to_have_attribute("data-phase", "start")
    assert table.record().setup["players"] == ["Ann", "Bo"]
    wait_live(page)

    # the camera sees both starting tiles: the page updates by itself
    everyone_places(table)
    for p in table.state()["view"]["players"]:
        r, c = p["last"][0]
        expect(cell(page, p["index"], r, c)).to_have_attribute("data-code", p["board"][r][c])
        expect(cell(page, p["index"], r, c)).to_have_attribute("data-last", "1")
    card = table.state()["view"]["card"]
    expect(page.locator("#card")).to_have_attribute("data-tile", card)
    play_cards(table, 5)
    expect(page.locator("#card")).to_have_attribute("data-tile", table.state()["view"]["card"])
    assert still_same_load(page)
    shot(page, screenshots, "table")

    # an illegal placement: the alert says why, in words, and marks the cells
    rows = mid_air(table, 0)
    table.apply({"type": "place", "player": 0, "rows": rows}, source="camera")
    alert = page.locator('section.alert.illegal[data-reason="mid_air"]')
    expect(alert).to_contain_text("Illegal placement: Ann")
    expect(alert).to_contain_text("mid-air")
    expect(page.locator('section[data-player="0"] rect[data-flag="illegal"]').first).to_be_visible()
    shot(page, screenshots, "alert")
    alert.locator("button[data-action=accept]").click()
    expect(page.locator("section.alert.illegal")).to_have_count(0)
    assert table.alerts() == []

    # a misread cell: tap it, pick the real colour
    p1 = table.state()["view"]["players"][1]
    r, c = p1["last"][0]
    wrong = "Y" if p1["board"][r][c] != "Y" else "B"
    cell(page, 1, r, c).click()
    expect(page.locator("h1")).to_have_text("Fix a cell")
    shot(page, screenshots, "correct")
    page.click(f'button[data-code="{wrong}"]')
    expect(cell(page, 1, r, c)).to_have_attribute("data-code", wrong)
    assert table.state()["view"]["players"][1]["board"][r][c] == wrong
    wait_live(page)  # the correction was a form post: a fresh page, following again

    # the camera sees the rest of the round played out, to the last card
    play_cards(table)
    expect(page.locator("#round")).to_have_attribute("data-round", "2")
    assert still_same_load(page)
    page.click("nav.tabs a[href='/results']")
    past = table.state()["view"]["history"][0]
    totals = page.locator("#totals tbody tr")
    for index, score in enumerate(past["scores"]):
        expect(totals.nth(index).locator("td").nth(1)).to_have_text(str(score["total"]))
    assert any(score["total"] for score in past["scores"]), "a dull round: pick another seed"
    # every block that scored is outlined on its board
    scored = sum(len(card["scored"]) for s in past["scores"] for card in s["cards"])
    expect(page.locator('section[data-round="1"] .board path.block')).to_have_count(scored)
    expect(page.locator("#chart polyline")).to_have_count(2)
    expect(page.locator("main h1")).to_have_text("Scores after round 1 of 3")
    shot(page, screenshots, "results")
    if screenshots is not None:
        page.add_style_tag(content="header.top { position: static; }")
        page.locator('section[data-round="1"]').screenshot(
            path=str(screenshots / "phone-blocks.png")
        )


@pytest.mark.parametrize("phone", ["zh-Hant"], indirect=True)
def test_game_night_in_traditional_chinese(phone, server, table, screenshots):
    page = phone
    unlock(page, server.url)
    page.goto(server.url + "setup")
    expect(page.locator("h1")).to_have_text("設定遊戲")
    page.fill("input[name=player1]", "小明")
    page.fill("input[name=player2]", "阿華")
    page.locator("summary", has_text="洗牌").click()
    page.fill("input[name=seed]", "5")
    page.click("#start-game")
    expect(page.locator("#round")).to_contain_text("第 1 回合（共 3 回合）")
    wait_live(page)

    everyone_places(table)
    play_cards(table, 4)
    view = table.state()["view"]
    r, c = view["players"][0]["last"][0]
    expect(cell(page, 0, r, c)).to_have_attribute("data-code", view["players"][0]["board"][r][c])
    expect(page.locator("#card")).to_contain_text("建築卡片")
    assert still_same_load(page)
    shot(page, screenshots, "table-zh")

    table.apply({"type": "place", "player": 0, "rows": mid_air(table, 0)}, source="camera")
    alert = page.locator("section.alert.illegal")
    expect(alert).to_contain_text("不合規則的放置：小明")
    expect(alert).to_contain_text("版塊懸在半空中")
    expect(alert).to_contain_text("第 1 列第 3 行")
    shot(page, screenshots, "alert-zh")
    alert.locator("button[data-action=accept]").click()
    expect(page.locator("section.alert.illegal")).to_have_count(0)

    r, c = view["players"][1]["last"][0]
    cell(page, 1, r, c).click()
    expect(page.locator("h1")).to_have_text("修正格子")
    page.click('button[data-code="N"]')
    expect(cell(page, 1, r, c)).to_have_attribute("data-code", "N")

    page.click("#end-round")
    expect(page.locator("#round")).to_have_attribute("data-round", "2")
    page.click("nav.tabs a[href='/results']")
    expect(page.locator("#totals thead")).to_contain_text("總分")
    past = table.state()["view"]["history"][0]
    for index, score in enumerate(past["scores"]):
        expect(page.locator("#totals tbody tr").nth(index).locator("td.total")).to_have_text(
            str(score["total"])
        )
    shot(page, screenshots, "results-zh")


I_MIDDLE = {"type": "place", "shape": "I", "cells": [[4, 4], [4, 5], [4, 6], [4, 7]]}
I_UNDER = {"type": "place", "shape": "I", "cells": [[5, 4], [5, 5], [5, 6], [5, 7]]}


def test_battle_of_lits_with_an_overruled_verdict(phone, server, table, screenshots):
    page = phone
    unlock(page, server.url)
    page.goto(server.url + "setup")
    page.check("input[name=game][value=lits]")
    page.fill("input[name=x_player]", "Ann")
    page.fill("input[name=o_player]", "Bo")
    page.select_option("select[name=layout]", "crossfire")
    page.click("#start-game")
    expect(page.locator("#turn")).to_contain_text("Ann to place (X)")
    wait_live(page)

    table.apply(I_MIDDLE, source="camera")
    expect(page.locator('rect[data-cell="4,4"]')).to_have_attribute("data-code", "I")
    expect(page.locator("#turn")).to_contain_text("Bo to place (O)")
    table.apply(I_UNDER, source="camera")
    alert = page.locator('section.alert.illegal[data-reason="same_shape_touching"]')
    expect(alert).to_contain_text("same shape")
    shot(page, screenshots, "lits-alert")
    alert.locator("button[data-action=overrule]").click()
    expect(page.locator('rect[data-cell="5,4"]')).to_have_attribute("data-code", "I")
    assert table.state()["view"]["pieces"] == 2


def grid_picture(corners: list[list[int]]) -> bytes:
    """A 640x480 picture of a 6x6 grid with its outer corners at ``corners``."""
    import cv2
    import numpy as np

    img = np.full((480, 640, 3), (60, 70, 80), np.uint8)
    (x0, y0), _, (x1, y1), _ = corners
    cv2.rectangle(img, (x0, y0), (x1, y1), (200, 220, 230), -1)
    for i in range(7):
        x = x0 + (x1 - x0) * i // 6
        y = y0 + (y1 - y0) * i // 6
        cv2.line(img, (x, y0), (x, y1), (40, 40, 40), 2)
        cv2.line(img, (x0, y), (x1, y), (40, 40, 40), 2)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return bytes(buf.tobytes())


def test_calibration_wizard_dragging_a_corner(phone, server, table, screenshots):
    page = phone
    unlock(page, server.url)
    page.goto(server.url + "camera")
    page.click("#calibrate-start")
    assert table.calibration()["step"] == "waiting"
    expect(page.locator("#calibrate")).to_have_attribute("data-step", "waiting")
    wait_live(page)
    true = [[120, 80], [520, 80], [520, 420], [120, 420]]
    found = [[150, 100], *true[1:]]  # the locator was off at the upper-left corner
    # the camera side answers with its picture: the wizard shows it by itself
    table.calibration_snapshot(grid_picture(true), found, (6, 6), cells=["......"] * 6)
    expect(page.locator("#calibrate")).to_have_attribute("data-step", "check")
    handle = page.locator(".wizard circle.handle").first
    box = handle.bounding_box()
    scale = 640 / page.locator(".wizard svg").bounding_box()["width"]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 30 / scale, y - 20 / scale, steps=5)
    page.mouse.up()
    dragged = float(page.locator("#corner-0-x").input_value())
    assert dragged == pytest.approx(120, abs=2)
    page.locator("#calibrate h2").scroll_into_view_if_needed()
    shot(page, screenshots, "calibrate")
    page.click("#calibrate-corners")
    moved = table.calibration()["corners"][0]
    assert moved == pytest.approx([120, 80], abs=2)
    page.click("#calibrate-confirm")
    assert table.calibration()["step"] == "done"
    expect(page.locator("#calibrate")).to_have_attribute("data-step", "done")


def test_calibration_wizard_asks_for_room_by_itself(phone, server, table):
    # The camera side's snapshot says the grid comes within 0.3 of a cell
    # of the picture's edge: the open page shows what to do without a
    # reload, before anyone confirms.
    page = phone
    unlock(page, server.url)
    page.goto(server.url + "camera")
    page.click("#calibrate-start")
    expect(page.locator("#calibrate")).to_have_attribute("data-step", "waiting")
    wait_live(page)
    corners = [[8, 6], [632, 6], [632, 474], [8, 474]]
    table.calibration_snapshot(grid_picture(corners), corners, (6, 6), tight=0.3)
    advice = page.locator("#calibrate-framing")
    expect(advice).to_be_visible()
    expect(advice).to_contain_text("within 0.3 of a cell")
