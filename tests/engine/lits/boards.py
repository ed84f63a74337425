"""Small helpers to write boards in tests."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "lits"


def rows(text: str) -> list[str]:
    """A board drawn in a test as a block of 10 lines."""
    lines = [line.strip() for line in text.strip().splitlines()]
    assert len(lines) == 10 and all(len(line) == 10 for line in lines), lines
    return lines


def example(name: str) -> list[str]:
    return rows((EXAMPLES / name).read_text())


BLANK = ["." * 10] * 10
