"""``tilewatch read``: the JSON contract, exit codes and the debug image."""

import csv
import json
import subprocess
import sys

import cv2
import numpy as np

from device.cli import main
from tests.vision.boards import shot

# Not ``python -m device.cli``: that runs cli.py as ``__main__``, a second copy
# whose CliError class is not the one the commands raise.
ENTRY = "import sys; from device.cli import main; sys.exit(main(sys.argv[1:]))"


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-c", ENTRY, "read", *map(str, args)], capture_output=True, text=True
    )


def test_read_json_on_a_real_photo(shared_data, tmp_path, capsys):
    folder = shared_data / "sudoku-grids"
    with open(folder / "corners.csv") as f:
        row = next(r for r in csv.DictReader(f) if r["filepath"] == "images/image96.jpg")
    truth = np.array([[float(row[f"p{i}_{a}"]) for a in "xy"] for i in range(1, 5)])
    debug = tmp_path / "debug.png"
    code = main(
        [
            "read",
            str(folder / row["filepath"]),
            "--grid",
            "9x9",
            "--json",
            "--debug-image",
            str(debug),
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["found"] is True and out["grid"] == [9, 9] and out["game"] == "bits"
    side = np.mean(np.linalg.norm(truth - np.roll(truth, -1, 0), axis=1))
    assert np.max(np.linalg.norm(np.array(out["corners"]) - truth, axis=1)) < 0.05 * side
    drawn = cv2.imread(str(debug))
    assert drawn is not None and drawn.shape == cv2.imread(str(folder / row["filepath"])).shape


def test_not_found_is_exit_3_with_found_false(tmp_path):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 200, np.uint8))
    out = run_cli(blank, "--json", "--debug-image", tmp_path / "miss.png")
    assert out.returncode == 3
    assert json.loads(out.stdout)["found"] is False
    assert (tmp_path / "miss.png").is_file()


def test_default_grid_comes_from_the_game(tmp_path, capsys):
    s = shot(10, 10, tilt=20, symbols=True, seed=4)
    path = tmp_path / "lits.png"
    cv2.imwrite(str(path), s.image)
    assert main(["read", str(path), "--game", "lits", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == [10, 10] and out["game"] == "lits"
    assert np.max(np.linalg.norm(np.array(out["corners"]) - s.corners, axis=1)) < 0.015 * s.side()


def test_manual_corners_are_used_as_given(tmp_path, capsys):
    path = tmp_path / "any.png"
    cv2.imwrite(str(path), np.zeros((100, 100, 3), np.uint8))
    assert main(["read", str(path), "--corners", "10,10, 90,12, 88,90, 12,88", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["corners"] == [[10, 10], [90, 12], [88, 90], [12, 88]]


def test_bad_input_is_exit_2_with_one_line(tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\xff\xd8 definitely not a jpeg")
    for args in (
        [junk],
        [tmp_path / "missing.png"],
        [junk, "--grid", "6by6"],
        [junk, "--corners", "1,2,3"],
    ):
        out = run_cli(*args)
        assert out.returncode == 2, args
        assert out.stderr.count("\n") == 1 and "tilewatch read:" in out.stderr


def test_a_lits_piece_is_read_in_the_colour_of_its_shape(tmp_path, capsys):
    # Four yellow cells in an L's shape (a red L under a lamp that makes it
    # look yellow, drawn here in the I's own yellow): no LITS piece is a
    # yellow L, so ``read`` reports an L there, with its confidence capped
    # (the colour did not say so), and leaves the real T alone.
    from calibration.palette import load_palette
    from tests.vision.synth import Light, render_board

    rows = [
        "IIIX..O...",
        "I..O.X..X.",
        ".X....O...",
        "..O..X....",
        "X...O...O.",
        ".O..X.....",
        "...X...X..",
        "O.....TTT.",
        "..X..O.T..",
        ".O...X..X.",
    ]
    image = render_board(
        rows, load_palette("lits"), Light(kelvin=5000), cell_px=40, tile_symbols=False, seed=2
    )
    path = tmp_path / "lits.png"
    cv2.imwrite(str(path), image)
    h, w = image.shape[:2]
    corners = f"0,0, {w},0, {w},{h}, 0,{h}"
    assert main(["read", str(path), "--game", "lits", "--corners", corners, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cells"][:2] == ["LLLX..O...", "L..O.X..X."]
    assert out["cells"][7:9] == ["O.....TTT.", "..X..O.T.."]
    assert max([*out["confidence"][0][:3], out["confidence"][1][0]]) <= 0.5
