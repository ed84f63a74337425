"""From the table's JSON state to what the templates draw.

``table_context(state)`` turns :meth:`device.table.Table.state` into plain
objects for ``_table_live.html`` and ``results.html``: boards as drawing
models, alerts in the reader's words, score tables, the chart. Pure
functions of the state (and the language), so the page and its live
fragment always agree.
"""

from __future__ import annotations

from typing import Any

from flask import url_for

from web_ui import boards, chart
from web_ui.i18n import reason_text, translate

NO_CAMERA = ("gone", "view_moved", "light_changed")


def letter(code: str) -> str:
    """The letter on a cell of this colour, in the reader's language."""
    return translate(f"colour.{code}.letter")


def colour_name(code: str | None) -> str:
    return translate(f"colour.{code}") if code else translate("colour.any")


def where(cell: Any) -> str:
    """``[3, 1]`` -> "row 4, column 2" (players count from 1)."""
    r, c = cell
    return translate("cell.where", row=int(r) + 1, col=int(c) + 1)


def player_name(view: dict[str, Any] | None, player: Any) -> str:
    """Who an alert is about: BITS names players by number (their ramp), the
    LITS engine by name; a LITS alert from the camera (one board) names nobody."""
    if isinstance(player, str):
        return player
    if view and view.get("game") == "bits" and isinstance(player, int):
        players = view.get("players") or []
        if 0 <= player < len(players):
            return str(players[player]["name"])
    return ""


def alert_views(state: dict[str, Any]) -> list[dict[str, Any]]:
    view = state.get("view")
    out = []
    for a in state.get("alerts", []):
        out.append(
            {
                **a,
                "who": player_name(view, a.get("player")),
                "text": reason_text(a["reason"], a["message"]),
                "where": [where(c) for c in a["cells"]],
                "choices": _choices(a),
            }
        )
    return out


def _choices(alert: dict[str, Any]) -> list[dict[str, Any]]:
    """For an unsure alert: each candidate reading as one tap (the i-th
    candidate of every cell), each cell's codes and colour names."""
    cand = alert.get("candidates") or []
    if not cand or any(not c for c in cand):
        return []
    n = min(len(c) for c in cand)
    out = []
    for i in range(n):
        codes = [c[i] for c in cand]
        out.append({"codes": codes, "label": " + ".join(colour_name(code) for code in codes)})
    return out


def _flags(state: dict[str, Any], kind: str, player: Any) -> list[list[int]]:
    cells: list[list[int]] = []
    for a in state.get("alerts", []):
        if a["kind"] == kind and (player is None or a.get("player") in (player, None)):
            cells.extend(a["cells"])
    return cells


def camera_view(state: dict[str, Any]) -> dict[str, Any]:
    cam = state.get("camera") or {}
    status = cam.get("status", "off")
    return {
        "status": status,
        "text": translate(f"camera.{status}"),
        "message": cam.get("message") or "",
        "problem": status in NO_CAMERA,
        "snapshot": cam.get("snapshot"),
    }


def table_context(state: dict[str, Any]) -> dict[str, Any]:
    view = state.get("view")
    ctx: dict[str, Any] = {
        "state": state,
        "version": state["version"],
        "game": state.get("game"),
        "alerts": alert_views(state),
        "camera": camera_view(state),
    }
    if view is None:
        return ctx
    if view.get("game") == "bits":
        ctx["bits"] = bits_context(state, view)
    else:
        ctx["lits"] = lits_context(state, view)
    return ctx


# -- BITS -------------------------------------------------------------------


def task_views(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            **card,
            "drawing": boards.shape_board(card["shape"], card.get("colour"), letter),
            "colour_name": colour_name(card.get("colour")),
            "minus": card["points"] < 0,
        }
        for card in tasks
    ]


def _blocks(score: dict[str, Any]) -> list[dict[str, Any]]:
    """The scored blocks of one board, labelled by card number (1 = round 1's
    card) so a player sees which card each block scored for."""
    out = []
    for number, card in enumerate(score.get("cards", []), start=1):
        for block in card.get("scored", []):
            out.append(
                {
                    "cells": block["cells"],
                    "label": f"{number}:{block['points']:+d}",
                    "minus": block["points"] < 0,
                }
            )
    return out


def bits_board_view(
    rows: list[str],
    player: int,
    *,
    link: bool,
    state: dict[str, Any] | None = None,
    flagged: list[Any] | None = None,
    **kw: Any,
) -> boards.BoardView:
    """A player's board; with ``state``, the cells of their alerts marked."""
    href = (lambda r, c: url_for("pages.cell_page", player=player, r=r, c=c)) if link else None
    if state is not None:
        flagged = _flags(state, "illegal", player)
        kw["unsure"] = _flags(state, "unsure", player)
    return boards.bits_board(rows, letter=letter, href=href, flagged=flagged, **kw)


def bits_context(state: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    over = view["over"]
    players = []
    for p in view["players"]:
        score = p["score"]
        status = "out" if p["dropped_out"] else ("placed" if p["placed"] else "waiting")
        players.append(
            {
                **p,
                "status": status,
                "drawing": bits_board_view(
                    p["board"],
                    p["index"],
                    link=not over,
                    state=state,
                    last=p.get("last"),
                    blocks=_blocks({"cards": score.get("cards", [])}),
                ),
                "refused_text": (
                    reason_text(p["refused"]["reason"], p["refused"]["message"])
                    if p.get("refused")
                    else None
                ),
                "card_points": [c["points"] for c in score.get("cards", [])],
                "start": (
                    boards.tile_board(p["start_tile"], letter)
                    if p.get("start_tile") and view["phase"] == "start"
                    else None
                ),
            }
        )
    history = round_views(view)
    return {
        "view": view,
        "players": players,
        "tasks": task_views(view["tasks"]),
        "card": boards.tile_board(view["card"], letter) if view.get("card") else None,
        "card_names": " / ".join(colour_name(c) for c in view["card"]) if view.get("card") else "",
        "rounds": history,
        "chart": chart.rounds_chart(
            [p["name"] for p in view["players"]],
            [p["score"]["rounds"] for p in view["players"]],
        ),
        "winners": [view["players"][i]["name"] for i in (view.get("winners") or [])],
        "tiles": all_tiles(),
        "pile": view["round"],
    }


def round_views(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each finished round: every board with its scoring blocks drawn, and
    the points per card."""
    out = []
    for past in view.get("history", []):
        tasks = view["tasks"][: past["round"]]
        boards_ = []
        for index, (rows, score) in enumerate(zip(past["boards"], past["scores"], strict=False)):
            boards_.append(
                {
                    "name": view["players"][index]["name"],
                    "total": score["total"],
                    "cards": [c["points"] for c in score["cards"]],
                    "drawing": bits_board_view(rows, index, link=False, blocks=_blocks(score)),
                }
            )
        out.append({"round": past["round"], "tasks": task_views(tasks), "boards": boards_})
    return out


def all_tiles() -> list[str]:
    """Every distinct tile a building card can show, for announcing a card."""
    colours = "RYBPK"
    return [a + b for i, a in enumerate(colours) for b in colours[i:]]


# -- LITS -------------------------------------------------------------------


def lits_context(state: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    last = (view.get("last_placement") or {}).get("cells")
    drawing = boards.lits_board(
        view["rows"],
        view["layout"],
        href=None
        if view["over"]
        else (lambda r, c: url_for("pages.cell_page", player=0, r=r, c=c)),
        last=last,
        flagged=_flags(state, "illegal", None),
        unsure=_flags(state, "unsure", None),
    )
    score = view["score"]
    if view["over"]:
        why = translate(
            "lits.why_more" if score["X"] != score["O"] else "lits.why_tie",
            x=score["X"],
            o=score["O"],
            symbol=view.get("winner_symbol") or "",
        )
    else:
        why = ""
    return {"view": view, "drawing": drawing, "why": why}
