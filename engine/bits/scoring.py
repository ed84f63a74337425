"""Scoring: colour blocks against task cards, per card, round and game.

A colour block is a maximal set of same-colour cells joined by edges; empty
and neutral cells belong to no block. A block scores a card's points when its
cells are exactly the card's shape (any rotation, mirror images per the
``mirror`` setting) and, if the card shows one, its colour. Pile-1 cards also
give ``fours`` points for every other block of exactly 4 cells.

>>> from engine.bits.board import Board
>>> from engine.bits.cards import parse_card
>>> board = Board.from_rows(["......", "......", "......", "......", "RR.BB.", "RR.BBB"])
>>> score = score_card(board, parse_card("square"))
>>> score.points, [b.why for b in score.blocks]
(2, ['shape'])
>>> winners([[6, 4], [5, 5]]), winners([[6, 4], [4, 6]])
(Standing(winners=(0,), tie_break='best_round'), Standing(winners=(0, 1), tie_break='shared'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.bits.bitboard import block_at, cells, normalised
from engine.bits.board import LAYER_CODES, Board
from engine.bits.data import Settings, load_settings

if TYPE_CHECKING:
    from engine.bits.cards import TaskCard

_COLOUR_LAYERS = tuple(enumerate(LAYER_CODES[:5]))  # the neutral layer is no colour


class Block(NamedTuple):
    """One colour block: its code and the bitboard of its cells."""

    code: str
    mask: int

    @property
    def size(self) -> int:
        return self.mask.bit_count()

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        return cells(self.mask)


def blocks(board: Board) -> list[Block]:
    """Every colour block, colour by colour (R Y B P K), each from its top-left."""
    found: list[Block] = []
    layers = board.layers
    for index, code in _COLOUR_LAYERS:
        rest = layers[index]
        while rest:
            block = block_at(rest, rest & -rest)
            found.append(Block(code, block))
            rest ^= block
    return found


@dataclass(frozen=True)
class ScoredBlock:
    """A block that earned points on a card: for the ``"shape"`` or as one of
    the pile-1 card's other ``"four"``-cell blocks."""

    code: str
    mask: int
    points: int
    why: str

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        return cells(self.mask)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "cells": [list(c) for c in self.cells],
            "points": self.points,
            "why": self.why,
        }


@dataclass(frozen=True)
class CardScore:
    card: TaskCard
    points: int
    blocks: tuple[ScoredBlock, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.card.name,
            "card": self.card.to_json(),
            "points": self.points,
            "blocks": [[list(c) for c in block.cells] for block in self.blocks],
            "scored": [block.to_json() for block in self.blocks],
        }


@dataclass(frozen=True)
class BoardScore:
    """A board scored against the task cards in play: the ``score --json``
    object (``{"total", "cards": [{"points", "blocks", ...}]}``)."""

    total: int
    cards: tuple[CardScore, ...]

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "cards": [card.to_json() for card in self.cards]}


def _card_score(found: Sequence[Block], card: TaskCard, settings: Settings) -> CardScore:
    keys = card.keys(settings.mirror)
    size = card.size
    colour = card.colour
    if card.pile == 3 and settings.pile3_ignores_colour:
        colour = None
    fours = card.fours
    scored: list[ScoredBlock] = []
    points = 0
    for code, mask in found:
        count = mask.bit_count()
        if count == size and (colour is None or code == colour) and normalised(mask) in keys:
            scored.append(ScoredBlock(code, mask, card.points, "shape"))
            points += card.points
        elif fours and count == 4:
            scored.append(ScoredBlock(code, mask, fours, "four"))
            points += fours
    return CardScore(card, points, tuple(scored))


def score_card(board: Board, card: TaskCard, settings: Settings | None = None) -> CardScore:
    """The points one card gives this board, with the blocks that earned them."""
    return _card_score(blocks(board), card, settings or load_settings())


def score_board(
    board: Board, cards: Sequence[TaskCard], settings: Settings | None = None
) -> BoardScore:
    """The board scored against every card in play (round n: n cards)."""
    found = blocks(board)
    settings = settings or load_settings()
    per_card = tuple(_card_score(found, card, settings) for card in cards)
    return BoardScore(sum(card.points for card in per_card), per_card)


class Standing(NamedTuple):
    """Who won: player indices, and how a tie on total was broken
    (``None`` no tie, ``"best_round"`` by the highest single round,
    ``"shared"`` a shared victory)."""

    winners: tuple[int, ...]
    tie_break: str | None


def winners(round_scores: Sequence[Sequence[int]]) -> Standing:
    """The winners from each player's round scores (rulebook: most points; on
    a tie the highest single round; then several winners)."""
    if not round_scores:
        return Standing((), None)
    totals = [sum(rounds) for rounds in round_scores]
    best = max(totals)
    tied = [i for i, total in enumerate(totals) if total == best]
    if len(tied) == 1:
        return Standing((tied[0],), None)
    top_round = {i: max(round_scores[i], default=0) for i in tied}
    highest = max(top_round.values())
    still = tuple(i for i in tied if top_round[i] == highest)
    return Standing(still, "best_round" if len(still) == 1 else "shared")


def solo_rank(total: int, settings: Settings | None = None) -> str:
    """The solo version's rank for a 3-round total.

    >>> solo_rank(31), solo_rank(30), solo_rank(5)
    ('master builder', 'structural engineer', 'clean-up crew')
    """
    ranks = (settings or load_settings()).solo_ranks
    for low, name in ranks:
        if total >= low:
            return name
    return ranks[-1][1]
