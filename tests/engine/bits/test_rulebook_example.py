"""The rulebook's scoring example, rebuilt as a board.

The English rulebook (../shared/seeds, "Scoring Example") describes a figure
we do not have; its text and the Traditional Chinese translation pin down
every block, and ``examples/bits/rulebook-example.txt`` is built from them:

* Task card 1 (pile 1, 2x2 square): "The two squares are worth 2 points each.
  The blue and purple 4-square blocks are worth another 1 point each. The
  yellow block (top right) earns no points as it consists of more than 4
  squares" (Chinese: a yellow *5*-square block). -> a red and a black square,
  a blue and a purple non-square 4-block, a yellow 5-block in the top right,
  and no other 4-block.
* Task card 2 (pile 2, a blue shape): "The specified blue block was formed
  once ... The blue block indirectly below it only adjoins diagonally (Chinese:
  the blue cell to the lower right) ... The blue block on the bottom left
  consists of 4 squares and does not count (even if it contains the shape)".
  The shape has 3 cells: a blue 2-cell block would be a second 2-cell block
  for card 3, which finds only one. We use the L-tromino (the Chinese calls it
  a "special shape"); the bottom-left blue 4-block is an L that contains it.
* Task card 3 (pile 3, 2-cell block, -2): "exactly one 2-square solid-color
  block" (Chinese: two purple squares). "Thanks to the neutral tile, the
  player has avoided the 2 further negative points he would have earned by
  laying the black and red tile, as this would have resulted in a further
  2-square block (black)." -> the neutral tile lies next to a lone black cell,
  and the red-black tile is not on the board.

Every other block is a single cell, so it scores on none of the cards.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bits import (
    NEUTRAL_TILE,
    Board,
    Tile,
    blocks,
    build_order,
    load_tileset,
    parse_card,
    score_board,
)
from engine.shapes import Shape

SQUARE, BLUE_CORNER, PAIR = "square", "blue-corner", "pair"


@pytest.fixture(scope="module")
def board(repo_root):
    return Board.from_text((repo_root / "examples/bits/rulebook-example.txt").read_text())


def _joined(group):
    try:
        Shape.of(group)
    except ValueError:
        return False
    return True


def cells(*pairs):
    return {tuple(p) for p in pairs}


def scored(card_score, why):
    return [(b.code, set(b.cells)) for b in card_score.blocks if b.why == why]


def test_the_three_cards_score_6_2_and_minus_2(board):
    score = score_board(board, [parse_card(SQUARE), parse_card(BLUE_CORNER), parse_card(PAIR)])
    assert [card.points for card in score.cards] == [6, 2, -2]
    assert score.total == 6  # "a total of 6 points (6+2-2)"


def test_card_1_two_squares_and_the_blue_and_purple_four_blocks(board):
    card = score_board(board, [parse_card(SQUARE)]).cards[0]
    red_square = cells((3, 1), (3, 2), (4, 1), (4, 2))
    black_square = cells((4, 4), (4, 5), (5, 4), (5, 5))
    assert sorted(scored(card, "shape")) == sorted([("R", red_square), ("K", black_square)])
    blue_l = cells((4, 0), (5, 0), (5, 1), (5, 2))  # bottom left
    purple_t = cells((1, 5), (2, 4), (2, 5), (3, 5))
    assert sorted(scored(card, "four")) == sorted([("B", blue_l), ("P", purple_t)])
    assert all(b.points == 2 for b in card.blocks if b.why == "shape")
    assert all(b.points == 1 for b in card.blocks if b.why == "four")


def test_card_1_the_yellow_five_block_top_right_scores_nothing(board):
    yellow = [b for b in blocks(board) if b.code == "Y" and b.size > 1]
    assert [set(b.cells) for b in yellow] == [cells((0, 3), (0, 4), (0, 5), (1, 3), (1, 4))]
    card = score_board(board, [parse_card(SQUARE)]).cards[0]
    assert all(b.code != "Y" for b in card.blocks)


def test_card_2_one_blue_corner_the_diagonal_and_the_bigger_block_do_not_count(board):
    card = score_board(board, [parse_card(BLUE_CORNER)]).cards[0]
    corner = cells((1, 2), (2, 2), (2, 3))
    assert scored(card, "shape") == [("B", corner)]
    # The blue cell to the lower right only touches the corner diagonally.
    lone_blue = [set(b.cells) for b in blocks(board) if b.code == "B" and b.size == 1]
    assert lone_blue == [{(3, 4)}]
    assert (2, 3) in corner  # (3, 4) is its lower-right diagonal neighbour
    # The bottom-left blue 4-block contains the corner shape but is bigger.
    bottom_left = cells((4, 0), (5, 0), (5, 1), (5, 2))
    assert any(
        Shape.of(bottom_left - {cell}).same_as(parse_card(BLUE_CORNER).shape)
        for cell in bottom_left
        if len(bottom_left - {cell}) == 3 and _joined(bottom_left - {cell})
    )
    assert all(set(b.cells) != bottom_left for b in card.blocks)


def test_card_3_the_one_purple_pair(board):
    card = score_board(board, [parse_card(PAIR)]).cards[0]
    assert scored(card, "shape") == [("P", cells((4, 3), (5, 3)))]


def test_the_neutral_tile_saved_two_points(board):
    """Dropping the red-black tile where the neutral lies makes a black pair."""
    rows = [list(row) for row in board.rows()]
    assert rows[1][0] == rows[1][1] == "N" and rows[2][0] == "K"
    rows[1][0], rows[1][1] = "K", "R"
    without_neutral = Board.from_rows(["".join(row) for row in rows])
    card = score_board(without_neutral, [parse_card(PAIR)]).cards[0]
    assert card.points == -4
    assert ("K", cells((1, 0), (2, 0))) in scored(card, "shape")


def test_the_board_can_be_built_by_legal_drops_from_one_players_tiles(board):
    """20 game tiles minus red-black (the neutral replaced it), the neutral
    tile, and a starting tile first: the example is a real position."""
    tileset = load_tileset()
    tiles = [*tileset.game_tiles, NEUTRAL_TILE]
    tiles.remove(Tile("RK"))
    order = build_order(board, tiles, first=tileset.starting_tiles)
    assert order is not None
    assert order[0].tile in tileset.starting_tiles
    rebuilt = Board.empty()
    for step in order:
        rebuilt = rebuilt.after(step)
    assert rebuilt.same_cells(board)
    assert not rebuilt.floating_tiles()
    used = Counter(step.tile for step in order[1:])
    assert used[NEUTRAL_TILE] == 1
    assert all(used[t] <= Counter(tiles)[t] for t in used)
