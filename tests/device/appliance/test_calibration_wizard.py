"""The phone's calibration wizard end to end: start, drag corners, confirm;
the camera side answers with a picture and the board as read, and the
confirmation writes the profile the tracker then reads with."""

import json
import time
import urllib.request

import cv2
import numpy as np

from calibration.profile import Profile
from device.appliance import Appliance
from device.config import load_config_text
from device.sim.conditions import Conditions
from device.sim.stills import still
from device.sources.folder import FolderSource


def _post(url, path, body, pin):
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Table-PIN": pin},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def _wait(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_wizard_reads_the_board_and_confirm_saves_the_profile(tmp_path):
    shot = still("bits", 11, conditions=Conditions(seed=11))
    truth_rows = shot.truth["board"]
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "frame.png"), shot.image)
    profile_path = tmp_path / "profile.toml"
    cfg = load_config_text(
        f'[server]\nhost = "127.0.0.1"\nport = 0\n[table]\npin = "2468"\n'
        f'[storage]\npath = "{tmp_path / "game.sqlite"}"\n'
        f'[calibration]\nprofile = "{profile_path}"\n'
    )
    app = Appliance(cfg, source_factory=lambda: FolderSource(folder, fps=10))
    app.start()
    try:
        url = app.server.url
        _post(url, "api/game", {"game": "bits", "setup": {"players": ["Ann"]}}, "2468")
        _wait(lambda: app._latest is not None)
        _post(url, "api/calibration/start", {}, "2468")
        wizard = _wait(lambda: (c := app.table.calibration())["step"] == "check" and c)
        assert wizard["grid"] == [6, 6]
        # The corners the camera side found sit on the rendered grid's corners.
        found = np.array(wizard["corners"])
        true = np.array(shot.truth["corners"])
        side = np.linalg.norm(true[1] - true[0])
        assert np.abs(found - true).max() < 0.03 * side
        # Every tile is read as rendered. (Accuracy is `tilewatch eval read`'s
        # job; here, uncalibrated on a near-black board, the empty holes
        # under overhangs may still pass for black tiles: the wizard is
        # where a player corrects that once.)
        read = "".join(wizard["cells"])
        truth = "".join(truth_rows)
        assert len(read) == 36
        assert "".join(a for a, b in zip(read, truth, strict=True) if b != ".") == truth.replace(
            ".", ""
        )
        _post(url, "api/calibration/confirm", {}, "2468")
        _wait(profile_path.exists)
        profile = Profile.load(profile_path)
        assert profile.rows == 6 and profile.cols == 6
        assert np.abs(profile.corners - true).max() < 0.03 * side
        # The running tracker now reads with it.
        _wait(lambda: app.profile is not None)
    finally:
        app.stop()
