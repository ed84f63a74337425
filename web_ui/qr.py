"""The QR code other phones scan to join the table (drawn with segno, as SVG).

The address in it is where *phones* reach the companion: the configured
``PUBLIC_URL``, else the address this request came in on, except that a
page opened on the Pi itself (localhost) would give phones a useless
``localhost``: then the Pi's own network address is used.
"""

from __future__ import annotations

import io
import socket
from urllib.parse import urlsplit

import segno
from flask import current_app, request

from device.server import lan_address

LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def join_url() -> str:
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured)
    parts = urlsplit(request.host_url)
    host = parts.hostname or "localhost"
    if host in LOOPBACK:
        host = lan_address() or f"{socket.gethostname()}.local"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}/"


def svg(url: str, scale: int = 6) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=scale, border=2, dark="#111", light="#fff", title=url
    )
    return out.getvalue()


def svg_inline(url: str, scale: int = 6) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=scale, border=2, dark="#111"))
