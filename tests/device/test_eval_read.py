"""``tilewatch eval read``: seed ranges, the reader alone, per-condition tables."""

import json

import numpy as np

from device.cli import main
from device.evals.read import Board, by_condition, condition_bin, misplaced, summary


def test_condition_bins_cover_zero_ranges_and_names():
    assert condition_bin("glare", 0.0) == "glare 0"
    assert condition_bin("glare", 0.3) == "glare 0-0.5"
    assert condition_bin("glare", 0.9) == "glare 0.7-1.5"
    assert condition_bin("kelvin", 2700) == "kelvin <=3300"
    assert condition_bin("noise", 7.0) == "noise >6"
    assert condition_bin("art", "ivory") == "art ivory"


def test_by_condition_groups_boards_and_counts_their_errors():
    right = Board("a", True, 36, tags={"glare": 0.0})
    wrong = Board("b", True, 36, [(0, 0, ".", "K")], tags={"glare": 0.8})
    missed = Board("c", False, tags={"glare": 0.85})
    table = by_condition([right, wrong, missed], ["glare"])
    assert list(table) == ["glare 0", "glare 0.7-1.5"]  # bins in order
    assert table["glare 0"]["boards_fully_right"] == 1
    high = table["glare 0.7-1.5"]
    assert (high["boards"], high["found"], high["cell_errors"], high["cells"]) == (2, 1, 1, 36)


def test_a_board_turned_wrong_by_gravity_is_not_right_as_tilewatch_read_reports_it():
    # Both read every cell right in the true orientation; gravity turned the
    # second a quarter off, so without a profile its whole text is wrong.
    upright = Board("a", True, 36, upright=True)
    turned = Board("b", True, 36, upright=False)
    misread = Board("c", True, 36, [(0, 0, ".", "K")], upright=True)
    s = summary([upright, turned, misread])
    assert s["boards_fully_right"] == 2
    assert s["gravity_upright"] == "2/3"
    assert s["boards_right_by_gravity"] == 1
    assert summary([Board("lits", True, 100)])["boards_right_by_gravity"] is None


def test_eval_read_on_chosen_seeds_with_true_corners(capsys):
    args = ["eval", "read", "--skip-photos", "--games", "lits", "--tables", "1"]
    code = main([*args, "--first-seed", "1000", "--corners", "truth", "--by", "art", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)["sim_lits_uncalibrated"]
    assert out["boards"] == 1 and out["found"] == 1 and out["cells"] == 100
    (label,) = out["by_condition"]
    assert label.startswith("art ") and out["by_condition"][label]["cells"] == 100


def test_eval_read_rejects_an_unknown_condition(capsys):
    assert main(["eval", "read", "--skip-photos", "--tables", "0", "--by", "colour"]) == 2
    assert "--by: unknown condition 'colour'" in capsys.readouterr().err


def test_a_grid_found_off_by_more_than_half_a_cell_is_what_a_person_calibrating_corrects():
    truth = np.array([[100.0, 100], [400, 100], [400, 400], [100, 400]])  # 50 px cells
    # named from another corner (a turned board) but in the right place: fine
    assert not misplaced(np.roll(truth, 1, axis=0), truth, 6)
    assert not misplaced(truth + np.array([20.0, 0.0]), truth, 6)  # 0.4 cell
    assert misplaced(truth + np.array([0.0, 30.0]), truth, 6)  # 0.6 cell: a row off, near enough
    half_block = np.array([[100.0, 100], [250, 100], [250, 250], [100, 250]])
    assert misplaced(half_block, truth, 6)  # a block of half-size cells taken for the grid
