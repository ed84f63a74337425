"""The page under waitress: starts on an ephemeral port, says where and the
PIN, and stops cleanly even with phones holding the event stream."""

from __future__ import annotations

import socket
import time

from device.server import WebServer
from device.store import Store
from device.table import Table
from web_ui import create_app


def test_start_banner_and_a_clean_stop_with_streams_open(tmp_path):
    table = Table(Store(tmp_path / "t.sqlite"), pin="1357")
    server = WebServer(create_app(table), table, host="127.0.0.1", port=0, threads=4)
    server.start()
    assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}/"
    assert "1357" in server.banner() and str(server.port) in server.banner()
    streams = []
    for _ in range(3):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(b"GET /api/events HTTP/1.0\r\nHost: x\r\n\r\n")
        assert b"200 OK" in s.recv(4096)
        streams.append(s)
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 5
    for s in streams:  # every phone sees the stream end, none hangs
        while s.recv(4096):
            pass
        s.close()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", server.port)) != 0
