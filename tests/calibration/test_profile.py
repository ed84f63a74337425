"""The profile file: round trip, learning, and broken files."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import GridGeometry
from calibration.palette import load_palette
from calibration.profile import MEMORY, Profile, ProfileError

BITS = load_palette("bits")


def test_round_trip_keeps_everything(tmp_path):
    p = Profile.start(
        BITS,
        6,
        6,
        gains=np.array([0.8, 1.0, 1.6]),
        corners=np.array([[10.0, 20], [110, 22], [108, 120], [12, 118]]),
        image_size=(640, 480),
        camera={"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": [1.8, 1.4]},
        geometry=GridGeometry(6, 6, "manual", corners=((1, 2), (3, 4), (5, 6), (7, 8))),
        quarter_turns=2,
    )
    p.learn([("R", [50.0, 60.0, 45.0]), ("R", [52.0, 58.0, 44.0]), ("N", [60.0, 1.0, -1.0])])
    path = tmp_path / "prof.toml"
    p.save(path)
    q = Profile.load(path)
    assert q.geometry == p.geometry and (q.rows, q.cols) == (6, 6)
    assert np.allclose(q.gains, p.gains) and np.allclose(q.corners, p.corners)
    assert q.image_size == (640, 480) and q.quarter_turns == 2
    assert q.camera["ColourGains"] == [1.8, 1.4]
    assert q.palette.codes == BITS.codes
    assert np.allclose(q.palette.lab, p.palette.lab, atol=0.01)
    assert q.samples.tolist() == p.samples.tolist()
    assert "# tilewatch calibration profile" in path.read_text()  # for people


def test_learning_is_a_running_mean_that_ignores_outliers():
    p = Profile.start(BITS, 6, 6)
    r = BITS.index("R")
    assert p.learn([("R", [50.0, 60.0, 40.0]), ("R", [52.0, 62.0, 42.0])]) == 2
    assert np.allclose(p.palette.lab[r], [51.0, 61.0, 41.0])
    # A hand over the cell: far from red, not learnt.
    assert p.learn([("R", [80.0, 5.0, 10.0])]) == 0
    assert np.allclose(p.palette.lab[r], [51.0, 61.0, 41.0])
    # ...unless a person vouches for it.
    assert p.learn([("R", [80.0, 5.0, 10.0])], trusted=True) == 1
    # Codes the palette does not know are skipped.
    assert p.learn([("Z", [1.0, 2.0, 3.0])]) == 0


def test_memory_is_bounded_so_it_follows_a_slow_change():
    p = Profile.start(BITS, 6, 6)
    y = BITS.index("Y")
    p.learn([("Y", [80.0, 0.0, 80.0])] * 50)
    for step in range(2 * MEMORY):
        p.learn([("Y", [80.0, 0.0, 80.0 - 10.0 * (step + 1) / (2 * MEMORY)])])
    # With unbounded memory the mean would lag far behind; bounded, it follows.
    assert p.palette.lab[y][2] < 75.0


def test_symbol_codes_teach_their_colour():
    lits = load_palette("lits")
    p = Profile.start(lits, 10, 10)
    p.learn([("X", [90.0, 0.0, 10.0]), ("O", [92.0, 0.0, 10.0])])
    assert np.allclose(p.palette.lab[lits.index(".")], [91.0, 0.0, 10.0])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("version = 9\n", "version 9"),
        ("version = 1\n[geometry]\ngrid = [6]\n", "grid must be [rows, cols]"),
        ("version = 1\n[geometry]\ngrid = [6, 6]\nfound_corners = [[1, 2]]\n", "four [x, y]"),
        ("version = 1\n[geometry]\ngrid = [6, 6]\n", "[[colour]]"),
        ("version = 1\n[geometry]\ngrid = [6, 6]\nmode = 'psychic'\n", "geometry mode"),
        ("version = 1\n[[geometry\n", "not valid TOML"),
    ],
)
def test_broken_profiles_are_refused(tmp_path, text, says):
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as err:
        Profile.load(path)
    assert says in str(err.value)


def test_save_is_atomic(tmp_path):
    path = tmp_path / "p.toml"
    Profile.start(BITS, 6, 6).save(path)
    assert path.is_file() and not (tmp_path / "p.toml.tmp").exists()
