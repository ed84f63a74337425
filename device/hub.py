"""Fan-out of table changes to every listener (phones over SSE, the tracker).

Every change is a :class:`Message` with an id. Ids look like ``"3f9a1c-42"``:
the hub's run token (new each time the service starts) and a sequence number.
A phone that reconnects sends the last id it saw (SSE ``Last-Event-ID``) and
gets exactly the messages it missed, from a ring of recent ones; when that is
not possible (the service restarted, or it was away too long) it is told to
*resync*: fetch the whole state once, then follow again.

All listeners wait on one condition and read from the shared ring, so a
message costs the same memory for 1 phone or 30, and a slow phone never
holds up the others::

    hub = Hub()
    sub = hub.subscribe(last_event_id=None)
    hub.publish("game", {"events": [...]})
    sub.next(timeout=1.0)       # -> [Message(seq=1, kind='game', ...)]
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any


class HubClosed(Exception):
    """The service is stopping; listeners should end their streams."""


@dataclass(frozen=True)
class Message:
    run: str
    seq: int
    kind: str  # 'game', 'camera', 'alert', 'calibration', 'correction', ...
    data: dict[str, Any]
    t: float  # unix seconds when published

    @property
    def id(self) -> str:
        return f"{self.run}-{self.seq}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "t": self.t, "data": self.data}


class Hub:
    def __init__(self, keep: int = 1000) -> None:
        self.run = secrets.token_hex(4)
        self._ring: deque[Message] = deque(maxlen=keep)
        self._seq = 0
        self._cond = threading.Condition()
        self._closed = False

    @property
    def seq(self) -> int:
        """The sequence number of the latest message (0 before any)."""
        return self._seq

    @property
    def closed(self) -> bool:
        return self._closed

    def publish(self, kind: str, data: dict[str, Any]) -> Message:
        with self._cond:
            self._seq += 1
            msg = Message(self.run, self._seq, kind, data, time.time())
            self._ring.append(msg)
            self._cond.notify_all()
        return msg

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def subscribe(self, last_event_id: str | None = None) -> Subscription:
        return Subscription(self, last_event_id)

    def _after(self, seq: int) -> list[Message] | None:
        """Messages after ``seq``; None when some were already dropped from the ring."""
        if not self._ring or seq >= self._seq:
            return []
        oldest = self._ring[0].seq
        if seq + 1 < oldest:
            return None
        return [m for m in self._ring if m.seq > seq]

    def _wait(self, seq: int, timeout: float) -> list[Message] | None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._closed and self._seq <= seq:
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._cond.wait(left)
            if self._closed:
                raise HubClosed
            return self._after(seq)


class Subscription:
    """One listener's place in the stream.

    ``resync`` is True when the listener must fetch the full state before
    following (no id given, an id from an earlier run, or too far behind).
    """

    def __init__(self, hub: Hub, last_event_id: str | None) -> None:
        self._hub = hub
        self.resync = True
        with hub._cond:
            self.seq = hub.seq
            parsed = _parse_id(last_event_id)
            if (
                parsed is not None
                and parsed[0] == hub.run
                and parsed[1] <= hub.seq
                and hub._after(parsed[1]) is not None
            ):
                self.seq = parsed[1]
                self.resync = False

    def next(self, timeout: float) -> list[Message]:
        """The messages since the last call, waiting up to ``timeout`` seconds
        for one. Sets ``resync`` (and skips ahead) if this listener fell so
        far behind that messages were lost. Raises :class:`HubClosed`."""
        got = self._hub._wait(self.seq, timeout)
        if got is None:
            self.resync = True
            self.seq = self._hub.seq
            return []
        if got:
            self.seq = got[-1].seq
        return got


def _parse_id(text: str | None) -> tuple[str, int] | None:
    """``"3f9a1c-42"`` -> ``("3f9a1c", 42)``; anything else -> None.

    >>> _parse_id("3f9a1c-42"), _parse_id("junk"), _parse_id(None)
    (('3f9a1c', 42), None, None)
    """
    if not text or len(text) > 64:
        return None
    run, _, seq = text.strip().rpartition("-")
    if not run or not seq.isdigit():
        return None
    return run, int(seq)
