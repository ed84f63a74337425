"""Give freed memory back to the system now and then.

A night of tracking allocates and frees many short-lived frame-sized numpy
arrays from several threads. glibc keeps freed chunks in its arenas for
reuse, so the process's resident memory wobbles up with each burst (a new
game, a calibration, a burst of phone requests) and comes down only when the
top of a heap happens to be free. ``malloc_trim(0)`` returns every free page
to the kernel: on a 1 GB Pi that is the difference between a flat line and
a slow creep in ``top``. Elsewhere (musl, macOS) it is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

# How often the housekeeping thread trims (seconds): cheap (a few ms on a
# 200 MB heap), and memory given back a minute late costs nothing.
TRIM_EVERY_S = 60.0


def _load_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        fn = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None  # not glibc
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


_TRIM = _load_trim()


def trim() -> bool:
    """Return free heap pages to the system; True if the C library can."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def keep_trimmed(stop: threading.Event, every_s: float = TRIM_EVERY_S) -> threading.Thread:
    """Start a daemon thread that trims every ``every_s`` seconds until ``stop`` is set."""

    def run() -> None:
        while not stop.wait(every_s):
            try:
                trim()
            except Exception:  # never let housekeeping take the service down
                log.exception("malloc_trim failed")

    thread = threading.Thread(target=run, name="memory-trim", daemon=True)
    thread.start()
    return thread
