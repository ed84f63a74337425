"""``tilewatch read`` fills cells, confidence and score (the DESIGN.md contract)."""

from __future__ import annotations

import json

import cv2
import numpy as np

from calibration.palette import load_palette
from device.cli import main
from tests.vision.synth import Light, render_board

BITS = load_palette("bits")
# A small board that obeys gravity, whose blocks are easy to count by hand.
BOARD = ["......", "......", "......", "....BB", "RR..BB", "RRYYKK"]


def photo(tmp_path, board, palette=BITS, light=None, turn=0):
    """The rendered board on a grey table, 60 px margin, maybe turned."""
    img = np.full((480, 640, 3), 90, np.uint8)
    img[60:420, 140:500] = render_board(board, palette, light, noise=2, seed=4)
    img = np.rot90(img, -turn).copy()
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), img)
    return path


CORNERS = "140,60,500,60,500,420,140,420"


def read_json(capsys, *args):
    code = main(["read", *map(str, args), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_cells_confidence_and_score(tmp_path, capsys):
    code, out = read_json(capsys, photo(tmp_path, BOARD), "--corners", CORNERS, "--card", "square")
    assert code == 0 and out["found"] is True
    assert out["cells"] == BOARD
    assert len(out["confidence"]) == 6 and all(len(r) == 6 for r in out["confidence"])
    assert min(min(r) for r in out["confidence"]) > 0.5
    assert out["unsure"] == []
    # Two 2x2 squares (red, blue): 2 points each on the pile-1 square card; the
    # yellow and black pairs are 2 cells, not 4: the "+1 per other 4-block" adds nothing.
    assert out["score"]["total"] == 4


def test_no_card_no_score_and_lits_counts_symbols(tmp_path, capsys):
    code, out = read_json(capsys, photo(tmp_path, BOARD), "--corners", CORNERS)
    assert code == 0 and out["score"] == {}
    lits = load_palette("lits")
    board = ["X..O", ".LLL", "O.XL", "..O."]
    img = np.full((400, 400, 3), 90, np.uint8)
    img[40:360, 40:360] = render_board(board, lits, noise=1, cell_px=80, tile_symbols=False)
    path = tmp_path / "lits.png"
    cv2.imwrite(str(path), img)
    code, out = read_json(
        capsys, path, "--game", "lits", "--grid", "4x4", "--corners", "40,40,360,40,360,360,40,360"
    )
    assert out["cells"] == board
    assert out["score"] == {"X": 2, "O": 3}


def test_a_turned_bits_board_is_turned_back_by_gravity(tmp_path, capsys):
    # The camera sees the ramp lying on its side: tiles pile against the right edge.
    code, out = read_json(capsys, photo(tmp_path, BOARD, turn=1))
    assert code == 0
    assert out["cells"] == BOARD


def test_profile_reads_under_a_warm_lamp(tmp_path, capsys):
    day = photo(tmp_path, BOARD)
    prof = tmp_path / "p.toml"
    assert main(["calibrate", str(day), "--corners", CORNERS, "--yes", "--out", str(prof)]) == 0
    capsys.readouterr()
    later = ["......", "......", "..K...", "..PNBB", "RRPNBB", "RRYYKK"]
    warm = photo(tmp_path, later, light=Light(kelvin=2700))
    code, out = read_json(capsys, warm, "--corners", CORNERS, "--profile", prof)
    assert code == 0 and out["cells"] == later


def test_debug_image_and_bad_profile(tmp_path, capsys):
    debug = tmp_path / "debug.png"
    code, _ = read_json(
        capsys, photo(tmp_path, BOARD), "--corners", CORNERS, "--debug-image", debug
    )
    assert code == 0 and cv2.imread(str(debug)).shape == (480, 640, 3)
    bad = tmp_path / "bad.toml"
    bad.write_text("version = 1\n[geometry]\n")
    assert main(["read", str(photo(tmp_path, BOARD)), "--profile", str(bad)]) == 2
    assert "grid must be [rows, cols]" in capsys.readouterr().err
    assert main(["read", str(photo(tmp_path, BOARD)), "--palette", "nope"]) == 2


def test_a_board_running_out_of_the_picture_is_read_with_a_warning(tmp_path, capsys):
    # The board with 100 px (60 px cells) of table around it: no warning.
    # Cut 20 px below the grid's bottom edge: the reading comes with advice
    # to frame the board whole, on stderr, and the JSON is as before.
    wide = cv2.copyMakeBorder(
        cv2.imread(str(photo(tmp_path, BOARD))),
        40,
        40,
        40,
        40,
        cv2.BORDER_CONSTANT,
        value=(90, 90, 90),
    )
    path, cut = tmp_path / "wide.png", tmp_path / "cut.png"
    cv2.imwrite(str(path), wide)
    cv2.imwrite(str(cut), wide[:480])
    for image, warned in ((path, False), (cut, True)):
        code = main(["read", str(image), "--json"])
        captured = capsys.readouterr()
        assert code == 0 and json.loads(captured.out)["cells"] == BOARD
        assert ("a cell's width of table" in captured.err) is warned
