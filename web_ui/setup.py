"""Setting up a game: the catalogue the set-up page offers, and the set-up
from the page's form or the API's JSON, in the engines' own setup format
(``engine.bits.game.Game.new`` / ``engine.lits.game.Game.new``).

The engines check everything; this module only gathers fields. A task card
the players draw on the page's 6x6 grid becomes an inline card in
``setup["cards"]``, used in its pile's round when asked.
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from engine.bits.cards import load_catalogue
from engine.lits.layout import DEFAULT_LAYOUT, builtin_names
from web_ui.errors import ApiError

GAMES = ("bits", "lits")
MAX_NAME = 24
CUSTOM = "my-card"


def catalogue_json() -> dict[str, Any]:
    cards = [card.to_json() for card in load_catalogue().cards.values()]
    return {
        "bits": {
            "cards": cards,
            "piles": {n: [c["name"] for c in cards if c["pile"] == n] for n in (1, 2, 3, 4)},
        },
        "lits": {"layouts": builtin_names(), "default_layout": DEFAULT_LAYOUT},
    }


def setup_from_json(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``{"game": "bits"|"lits", "setup": {...engine setup...}}``."""
    game = body.get("game")
    if game not in GAMES:
        raise ApiError(400, "unknown_game", "game: 'bits' or 'lits'")
    setup = body.get("setup", {})
    if not isinstance(setup, dict):
        raise ApiError(400, "bad_field", "setup: an object (see GET /api/catalogue)")
    return str(game), setup


def _names(form: MultiDict[str, str], keys: list[str]) -> list[str]:
    names = []
    for key in keys:
        name = " ".join(form.get(key, "").split())[:MAX_NAME]
        if name:
            names.append(name)
    return names


def drawn_shape(form: MultiDict[str, str], size: int = 6) -> str | None:
    """The shape ticked on the page's grid (``cell-R-C`` boxes) as shape text
    cropped to its bounding box, e.g. ``"##/#."``; None when nothing is ticked.

    >>> drawn_shape(MultiDict([("cell-2-3", "on"), ("cell-3-3", "on"), ("cell-2-4", "on")]))
    '##/#.'
    """
    ticked = set()
    for key in form:
        parts = key.split("-")
        if len(parts) == 3 and parts[0] == "cell" and parts[1].isdigit() and parts[2].isdigit():
            r, c = int(parts[1]), int(parts[2])
            if r < size and c < size:
                ticked.add((r, c))
    if not ticked:
        return None
    r0, r1 = min(r for r, _ in ticked), max(r for r, _ in ticked)
    c0, c1 = min(c for _, c in ticked), max(c for _, c in ticked)
    return "/".join(
        "".join("#" if (r, c) in ticked else "." for c in range(c0, c1 + 1))
        for r in range(r0, r1 + 1)
    )


def _int(form: MultiDict[str, str], key: str, default: int) -> int:
    text = form.get(key, "").strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise ApiError(400, "bad_field", f"{key}: a whole number") from None


def setup_from_form(form: MultiDict[str, str]) -> tuple[str, dict[str, Any]]:
    """The set-up page's form (works without JavaScript)."""
    game = form.get("game", "bits")
    if game not in GAMES:
        raise ApiError(400, "unknown_game", "game: BITS or LITS")
    if game == "lits":
        setup: dict[str, Any] = {"players": _names(form, ["x_player", "o_player"])}
        layout = form.get("layout", DEFAULT_LAYOUT)
        if layout == "random":
            setup["layout_seed"] = _int(form, "layout_seed", 0)
        elif layout == "custom":
            setup["layout_text"] = form.get("layout_text", "")
        else:
            setup["layout"] = layout
        return game, setup
    setup = {
        "players": _names(form, [f"player{i}" for i in range(1, 5)]),
        "deck": form.get("deck", "virtual"),
        "advanced": form.get("advanced") == "on",
    }
    if form.get("seed", "").strip():
        setup["seed"] = _int(form, "seed", 0)
    tasks: list[Any] = [form.get(f"task{n}") or None for n in range(1, 5)]
    shape = drawn_shape(form)
    if shape:
        pile = _int(form, "new_pile", 2)
        card = {
            "name": CUSTOM,
            "shape": shape,
            "pile": pile,
            "points": _int(form, "new_points", -2 if pile == 3 else 2),
        }
        if form.get("new_colour"):
            card["colour"] = form["new_colour"]
        setup["cards"] = [card]
        if form.get("new_use") == "on" and 1 <= pile <= 4:
            tasks[pile - 1] = CUSTOM
    rounds = 4 if setup["advanced"] else 3
    tasks = tasks[:rounds]
    while tasks and tasks[-1] is None:
        tasks.pop()
    if tasks:
        setup["tasks"] = tasks
    return game, setup
