"""Property tests: rules that must hold for every board and every game."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bits import (
    NEUTRAL_TILE,
    Board,
    Game,
    Tile,
    Turn,
    can_place,
    infer,
    judge,
    legal_drops,
    load_catalogue,
    load_tileset,
    score_board,
)
from engine.bits.cards import TaskCard
from engine.errors import ActionError
from engine.shapes import Shape

TILES = [*sorted(set(load_tileset().game_tiles)), NEUTRAL_TILE]


@st.composite
def played_boards(draw, max_drops=18):
    """A board made by a random sequence of legal drops."""
    board = Board.empty()
    for _ in range(draw(st.integers(0, max_drops))):
        tile = draw(st.sampled_from(TILES))
        drops = legal_drops(board, tile)
        if not drops:
            break
        board = board.after(draw(st.sampled_from(drops)))
    return board


@settings(max_examples=150, deadline=None)
@given(played_boards())
def test_legal_drops_never_leave_a_floating_tile(board):
    assert board.floating_tiles() == ()
    # Every hole lies under a horizontal tile's half (the only way to make one).
    for i in range(36):
        if board.holes >> i & 1:
            row, col = divmod(i, 6)
            above = next(r for r in range(row - 1, -1, -1) if board.code_at((r, col)) != ".")
            first, second = board.tile_at((above, col))
            assert first[0] == second[0], "a hole must be under a horizontal tile"


@settings(max_examples=100, deadline=None)
@given(played_boards(), st.sampled_from(TILES), st.data())
def test_inference_returns_the_drop_that_made_the_board(board, tile, data):
    drops = legal_drops(board, tile)
    if not drops:
        assert not can_place(board)
        return
    drop = data.draw(st.sampled_from(drops))
    after = board.after(drop)
    assert infer(board, after) == drop
    # Judging it against the card that shows this tile says legal, too.
    verdict, judged = judge(board, Board.from_rows(after.rows()), Turn(tiles=(tile,)))
    assert verdict.legal and judged == drop
    assert after.holes & board.occupied == 0 and board.holes & ~after.holes == 0


@st.composite
def polyominoes(draw):
    """A random edge-connected shape of 1 to 6 cells."""
    cells = {(0, 0)}
    for _ in range(draw(st.integers(0, 5))):
        r, c = draw(st.sampled_from(sorted(cells)))
        dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        cells.add((r + dr, c + dc))
    return Shape.of(cells)


@st.composite
def task_cards(draw):
    pile = draw(st.integers(1, 4))
    points = draw(st.integers(1, 4)) * (-1 if pile == 3 else 1)
    return TaskCard(
        name="random",
        shape=draw(polyominoes()),
        points=points,
        pile=pile,
        colour=draw(st.none() | st.sampled_from("RYBPK")),
        fours=draw(st.integers(0, 1)),
    )


rows_strategy = st.lists(
    st.text(alphabet=".RYBPKN", min_size=6, max_size=6), min_size=6, max_size=6
)


@settings(max_examples=200, deadline=None)
@given(rows_strategy, st.lists(task_cards(), min_size=1, max_size=4))
def test_scoring_is_the_same_on_the_mirrored_board_when_mirrors_match(rows, cards):
    board = Board.from_rows(rows)
    mirrored = Board.from_rows([row[::-1] for row in rows])
    assert score_board(board, cards).total == score_board(mirrored, cards).total
    catalogue = list(load_catalogue())
    assert score_board(board, catalogue).total == score_board(mirrored, catalogue).total


@st.composite
def games(draw):
    """A game driven by random actions: legal and illegal placements, drop
    outs, round ends, undos and corrections, as a table might produce."""
    players = ["Ann", "Bob", "Cy", "Di"][: draw(st.integers(1, 4))]
    deck = draw(st.sampled_from(["virtual", "physical"]))
    game = Game.new({"players": players, "deck": deck, "seed": draw(st.integers(0, 99))})
    for _ in range(draw(st.integers(0, 40))):
        view = game.view()
        if view["over"]:
            break
        if view["phase"] == "task":
            pile = load_catalogue().pile(view["round"])
            action = {"type": "task", "card": draw(st.sampled_from(pile)).name}
        else:
            player = draw(st.integers(0, len(players) - 1))
            kind = draw(
                st.sampled_from(["drop", "drop", "drop", "rows", "out", "end", "undo", "fix"])
            )
            board = Board.from_rows(view["players"][player]["board"])
            if kind == "drop":
                tile = view["players"][player]["start_tile"] or view["card"] or "RY"
                if view["phase"] == "build" and draw(st.booleans()):
                    tile = "NN"
                drops = legal_drops(board, Tile(tile))
                if not drops:
                    continue
                d = draw(st.sampled_from(drops))
                action = {"type": "place", "player": player, "rows": list(board.after(d).rows())}
            elif kind == "rows":
                action = {"type": "place", "player": player, "rows": draw(rows_strategy)}
            elif kind == "out":
                action = {"type": "drop_out", "player": player}
            elif kind == "end":
                action = {"type": "end_round"}
            elif kind == "undo":
                action = {"type": "undo"}
            else:
                cell = [draw(st.integers(0, 5)), draw(st.integers(0, 5))]
                action = {"type": "correct_cell", "player": player, "cell": cell, "code": "R"}
        with contextlib.suppress(ActionError):
            game.apply(action)
    return game


@settings(max_examples=60, deadline=None)
@given(games())
def test_replaying_setup_and_actions_rebuilds_the_same_state(game):
    again = Game.replay(game.setup, game.actions)
    assert again == game
    assert again.view() == game.view()
