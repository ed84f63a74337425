"""Who wins a finished game.

Each player counts their own uncovered symbols; more wins; a tie goes to the
player who placed the last piece (the rulebook: draws are not possible).

>>> winner({"X": 17, "O": 15}, last="O")
('X', 'X 17, O 15: X has more symbols showing.')
>>> winner({"X": 15, "O": 15}, last="O")
('O', 'X 15, O 15, a tie: O placed the last piece and wins the tie.')
"""

from __future__ import annotations


def winner(score: dict[str, int], last: str | None) -> tuple[str | None, str]:
    """The winning symbol and why. ``last`` is the symbol of the player who
    placed the last piece; on a tie without it the winner is ``None``."""
    x, o = score["X"], score["O"]
    said = f"X {x}, O {o}"
    if x != o:
        won = "X" if x > o else "O"
        return won, f"{said}: {won} has more symbols showing."
    if last is None:
        return None, f"{said}, a tie: it goes to whoever placed the last piece."
    return last, f"{said}, a tie: {last} placed the last piece and wins the tie."
