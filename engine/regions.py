"""Edge-connected regions of equal cells on a character grid.

BITS colour blocks and LITS pieces are both "a maximal set of same-code cells
joined by edges" (diagonal contact does not join).

>>> [(code, sorted(cells)) for code, cells in regions(("RR.", ".R.", "..B"), "RB")]
[('R', [(0, 0), (0, 1), (1, 1)]), ('B', [(2, 2)])]
"""

from __future__ import annotations

from collections.abc import Container, Sequence

Cell = tuple[int, int]


def regions(rows: Sequence[str], codes: Container[str]) -> list[tuple[str, frozenset[Cell]]]:
    """Every maximal edge-connected region of one code, for codes in ``codes``,
    in reading order of each region's first cell."""
    height = len(rows)
    width = len(rows[0]) if height else 0
    seen: set[Cell] = set()
    found: list[tuple[str, frozenset[Cell]]] = []
    for r in range(height):
        for c in range(width):
            code = rows[r][c]
            if (r, c) in seen or code not in codes:
                continue
            cells = {(r, c)}
            todo = [(r, c)]
            seen.add((r, c))
            while todo:
                y, x = todo.pop()
                for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if (
                        0 <= ny < height
                        and 0 <= nx < width
                        and (ny, nx) not in seen
                        and rows[ny][nx] == code
                    ):
                        seen.add((ny, nx))
                        cells.add((ny, nx))
                        todo.append((ny, nx))
            found.append((code, frozenset(cells)))
    return found
