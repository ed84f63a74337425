import pytest

from engine.bits import (
    Board,
    load_settings,
    parse_card,
    score_board,
    score_card,
    solo_rank,
    winners,
)

MIRRORED_OFF = load_settings().with_changes({"mirror": False})


def board(*rows):
    return Board.from_rows(["......"] * (6 - len(rows)) + list(rows))


def test_a_block_bigger_than_the_shape_scores_nothing():
    square = parse_card("square")
    assert score_card(board("RR....", "RR....", "RRR..."), square).points == 0
    assert score_card(board("RR....", "RR...."), square).points == 2


def test_diagonal_contact_does_not_join_blocks():
    pair = parse_card("pair")
    assert score_card(board("..BB..", "BB...."), pair).points == -4  # two pairs


def test_neutral_and_empty_cells_separate_blocks():
    pair = parse_card("pair")
    assert score_card(board("RRNRR."), pair).points == -4
    assert score_card(board("RR.RR."), pair).points == -4
    assert score_card(board("NN....", "NN...."), parse_card("square")).points == 0


def test_colour_counts_on_pile_2_and_any_colour_otherwise():
    blue_corner = parse_card("blue-corner")
    assert score_card(board("B.R...", "BBRR.."), blue_corner).points == 2
    any_corner = parse_card("shape=#./##,points=3,pile=4")
    assert score_card(board("B.R...", "BBRR.."), any_corner).points == 6


def test_pile_3_colour_is_ignored_unless_the_setting_says_otherwise():
    card = parse_card("shape=##,colour=R,points=-2,pile=3")
    b = board("RR.BB.")
    assert score_card(b, card).points == -4
    strict = load_settings().with_changes({"pile3_ignores_colour": False})
    assert score_card(b, card, strict).points == -2


def test_mirror_images_match_only_when_the_setting_is_on():
    l_card = parse_card("shape=#./#./##,points=2,pile=4")
    j_block = board(".R....", ".R....", "RR....")
    assert score_card(j_block, l_card).points == 2
    assert score_card(j_block, l_card, MIRRORED_OFF).points == 0
    # A rotation always matches.
    assert score_card(board("RRR...", "R....."), l_card, MIRRORED_OFF).points == 2


def test_pile_1_gives_one_point_for_every_other_four_block():
    square = parse_card("square")
    b = board("RRYYYK", "RRY.KK", "BBBB.K")
    # square +2; yellow L4, blue I4 and black T4 +1 each.
    score = score_card(b, square)
    assert score.points == 5
    assert sorted(x.why for x in score.blocks) == ["four", "four", "four", "shape"]
    assert score_card(b, parse_card("shape=##/##,points=2,pile=1,fours=0")).points == 2


def test_score_board_adds_the_cards_and_gives_the_json_contract():
    b = board("RR....", "RR..YY")
    score = score_board(b, [parse_card("square"), parse_card("pair")])
    assert score.total == 2 - 2
    data = score.to_json()
    assert data["total"] == 0
    assert data["cards"][0]["points"] == 2
    assert data["cards"][0]["blocks"] == [[[4, 0], [4, 1], [5, 0], [5, 1]]]
    assert data["cards"][1]["blocks"] == [[[5, 4], [5, 5]]]


def test_winner_by_total_then_best_round_then_shared():
    assert winners([[5, 5, 5], [6, 6, 2]]) == ((0,), None)  # 15 vs 14
    assert winners([[5, 5, 5], [7, 4, 4]]) == ((1,), "best_round")
    assert winners([[5, 5, 5], [5, 5, 5], [1, 1, 1]]) == ((0, 1), "shared")
    assert winners([[3]]) == ((0,), None)


@pytest.mark.parametrize(
    ("total", "rank"),
    [
        (31, "master builder"),
        (30, "structural engineer"),
        (26, "structural engineer"),
        (25, "foreman"),
        (21, "foreman"),
        (20, "stone mason"),
        (16, "stone mason"),
        (15, "tile layer"),
        (11, "tile layer"),
        (10, "handyman"),
        (6, "handyman"),
        (5, "clean-up crew"),
        (-4, "clean-up crew"),
    ],
)
def test_solo_ranks_follow_the_rulebook_table(total, rank):
    assert solo_rank(total) == rank
