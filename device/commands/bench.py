"""``tilewatch bench``: how fast the whole per-frame tracking path runs.

A seeded simulated game (hands, slides, a knocked camera now and then) is
rendered first at each frame size and kept as JPEG in memory; then every
frame is decoded (not timed) and handed to the camera tracker exactly as the
capture loop does: the stillness gate on a tiny patch, the light and view
checks when still, the colour reader on the few frames after a change, the
rules, the table's record (SQLite in a temporary folder) and one annotated
snapshot per second. The process is pinned to one CPU core.

Printed per size: frames per second (median over ``--repeats`` passes of
frames / tracking time), the median and 95th percentile time per frame, how
many frames were read by the colour reader, and the peak memory the
tracking allocated (``tracemalloc``) next to the process's peak RSS.

    tilewatch bench                      # 640x480 and 1280x720, 40 s at 30 fps
    tilewatch bench --sizes 640x480 --seconds 10 --json
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.cli import CliError, print_json
from device.sim.conditions import Conditions
from device.sources.base import Frame
from device.sources.simulated import SimulatedSource
from device.store import Store
from device.table import Table
from device.track.camera import CameraTracker
from device.track.loop import _snapshot
from device.track.scenarios import sim_game, table_setup

TARGET_FPS = 300.0  # at 640x480, on one core (issue 7)


def _sizes(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        w, sep, h = part.strip().lower().partition("x")
        if not sep or not w.isdigit() or not h.isdigit() or int(w) < 64 or int(h) < 48:
            raise CliError(f"--sizes is a list like 640x480,1280x720, not {text!r}")
        out.append((int(w), int(h)))
    return out


def _one_core() -> str:
    """Pin this process (and every thread it starts) to one CPU."""
    cv2.setNumThreads(1)
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"cpu {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity here)"


def render(game: str, seed: int, size: tuple[int, int], fps: float, seconds: float) -> list[Frame]:
    """The first ``seconds`` of a seeded game, frames as JPEG bytes in ``image``."""
    script = sim_game(game, seed)
    source = SimulatedSource(
        script, fps=fps, seed=seed, conditions=Conditions(seed=seed), size=size
    )
    frames = []
    while (frame := source.read()) is not None and frame.t <= seconds:
        ok, data = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        if not ok:
            raise CliError("could not encode a rendered frame")
        frames.append(Frame(_bytes_array(data), frame.t, frame.index))
    return frames


def _bytes_array(data: object) -> np.ndarray:
    """Encoded bytes kept as a flat uint8 array (what ``cv2.imdecode`` takes)."""
    return np.frombuffer(bytes(data), np.uint8)  # type: ignore[call-overload]


def track_pass(frames: list[Frame], game: str, setup: dict[str, Any]) -> dict[str, Any]:
    """Track every frame once; per-frame times exclude JPEG decoding."""
    with tempfile.TemporaryDirectory(prefix="tilewatch-bench-") as folder:
        table = Table(Store(Path(folder) / "bench.sqlite"), pin="0000")
        table.new_game(game, setup, source="demo")
        tracker = CameraTracker(table)
        times = []
        next_snapshot = 0.0
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        for stored in frames:
            image = cv2.imdecode(stored.image, cv2.IMREAD_COLOR)
            if image is None:
                raise CliError("a rendered frame did not decode")
            frame = Frame(image, stored.t, stored.index)
            start = time.perf_counter()
            tracker.process(frame)
            if frame.t >= next_snapshot:
                next_snapshot = frame.t + 1.0
                jpeg = _snapshot(frame, tracker)
                if jpeg is not None:
                    table.set_snapshot(jpeg, frame.t)
            times.append(time.perf_counter() - start)
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        reads = sum(w.reads for w in tracker.watches)
        locates = sum(w.locates for w in tracker.watches)
        placed = len(table.game.actions) if table.game is not None else 0
        tracker.close()
        table.close()
        table.store.close()
    return {
        "times": times,
        "peak_traced_bytes": peak,
        "reads": reads,
        "locates": locates,
        "actions": placed,
    }


def bench_size(args: argparse.Namespace, size: tuple[int, int]) -> dict[str, Any]:
    frames = render(args.game, args.seed, size, args.fps, args.seconds)
    if not frames:
        raise CliError("no frames rendered")
    game, setup = table_setup(sim_game(args.game, args.seed))
    passes = [track_pass(frames, game, setup) for _ in range(args.repeats)]
    fps = [len(p["times"]) / sum(p["times"]) for p in passes]
    all_times = [t for p in passes for t in p["times"]]
    return {
        "size": f"{size[0]}x{size[1]}",
        "frames": len(frames),
        "stream_s": round(frames[-1].t, 2),
        "fps_median": round(statistics.median(fps), 1),
        "fps_passes": [round(v, 1) for v in fps],
        "ms_per_frame_median": round(1e3 * statistics.median(all_times), 3),
        "ms_per_frame_p95": round(1e3 * float(np.percentile(all_times, 95)), 3),
        "ms_per_frame_max": round(1e3 * max(all_times), 1),
        "colour_reads": passes[0]["reads"],
        "grid_searches": passes[0]["locates"],
        "actions_recorded": passes[0]["actions"],
        "peak_traced_mib": round(max(p["peak_traced_bytes"] for p in passes) / 2**20, 2),
    }


def run(args: argparse.Namespace) -> int:
    if args.fps <= 0 or args.seconds <= 0 or args.repeats < 1:
        raise CliError("--fps, --seconds and --repeats must be positive")
    sizes = _sizes(args.sizes)
    pinned = _one_core()
    results = [bench_size(args, size) for size in sizes]
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {
        "game": args.game,
        "seed": args.seed,
        "fps_rendered": args.fps,
        "core": pinned,
        "target_fps_640x480": TARGET_FPS,
        "results": results,
        "peak_rss_mib": round(rss_mib, 1),
    }
    if args.json:
        print_json(out)
        return 0
    print(
        f"tracking a simulated {args.game} game (seed {args.seed}), {args.fps:g} fps,"
        f" one core ({pinned})"
    )
    print(
        f"{'size':>10} {'frames':>7} {'fps (median)':>13} {'ms/frame med':>13}"
        f" {'p95':>7} {'reads':>6} {'peak MiB':>9}"
    )
    for r in results:
        print(
            f"{r['size']:>10} {r['frames']:>7} {r['fps_median']:>13.1f}"
            f" {r['ms_per_frame_median']:>13.3f} {r['ms_per_frame_p95']:>7.2f}"
            f" {r['colour_reads']:>6} {r['peak_traced_mib']:>9.2f}"
        )
    print(f"peak RSS of the whole run (rendered frames kept as JPEG included): {rss_mib:.0f} MiB")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench",
        help="frames per second and memory of the whole per-frame tracking path",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("--sizes", default="640x480,1280x720", help="frame sizes, comma-separated")
    p.add_argument("--game", choices=("bits", "lits"), default="bits")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--fps", type=float, default=30.0, help="camera frame rate simulated")
    p.add_argument("--seconds", type=float, default=40.0, help="stream seconds per size")
    p.add_argument("--repeats", type=int, default=3, help="timed passes per size")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)
