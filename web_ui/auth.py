"""The table PIN: everyone may look; changing the game, corrections and
calibration need it.

A phone proves it knows the PIN once (the ``/pin`` page or
``POST /api/pin``); the signed session cookie remembers it for a week.
Scripts may send the header ``X-Table-PIN`` with each request instead.
Wrong guesses are limited per address, so four digits are enough at a
table: 8 tries, then a 5-minute wait.

The PIN is shown on the companion's own screen: the ``/pin`` page opened
on the Pi itself (from localhost), and the console at start.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from web_ui.errors import ApiError, error_response, wants_json
from web_ui.service import table

bp = Blueprint("auth", __name__)

MAX_TRIES = 8
WINDOW = 300.0  # seconds
LOCAL = ("127.0.0.1", "::1")

F = TypeVar("F", bound=Callable[..., Any])


class Throttle:
    """Wrong PIN guesses per client address in a sliding window."""

    def __init__(self, tries: int = MAX_TRIES, window: float = WINDOW) -> None:
        self.tries, self.window = tries, window
        self._fails: defaultdict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> deque[float]:
        fails = self._fails[who]
        while fails and now - fails[0] > self.window:
            fails.popleft()
        return fails

    def blocked_for(self, who: str) -> float:
        """Seconds until ``who`` may try again (0 = may try now)."""
        now = time.monotonic()
        with self._lock:
            fails = self._recent(who, now)
            if len(fails) < self.tries:
                return 0.0
            return max(1.0, self.window - (now - fails[0]))

    def fail(self, who: str) -> None:
        with self._lock:
            self._recent(who, time.monotonic()).append(time.monotonic())
            if len(self._fails) > 10000:  # a flood of addresses must not grow memory
                self._fails.clear()

    def forget(self, who: str) -> None:
        with self._lock:
            self._fails.pop(who, None)


def _token(pin: str) -> str:
    return hashlib.sha256(f"{table().secret}:{pin}".encode()).hexdigest()


def is_local() -> bool:
    return request.remote_addr in LOCAL


def has_pin() -> bool:
    """True when this request carries the table PIN (header or session)."""
    header = request.headers.get("X-Table-PIN")
    if header is not None:
        return table().check_pin(header)
    return session.get("pin") == _token(table().pin)


def _throttle() -> Throttle:
    t: Throttle = current_app.extensions["pin_throttle"]
    return t


def try_pin(pin: object) -> bool:
    """Check a PIN a client typed, counting wrong guesses. Raises ApiError 429
    when this address guessed wrong too often."""
    who = request.remote_addr or "?"
    wait = _throttle().blocked_for(who)
    if wait:
        raise ApiError(429, "too_many_tries", f"too many wrong PINs; try again in {wait:.0f} s")
    if table().check_pin(pin):
        _throttle().forget(who)
        session.permanent = True
        session["pin"] = _token(table().pin)
        return True
    _throttle().fail(who)
    return False


def require_pin(view: F) -> F:
    """Refuse the view without the PIN: 401 JSON for the API, the PIN page
    for a browser. A wrong ``X-Table-PIN`` header counts as a guess."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        header = request.headers.get("X-Table-PIN")
        typed = request.form.get("pin") if request.method == "POST" else None
        if header is not None:
            if not try_pin(header):
                raise ApiError(403, "wrong_pin", "wrong table PIN")
        elif typed and not has_pin() and not try_pin(typed):
            # a form with its own PIN field (the set-up page, before unlocking)
            raise ApiError(403, "wrong_pin", "wrong table PIN")
        elif not has_pin():
            if wants_json():
                raise ApiError(401, "pin_required", "this needs the table PIN")
            # after the PIN, back to this page (or, for a form post, the page
            # it was posted from: the post itself is not a page)
            here = request.full_path if request.method == "GET" else _referrer_path()
            return redirect(url_for("auth.pin_page", next=_safe_next(here)))
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def _referrer_path() -> str:
    ref = request.referrer
    if ref and urlsplit(ref).netloc == request.host:
        return urlsplit(ref).path
    return "/"


def _safe_next(target: str | None) -> str:
    """Only local paths: the PIN page must not bounce anyone to another site."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target.rstrip("?") or "/"


def _same_origin() -> bool:
    """Form posts must come from our own pages (belt and braces with the
    SameSite cookie): a foreign page cannot drive the table."""
    origin = request.headers.get("Origin")
    if origin is None:  # scripts and older browsers send none
        return True
    return urlsplit(origin).netloc == request.host


def init_app(app: Flask) -> None:
    app.extensions["pin_throttle"] = Throttle()

    @app.before_request
    def _check_origin() -> Any:
        if request.method in ("POST", "PUT", "DELETE", "PATCH") and not _same_origin():
            return error_response(403, "cross_origin", "requests from other sites are refused")
        return None

    @app.context_processor
    def _pin_context() -> dict[str, Any]:
        return {"has_pin": has_pin()}


@bp.route("/pin", methods=["GET", "POST"])
def pin_page() -> Any:
    nxt = _safe_next(request.values.get("next"))
    error = None
    status = 200
    if request.method == "POST":
        try:
            if try_pin(request.form.get("pin", "")):
                return redirect(nxt)
            error, status = "pin.wrong", 403
        except ApiError as err:
            error, status = "pin.too_many", err.status
    shown = table().pin if is_local() and current_app.config["SHOW_PIN_TO_LOCALHOST"] else None
    return render_template("pin.html", next=nxt, error=error, shown_pin=shown), status


@bp.post("/pin/forget")
def forget() -> Any:
    session.pop("pin", None)
    return redirect(url_for("pages.table_page"))


@bp.post("/api/pin")
def api_pin() -> Any:
    from web_ui.api import json_body

    body = json_body()
    pin = body.get("pin")
    if not isinstance(pin, str):
        raise ApiError(400, "bad_pin", "pin: a string of digits")
    if not try_pin(pin):
        raise ApiError(403, "wrong_pin", "wrong table PIN")
    return jsonify({"ok": True})
