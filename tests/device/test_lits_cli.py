"""``tilewatch lits ...`` on the example files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "lits"


def run(capsys, *argv):
    code = main(["lits", *[str(a) for a in argv]])
    out, err = capsys.readouterr()
    return code, out, err


def ex(name):
    return EXAMPLES / name


def test_moves_lists_every_legal_placement(capsys):
    code, out, _ = run(capsys, "moves", ex("midgame.txt"), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["count"] == 58 == len(result["moves"])
    assert sum(result["by_shape"].values()) == 58
    # midgame.txt has 4 T pieces: with a supply of 4 no T is offered.
    code, out, _ = run(capsys, "moves", ex("midgame.txt"), "--json", "--supply", "4")
    assert json.loads(out)["by_shape"]["T"] == 0


def test_moves_text_counts_cells_from_one(capsys):
    code, out, _ = run(capsys, "moves", ex("midgame.txt"), "--shape", "I")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("58 legal placements (L ")
    assert all(line.startswith("I  ") for line in lines[1:])
    assert (
        len(lines)
        == 1 + json.loads(run(capsys, "moves", ex("midgame.txt"), "--json")[1])["by_shape"]["I"]
    )


def test_moves_on_a_finished_board(capsys):
    code, out, _ = run(capsys, "moves", ex("final.txt"))
    assert code == 0 and out.startswith("0 legal placements: no piece fits")


@pytest.mark.parametrize(
    ("after", "code", "reason"),
    [
        ("after-legal.txt", 0, "ok"),
        ("after-same-shape.txt", 1, "same_shape_touching"),
        ("after-square.txt", 1, "square_covered"),
        ("before.txt", 1, "nothing_placed"),
    ],
)
def test_check_judges_one_move(capsys, after, code, reason):
    got, out, _ = run(capsys, "check", ex("before.txt"), ex(after), "--json")
    assert got == code
    result = json.loads(out)
    assert result["reason"] == reason and result["legal"] is (code == 0)


def test_check_text_names_the_reason_and_cells(capsys):
    code, out, _ = run(capsys, "check", ex("before.txt"), ex("after-same-shape.txt"))
    assert code == 1
    assert out.startswith("illegal (same_shape_touching): This yellow I")
    assert "[cells " in out and "7,2 7,3 7,4 7,5" in out


def test_score_of_a_finished_game(capsys):
    # final.txt shows 4 X and 7 O uncovered (counted on the file).
    code, out, _ = run(capsys, "score", ex("final.txt"), "--json")
    result = json.loads(out)
    assert (result["X"], result["O"]) == (4, 7)
    assert result["over"] is True and result["winner"] == "O" and result["problems"] == []
    code, out, _ = run(capsys, "score", ex("final.txt"))
    assert code == 0
    assert out.splitlines() == [
        "X 4, O 7",
        "game over, no piece fits. X 4, O 7: O has more symbols showing.",
    ]


def test_score_tie_needs_the_last_player(tmp_path, capsys):
    # A blank-layout board with one I and one T: no X or O at all, 0-0.
    board = tmp_path / "tie.txt"
    board.write_text("\n".join(["IIII......", ".TTT......", "..T......."] + ["." * 10] * 7))
    result = json.loads(run(capsys, "score", board, "--json")[1])
    assert result["over"] is False and result["winner"] is None
    assert result["legal_moves"] > 0


def test_score_of_a_game_still_going(capsys):
    code, out, _ = run(capsys, "score", ex("midgame.txt"))
    assert code == 0 and "58 legal placements left" in out


def test_score_still_counts_a_broken_board(capsys):
    result = json.loads(run(capsys, "score", ex("final-broken.txt"), "--json")[1])
    assert (result["X"], result["O"]) == (4, 7)
    assert result["legal_moves"] is None and result["over"] is False
    assert [p["reason"] for p in result["problems"]] == ["not_a_tetromino", "not_a_tetromino"]


def test_decode(capsys):
    code, out, _ = run(capsys, "decode", ex("final.txt"))
    assert code == 0 and out.startswith("15 pieces, no problems")
    code, out, _ = run(capsys, "decode", ex("final-broken.txt"), "--json")
    assert code == 1
    assert len(json.loads(out)["problems"]) == 2


def test_layouts(capsys):
    assert run(capsys, "layout", "--list")[1].split() == [
        "crossfire",
        "diagonal",
        "frame",
        "scatter",
    ]
    result = json.loads(run(capsys, "layout", "--random", "2013", "--json")[1])
    assert result["X"] == result["O"] == 30 and result["notes"] == []
    code, out, _ = run(capsys, "layout", "--file", ex("custom-layout.txt"))
    assert code == 0
    assert out.splitlines()[0] == "X........O"
    assert "note: not symmetric" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "missing.txt"], "no such file: missing.txt"),
        (["moves", ex("final-broken.txt")], "9 red cells are joined"),
        (["moves", ex("midgame.txt"), "--supply", "0"], "--supply is 1 to 25"),
        (["check", ex("before.txt"), ex("README.md")], "expected 10 rows"),
        (["layout", "moon"], "no built-in layout 'moon'"),
        (["layout", "frame", "--random", "3"], "give one of"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("tilewatch lits: ")


def test_reads_standard_input():
    text = (EXAMPLES / "final.txt").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "device.cli", "lits", "score", "-", "--json"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["winner"] == "O"
