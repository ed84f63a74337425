"""The JSON API: everything the page does, for scripts and the page's own
script. Documented in ``web_ui/API.md``.

Reading needs nothing; every change needs the table PIN (``X-Table-PIN``
header, or the session cookie the ``/pin`` page sets) and a JSON body
(``Content-Type: application/json``). Errors are ``{"error": code,
"message": text}`` with a 4xx status; a refused change leaves the game as
it was.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request

from web_ui import export, qr
from web_ui.auth import require_pin
from web_ui.errors import ApiError
from web_ui.service import table

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_DEPTH = 32  # no real request nests deeper; refuse before anything walks it


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 4xx saying what is wrong with it."""
    if not request.is_json:
        raise ApiError(415, "not_json", "send JSON with Content-Type: application/json")
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "not_an_object", "the body must be a JSON object {...}")
    if _depth(body) > MAX_DEPTH:
        raise ApiError(400, "too_deep", f"JSON nested deeper than {MAX_DEPTH} levels")
    return body


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``body[name]``, checked to be of ``kind`` (bool is not an int here)."""
    if name not in body:
        raise ApiError(400, "missing_field", f"{name}: missing; expected {what}")
    value = body[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise ApiError(400, "bad_field", f"{name}: expected {what}, got {value!r}")
    if not isinstance(value, kinds):
        raise ApiError(400, "bad_field", f"{name}: expected {what}, got {type(value).__name__}")
    return value


# -- reading ---------------------------------------------------------------


@bp.get("/state")
def state() -> Any:
    return jsonify(table().state())


@bp.get("/alerts")
def alerts() -> Any:
    return jsonify(table().alerts())


@bp.get("/calibration")
def calibration() -> Any:
    return jsonify(table().calibration())


@bp.get("/catalogue")
def catalogue() -> Any:
    from web_ui.setup import catalogue_json

    return jsonify(catalogue_json())


@bp.get("/games")
def games() -> Any:
    return jsonify(table().store.games())


@bp.get("/games/<int:game_id>")
def game_record(game_id: int) -> Any:
    return jsonify(export.record_json(table(), game_id))


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> Response:
    return export.json_download(table(), game_id)


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> Response:
    return export.csv_download(table(), game_id)


@bp.get("/qr.svg")
def qr_svg() -> Response:
    return Response(qr.svg(qr.join_url()), mimetype="image/svg+xml")


# -- changing (PIN) -------------------------------------------------------


@bp.post("/game")
@require_pin
def new_game() -> Any:
    from web_ui.setup import setup_from_json

    game, setup = setup_from_json(json_body())
    return jsonify(table().new_game(game, setup, source="phone")), 201


@bp.post("/actions")
@require_pin
def act() -> Any:
    body = json_body()
    events = table().apply(body, source="phone")
    return jsonify({"events": events, "version": table().state()["version"]})


@bp.post("/undo")
@require_pin
def undo() -> Any:
    undone = table().undo(source="phone")
    return jsonify({"undone": undone})


@bp.post("/corrections")
@require_pin
def correct() -> Any:
    body = json_body()
    player = field(body, "player", int, "a player number (0 = first)")
    cell = field(body, "cell", list, "[row, col]")
    code = field(body, "code", str, "one cell code, e.g. R")
    events = table().correct_cell(player, cell, code, source="phone")
    return jsonify({"events": events})


@bp.post("/alerts/<int:alert_id>")
@require_pin
def answer_alert(alert_id: int) -> Any:
    body = json_body()
    decision = field(body, "decision", str, "accept, overrule or confirm")
    codes = body.get("codes")
    if codes is not None and not isinstance(codes, list):
        raise ApiError(400, "bad_field", "codes: a list of cell codes, one per cell")
    return jsonify(table().resolve_alert(alert_id, decision, codes, source="phone"))


@bp.post("/calibration/start")
@require_pin
def calibration_start() -> Any:
    table().calibration_start()
    return jsonify(table().calibration())


@bp.post("/calibration/corners")
@require_pin
def calibration_corners() -> Any:
    body = json_body()
    corners = field(body, "corners", list, "four [x, y] points")
    table().calibration_corners(corners)
    return jsonify(table().calibration())


@bp.post("/calibration/confirm")
@require_pin
def calibration_confirm() -> Any:
    table().calibration_confirm()
    return jsonify(table().calibration())
