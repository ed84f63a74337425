"""A soak run: the demo at full speed for many minutes of stream time,
sampling the process's memory, threads and open files, which must stay flat
through game after game (a leak shows as a steady climb).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from device.appliance import Appliance
from device.config import load_config_text
from device.demo import DemoGames


@dataclass
class Sample:
    stream_s: float
    wall_s: float
    rss_mb: float
    threads: int
    open_files: int
    games: int


def rss_mb() -> float:
    """Resident memory of this process now (not the peak), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover - not Linux


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def soak(
    minutes: float, game: str = "bits", every_s: float = 30.0, fps: float = 15.0
) -> list[Sample]:
    """Run the demo until ``minutes`` of stream time have been tracked;
    sample every ``every_s`` stream seconds."""
    samples: list[Sample] = []
    with tempfile.TemporaryDirectory(prefix="tilewatch-soak-") as state:
        cfg = load_config_text(
            f'[server]\nhost = "127.0.0.1"\nport = 0\n'
            f'[storage]\npath = "{state}/soak.sqlite"\n'
            f'[calibration]\nprofile = "{state}/profile.toml"\n'
        )
        demo = DemoGames(table=None, game=game, realtime=False, fps=fps)
        app = Appliance(cfg, demo=demo)
        # The soak plays several times faster than real time: trim on the same
        # stream-time cadence the service keeps in wall time (about a minute).
        app.trim_every_s = 10.0
        start = time.monotonic()
        app.start()
        try:
            next_at = 0.0
            while True:
                stream_s = app.frames / fps
                if stream_s >= next_at:
                    samples.append(
                        Sample(
                            round(stream_s, 1),
                            round(time.monotonic() - start, 1),
                            round(rss_mb(), 1),
                            threading.active_count(),
                            open_files(),
                            demo.played,
                        )
                    )
                    next_at += every_s
                if stream_s >= minutes * 60:
                    break
                time.sleep(0.05)
        finally:
            app.stop()
    return samples


# Stream seconds before memory is judged: the first frames fill caches
# (rendered boards, OpenCV's buffers, the page's first drawings).
WARMUP_S = 15.0


def _slope(xs: list[float], ys: list[float]) -> float:
    if len(xs) < 2:
        return 0.0
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0


def summary(samples: list[Sample]) -> dict[str, Any]:
    """Growth from the first sample after warm-up to the end: what "flat"
    is judged on."""
    warm = next((s for s in samples if s.stream_s >= WARMUP_S), samples[-1])
    last = samples[-1]
    after = [s for s in samples if s.stream_s >= warm.stream_s]
    rss = [s.rss_mb for s in after]
    return {
        "stream_minutes": round(last.stream_s / 60, 2),
        "wall_seconds": last.wall_s,
        "games": last.games,
        "rss_mb": {
            "after_warmup": warm.rss_mb,
            "end": last.rss_mb,
            "growth": round(last.rss_mb - warm.rss_mb, 1),
            "min": min(rss),
            "max": max(rss),
            # Least-squares trend after warm-up: a leak is a steady slope,
            # while each new game's caches only make it wobble.
            "trend_mb_per_hour": round(_slope([s.stream_s for s in after], rss) * 3600, 1),
        },
        "threads": {
            "after_warmup": warm.threads,
            "end": last.threads,
            "max": max(s.threads for s in samples),
        },
        "open_files": {"after_warmup": warm.open_files, "end": last.open_files},
        "samples": [asdict(s) for s in samples],
    }
