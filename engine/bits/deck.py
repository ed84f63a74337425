"""Seeded shuffles: the companion deals cards the same way every time a game
is replayed from its setup and actions.

>>> shuffled("ABCDE", 7, "round1:building") == shuffled("ABCDE", 7, "round1:building")
True
>>> sorted(shuffled("ABCDE", 7, "x"))
['A', 'B', 'C', 'D', 'E']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Iterable[T], seed: int, purpose: str) -> list[T]:
    """``items`` in an order fixed by ``seed`` and ``purpose`` (one stream per
    pile and round, so reshuffling one pile never changes another)."""
    found = list(items)
    # A str seed is hashed with SHA-512 by random, so the order is the same on
    # every machine and Python run (unlike hash()).
    random.Random(f"bits:{seed}:{purpose}").shuffle(found)
    return found
