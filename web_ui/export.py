"""The game record for keeping: JSON (everything: set-up, every logged
action with its events, the final view) and CSV (the scores, one row per
player and card and round, for a spreadsheet)."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, json

from device.table import Table, TableError, game_class
from engine.errors import ActionError


def record_json(table: Table, game_id: int) -> dict[str, Any]:
    record = table.record(game_id)
    try:
        view = game_class(record.game).replay(record.setup, record.actions).view()
    except (ActionError, TableError):
        view = None  # a record this version cannot replay still exports its log
    return {
        **record.summary(),
        "setup": record.setup,
        "log": [e.to_json() for e in record.entries],
        "view": view,
    }


def score_rows(record: dict[str, Any]) -> list[list[Any]]:
    """``[game, round, player, card, points]`` rows (LITS: symbols left)."""
    view = record.get("view")
    gid = record["id"]
    rows: list[list[Any]] = []
    if not view:
        return rows
    if view["game"] == "lits":
        for symbol, name in view["players"].items():
            rows.append([gid, "", name, f"uncovered {symbol}", view["score"][symbol]])
        return rows
    done = {past["round"]: past for past in view.get("history", [])}
    for rnd in range(1, view["round"] + 1):
        past = done.get(rnd)
        for index, player in enumerate(view["players"]):
            score = past["scores"][index] if past else player["score"]
            for card in score["cards"]:
                rows.append([gid, rnd, player["name"], card["name"], card["points"]])
            total = score["total"] if past else score["round"]
            rows.append([gid, rnd, player["name"], "round total", total])
    for player in view["players"]:
        rows.append([gid, "", player["name"], "game total", player["score"]["total"]])
    return rows


def _cell(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (a name like ``=SUM()``) is
    quoted; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _filename(record: dict[str, Any], ext: str) -> str:
    return f"tilewatch-{record['game']}-{record['id']}.{ext}"


def json_download(table: Table, game_id: int) -> Response:
    record = record_json(table, game_id)
    return Response(
        json.dumps(record, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{_filename(record, "json")}"'},
    )


def csv_download(table: Table, game_id: int) -> Response:
    record = record_json(table, game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "round", "player", "card", "points"])
    writer.writerows([[_cell(v) for v in row] for row in score_rows(record)])
    return Response(
        # a BOM so spreadsheet programs read the players' names as UTF-8
        "\ufeff" + out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{_filename(record, "csv")}"'},
    )
