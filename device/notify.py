"""systemd's notify protocol (``sd_notify``), without a dependency.

Under ``Type=notify`` systemd passes a datagram socket in ``NOTIFY_SOCKET``;
the service sends ``READY=1`` once it can really serve (camera and HTTP up),
``WATCHDOG=1`` at least every half ``WatchdogSec`` from the capture loop (so
a hung camera gets the service restarted), and ``STATUS=...`` lines that
``systemctl status`` shows. Outside systemd every call is a no-op.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    """Sends notify messages to ``NOTIFY_SOCKET`` (if set)."""

    def __init__(self, address: str | None = None) -> None:
        address = address if address is not None else os.environ.get("NOTIFY_SOCKET")
        self.address: str | None = None
        if address:
            # A leading "@" names a socket in the Linux abstract namespace.
            self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = os.environ.get("WATCHDOG_USEC", "")
        pid = os.environ.get("WATCHDOG_PID", "")
        enabled = usec.isdigit() and (not pid or pid == str(os.getpid()))
        self.watchdog_interval: float | None = int(usec) / 2e6 if enabled else None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *lines: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; False if not under systemd
        or the socket is gone (never raises: a notify failure must not stop
        the game)."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self.address)
                # Never block the capture loop on a receiver that is not
                # reading: a dropped ping is better than a stalled referee.
                sock.send("\n".join(lines).encode(), socket.MSG_DONTWAIT)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
