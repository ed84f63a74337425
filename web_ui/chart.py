"""The score chart across rounds: one line per player through the running
totals, drawn by the template as SVG (no charting library, nothing to load).

>>> c = rounds_chart(["Ann", "Bo"], [[4, 6], [2, 9]])
>>> c["max"], [s["totals"] for s in c["series"]]
(11, [[0, 4, 10], [0, 2, 11]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 12, 26


def rounds_chart(names: Sequence[str], rounds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Coordinates for a chart of running totals after each round (round 0 =
    the start, 0 points). Empty when no round has ended."""
    played = max((len(r) for r in rounds), default=0)
    totals = []
    for scores in rounds:
        run, acc = [0], 0
        for s in scores:
            acc += int(s)
            run.append(acc)
        totals.append(run)
    flat = [v for run in totals for v in run] or [0]
    low, high = min(0, *flat), max(1, *flat)
    span = high - low
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(1, played)

    def y(v: int) -> float:
        return TOP + plot_h * (high - v) / span

    series = [
        {
            "name": name,
            "totals": run,
            "points": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(run)),
            "dots": [(round(x(i), 1), round(y(v), 1), v) for i, v in enumerate(run)],
        }
        for name, run in zip(names, totals, strict=False)
    ]
    ticks = sorted({low, 0, high, (low + high) // 2})
    return {
        "played": played,
        "width": WIDTH,
        "height": HEIGHT,
        "max": high,
        "series": series,
        "x_ticks": [(round(x(i), 1), i) for i in range(played + 1)],
        "y_ticks": [(round(y(v), 1), v) for v in ticks],
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
    }
