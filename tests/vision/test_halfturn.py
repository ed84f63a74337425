"""LITS symbols pair up under a half turn (the rulebook's swap): each
uncovered cell's symbol is checked against its partner's."""

import random

import numpy as np

from calibration.palette import load_palette
from device.evals.read import sim_board, still_frames
from engine.lits.layout import Layout
from vision.halfturn import paired


def _layout_codes(seed):
    return np.array([list(r) for r in Layout.random(seed).rows()])


def test_a_symbol_glare_hid_is_its_partners_partner():
    codes = _layout_codes(3)
    x = tuple(int(v) for v in np.argwhere(codes == "X")[0])
    partner = (9 - x[0], 9 - x[1])
    codes[partner] = "?"
    fixed, changed = paired(codes, np.full((10, 10), 0.9))
    assert fixed[partner] == "O"
    assert [tuple(int(v) for v in ix) for ix in np.argwhere(changed)] == [partner]


def test_when_two_partners_disagree_the_less_sure_gives_way():
    codes = _layout_codes(4)
    truth = codes.copy()
    o = tuple(int(v) for v in np.argwhere(codes == "O")[0])
    codes[o] = "X"  # misread, less surely than its partner X
    conf = np.full((10, 10), 0.9)
    conf[o] = 0.65
    fixed, _ = paired(codes, conf)
    assert (fixed == truth).all()


def test_covered_cells_and_unsure_colours_say_nothing():
    codes = _layout_codes(5)
    x = tuple(int(v) for v in np.argwhere(codes == "X")[0])
    partner = (9 - x[0], 9 - x[1])
    codes[x] = "L"  # a piece lies there: its partner's symbol stands alone
    codes[partner] = "?"
    uncovered = np.zeros((10, 10), bool)  # this ? was a colour in doubt, maybe a piece
    fixed, changed = paired(codes, np.full((10, 10), 0.9), uncovered)
    assert fixed[partner] == "?" and not changed.any()


def test_a_home_made_board_without_pairs_is_read_as_seen():
    # Symbols scattered at random: about a third of the sure pairs agree
    # with the rule by chance, so it is not used, and a ? stays a ?.
    rng = random.Random(1)
    codes = np.array([[rng.choice("XO.") for _ in range(10)] for _ in range(10)])
    codes[0, 0] = "?"
    fixed, changed = paired(codes, np.full((10, 10), 0.9))
    assert not changed.any() and fixed[0, 0] == "?"


def test_a_rendered_table_whose_symbols_glare_hid_reads_right():
    # Simulated table 13 (tuning seed): two O's in the top row read unsure;
    # their partners in the bottom row read X surely.
    board = sim_board("lits", 13, next(still_frames("lits", 13, 1)), load_palette("lits"), None)
    assert board.found and board.wrong == []
