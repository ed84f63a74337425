"""``tilewatch score`` and ``tilewatch check`` on real files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import main

EXAMPLE = "examples/bits/rulebook-example.txt"
BEFORE = "examples/bits/midgame-before.txt"
AFTER = "examples/bits/midgame-after.txt"


@pytest.fixture(autouse=True)
def _in_repo(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, rows):
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_score_the_rulebook_example_as_json(capsys):
    code, out, _ = run(capsys, "score", EXAMPLE, "--card", "square", "--card", "blue-corner",
                       "--card", "shape=##,points=-2,pile=3", "--json")  # fmt: skip
    data = json.loads(out)
    assert code == 0
    assert data["total"] == 6
    assert [card["points"] for card in data["cards"]] == [6, 2, -2]
    assert data["cards"][1]["blocks"] == [[[1, 2], [2, 2], [2, 3]]]
    assert data["cards"][2]["blocks"] == [[[4, 3], [5, 3]]]
    assert len(data["cards"][0]["blocks"]) == 4 and data["mirror"] is True


def test_score_text_lists_the_blocks_and_the_total(capsys):
    code, out, _ = run(capsys, "score", EXAMPLE, "--card", "pair")
    assert code == 0
    assert "-2  purple shape: r5c4 r6c4" in out
    assert out.strip().endswith("total: -2")


def test_score_reads_standard_input_and_honours_no_mirror(capsys, monkeypatch):
    import io

    board = "\n".join(["......"] * 3 + [".R....", ".R....", "RR...."])
    card = "shape=#./#./##,points=3,pile=4"  # an L; the board holds a J
    monkeypatch.setattr(sys, "stdin", io.StringIO(board))
    assert json.loads(run(capsys, "score", "-", "--card", card, "--json")[1])["total"] == 3
    monkeypatch.setattr(sys, "stdin", io.StringIO(board))
    no_mirror = run(capsys, "score", "-", "--card", card, "--no-mirror", "--json")[1]
    assert json.loads(no_mirror)["total"] == 0


def test_score_with_a_users_catalogue(capsys, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[[card]]\nname = "black-pair"\nshape = "##"\ncolour = "K"\npile = 2\n')
    code, out, _ = run(capsys, "score", EXAMPLE, "--catalogue", str(path),
                       "--card", "black-pair", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["total"] == 0  # the example has no black pair


def test_score_lists_the_catalogue(capsys):
    code, out, _ = run(capsys, "score", "--list-cards")
    assert code == 0 and "square: ##/##" in out and "[known]" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", EXAMPLE], "at least one --card"),
        (["score", EXAMPLE, "--card", "dragon"], "no task card named 'dragon'"),
        (["score", EXAMPLE, "--card", "shape=#.#"], "joined by edges"),
        (["score", "missing.txt", "--card", "pair"], "cannot read missing.txt"),
        (["check", EXAMPLE, AFTER, "--tile", "RX"], "a tile is two colour codes"),
        (["check", "-", "-"], "only one of BEFORE and AFTER"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_unreadable_and_malformed_boards_exit_2(capsys, tmp_path):
    unsure = write(tmp_path, "unsure.txt", ["......"] * 5 + ["..?..."])
    code, _, err = run(capsys, "score", unsure, "--card", "pair")
    assert code == 2 and "row 6, column 3 is '?'" in err
    short = write(tmp_path, "short.txt", ["......"] * 4)
    code, _, err = run(capsys, "check", short, AFTER)
    assert code == 2 and "expected 6 rows" in err
    binary = tmp_path / "photo.txt"
    binary.write_bytes(b"\xff\xd8\xff\xe0")
    assert run(capsys, "score", str(binary), "--card", "pair")[0] == 2


def test_check_legal_drop(capsys):
    code, out, _ = run(capsys, "check", BEFORE, AFTER, "--tile", "RY")
    assert code == 0 and out.strip() == "legal: RY vertical in column 3, rows 4-5 (red-yellow)"


def test_check_json_for_an_illegal_drop(capsys):
    code, out, _ = run(capsys, "check", BEFORE, AFTER, "--tile", "BB", "--json")
    data = json.loads(out)
    assert code == 1
    assert (data["legal"], data["reason"], data["cells"]) == (False, "wrong_tile", [[3, 2], [4, 2]])
    assert data["drop"]["tile"] == "RY" and data["tiles"] == ["RY"]


def test_check_without_a_tile_says_which_tile_it_was(capsys):
    code, out, _ = run(capsys, "check", BEFORE, AFTER, "--json")
    assert code == 0 and json.loads(out)["tiles"] == ["RY"]


@pytest.mark.parametrize(
    ("flags", "reason"),
    [
        (["--dropped-out"], "dropped_out"),
        (["--placed"], "already_placed"),
    ],
)
def test_check_player_state_flags(capsys, flags, reason):
    code, out, _ = run(capsys, "check", BEFORE, AFTER, "--tile", "RY", "--json", *flags)
    assert code == 1 and json.loads(out)["reason"] == reason


def test_check_neutral_rules(capsys, tmp_path):
    rows = ["......"] * 3 + ["B.N.KP", "BRNYYP", "RRKKBB"]
    neutral = write(tmp_path, "neutral.txt", rows)
    assert run(capsys, "check", BEFORE, neutral, "--tile", "RY")[0] == 0
    code, out, _ = run(capsys, "check", BEFORE, neutral, "--tile", "RY", "--neutral-used")
    assert code == 1 and out.startswith("illegal (second_neutral)")
    code, out, _ = run(capsys, "check", BEFORE, neutral, "--tile", "RY", "--start")
    assert code == 1 and out.startswith("illegal (wrong_tile)")


def test_check_text_names_the_reason_and_cells(capsys, tmp_path):
    floating = write(
        tmp_path, "float.txt", ["......", "......", "..R...", "B.Y.KP", "BR.YYP", "RRKKBB"]
    )
    code, out, _ = run(capsys, "check", BEFORE, floating, "--tile", "RY")
    assert code == 1
    assert out.splitlines() == [
        "illegal (mid_air): The tile in column 3, rows 3-4 is resting in mid-air: it must"
        " slide down to column 3, rows 4-5.",
        "cells: r3c3 r4c3 r5c3",
    ]


def test_the_installed_command(repo_root):
    # the console script pip installed beside this Python
    exe = Path(sys.executable).parent / "tilewatch"
    done = subprocess.run([str(exe), "score", EXAMPLE, "--card", "square", "--json"],
                          capture_output=True, text=True, cwd=repo_root)  # fmt: skip
    assert done.returncode == 0 and json.loads(done.stdout)["total"] == 6
    bad = subprocess.run([str(exe), "check", EXAMPLE], capture_output=True, text=True)
    assert bad.returncode == 2
