"""Errors shared by every game engine."""

from __future__ import annotations


class ActionError(ValueError):
    """An action a game cannot take: malformed, or not allowed at this moment.

    Raised by ``Game.apply`` before anything changes, so the game state stays
    exactly as it was; the message says what was wrong, for the caller to show.
    """
