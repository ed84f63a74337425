"""A LITS board's printed symbols, learnt at calibration and used after:
a symbol glare hides or a shadow's edge fakes is the one printed there."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.palette import load_palette
from calibration.profile import Profile, ProfileError
from calibration.wizard import build_profile
from device.cli import main
from device.evals.read import calibrate_on, sim_board, still_frames
from engine.lits.layout import Layout
from vision.printed import as_printed, learnt_layout
from vision.reader import Reading

LITS = load_palette("lits")
SYMBOLS = ("X", "O", ".")


def _printed(seed: int) -> np.ndarray:
    return np.array([list(r) for r in Layout.random(seed).rows()])


def _covered(printed: np.ndarray, cells) -> np.ndarray:
    board = printed.copy()
    for r, c in cells:
        board[r, c] = "T"
    return board


def test_a_covered_symbol_is_learnt_from_its_half_turn_partner():
    printed = _printed(11)
    x = tuple(int(v) for v in np.argwhere(printed == "X")[0])
    partner = (9 - x[0], 9 - x[1])
    blank = tuple(int(v) for v in np.argwhere(printed == ".")[0])
    # an X under a piece (its partner O seen), and a blank and its partner both covered
    board = _covered(printed, [x, blank, (9 - blank[0], 9 - blank[1])])
    layout = np.array([list(r) for r in learnt_layout(board, SYMBOLS)])
    assert layout[x] == "X" and printed[partner] == "O"
    assert layout[blank] == "?" and layout[9 - blank[0], 9 - blank[1]] == "?"
    seen = layout != "?"
    assert seen.sum() == 98 and (layout[seen] == printed[seen]).all()


def test_a_board_that_does_not_pair_its_symbols_learns_only_what_it_showed():
    # A home-made board: X and O scattered with no partner on the half turn.
    rng = np.random.default_rng(5)
    printed = rng.choice(np.array(list("XO.")), size=(10, 10), p=[0.3, 0.3, 0.4])
    board = _covered(printed, [(0, 0), (2, 3), (4, 4)])
    layout = np.array([list(r) for r in learnt_layout(board, SYMBOLS)])
    assert (layout == np.where(board == "T", "?", printed)).all()


def test_a_misread_and_an_unread_symbol_become_the_printed_ones_pieces_stay():
    printed = _printed(12)
    layout = tuple("".join(r) for r in printed.tolist())
    codes = _covered(printed, [(5, 5), (5, 6), (5, 7), (6, 6)])
    o = tuple(int(v) for v in np.argwhere(printed == "O")[0])
    blank = tuple(int(v) for v in np.argwhere(printed == ".")[3])
    codes[o], codes[blank] = ".", "?"  # glare over an O; a blank not read
    fixed, changed = as_printed(codes, np.full((10, 10), 0.9), layout)
    assert fixed[o] == "O" and fixed[blank] == "."
    assert changed.sum() == 2
    assert (fixed[5, 5:8] == "T").all() and fixed[6, 6] == "T"  # what covers the print stays


def test_an_unsure_cell_that_may_be_a_piece_keeps_its_doubt():
    printed = _printed(13)
    layout = tuple("".join(r) for r in printed.tolist())
    codes = printed.copy()
    codes[4, 4] = "?"
    uncovered = np.zeros((10, 10), bool)  # its colour was in doubt: maybe a piece
    fixed, changed = as_printed(codes, np.full((10, 10), 0.9), layout, uncovered)
    assert fixed[4, 4] == "?" and not changed.any()


def test_another_board_is_read_as_it_shows_not_as_the_profile_remembers():
    # The profile's board turned over (or a friend's copy): its sure symbols
    # disagree with the layout, which is then not used at all.
    layout = tuple("".join(r) for r in _printed(14).tolist())
    other = _printed(15)
    codes = other.copy()
    codes[0, 0] = "?"
    fixed, changed = as_printed(codes, np.full((10, 10), 0.9), layout)
    assert not changed.any() and (fixed == codes).all()


def test_the_profile_keeps_the_layout_its_person_confirmed(tmp_path):
    printed = _printed(16)
    board = _covered(printed, [(3, 3), (3, 4), (3, 5), (4, 4)])
    board[7, 7] = "?"  # glare: the person fixes it below
    lab = np.tile(np.array([91.0, -1.0, 8.0]), (10, 10, 1))
    reading = Reading(
        board,
        np.full((10, 10), 0.9),
        lab,
        np.zeros((10, 10), int),
        np.zeros((10, 10)),
        np.full((10, 10), 10.0),
        np.ones(3),
        LITS,
        np.zeros((10, 10, len(LITS))),
        np.ones((10, 10)),
    )
    profile = build_profile(reading, {(7, 7): str(printed[7, 7])}, nominal=LITS)
    assert profile.layout is not None
    assert profile.layout[7][7] == printed[7, 7]
    path = tmp_path / "lits.toml"
    profile.save(path)
    assert Profile.load(path).layout == profile.layout
    assert "[layout]" in path.read_text()


def test_a_profile_whose_layout_does_not_fit_its_grid_is_refused(tmp_path):
    profile = Profile.start(LITS, 10, 10)
    profile.layout = ("X........O",) * 9 + ("X.......Q",)
    path = tmp_path / "lits.toml"
    profile.save(path)
    with pytest.raises(ProfileError, match=r"\[layout\] rows must be 10 strings of 10 cells"):
        Profile.load(path)


def test_symbols_glare_hid_or_misread_are_read_as_printed_with_a_profile():
    # Simulated LITS 14793 (a night board, glare 0.82): an O under the
    # lamp's spot read blank; 14771 (a 2800 K lamp): a blank unsure. The
    # profile made in daylight saw both cells uncovered.
    for seed in (14793, 14771):
        profile = calibrate_on("lits", seed, LITS)
        assert profile is not None and profile.layout is not None
        frame = next(still_frames("lits", seed, 1))
        board = sim_board("lits", seed, frame, profile.palette, profile)
        assert board.found and board.wrong == [], (seed, board.wrong)
        profile.layout = None  # as before profiles learnt the layout
        before = sim_board("lits", seed, frame, profile.palette, profile)
        assert before.wrong, seed


def test_a_cell_the_lamps_core_washed_out_beside_whole_pieces_is_its_printed_symbol():
    # Simulated LITS 14993 and 15075 (2700-3000 K lamps, glare 0.74-0.8): a
    # blank cell under the core read nearest blue beside a whole S, so it
    # stayed unsure; no piece fits it, so it is the board, and the profile
    # knows its symbol.
    for seed in (14993, 15075):
        profile = calibrate_on("lits", seed, LITS)
        assert profile is not None
        frame = next(still_frames("lits", seed, 1))
        board = sim_board("lits", seed, frame, profile.palette, profile)
        assert board.found and board.wrong == [], (seed, board.wrong)


def test_calibrate_then_read_with_the_profile_reads_the_symbols_as_printed(tmp_path, capsys):
    # The commands a player runs: `tilewatch calibrate` on a daylight frame
    # of simulated LITS table 14793, the board confirmed as read, then
    # `tilewatch read --profile` on the night frame whose O under the
    # lamp's spot reads blank without the layout.
    daylight = {"kelvin": 6500.0, "white_balance": 1.0, "shadow": 0.0, "glare": 0.0}
    calib = next(still_frames("lits", 14793, 1, moments="calibration", **daylight))
    play = next(still_frames("lits", 14793, 1))
    cv2.imwrite(str(tmp_path / "calib.png"), calib.image)
    cv2.imwrite(str(tmp_path / "play.png"), play.image)
    profile = tmp_path / "lits.toml"
    args = ["calibrate", str(tmp_path / "calib.png"), "--game", "lits", "--yes"]
    assert main([*args, "--out", str(profile), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    layout = np.array([list(row) for row in made["layout"]])
    truth = np.array([list(r) for r in calib.board])
    shown = np.isin(truth, ["X", "O", "."])  # (the grid found as the truth's way round)
    assert (layout[shown] == truth[shown]).all()
    # cells under pieces at calibration, told by their half-turn partner
    told = ~shown & (layout != "?")
    partner = {"X": "O", "O": "X", ".": "."}
    assert told.sum() >= 10
    assert all(partner[a] == b for a, b in zip(layout[told], layout[::-1, ::-1][told], strict=True))
    args = ["read", str(tmp_path / "play.png"), "--game", "lits", "--profile", str(profile)]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cells"] == play.board
