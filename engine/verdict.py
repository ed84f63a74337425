"""The judging vocabulary shared by every game.

A :class:`Verdict` answers "was this placement legal?" with a stable reason
code (for programs and tests), a sentence a player understands (for the
phones), and the cells involved (to highlight on the board).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str = "ok"
    message: str = "Legal placement."
    cells: tuple[Cell, ...] = field(default_factory=tuple)

    @classmethod
    def ok(cls, cells: tuple[Cell, ...] = (), message: str = "Legal placement.") -> Verdict:
        return cls(True, "ok", message, tuple(sorted(cells)))

    @classmethod
    def illegal(cls, reason: str, message: str, cells: tuple[Cell, ...] = ()) -> Verdict:
        return cls(False, reason, message, tuple(sorted(cells)))

    def __bool__(self) -> bool:
        return self.legal

    def to_json(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "reason": self.reason,
            "message": self.message,
            "cells": [list(c) for c in self.cells],
        }
