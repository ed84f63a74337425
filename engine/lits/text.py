"""Position text: 10 lines where covered cells show the piece letter (``L``
``I`` ``T`` ``S``) and uncovered cells their printed symbol (``X`` ``O`` ``.``).

>>> read_rows(["X........."] * 10)[0]
'X.........'
>>> read_rows("L?" + "." * 8 + "\\n" + "..........\\n" * 9)
Traceback (most recent call last):
...
engine.boardtext.BoardTextError: position: row 1, column 2 has '?'; allowed: L I T S X O .
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.boardtext import BoardTextError, parse_board_text
from engine.lits.bitboard import SIZE

POSITION_CODES = "LITSXO."


def read_rows(text: str | Sequence[str], name: str = "position") -> tuple[str, ...]:
    """Check position text (one string, or a list of row strings) and split
    it into 10 rows; :class:`engine.boardtext.BoardTextError` says where not."""
    if not isinstance(text, str):
        if not all(isinstance(row, str) for row in text):
            raise BoardTextError(f"{name}: rows must be strings")
        text = "\n".join(text)
    return parse_board_text(text, SIZE, SIZE, POSITION_CODES, name=name)
