"""Freed memory goes back to the system (glibc's malloc_trim)."""

from __future__ import annotations

import threading

import numpy as np

from device.memory import keep_trimmed, trim
from device.soak import rss_mb


def test_trim_gives_freed_heap_back():
    # Many chunks below glibc's mmap threshold live on the heap; after they
    # are freed (all but a last one that pins the heap's top) glibc keeps the
    # pages until trimmed.
    chunks = [np.ones(12_000) for _ in range(1600)]  # ~96 kB each, ~150 MB
    pin = np.ones(12_000)
    del chunks
    before = rss_mb()
    assert trim() is True  # Debian and Raspberry Pi OS use glibc
    after = rss_mb()
    assert after < before - 100, (before, after)  # 150 MB were free
    del pin


def test_housekeeping_thread_stops_with_the_service():
    stop = threading.Event()
    thread = keep_trimmed(stop, every_s=0.01)
    assert thread.daemon and thread.is_alive()
    stop.set()
    thread.join(timeout=2)
    assert not thread.is_alive()
