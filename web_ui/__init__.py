"""The phone page: a Flask app around one :class:`device.table.Table`.

``create_app(table)`` in the style of Flask's tutorial (flaskr): one
blueprint per concern, templates that work without JavaScript (a small
script only adds live updates), every asset served from this package (no
CDN: the table has no internet).

Blueprints:
    pages   the HTML pages (table, set-up, corrections, calibration, results, join)
    api     the JSON API (``/api/...``), documented in ``web_ui/API.md``
    stream  server-sent events, the camera snapshot and MJPEG stream
    auth    the table PIN (everyone may look; changes need the PIN)
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from device.table import Table

MAX_BODY = 64 * 1024  # a set-up with custom task cards is a few kB


def create_app(table: Table, config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=table.secret,
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_SAMESITE="Strict",  # a foreign site cannot post with our cookie
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=7 * 24 * 3600,
        JSON_SORT_KEYS=False,
        # The PIN is shown on the companion's own screen (a browser on the Pi).
        SHOW_PIN_TO_LOCALHOST=True,
        # Where phones reach us, for the QR code; None = worked out per request.
        PUBLIC_URL=None,
        LANGUAGE="en",
        SSE_HEARTBEAT=15.0,
        MJPEG_MAX_CLIENTS=8,
        MJPEG_FPS=5.0,
    )
    if config:
        app.config.update(config)
    app.extensions["table"] = table

    from web_ui import api, auth, errors, i18n, pages, stream

    i18n.init_app(app)
    errors.init_app(app)
    auth.init_app(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    return app
