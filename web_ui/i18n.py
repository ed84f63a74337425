"""English and Traditional Chinese for the page.

Strings live in ``web_ui/translations/<lang>.json`` (flat ``key: text``
maps, ``{name}`` placeholders), so a translator edits data, not code. The
language is taken from ``?lang=`` (remembered in a cookie), then the
cookie, then the browser's ``Accept-Language`` (any Chinese -> zh-Hant,
since the rulebooks come in Traditional Chinese), then the table default.

Templates call ``_("key", name=value)``; a key missing in Chinese falls
back to English, and a missing key shows itself (tests catch both).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from flask import Flask, current_app, g, request

LANGUAGES = {"en": "English", "zh-Hant": "繁體中文"}
COOKIE = "lang"


@cache
def catalogue(lang: str) -> dict[str, str]:
    text = resources.files("web_ui").joinpath("translations", f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def normalise(code: str | None) -> str | None:
    """Map a language tag to one we have.

    >>> normalise("zh-TW"), normalise("zh"), normalise("en-GB"), normalise("fr")
    ('zh-Hant', 'zh-Hant', 'en', None)
    """
    if not code:
        return None
    low = code.strip().lower()
    if low.startswith("zh"):
        return "zh-Hant"
    if low.startswith("en"):
        return "en"
    return None


def pick_language() -> str:
    for candidate in (request.args.get("lang"), request.cookies.get(COOKIE)):
        lang = normalise(candidate)
        if lang:
            return lang
    for tag, _quality in request.accept_languages:
        lang = normalise(tag)
        if lang:
            return lang
    return str(current_app.config.get("LANGUAGE", "en"))


def current_language() -> str:
    if "lang" not in g:
        g.lang = pick_language()
    return str(g.lang)


def translate(key: str, lang: str | None = None, **params: Any) -> str:
    lang = lang or current_language()
    text = catalogue(lang).get(key) or catalogue("en").get(key) or key
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def has(key: str, lang: str | None = None) -> bool:
    return key in catalogue(lang or current_language())


def reason_text(reason: str, message: str) -> str:
    """A verdict or refusal in the reader's language. English readers get
    the engine's own sentence (it names rows and tiles); others get the
    translation of its reason code, or the English sentence if there is none."""
    key = f"reason.{reason}"
    if current_language() == "en":
        return message or translate(key)
    return translate(key) if has(key) else message or translate("reason.unknown")


def init_app(app: Flask) -> None:
    @app.before_request
    def _language() -> None:
        g.lang = pick_language()

    @app.after_request
    def _remember(resp: Any) -> Any:
        asked = normalise(request.args.get("lang"))
        if asked:
            resp.set_cookie(COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax")
        resp.headers.setdefault("Content-Language", current_language())
        resp.headers.add("Vary", "Accept-Language, Cookie")
        return resp

    # globals, so macros imported without context can translate too
    app.jinja_env.globals.update(_=translate, reason_text=reason_text)

    @app.context_processor
    def _context() -> dict[str, Any]:
        return {
            "_": translate,
            "lang": current_language(),
            "languages": LANGUAGES,
            "reason_text": reason_text,
        }
