"""tilewatch doctor against real files, a real database and rendered frames."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from device.config import load_config_text
from device.doctor import ROOM_CELLS, check_light, framing, run_checks
from device.evals.read import still_frames
from device.sim.conditions import Conditions
from device.sim.stills import still
from vision.locate import locate_grid


def _config(tmp_path, source):
    return load_config_text(
        f'[camera]\nsource = "{source}"\n'
        f'[storage]\npath = "{tmp_path / "state" / "game.sqlite"}"\n'
        f'[calibration]\nprofile = "{tmp_path / "state" / "profile.toml"}"\n'
    )


def _folder_with(tmp_path, image):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame.png"), image)
    return folder


def _statuses(findings):
    return {f.check: f.status for f in findings}


def test_a_well_lit_board_in_view_needs_nothing_fixed(tmp_path):
    shot = still("bits", 5, conditions=Conditions(seed=5))
    findings = run_checks(_config(tmp_path, _folder_with(tmp_path, shot.image)))
    got = _statuses(findings)
    assert got["camera"] == got["light"] == got["grid"] == got["disk"] == "ok"
    assert got["calibration"] == "warn"  # works uncalibrated, but says how to do better


def test_a_dark_room_is_called_out(tmp_path):
    shot = still("bits", 5, conditions=Conditions(seed=5))
    dark = (shot.image.astype(np.float32) * 0.08).astype(np.uint8)
    finding = check_light(dark)
    assert finding.status == "fix" and "turn on a lamp" in finding.message


def test_blown_out_sunlight_is_called_out():
    frame = np.full((480, 640, 3), 255, np.uint8)
    finding = check_light(frame)
    assert finding.status == "fix" and "blown out" in finding.message


def test_no_board_in_view_says_where_to_point(tmp_path):
    rng = np.random.default_rng(1)
    clutter = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (9, 9), 3)
    findings = run_checks(_config(tmp_path, _folder_with(tmp_path, clutter)))
    grid = next(f for f in findings if f.check == "grid")
    assert grid.status == "fix" and "point the camera" in grid.message


def test_missing_camera_and_damaged_database(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "game.sqlite").write_bytes(b"this is not a database, it is a shopping list" * 100)
    findings = run_checks(_config(tmp_path, "usb:97"))
    got = _statuses(findings)
    assert got["camera"] == "fix"
    assert got["database"] == "fix"
    assert "grid" not in got  # nothing to look at without a frame


def test_command_exit_code_and_json(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(
        f'[camera]\nsource = "usb:97"\n[storage]\npath = "{tmp_path / "db.sqlite"}"\n'
    )
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "doctor", "--config", str(config), "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    report = json.loads(out.stdout)
    assert report["ok"] is False
    assert {"check": "camera", "status": "fix"}.items() <= next(
        f for f in report["findings"] if f["check"] == "camera"
    ).items()


@pytest.mark.parametrize("text", ["[camera]\nsorce = 'x'", "[server]\nport = -1"])
def test_a_wrong_config_is_one_line_exit_2(tmp_path, text):
    config = tmp_path / "config.toml"
    config.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "device.cli", "doctor", "--config", str(config)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("tilewatch doctor: ")


def test_a_board_running_out_of_the_picture_says_to_frame_it_whole(tmp_path):
    # Simulated LITS table 15138: the board's bottom row runs out of the
    # picture, and the search finds the grid a row up, the title band taken
    # for the top row. The grid it finds sits 0.8 of a cell from the edge.
    frame = next(still_frames("lits", 15138, 1))
    findings = run_checks(_config(tmp_path, _folder_with(tmp_path, frame.image)), game="lits")
    warned = [f for f in findings if f.check == "grid" and f.status == "warn"]
    assert len(warned) == 1 and "a cell's width of table" in warned[0].message


def test_a_board_with_room_around_it_gets_no_framing_advice():
    shot = still("bits", 5, conditions=Conditions(seed=5))
    fit = locate_grid(shot.image, 6, 6)
    assert fit is not None and fit.room(640, 480) >= ROOM_CELLS
    assert framing(fit, shot.image) is None
    # the same board cut off below its grid: a corner lies outside the picture
    cut = np.ascontiguousarray(shot.image[: int(fit.corners[:, 1].max()) - 10])
    assert framing(fit, cut) is not None
