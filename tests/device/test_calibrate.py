"""``tilewatch calibrate``: one frame, one confirmation, one profile file."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from calibration.profile import Profile
from device.cli import main
from device.evals.read import still_frames
from tests.device.test_read_cells import BOARD, CORNERS, photo

ENTRY = "import sys; from device.cli import main; sys.exit(main(sys.argv[1:]))"


def calibrate(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-c", ENTRY, "calibrate", *map(str, args)],
        capture_output=True,
        text=True,
        input=stdin,
    )


def test_yes_with_a_fix_writes_a_profile(tmp_path, capsys):
    out = tmp_path / "p.toml"
    code = main(
        [
            "calibrate",
            str(photo(tmp_path, BOARD)),
            "--corners",
            CORNERS,
            "--yes",
            "--fix",
            "1,1=N",
            "--out",
            str(out),
            "--json",
        ]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["profile"] == str(out)
    assert result["fixes"] == [[0, 0, "N"]]
    assert result["cells"][0][0] == "N" and result["cells"][1:] == BOARD[1:]
    prof = Profile.load(out)
    assert prof.geometry.mode == "manual" and (prof.rows, prof.cols) == (6, 6)
    n = prof.palette.index("N")
    # The fixed cell (an empty-board cell called grey) taught the grey entry.
    assert prof.samples[n] == 1
    assert result["learnt"]["red"] == 4


def test_interactive_confirmation_and_cancel(tmp_path):
    image = photo(tmp_path, BOARD)
    out = tmp_path / "p.toml"
    done = calibrate(image, "--corners", CORNERS, "--interactive", "--out", out, stdin="\n")
    assert done.returncode == 0, done.stderr
    assert "Is this the board?" in done.stdout and out.is_file()
    fixed = calibrate(image, "--corners", CORNERS, "--interactive", "--out", out, stdin="6,6=K\n")
    assert fixed.returncode == 0 and "1 cell(s) fixed" in fixed.stdout
    out.unlink()
    gone = calibrate(image, "--corners", CORNERS, "--interactive", "--out", out, stdin="q\n")
    assert gone.returncode == 2 and "cancelled" in gone.stderr and not out.exists()


def test_refusals_are_one_line_and_write_nothing(tmp_path):
    image = photo(tmp_path, BOARD)
    out = tmp_path / "p.toml"
    for args, says in [
        ((image, "--corners", CORNERS, "--out", out), "nobody to confirm"),
        ((image, "--corners", CORNERS, "--yes", "--fix", "9,9=R", "--out", out), "row must be"),
        ((tmp_path / "missing.png", "--yes"), "no such file"),
        ((), "give a photo"),
    ]:
        done = calibrate(*args)
        assert done.returncode == 2, args
        assert says in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()


def test_no_grid_is_exit_3(tmp_path):
    import cv2

    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 200, np.uint8))
    assert calibrate(blank, "--yes", "--out", tmp_path / "p.toml").returncode == 3


def test_a_board_running_out_of_the_picture_is_warned_of(tmp_path):
    # Simulated LITS 15138: the bottom row is out of the picture. The
    # profile is still written (the person may fix the cells), with a
    # warning to frame the whole board first.
    frame = next(still_frames("lits", 15138, 1))
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), frame.image)
    out = tmp_path / "p.toml"
    done = calibrate(image, "--game", "lits", "--yes", "--out", out)
    assert done.returncode == 0 and out.exists()
    assert "warning:" in done.stderr and "a cell's width of table" in done.stderr
