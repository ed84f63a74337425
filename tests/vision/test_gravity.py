"""Settling a BITS reading: floating near-board cells are board."""

from __future__ import annotations

import numpy as np

from vision.gravity import settled

CODES = (".", "K", "R")


def grid(rows):
    return np.array([list(r) for r in rows])


def scores_for(codes, board_gap):
    """Scores where every tile cell is ``board_gap`` farther from the board than from its colour."""
    s = np.full((*codes.shape, 3), 30.0)
    for k, c in enumerate(CODES):
        s[..., k] = np.where(codes == c, 1.0, 30.0)
    s[..., 0] = np.where(codes == ".", 1.0, 1.0 + board_gap)
    return s


def test_a_floating_black_cell_near_the_board_becomes_board():
    codes = grid(["..K.", "....", "RR.."])
    out, moved = settled(codes, scores_for(codes, 4.0), CODES)
    assert ["".join(r) for r in out] == ["....", "....", "RR.."]
    assert moved.sum() == 1


def test_a_stack_of_floating_cells_settles_from_the_bottom():
    codes = grid(["K...", "K...", "....", "RR.."])
    out, _ = settled(codes, scores_for(codes, 4.0), CODES)
    assert ["".join(r) for r in out][:2] == ["....", "...."]


def test_resting_and_overhanging_tiles_stay():
    # R R lying over two holes in column 1 (its right half overhangs, legal),
    # on a standing R R; K K lying on it, overhanging column 2.
    codes = grid([".....", ".KK..", "RR...", "R....", "R..KK"])
    out, moved = settled(codes, scores_for(codes, 4.0), CODES)
    assert not moved.any() and np.array_equal(out, codes)


def test_a_clearly_coloured_floating_cell_is_left_alone():
    # A red cell far from the board colour: maybe a tile in a hand's shadow,
    # not the board; the reader does not invent.
    codes = grid(["..R.", "....", "RR.."])
    out, moved = settled(codes, scores_for(codes, 25.0), CODES)
    assert not moved.any() and np.array_equal(out, codes)


GREY = (".", "K", "R", "N")


def grey_scores(codes):
    """Scores where every cell is 2 from its own code and 40 from any other."""
    return np.stack([np.where(codes == c, 2.0, 40.0) for c in GREY], axis=-1)


def test_a_lone_grey_cell_takes_its_next_best_colour():
    # The neutral tile is a grey domino: a single grey cell is a black tile
    # lifted by glare (black 5 ΔE behind grey here), whatever its colour said.
    # The grey domino standing in column 0 stays.
    codes = grid(["....", "....", "NR..", "NRNK"])
    s = grey_scores(codes)
    s[3, 2, 1] = 7.0  # r3c2: grey at 2, black at 7, board at 40
    out, moved = settled(codes, s, GREY)
    assert ["".join(r) for r in out] == ["....", "....", "NR..", "NRKK"]
    assert np.argwhere(moved).tolist() == [[3, 2]]


def test_a_grey_cell_beside_an_unsure_one_that_may_be_grey_is_not_lone():
    # The neutral tile lying on R K, one half read grey, the other left
    # unsure between the board (13) and grey (16): the grey half may have its
    # other half there, so it stays grey, and only grey pairs it.
    codes = grid(["....", "....", "N?..", "KRRK"])
    s = grey_scores(codes)
    s[2, 1] = [13.0, 40.0, 40.0, 16.0]
    out, moved = settled(codes, s, GREY)
    assert ["".join(r) for r in out] == ["....", "....", "NN..", "KRRK"]
    assert np.argwhere(moved).tolist() == [[2, 1]]


def test_a_lone_grey_cell_with_nothing_near_is_unsure():
    # (the black cell under it pairs with no colour it could be, so the
    # dominoes do not decide it; see
    # test_an_unsure_grey_that_pairs_only_as_the_board_is_the_print_in_shade)
    codes = grid(["....", "....", "..N.", "RRK."])
    s = grey_scores(codes)
    out, _ = settled(codes, s, GREY)
    assert out[2, 2] == "?"
    assert ["".join(r) for r in out][3] == "RRK."


def test_a_lone_grey_cell_where_a_tile_would_float_is_the_board():
    # A glared board cell read grey, the board itself far behind: no colour
    # fits, but a tile there would float, so it is the board.
    codes = grid(["....", "..N.", "....", "RRKK"])
    s = grey_scores(codes)
    out, moved = settled(codes, s, GREY)
    assert ["".join(r) for r in out] == ["....", "....", "....", "RRKK"]
    assert np.argwhere(moved).tolist() == [[1, 2]]


def test_filled_cells_pair_into_dominoes():
    from vision.gravity import _dominoes

    assert _dominoes(grid(["....", "....", "KK..", "RRYY"]) != ".")
    assert _dominoes(grid(["....", "..K.", "..K.", "RR.."]) != ".", rest=False)
    # an odd count never pairs; an even one may not either (a lone cell each side)
    assert not _dominoes(grid(["....", "....", "K...", "RRYY"]) != ".")
    assert not _dominoes(grid(["....", "....", "....", "R.YY"]) != ".")
    assert not _dominoes(grid(["....", "....", "K..Y", "RRY."]) != ".")


def test_a_black_tile_half_read_as_a_dark_board_is_flipped_back():
    # A black domino standing in column 2 on a dark board print: its lower
    # half was read as the board (3 ΔE worse as black). Every tile covers
    # two cells, so the top half alone cannot be: the cheapest flip that
    # pairs the filled cells is that lower half, back to black.
    codes = grid(["....", "....", "..K.", "RR.."])
    s = scores_for(codes, 25.0)
    s[3, 2] = (4.0, 7.0, 30.0)  # board 4, black 7, red 30
    out, moved = settled(codes, s, CODES)
    assert ["".join(r) for r in out] == ["....", "....", "..K.", "RRK."]
    assert np.argwhere(moved).tolist() == [[3, 2]]


def test_a_board_that_cannot_pair_is_left_alone_when_no_flip_is_cheap():
    codes = grid(["....", "....", "....", "RRR."])
    out, moved = settled(codes, scores_for(codes, 30.0), CODES)
    assert not moved.any() and ["".join(r) for r in out][3] == "RRR."


def test_pairs_must_rest_and_grey_pairs_only_with_grey():
    from vision.gravity import _dominoes

    # a black domino standing on a hole pairs, but does not rest
    standing = grid(["..K.", "..K.", "....", "RR.."])
    assert _dominoes(standing != ".", rest=False)
    assert not _dominoes(standing != ".")
    # lying over one hole rests on its other half's support (an overhang)
    assert _dominoes(grid(["....", "....", ".KK.", "RR.."]) != ".")
    # the neutral tile is grey on both halves: grey beside black is two tiles
    crossed = grid(["....", "....", "NK..", "KN.."])
    assert _dominoes(crossed != ".", crossed == "N", rest=False) is False
    assert _dominoes(
        grid(["....", "....", "NR..", "NR.."]) != ".", grid(["....", "....", "N...", "N..."]) == "N"
    )


def test_a_black_starting_tile_read_as_dark_board_under_a_lying_tile_is_found():
    # Truth: red dominoes standing in columns 0 and 3, a black starting
    # double (no symbol) lying on the bottom between them, a red one lying
    # on it. The black halves read as the dark print (board 4, black 7).
    # Every cell still pairs into dominoes (three red ones), but the lying
    # one would rest on two holes: the cheapest flip that lets every tile
    # rest is the two black halves.
    codes = grid(["....", "....", "RRRR", "R..R"])
    s = scores_for(codes, 25.0)
    s[3, 1] = s[3, 2] = (4.0, 7.0, 30.0)
    out, moved = settled(codes, s, CODES)
    assert ["".join(r) for r in out] == ["....", "....", "RRRR", "RKKR"]
    assert np.argwhere(moved).tolist() == [[3, 1], [3, 2]]


def test_a_cell_flipped_to_grey_pairs_only_with_grey():
    # A blue half on the ramp's yellow double needs a partner. The cheapest
    # flip is the bare cell on its left, but its colour is nearest grey
    # (grey 5, black 50): the neutral tile is grey on both halves, so that
    # would be two tiles. Next cheapest is the bare cell on its right as
    # black (8), which lies with the blue half on the yellow double.
    codes = grid([".B.", "YY."])
    entries = (".", "K", "N", "B", "Y")
    s = np.full((2, 3, 5), 50.0)
    for k, code in enumerate(entries):
        s[..., k] = np.where(codes == code, 0.0, 50.0)
    s[0, 0, 2] = 5.0  # grey
    s[0, 2, 1] = 8.0  # black
    s[0, 1, 0] = 10.0  # the blue half as the board
    out, moved = settled(codes, s, entries)
    assert ["".join(r) for r in out] == [".BK", "YY."]
    assert np.argwhere(moved).tolist() == [[0, 2]]


def test_a_tile_left_in_mid_air_keeps_the_rest_pairing():
    # A player's illegal drop: R R lying in mid-air, not taken back yet. No
    # cheap flip lets it rest, so the cells only need to pair: the unsure
    # cell at the bottom right (black 5, board 8) is the board.
    codes = grid(["....", ".RR.", "....", "KK.?"])
    s = scores_for(codes, 25.0)
    s[3, 3] = (8.0, 5.0, 30.0)
    out, _ = settled(codes, s, CODES)
    assert ["".join(r) for r in out] == ["....", ".RR.", "....", "KK.."]


def test_holes_plainly_the_board_under_a_tile_in_mid_air_are_not_filled():
    # A black double lying in mid-air over two holes: an illegal drop. The
    # holes read as the board, black 17 worse (over INVENT_SLACK, 12): a
    # black double there would hide the drop the engine must flag, so the
    # board stays as read. Read black only 6 worse, they are the dark
    # print's black double the pairing finds, the tile above lying on it.
    from vision.gravity import INVENT_SLACK

    codes = grid(["....", ".KK.", "....", "RR.."])
    s = scores_for(codes, 25.0)
    s[2, 1] = s[2, 2] = (1.0, 1.0 + INVENT_SLACK + 5.0, 30.0)
    out, moved = settled(codes, s, CODES)
    assert not moved.any() and np.array_equal(out, codes)
    s[2, 1] = s[2, 2] = (1.0, 7.0, 30.0)
    out, moved = settled(codes, s, CODES)
    assert ["".join(r) for r in out] == ["....", ".KK.", ".KK.", "RR.."]
    assert np.argwhere(moved).tolist() == [[2, 1], [2, 2]]


def test_an_unsure_cell_the_dominoes_decide_is_read():
    # The black half beside a lone black cell (between board 7 and black 6):
    # empty, the lone black cell would pair with nothing; covered, the two
    # make a black domino. Every tile covers two cells: it is black.
    codes = grid(["....", "....", "....", "RR?K"])
    s = scores_for(codes, 25.0)
    s[3, 2] = (7.0, 6.0, 30.0)
    out, moved = settled(codes, s, CODES)
    assert ["".join(r) for r in out][3] == "RRKK"
    assert np.argwhere(moved).tolist() == [[3, 2]]
    # And one that, covered, could pair with nothing is the board.
    codes = grid(["....", "....", "..?.", "RRKK"])
    s = scores_for(codes, 25.0)
    s[2, 2] = (7.0, 6.0, 30.0)
    out, _ = settled(codes, s, CODES)
    assert ["".join(r) for r in out][2] == "...."


def test_an_unsure_cell_no_tile_of_any_colour_could_cover_is_the_board():
    # A lamp's core over the print: the cell washed out, nearest the board
    # (33) and no tile colour within reach (grey 62, black 104), so which
    # tile it would be is unknown. But over an empty cell any tile would
    # float, and on the bottom row beside paired tiles any tile would pair
    # with nothing: either way it is the board.
    for rows, cell in ((["....", "..?.", "....", "RRKK"], (1, 2)), (["....", "KK?."], (1, 2))):
        codes = grid(rows)
        s = grey_scores(codes)
        s[cell] = (33.6, 104.6, 121.0, 62.2)
        out, moved = settled(codes, s, GREY)
        assert out[cell] == "." and np.argwhere(moved).tolist() == [list(cell)]
    # One that some tile could cover stays unsure: which tile is unknown.
    codes = grid(["....", "..?.", "..K.", "RRKK"])
    s = grey_scores(codes)
    s[1, 2] = (33.6, 104.6, 121.0, 62.2)
    out, _ = settled(codes, s, GREY)
    assert out[1, 2] == "?"


def test_a_ramp_holds_one_neutral_tile_so_unsure_greys_beside_it_are_the_board():
    # The neutral tile standing in column 1; two cells beside it under a
    # lamp's core, unsure, nearest grey (6) then the board (10). As a
    # second grey double they would pair, but each player has one neutral
    # tile: they are the board.
    codes = grid(["....", "?N..", "?N..", "RRRR"])
    s = grey_scores(codes)
    s[1, 0] = s[2, 0] = (10.0, 40.0, 40.0, 6.0)  # board, black, red, grey
    out, moved = settled(codes, s, GREY)
    assert ["".join(r) for r in out] == ["....", ".N..", ".N..", "RRRR"]
    assert np.argwhere(moved).tolist() == [[1, 0], [2, 0]]


def test_an_unsure_grey_that_only_pairs_as_black_is_black():
    # Glare lifts the upper half of a black double standing on the red row
    # to grey (13; black 32, the board 69): unsure, with no grey beside it.
    # Neither the board nor the neutral tile pairs the black half below;
    # black does.
    codes = grid(["....", ".?..", ".K..", "RRRR"])
    looks_grey = codes != "R"
    s = grey_scores(codes)
    s[1, 1] = (69.0, 32.0, 60.0, 13.0)
    out, moved = settled(codes, s, GREY, greyish=looks_grey)
    assert ["".join(r) for r in out] == ["....", ".K..", ".K..", "RRRR"]
    assert np.argwhere(moved).tolist() == [[1, 1]]
    # ... unless black is not clearly its next colour (red 2 behind it)
    s[1, 1] = (69.0, 32.0, 34.0, 13.0)
    out, moved = settled(codes, s, GREY, greyish=looks_grey)
    assert out[1, 1] == "?" and not moved.any()
    # ... or the cell does not look grey at all (a red half under glare,
    # nearest grey only because nothing is near): asked about, not guessed
    s[1, 1] = (69.0, 32.0, 60.0, 13.0)
    out, moved = settled(codes, s, GREY, greyish=np.zeros(codes.shape, bool))
    assert out[1, 1] == "?" and not moved.any()
    # ... and the same when grey, black and the board are all near (30, 31,
    # 32: simulated BITS 14705 without a profile, under a lamp's core):
    # only black pairs, whatever other tile it might be
    s[1, 1] = (32.0, 31.4, 81.0, 30.2)
    out, moved = settled(codes, s, GREY, greyish=looks_grey)
    assert out[1, 1] == "K" and np.argwhere(moved).tolist() == [[1, 1]]


def test_an_unsure_grey_that_pairs_only_as_the_board_is_the_print_in_shade():
    # A light print shaded grey beside the red tiles: nearest the neutral
    # grey (3), the board 30 behind it, no other tile colour near and no
    # grey beside it. Only as the board does every tile pair.
    codes = grid(["....", "....", "RR..", "RR?."])
    s = grey_scores(codes)
    s[3, 2] = (30.0, 45.0, 60.0, 3.0)
    out, moved = settled(codes, s, GREY, greyish=codes != "R")
    assert ["".join(r) for r in out] == ["....", "....", "RR..", "RR.."]
    assert np.argwhere(moved).tolist() == [[3, 2]]
    # a cell that does not look grey stays unsure
    out, moved = settled(codes, s, GREY, greyish=codes == ".")
    assert out[3, 2] == "?" and not moved.any()


def test_unsure_cells_the_dominoes_leave_open_stay_unsure():
    # Two unsure cells one above the other on the bottom: a standing domino
    # or two holes, either pairs; the rules say nothing, the reader asks.
    codes = grid(["....", "....", "?...", "?.RR"])
    s = scores_for(codes, 25.0)
    s[2, 0] = s[3, 0] = (7.0, 6.0, 30.0)
    out, moved = settled(codes, s, CODES)
    assert not moved.any()
    # Covered for sure, but black or red is a near thing: still unsure.
    codes = grid(["....", "....", "....", "RR?K"])
    s = scores_for(codes, 25.0)
    s[3, 2] = (9.0, 6.0, 8.0)
    out, moved = settled(codes, s, CODES)
    assert out[3, 2] == "?"


STARTING = (".", "K", "R", "Y")


def _starting_scores(codes, dark):
    """Read cells 1 from their code, 60 from the rest; empty cells 30 from
    black, and the ``dark`` ones (a black tile taken for the dark print)
    4 from the board and 9 from black."""
    s = np.full((*codes.shape, 4), 60.0)
    for k, code in enumerate(STARTING):
        s[..., k] = np.where(codes == code, 1.0, 60.0)
    s[..., 1] = np.where(codes == ".", 30.0, s[..., 1])
    for cell in dark:
        s[cell] = (4.0, 9.0, 60.0, 60.0)
    return s


def test_the_rounds_starting_double_read_as_the_board_is_found():
    # Every round starts with a symbol-less double dropped on the empty
    # ramp. Here a black one stands in the bottom-left corner of a dark
    # print and reads as the print (4 from it, 9 from black); the red and
    # yellow tiles show their symbols. Nothing floats and everything pairs,
    # so only the missing starting tile says the corner is black.
    codes = grid(["....", "....", "...Y", ".RRY"])
    bare = codes == "."
    out, moved = settled(codes, _starting_scores(codes, [(2, 0), (3, 0)]), STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "K..Y", "KRRY"]
    assert np.argwhere(moved).tolist() == [[2, 0], [3, 0]]


def test_a_starting_double_seen_leaves_the_bottom_alone():
    # the black starting double read right (bare), and a bare corner on the
    # right as dark as black: nothing to find
    codes = grid(["....", "....", "K...", "KRR."])
    bare = (codes == ".") | (codes == "K")
    out, moved = settled(codes, _starting_scores(codes, [(2, 3), (3, 3)]), STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "K...", "KRR."]
    assert not moved.any()


def test_without_symbols_on_the_tiles_no_print_says_nothing():
    codes = grid(["....", "....", "...Y", ".RRY"])
    bare = np.ones(codes.shape, bool)
    out, moved = settled(codes, _starting_scores(codes, [(2, 0), (3, 0)]), STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "...Y", ".RRY"]
    assert not moved.any()


def test_the_starting_double_is_not_charged_for_showing_no_symbol():
    # The scores charge a bare cell BARE_PENALTY (10) on tile colours that
    # can pass for the print; the starting tile is such a tile. Its upper
    # half here: 4 from the board, 30 from black (20 of colour, 10 of that
    # charge): 26 worse, beyond FLIP_SLACK (20) but not once the charge is
    # forgiven (16). A half 31 worse (21 of colour) is still left alone.
    codes = grid(["....", "....", "...Y", "KRRY"])
    bare = (codes == ".") | (codes == "K")
    s = _starting_scores(codes, [])
    s[2, 0] = (4.0, 30.0, 60.0, 60.0)
    out, moved = settled(codes, s, STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "K..Y", "KRRY"]
    assert np.argwhere(moved).tolist() == [[2, 0]]
    s[2, 0] = (4.0, 35.0, 60.0, 60.0)
    out, _ = settled(codes, s, STARTING, bare=bare)
    assert out[2, 0] != "K"


def test_bare_cells_beyond_the_starting_double_are_the_print():
    # The red starting double lies on the bottom row, bare, nowhere near the
    # print's colour; the red and yellow tiles above show their symbols. A
    # hole one cell wide and two deep, its printed lines hidden by the tiles
    # around it, reads as a bare black double standing on the bottom edge
    # (4 from black, 9 from the board). A round has one starting tile, and
    # every other tile shows a symbol: the hole is the board.
    codes = grid(["....", "RR..", "YYK.", "RRK."])
    bare = (codes == ".") | (codes == "K")
    bare[3, 0] = bare[3, 1] = True
    s = _starting_scores(codes, [])
    s[2, 2] = s[3, 2] = (9.0, 4.0, 60.0, 60.0)
    out, moved = settled(codes, s, STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "RR..", "YY..", "RR.."]
    assert np.argwhere(moved).tolist() == [[2, 2], [3, 2]]
    # Two bare doubles at the bottom that could each be the print: which is
    # the starting tile is not known, so both stay.
    s[3, 0] = s[3, 1] = (9.0, 60.0, 4.0, 60.0)
    out, moved = settled(codes, s, STARTING, bare=bare)
    assert not moved.any()


def test_bare_cells_beyond_the_starting_double_that_look_coloured_stay_tiles():
    # The red starting double lies in the bottom corner; the yellow double
    # on the red one above it shows no symbol (a glare or a shadow's edge
    # hid it), 16 nearer yellow than the print. The print is neutral: a
    # cell that does not look grey is a tile whatever its print (simulated
    # BITS 19807).
    codes = grid(["....", "YY..", "RRKK", "RRKK"])
    bare = (codes == ".") | (codes == "Y")
    bare[3, 0] = bare[3, 1] = True
    s = _starting_scores(codes, [])
    s[1, 0] = s[1, 1] = (17.0, 60.0, 60.0, 1.0)
    out, moved = settled(codes, s, STARTING, bare=bare, greyish=np.isin(codes, [".", "K"]))
    assert not moved.any()
    # Told nothing of how grey they look, the rule is as it always was:
    # bare cells beyond the starting tile within reach of the print are it.
    out, moved = settled(codes, s, STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "RRKK", "RRKK"]


def test_a_starting_double_showing_a_trace_of_print_is_not_replaced_by_an_invented_one():
    # Two tiles on the ramp: a red double standing on the bottom edge, its
    # halves showing print 0.03 and 0.08 (a trace: a neighbour's edge), and
    # a yellow double with its symbols. The red double's lower half is over
    # PRINT_MIN, so it is not "bare"; and the bottom-left corner of the
    # dark print is 16 nearer the print than black on each cell (no bare
    # charge in those scores). Calling the red double bare costs 25 x
    # (0.08-0.06)/(0.15-0.06) = 5.6 ΔE; inventing a black double costs 6
    # past the charge on each cell, 12: the red double is the starting tile.
    codes = grid(["....", "....", "...R", ".YYR"])
    bare = codes == "."
    s = _starting_scores(codes, [])
    s[2, 0] = s[3, 0] = (4.0, 20.0, 60.0, 60.0)
    printed = np.where(codes == "Y", 0.3, 0.0)
    printed[2, 3], printed[3, 3] = 0.03, 0.08
    bare[2, 3] = True
    out, moved = settled(codes, s, STARTING, bare=bare, printed=printed)
    assert ["".join(r) for r in out] == ["....", "....", "...R", ".YYR"]
    assert not moved.any()
    # Without the print shares, only "bare" is known: the corner is made black.
    out, _ = settled(codes, s, STARTING, bare=bare)
    assert ["".join(r) for r in out] == ["....", "....", "K..R", "KYYR"]
    # A trace of print as strong as a symbol's (0.14: 22 ΔE to disbelieve)
    # loses to the black double: the corner is the starting tile.
    printed[3, 3] = 0.14
    out, _ = settled(codes, s, STARTING, bare=bare, printed=printed)
    assert ["".join(r) for r in out] == ["....", "....", "K..R", "KYYR"]
