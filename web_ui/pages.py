"""The HTML pages. Each works without JavaScript: links and forms that post
and redirect back. The live regions (``data-live``) are also served alone
as fragments, which the page's small script swaps in on every change.

A refused change (a wrong value, a rule the engine will not break) comes
back to the page it was made on as a message at the top, not an error page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)

from device.table import TableError
from engine.errors import ActionError
from web_ui import boards, qr, views
from web_ui.auth import require_pin
from web_ui.errors import ApiError
from web_ui.i18n import current_language, reason_text, translate
from web_ui.service import table
from web_ui.setup import catalogue_json, setup_from_form

bp = Blueprint("pages", __name__)

FORM_ACTIONS = ("drop_out", "end_round", "swap", "next_card", "task")


def _back(default: str = "pages.table_page") -> str:
    """The page a form was posted from (same site only)."""
    ref = request.referrer
    if ref:
        parts = urlsplit(ref)
        if parts.netloc == request.host and parts.path.startswith("/"):
            return parts.path
    return url_for(default)


def _attempt(change: Callable[[], Any], back: str) -> Response:
    """Make a change; on refusal, say why on the page we came from."""
    try:
        change()
    except (ActionError, ValueError) as err:
        reason = getattr(err, "reason", "refused")
        flash(reason_text(reason, getattr(err, "message", str(err))), "error")
    return redirect(back)  # type: ignore[return-value]


def _render(template: str, state: dict[str, Any] | None = None, **ctx: Any) -> str:
    state = state or table().state()
    base = views.table_context(state)
    base.update(ctx)
    base.setdefault("page", template.split(".")[0])
    if base.get("bits"):
        base["catalogue_piles"] = _piles()
    base["errors"] = get_flashed_messages(category_filter=["error"])
    return render_template(template, **base)


def _piles() -> dict[int, list[str]]:
    """Task card names per pile: the catalogue plus this game's own cards."""
    piles: dict[int, list[str]] = {
        int(n): list(names) for n, names in catalogue_json()["bits"]["piles"].items()
    }
    for card in table().record().setup.get("cards") or []:
        if isinstance(card, dict) and card.get("pile") in piles:
            piles[card["pile"]].append(str(card.get("name", "")))
    return piles


# -- the table ---------------------------------------------------------------


@bp.get("/")
def table_page() -> str:
    return _render("table.html")


FRAGMENTS = {
    "table": "_table_live.html",
    "results": "_results_live.html",
    "camera": "_camera_live.html",
}


class FragmentCache:
    """After a change every phone asks for the same fragment at once: draw it
    once per (fragment, change, language, snapshot), while the others wait
    for that drawing rather than each making their own. A fragment holds no
    per-phone content (no PIN, no messages)."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self._items: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._drawing: dict[tuple[str, ...], threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...], draw: Callable[[], str]) -> str:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            turn = self._drawing.setdefault(key, threading.Lock())
        with turn:  # the first caller draws; the rest find it drawn
            with self._lock:
                if key in self._items:
                    return self._items[key]
            html = draw()
            with self._lock:
                self._items[key] = html
                self._drawing.pop(key, None)
                while len(self._items) > self.keep:
                    self._items.popitem(last=False)
        return html


@bp.get("/fragment/<name>")
def fragment(name: str) -> str:
    if name not in FRAGMENTS:
        abort(404)
    cache: FragmentCache = current_app.extensions.setdefault("fragments", FragmentCache())
    state = table().state()
    key = (name, state["version"], current_language(), str(state["camera"]["snapshot"]))
    return cache.get(key, lambda: _render(FRAGMENTS[name], state, page=name))


@bp.post("/act")
@require_pin
def act() -> Response:
    """The page's buttons for engine actions (drop out, end the round, swap,
    announce a card); only these types, with their known fields."""
    kind = request.form.get("type", "")
    if kind not in FORM_ACTIONS:
        raise ApiError(400, "bad_action", f"type: one of {', '.join(FORM_ACTIONS)}")
    action: dict[str, Any] = {"type": kind}
    if "player" in request.form:
        try:
            action["player"] = int(request.form["player"])
        except ValueError:
            raise ApiError(400, "bad_field", "player: a number") from None
    for key in ("tile", "card"):
        if key in request.form:
            action[key] = request.form[key]
    return _attempt(lambda: table().apply(action, source="phone"), _back())


@bp.post("/undo")
@require_pin
def undo() -> Response:
    return _attempt(lambda: table().undo(source="phone"), _back())


@bp.post("/alerts/<int:alert_id>")
@require_pin
def answer_alert(alert_id: int) -> Response:
    decision = request.form.get("decision", "")
    codes = request.form.get("codes")
    listed = codes.split(",") if codes else None
    return _attempt(
        lambda: table().resolve_alert(alert_id, decision, listed, source="phone"), _back()
    )


# -- corrections --------------------------------------------------------------


@bp.route("/cell/<int:player>/<int:r>/<int:c>", methods=["GET", "POST"])
def cell_page(player: int, r: int, c: int) -> Any:
    state = table().state()
    view = state.get("view")
    if view is None:
        return redirect(url_for("pages.table_page"))
    if view["game"] == "bits":
        if not 0 <= player < len(view["players"]) or not (0 <= r < 6 and 0 <= c < 6):
            abort(404)
        rows = view["players"][player]["board"]
        choices = list(".RYBPKN")
        drawing = views.bits_board_view(rows, player, link=False, flagged=[[r, c]])
        who = view["players"][player]["name"]
    else:
        if not (0 <= r < 10 and 0 <= c < 10):
            abort(404)
        rows = view["rows"]
        choices = ["X", "O", "."]
        drawing = boards.lits_board(rows, view["layout"], flagged=[[r, c]])
        who = ""
    code = rows[r][c]
    if request.method == "POST":
        return _correct(player, r, c)
    return _render(
        "cell.html",
        page="cell",
        player=player,
        r=r,
        c=c,
        code=code,
        who=who,
        where=views.where([r, c]),
        drawing=drawing,
        choices=choices,
    )


@require_pin
def _correct(player: int, r: int, c: int) -> Response:
    code = request.form.get("code", "")
    return _attempt(
        lambda: table().correct_cell(player, [r, c], code, source="phone"),
        url_for("pages.table_page"),
    )


# -- set-up ---------------------------------------------------------------------


@bp.route("/setup", methods=["GET", "POST"])
def setup_page() -> Any:
    if request.method == "POST":
        return _new_game()
    return _render("setup.html", catalogue=catalogue_json(), size=6)


@require_pin
def _new_game() -> Response:
    try:
        game, setup = setup_from_form(request.form)
        table().new_game(game, setup, source="phone")
    except (ApiError, TableError) as err:
        flash(reason_text(err.reason, err.message), "error")
        return redirect(url_for("pages.setup_page"))  # type: ignore[return-value]
    return redirect(url_for("pages.table_page"))  # type: ignore[return-value]


# -- results --------------------------------------------------------------------


@bp.get("/results")
def results_page() -> str:
    return _render("results.html", games=table().store.games(limit=20))


# -- camera and calibration -----------------------------------------------------


@bp.get("/camera")
def camera_page() -> str:
    cal = table().calibration()
    reading = None
    cells = cal.get("cells")
    if cells:
        # the board as the camera read it, drawn like the table's boards
        if len(cells) == 10:
            reading = boards.lits_board(cells, cells)
        else:
            reading = boards.bits_board(cells, letter=views.letter)
    return _render("camera.html", calibration=cal, reading=reading)


@bp.post("/calibrate/<step>")
@require_pin
def calibrate(step: str) -> Response:
    t = table()
    back = url_for("pages.camera_page")
    if step == "start":
        return _attempt(t.calibration_start, back)
    if step == "confirm":
        return _attempt(t.calibration_confirm, back)
    if step == "corners":
        try:
            corners = [
                [float(request.form[f"corner-{i}-x"]), float(request.form[f"corner-{i}-y"])]
                for i in range(4)
            ]
        except (KeyError, ValueError):
            flash(translate("calibrate.bad_corners"), "error")
            return redirect(back)  # type: ignore[return-value]
        return _attempt(lambda: t.calibration_corners(corners), back)
    abort(404)


# -- joining ----------------------------------------------------------------------


@bp.get("/join")
def join_page() -> str:
    url = qr.join_url()
    return _render("join.html", url=url, qr_svg=qr.svg_inline(url))


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    from flask import json

    data = {
        "name": translate("app.name") + " · " + translate("app.tagline"),
        "short_name": translate("app.name"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f3ec",
        "theme_color": "#1d1d1f",
        "lang": "zh-Hant" if translate("app.lang") == "zh-Hant" else "en",
        "icons": [
            {
                "src": url_for("static", filename=f"icons/icon-{n}.png"),
                "sizes": f"{n}x{n}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for n in (192, 512)
        ],
    }
    return Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
