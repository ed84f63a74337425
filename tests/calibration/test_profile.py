"""The profile file: round trip, learning, and broken files."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import GridGeometry
from calibration.palette import load_palette
from calibration.profile import MEMORY, Profile, ProfileError
from vision.classify import scores

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
    assert q.palette.most.tolist() == BITS.most.tolist()  # two grey cells at most
    assert q.samples.tolist() == p.samples.tolist()
    assert "# tilewatch calibration profile" in path.read_text()  # for people


def test_learning_is_a_running_mean_that_ignores_outliers():
    p = Profile.start(BITS, 6, 6)
    r = BITS.index("R")
    assert p.learn([("R", [50.0, 60.0, 40.0]), ("R", [52.0, 62.0, 42.0])]) == 2
    assert np.allclose(p.palette.lab[r], [51.0, 61.0, 41.0])
    # An orange-looking cell 36.6 ΔE from this red (L* weighs half): beyond
    # max_distance (30), not learnt...
    assert p.learn([("R", [60.0, 30.0, 60.0])]) == 0
    assert np.allclose(p.palette.lab[r], [51.0, 61.0, 41.0])
    # ...unless a person vouches for it: the mean of three moves a third.
    assert p.learn([("R", [60.0, 30.0, 60.0])], trusted=True) == 1
    assert np.allclose(p.palette.lab[r], [54.0, 50.666, 47.333], atol=0.01)
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


def test_a_cell_brighter_than_white_teaches_nothing_even_when_confirmed():
    # A highlight (or a gain gone wrong) makes a cell read L* above 100: no
    # tile looks like that, whoever confirms the cell's code.
    p = Profile.start(BITS, 6, 6)
    y = BITS.index("Y")
    assert p.learn([("Y", [197.0, 194.0, 197.0])], trusted=True) == 0
    assert p.learn([("Y", [-3.0, 0.0, 0.0])], trusted=True) == 0
    assert np.allclose(p.palette.lab[y], BITS.lab[y])


def test_a_cell_at_the_sensors_black_teaches_nothing_even_when_confirmed():
    # Every dark tile in a shadowed corner reads exactly black: learnt as
    # purple, a red tile there would read purple surely (simulated BITS 1403).
    # Just above the sensor's black (L* 1) a dark purple is still learnt.
    p = Profile.start(BITS, 6, 6)
    k = BITS.index("P")
    assert p.learn([("P", [0.0, 0.0, 0.0])], trusted=True) == 0
    assert p.learn([("P", [0.6, 1.0, -2.0])], trusted=True) == 0
    assert np.allclose(p.palette.lab[k], BITS.lab[k])
    assert p.learn([("P", [8.0, 20.0, -30.0])], trusted=True) == 1
    assert np.allclose(p.palette.lab[k], [8.0, 20.0, -30.0])


def test_play_cannot_walk_a_colour_away_from_where_it_started():
    # Calibrated red, then a run of samples each within max_distance of the
    # running mean but all leaning one way (a highlight creeping over the
    # tile): the mean may move at most the palette's drift (20 ΔE) from the
    # calibrated colour, however many steps.
    p = Profile.start(BITS, 6, 6)
    r = BITS.index("R")
    p.learn([("R", [44.0, 62.0, 40.0])] * 4, trusted=True)  # calibration
    start = p.palette.lab[r].copy()
    for _ in range(400):
        now = p.palette.lab[r]
        p.learn([("R", [now[0] + 20.0, now[1] - 20.0, now[2]])])
    d = p.palette.lab[r] - start
    moved = float(np.sqrt((0.5 * d[0]) ** 2 + d[1] ** 2 + d[2] ** 2))
    assert 15.0 < moved <= 20.0 + 1e-9
    # a confirmed cell cannot push past it either
    assert p.learn([("R", [90.0, 0.0, 40.0])], trusted=True) == 0


def test_a_colour_first_seen_in_play_is_learnt_then_held_near_it():
    # Calibrated on an empty board: only the board's colour was learnt. The
    # first red tile in play replaces the nominal red (a board read darker
    # than nominal reads its tiles darker too); from then on red is held
    # within the drift (20 ΔE) of that first sight.
    p = Profile.start(BITS, 6, 6)
    p.learn([(".", BITS.lab[BITS.index(".")])] * 36, trusted=True)
    r = BITS.index("R")
    seen = BITS.lab[r] + np.array([-20.0, -10.0, -10.0])  # darker, 17.3 ΔE away
    assert p.learn([("R", seen)]) == 1
    assert np.allclose(p.palette.lab[r], seen)
    assert p.learn([("R", seen + np.array([0.0, 25.0, 0.0]))], trusted=True) == 1  # moves 12.5
    assert p.learn([("R", seen + np.array([0.0, 60.0, 0.0]))], trusted=True) == 0  # ends 27.5 away


def test_a_confirmed_first_sight_in_play_far_from_the_colour_is_not_learnt():
    # Simulated BITS 1775: the first black tile of the game lay under a
    # glint and read as the bright print (L* 84), 70 ΔE from black. The
    # players confirmed "black", but the camera did not see black: learnt
    # as the first sight in play (which replaces the colour outright), the
    # neutral tile read black later. A first sight within max_distance is
    # still learnt, confirmed or not.
    p = Profile.start(BITS, 6, 6)
    p.learn([(".", BITS.lab[BITS.index(".")])] * 36, trusted=True)
    k = BITS.index("K")
    glint = np.array([83.6, 2.9, -10.8])
    assert p.learn([("K", glint)], trusted=True) == 0
    assert np.allclose(p.palette.lab[k], BITS.lab[k])
    seen = BITS.lab[k] + np.array([6.0, 2.0, -2.0])
    assert p.learn([("K", seen)], trusted=True) == 1
    assert np.allclose(p.palette.lab[k], seen)


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


def test_a_confirmed_cell_far_from_its_colour_does_not_widen_its_spread():
    # Simulated LITS 992: a red L put down under the lamp's glare read pale
    # (L* 82-89) and was confirmed red. Its scatter counted, red's spread
    # grew so wide that the bare print in the glare (L* 100, no red in it)
    # came within reach of red and read red, surely.
    p = Profile.start(BITS, 6, 6)
    r = BITS.index("R")
    red = np.array([50.0, 69.0, 52.0])
    p.learn([("R", red + np.array([k, -k, k])) for k in (-1.0, 0.0, 1.0, 0.5)])
    spread = p.palette.spread[r]
    glare = [[82.0, 20.0, 37.0], [83.0, 26.0, 39.0], [89.0, 10.0, 36.0]]
    before = p.palette.lab[r].copy()
    assert p.learn([("R", g) for g in glare], trusted=True) >= 1  # (as far as the drift lets it)
    assert p.palette.lab[r][0] > before[0] + 5  # the colour still moves: a confirmed cell
    assert p.palette.spread[r] == pytest.approx(spread)
    bare_in_glare = np.array([[101.0, -10.8, 29.8]])
    assert scores(bare_in_glare, p.palette)[0, r] > p.palette.thresholds.max_distance
