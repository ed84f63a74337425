"""The board text contract (DESIGN.md): one line per row, top row first, one
character per cell. Shared by both games, the CLI and the camera reader.

>>> parse_board_text("R.\\n..", rows=2, cols=2, alphabet="RYBPKN.?")
('R.', '..')
"""

from __future__ import annotations


class BoardTextError(ValueError):
    """Board text that does not fit the contract; the message says where."""


def parse_board_text(
    text: str, rows: int, cols: int, alphabet: str, name: str = "board"
) -> tuple[str, ...]:
    """Check and split board text. Blank lines and trailing spaces are ignored,
    so files written by hand on any editor read the same."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) != rows:
        raise BoardTextError(f"{name}: expected {rows} rows of {cols} cells, got {len(lines)} rows")
    for r, line in enumerate(lines, start=1):
        if len(line) != cols:
            raise BoardTextError(f"{name}: row {r} has {len(line)} cells, expected {cols}")
        for c, ch in enumerate(line, start=1):
            if ch not in alphabet:
                raise BoardTextError(
                    f"{name}: row {r}, column {c} has {ch!r}; allowed: {' '.join(alphabet)}"
                )
    return tuple(lines)


def format_board_text(rows: tuple[str, ...] | list[str]) -> str:
    return "\n".join(rows)
