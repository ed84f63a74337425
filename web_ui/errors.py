"""Errors as the client wants them: JSON ``{"error": code, "message": text}``
with the right 4xx status under ``/api`` (and for scripts asking for JSON),
a short translated page otherwise. A refusal never becomes a 500."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from device.store import StoreError
from device.table import TableError
from engine.errors import ActionError

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A request the page refuses; ``reason`` is a stable code."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(
    status: int, reason: str, message: str, headers: dict[str, str] | None = None
) -> Any:
    if wants_json():
        resp = jsonify({"error": reason, "message": message})
    else:
        resp = Response(
            render_template("error.html", status=status, reason=reason, message=message),
            mimetype="text/html",
        )
    resp.status_code = status
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def _http_reason(err: HTTPException) -> str:
    return (err.name or "error").lower().replace(" ", "_").replace("'", "")


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api(err: ApiError) -> Any:
        return error_response(err.status, err.reason, err.message)

    @app.errorhandler(TableError)
    def _table(err: TableError) -> Any:
        return error_response(err.status, err.reason, err.message)

    @app.errorhandler(ActionError)
    def _refused(err: ActionError) -> Any:
        # The engine refused: nothing changed; say why, in the engine's words.
        return error_response(422, "refused", str(err))

    @app.errorhandler(StoreError)
    def _store(err: StoreError) -> Any:
        log.error("store: %s", err)
        return error_response(503, "cannot_save", str(err))

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Any:
        headers = {}
        if err.code == 405 and err.valid_methods:  # type: ignore[attr-defined]
            headers["Allow"] = ", ".join(err.valid_methods)  # type: ignore[attr-defined]
        return error_response(err.code or 500, _http_reason(err), err.description or "", headers)

    @app.errorhandler(Exception)
    def _bug(err: Exception) -> Any:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal", "something went wrong inside the companion")
