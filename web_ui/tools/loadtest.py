"""Load: many phones holding the event stream while placements happen.

    python -m web_ui.tools.loadtest --clients 30 --placements 60 [--pages]

starts the real service (Table, SQLite file, app, waitress) in a child
process on loopback, connects ``--clients`` event-stream readers, has a robot
play BITS through the Table as the camera would (``web_ui.tools.autoplay``),
and reports whether every reader got every change, the delivery latency
(publish in the server to parse in the reader; one machine, one clock) as
median and 95th percentile, and the server's memory and threads. With
``--pages`` each reader also re-fetches the page's live fragment after a
change, as the page's script does, and the time until it has it is reported.
Nothing here is a pass/fail timing: machines differ; the figures are for
the README.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PIN = "2468"


# -- the server side (child process) ------------------------------------------


def serve(db: Path, threads: int) -> None:
    """The child: serve, then play on command from stdin ("play N GAP")."""
    from device.server import WebServer
    from device.store import Store
    from device.table import Table
    from web_ui import create_app
    from web_ui.tools.autoplay import camera_places

    table = Table(Store(db), pin=PIN)
    server = WebServer(create_app(table), table, host="127.0.0.1", port=0, threads=threads)
    server.start()
    print(f"port {server.port}", flush=True)
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "play":
            count, gap = int(words[1]), float(words[2])
            first = table.hub.seq
            made = 0
            while made < count:
                view = table.state()["view"]
                if view is None or view["over"]:
                    table.new_game("bits", {"players": ["A", "B", "C", "D"], "seed": made})
                    made += 1
                    continue
                waiting = [p for p in view["players"] if not p["dropped_out"] and not p["placed"]]
                if not waiting:  # a round or game boundary in between
                    table.apply({"type": "end_round"}, source="phone")
                else:
                    camera_places(table, waiting[0]["index"], choice=made % 5)
                made += 1
                time.sleep(gap)
            print(f"done {table.hub.run} {first} {table.hub.seq}", flush=True)
        elif words and words[0] == "quit":
            break
    server.stop()


# -- the phones (parent process) ------------------------------------------------


@dataclass
class Reader:
    """One phone: an event-stream reader on a raw socket (HTTP/1.0, so the
    body is the plain stream)."""

    port: int
    pages: bool = False  # also fetch the page's live fragment, as the page's script does
    got: dict[int, float] = field(default_factory=dict)  # seq -> latency (s)
    shown: dict[int, float] = field(default_factory=dict)  # seq -> until the fragment came
    ready: threading.Event = field(default_factory=threading.Event)
    error: str = ""

    def run(self, stop: threading.Event) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
                s.sendall(b"GET /api/events HTTP/1.0\r\nHost: loadtest\r\n\r\n")
                buf = b""
                while not stop.is_set():
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    buf += chunk
                    batch: list[tuple[int, float]] = []
                    while b"\n\n" in buf:
                        block, buf = buf.split(b"\n\n", 1)
                        batch += self._message(block, time.time())
                    if self.pages and batch:
                        self._fragment()
                        now = time.time()
                        for seq, t in batch:
                            self.shown[seq] = now - t
        except OSError as err:
            self.error = str(err)
        finally:
            self.ready.set()

    def _message(self, block: bytes, now: float) -> list[tuple[int, float]]:
        """Record one SSE message; returns ``[(seq, published)]`` for changes."""
        out = []
        for line in block.split(b"\n"):
            if not line.startswith(b"data: "):
                continue
            msg = json.loads(line[6:])
            if msg["kind"] == "state":
                self.ready.set()
                continue
            seq = int(msg["id"].rpartition("-")[2])
            self.got[seq] = now - float(msg["t"])
            out.append((seq, float(msg["t"])))
        return out

    def _fragment(self) -> None:
        """What the page's script does after a change: one fetch of the table."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            s.sendall(b"GET /fragment/table HTTP/1.0\r\nHost: loadtest\r\n\r\n")
            while s.recv(65536):
                pass


def _status(pid: int) -> dict[str, int]:
    """VmRSS, VmHWM (peak) in kB and the thread count of a process (Linux)."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def _ms(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"median": None, "p95": None, "max": None}
    return {
        "median": round(statistics.median(values) * 1000, 2),
        "p95": round(percentile(values, 95) * 1000, 2),
        "max": round(max(values) * 1000, 2),
    }


def run(
    clients: int = 30, placements: int = 60, gap: float = 0.02, pages: bool = False
) -> dict[str, Any]:
    """Measure; returns the figures (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "web_ui.tools.loadtest",
                "--serve",
                str(Path(tmp) / "t.db"),
                "--threads",
                str(clients + 8),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert child.stdin is not None and child.stdout is not None
        try:
            port = int(child.stdout.readline().split()[1])
            idle = _status(child.pid)
            stop = threading.Event()
            readers = [Reader(port, pages) for _ in range(clients)]
            threads = [threading.Thread(target=r.run, args=(stop,), daemon=True) for r in readers]
            for th in threads:
                th.start()
            for r in readers:
                r.ready.wait(30)
            connected = sum(1 for r in readers if not r.error)
            during = _status(child.pid)
            started = time.monotonic()
            child.stdin.write(f"play {placements} {gap}\n")
            child.stdin.flush()
            _, _run, first, last = child.stdout.readline().split()
            played_s = time.monotonic() - started
            wanted = set(range(int(first) + 1, int(last) + 1))
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not all(wanted <= set(r.got) for r in readers):
                time.sleep(0.05)
            busy = _status(child.pid)
            stop.set()
            child.stdin.write("quit\n")
            child.stdin.flush()
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    latencies = [r.got[s] for r in readers for s in wanted if s in r.got]
    shown = [r.shown[s] for r in readers for s in wanted if s in r.shown]
    complete = sum(1 for r in readers if wanted <= set(r.got))
    return {
        "pages": pages,
        "clients": clients,
        "connected": connected,
        "events": len(wanted),
        "clients_with_every_event": complete,
        "deliveries": len(latencies),
        "played_s": round(played_s, 3),
        "latency_ms": _ms(latencies),
        "shown_ms": _ms(shown),
        "server": {
            "rss_kb_idle": idle["VmRSS"],
            "rss_kb_with_clients": during["VmRSS"],
            "rss_kb_after": busy["VmRSS"],
            "peak_kb": busy["VmHWM"],
            "threads": busy["Threads"],
        },
    }


def report(r: dict[str, Any]) -> str:
    lat, mem = r["latency_ms"], r["server"]
    return "\n".join(
        [
            f"{r['clients']} event-stream clients ({r['connected']} connected), "
            f"{r['events']} changes in {r['played_s']} s",
            f"every change reached {r['clients_with_every_event']}/{r['clients']} clients "
            f"({r['deliveries']} deliveries)",
            f"delivery latency: median {lat['median']} ms, p95 {lat['p95']} ms, "
            f"max {lat['max']} ms",
            *(
                [
                    f"until the page's table was fetched again: median "
                    f"{r['shown_ms']['median']} ms, p95 {r['shown_ms']['p95']} ms"
                ]
                if r["pages"]
                else []
            ),
            f"server memory: {mem['rss_kb_idle'] / 1024:.1f} MB idle, "
            f"{mem['rss_kb_with_clients'] / 1024:.1f} MB with the clients, "
            f"{mem['rss_kb_after'] / 1024:.1f} MB after, peak {mem['peak_kb'] / 1024:.1f} MB; "
            f"{mem['threads']} threads",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--placements", type=int, default=60)
    parser.add_argument("--gap", type=float, default=0.02, help="seconds between placements")
    parser.add_argument(
        "--pages", action="store_true", help="each client also re-fetches the page after a change"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=40, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(Path(args.serve), args.threads)
        return 0
    result = run(args.clients, args.placements, args.gap, args.pages)
    print(json.dumps(result) if args.json else report(result))
    return 0 if result["clients_with_every_event"] == result["clients"] else 1


if __name__ == "__main__":
    sys.exit(main())
