"""Live data: server-sent events, the camera snapshot and the MJPEG stream.

``GET /api/events`` is an SSE stream of every table change. Each event is
a default ``message`` whose data is ``{"id", "kind", "t", "data"}`` and whose
SSE id is the change id, so a phone that drops off and reconnects
(``Last-Event-ID``, sent by EventSource itself) gets what it missed. A new
listener, or one whose id is too old, first receives a ``state`` message
with the whole table (``Table.state()``). A comment line every 15 s keeps
idle connections (and the proxies between) open and notices phones that
left.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from device.hub import HubClosed
from web_ui.errors import ApiError
from web_ui.service import table

bp = Blueprint("stream", __name__)


def sse(data: dict[str, Any], event_id: str | None = None) -> str:
    lines = []
    if event_id:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


@bp.get("/api/events")
def events() -> Response:
    t = table()
    last = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    sub = t.subscribe(last)

    def stream() -> Iterator[str]:
        yield "retry: 2000\n\n"
        try:
            while True:
                if sub.resync:
                    sub.resync = False
                    state = t.state()
                    yield sse(
                        {"id": state["version"], "kind": "state", "data": state},
                        state["version"],
                    )
                msgs = sub.next(timeout=heartbeat)
                if not msgs and not sub.resync:
                    yield ": still here\n\n"
                for m in msgs:
                    yield sse(m.to_json(), m.id)
        except HubClosed:
            return

    return Response(
        stream(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@bp.get("/api/camera.jpg")
def snapshot() -> Response:
    snap = table().snapshot()
    if snap is None:
        raise ApiError(404, "no_snapshot", "the camera has not sent a picture yet")
    jpeg, t, n = snap
    return Response(
        jpeg,
        mimetype="image/jpeg",
        headers={"Cache-Control": "no-store", "X-Snapshot": str(n), "X-Snapshot-Time": str(t)},
    )


@bp.get("/api/calibration.jpg")
def calibration_image() -> Response:
    jpeg = table().calibration_image()
    if jpeg is None:
        raise ApiError(404, "no_snapshot", "no calibration picture yet")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


class Viewers:
    """Counts live MJPEG viewers; each holds a server thread."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._lock = threading.Lock()

    def enter(self) -> None:
        with self._lock:
            if self.count >= self.limit:
                raise ApiError(
                    503, "too_many_viewers", "too many live camera viewers; use the snapshot"
                )
            self.count += 1

    def leave(self) -> None:
        with self._lock:
            self.count -= 1


class _Closing:
    """An iterable response body that runs ``on_close`` exactly once, even
    when the client left before the first byte (a generator's ``finally``
    would not run then)."""

    def __init__(self, body: Iterator[bytes], on_close: Any) -> None:
        self._body, self._on_close, self._done = body, on_close, False

    def __iter__(self) -> Iterator[bytes]:
        return self._body

    def close(self) -> None:
        if not self._done:
            self._done = True
            self._body.close()  # type: ignore[attr-defined]
            self._on_close()


@bp.get("/api/camera.mjpg")
def mjpeg() -> Response:
    """The camera as MJPEG (``multipart/x-mixed-replace``), at most
    ``MJPEG_FPS`` pictures a second, for a few viewers at once (phones
    otherwise refresh the snapshot)."""
    viewers: Viewers = current_app.extensions.setdefault(
        "mjpeg_viewers", Viewers(int(current_app.config["MJPEG_MAX_CLIENTS"]))
    )
    viewers.enter()
    t = table()
    gap = 1.0 / float(current_app.config["MJPEG_FPS"])

    def stream() -> Iterator[bytes]:
        seen = 0
        while not t.closing:
            snap = t.wait_snapshot(seen, timeout=15.0)
            if snap is None:
                continue
            jpeg, _, seen = snap
            yield (
                b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                + str(len(jpeg)).encode()
                + b"\r\n\r\n"
                + jpeg
                + b"\r\n"
            )
            t.pause(gap)

    return Response(
        _Closing(stream(), viewers.leave),
        mimetype="multipart/x-mixed-replace; boundary=frame",
        headers={"Cache-Control": "no-store"},
    )
