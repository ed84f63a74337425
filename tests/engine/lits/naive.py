"""The rules written out the slow, obvious way, to check the fast engine.

Nothing here uses bitboards or the engine's tables: cells are (row, col)
tuples, pieces are sets, and every rule is the rulebook sentence in code.
"""

from __future__ import annotations

from engine.shapes import Shape

DRAWINGS = {"L": "#./#./##", "I": "####", "T": "###/.#.", "S": ".##/##."}


def all_placements() -> set[tuple[str, frozenset[tuple[int, int]]]]:
    found = set()
    for letter, drawing in DRAWINGS.items():
        for shape in Shape.parse(drawing).orientations(mirror=True):
            for top in range(10):
                for left in range(10):
                    cells = frozenset((top + r, left + c) for r, c in shape.cells)
                    if all(0 <= r < 10 and 0 <= c < 10 for r, c in cells):
                        found.add((letter, cells))
    return found


ALL = all_placements()


def edge_neighbours(cells):
    out = set()
    for r, c in cells:
        out |= {(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)}
    return out - set(cells)


def legal(rows, supply=5):
    """Legal placements of a position text, as (letter, cells) pairs."""
    letter_at = {
        (r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "LITS"
    }
    covered = set(letter_at)
    pieces = {s: sum(1 for v in letter_at.values() if v == s) // 4 for s in "LITS"}
    result = set()
    for letter, cells in ALL:
        if cells & covered:
            continue  # a piece lies on free cells
        if pieces[letter] >= supply:
            continue  # the supply of that shape is used up
        around = edge_neighbours(cells)
        if covered and not around & covered:
            continue  # every piece after the first shares an edge with a piece
        if any(letter_at.get(cell) == letter for cell in around):
            continue  # no two pieces of the same shape share an edge
        after = covered | cells
        squares = [
            {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} for r in range(9) for c in range(9)
        ]
        if any(square <= after and square & cells for square in squares):
            continue  # the piece may not complete a fully covered 2x2 square
        result.add((letter, cells))
    return result
