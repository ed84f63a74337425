"""Fixtures for the page: a real Table on a real SQLite file, the real app,
and (for HTTP and browser tests) a real waitress server on loopback."""

from __future__ import annotations

import http.client as httpclient
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from device.server import WebServer
from device.store import Store
from device.table import Table
from web_ui import create_app

PIN = "4321"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(Store(tmp_path / "tilewatch.sqlite"), pin=PIN)
    yield t
    t.close()


@pytest.fixture
def app(table: Table) -> Any:
    return create_app(table)


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def server(table: Table, app: Any) -> Iterator[WebServer]:
    srv = WebServer(app, table, host="127.0.0.1", port=0, threads=24)
    srv.start()
    yield srv
    srv.stop()


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


class Http:
    """A tiny HTTP client for a server on loopback (stdlib only), so a test
    can send exactly the bytes it means, including broken ones."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80

    def request(
        self,
        method: str,
        path: str,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        json_body: Any = None,
        pin: str | None = None,
    ) -> Reply:
        hdrs = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body)
            hdrs.setdefault("Content-Type", "application/json")
        if pin is not None:
            hdrs["X-Table-PIN"] = pin
        conn = httpclient.HTTPConnection(self.host, self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
        finally:
            conn.close()

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Reply:
        return self.request("POST", path, **kw)


@pytest.fixture
def http(server: WebServer) -> Http:
    return Http(server.url)


# -- browser -------------------------------------------------------------------

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.fail("Debian's chromium is missing: run scripts/test-deps (apt install chromium)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def screenshots() -> Path | None:
    """Where README screenshots go: ``TILEWATCH_SCREENSHOTS=1`` writes
    ``docs/img/phone-*.png``; otherwise nothing is written."""
    if not os.environ.get("TILEWATCH_SCREENSHOTS"):
        return None
    out = REPO / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    return out
