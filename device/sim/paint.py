"""The simulator's paint: nominal piece and board colours from ``paint.toml``.

Colours come back as BGR ``uint8`` triples (OpenCV order), ready to draw.

>>> paint = load_paint()
>>> paint.piece("bits", "R")
(46, 38, 196)
>>> sorted(paint.board_variants("lits"))
['cream', 'night', 'print']
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

BGR = tuple[int, int, int]


def hex_to_bgr(text: str) -> BGR:
    """``"#rrggbb"`` -> ``(b, g, r)``."""
    value = text.strip().lstrip("#")
    if len(value) != 6:
        raise ValueError(f"colour {text!r} is not #rrggbb")
    r, g, b = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


@dataclass(frozen=True)
class Paint:
    data: dict[str, Any]

    def piece(self, game: str, code: str) -> BGR:
        """The colour of a BITS tile half (``R Y B P K N``) or a LITS piece (``L I T S``)."""
        table = self.data["bits"]["tiles"] if game == "bits" else self.data["lits"]["pieces"]
        try:
            return hex_to_bgr(table[code])
        except KeyError:
            raise KeyError(f"no {game} paint for cell code {code!r}") from None

    def board(self, game: str, variant: str) -> dict[str, BGR]:
        try:
            entry = self.data["boards"][game][variant]
        except KeyError:
            raise KeyError(f"no {game} board art called {variant!r}") from None
        return {name: hex_to_bgr(value) for name, value in entry.items()}

    def board_variants(self, game: str) -> list[str]:
        return list(self.data["boards"][game])

    def table(self, variant: str) -> BGR:
        return hex_to_bgr(self.data["tables"][variant])

    def table_variants(self) -> list[str]:
        return list(self.data["tables"])

    def skin_tones(self) -> list[BGR]:
        return [hex_to_bgr(v) for v in self.data["skin"]["tones"]]

    def sleeves(self) -> list[BGR]:
        return [hex_to_bgr(v) for v in self.data["sleeves"]["colours"]]


@cache
def load_paint() -> Paint:
    text = resources.files(__package__).joinpath("paint.toml").read_text(encoding="utf-8")
    return Paint(tomllib.loads(text))
