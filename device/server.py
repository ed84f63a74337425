"""The phone page under waitress: a production WSGI server in this process
(the one that owns the camera), with a pool of threads for the phones.

Each phone following the live page holds one thread (server-sent events),
so ``threads`` should exceed the phones expected at the table plus a few
for page loads: 40 by default, cheap on a Raspberry Pi (idle threads sleep).

    server = WebServer(create_app(table), table, host="0.0.0.0", port=8080)
    server.start()           # in a thread; or server.serve_forever()
    print(server.url)
    server.stop()            # ends the streams, closes connections
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from typing import Any

import waitress

from device.table import Table

log = logging.getLogger(__name__)

DEFAULT_THREADS = 40


def lan_address() -> str | None:
    """This machine's address on the local network, or None when offline.
    (A UDP "connect" sends nothing; it only asks the kernel for a route.)"""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.168.255.255", 9))
            addr = str(s.getsockname()[0])
        except OSError:
            return None
    return None if addr.startswith("127.") else addr


class WebServer:
    def __init__(
        self,
        app: Any,
        table: Table,
        host: str = "0.0.0.0",
        port: int = 8080,
        threads: int = DEFAULT_THREADS,
    ) -> None:
        self.table = table
        self._map: dict[Any, Any] = {}
        self._server = waitress.create_server(
            app,
            map=self._map,
            host=host,
            port=port,
            threads=threads,
            ident="tilewatch",
            # a request body beyond this is refused before Flask reads it
            max_request_body_size=1024 * 1024,
            # idle keep-alive connections go after a minute; SSE streams send a
            # comment every 15 s, so they stay
            channel_timeout=60,
            clear_untrusted_proxy_headers=True,
        )
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    @property
    def host(self) -> str:
        return str(self._server.effective_host)

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        host = self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def banner(self) -> str:
        """What the console says at start: where phones go, and the PIN
        (the companion's own screen is the only place it is shown)."""
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address() or socket.gethostname() + ".local"
        url = f"http://{host}:{self.port}/"
        return f"tilewatch: open {url} on the phones; table PIN {self.table.pin}"

    def serve_forever(self) -> None:
        """Run the network loop in this thread until :meth:`stop`. The loop
        owns the sockets, so it also closes them on the way out."""
        log.info("serving the page at %s", self.url)
        adj = self._server.adj
        try:
            while not self._stopping.is_set():
                self._server.asyncore.loop(
                    timeout=0.25, map=self._map, use_poll=adj.asyncore_use_poll, count=1
                )
        finally:
            self._close_all()

    def start(self) -> threading.Thread:
        self._thread = threading.Thread(target=self.serve_forever, name="web", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 5.0) -> None:
        """End every stream, close every connection, stop the threads."""
        self.table.close()  # event and camera streams return at once
        # let the request threads finish while the loop still sends for them
        self._server.task_dispatcher.shutdown(timeout=timeout)
        self._stopping.set()
        if self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(OSError):  # wake the loop now, not in 0.25 s
                self._server.pull_trigger()
            self._thread.join(timeout=timeout)
        else:
            self._close_all()

    def _close_all(self) -> None:
        for channel in list(self._map.values()):
            with contextlib.suppress(OSError):  # already gone
                channel.close()
