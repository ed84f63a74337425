"""The Pi camera source, driven through a stand-in for the picamera2 module.

This is the one true edge (no Pi camera on a laptop or in CI): the stand-in
replays real frames and the metadata a settling camera reports, and
everything of ours — settle detection, the lock, timestamps, loss — runs for
real.
"""

import sys
import types
from typing import ClassVar

import numpy as np
import pytest

from device.sources.base import SourceGone
from device.sources.open import open_source


class _Request:
    def __init__(self, cam):
        self.cam = cam

    def make_array(self, name):
        assert name == "main"
        return self.cam.frames[self.cam.n % len(self.cam.frames)]

    def get_metadata(self):
        return self.cam.metadata()

    def release(self):
        self.cam.n += 1


class _ReplayCamera:
    """Exposure converges geometrically towards 20 ms like a real AE loop."""

    instances: ClassVar[list["_ReplayCamera"]] = []

    def __init__(self, num):
        self.num, self.n, self.controls, self.running, self.unplugged = num, 0, [], False, False
        self.frames = [np.full((72, 128, 3), v, np.uint8) for v in (60, 90, 120)]
        _ReplayCamera.instances.append(self)

    def create_video_configuration(self, main, controls):
        return {"main": main, "controls": controls}

    def configure(self, config):
        assert config["main"]["format"] == "RGB888"
        self.config = config

    def start(self):
        self.running = True

    def metadata(self):
        k = 0.5**self.n
        return {
            "ExposureTime": int(20000 + 30000 * k),
            "AnalogueGain": 2.0 + 4.0 * k,
            "ColourGains": (1.8 + k, 1.4 + k),
            "SensorTimestamp": 1_000_000_000 + self.n * 33_333_333,
        }

    def capture_request(self):
        if self.unplugged:
            raise RuntimeError("Camera frontend has timed out!")
        return _Request(self)

    def set_controls(self, controls):
        self.controls.append(dict(controls))

    def stop(self):
        self.running = False

    def close(self):
        pass


@pytest.fixture
def picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = _ReplayCamera
    _ReplayCamera.instances.clear()
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return _ReplayCamera


def test_settles_then_locks_exposure_and_white_balance(picamera2):
    source = open_source("picam")
    cam = picamera2.instances[0]
    lock = cam.controls[-1]
    assert lock["AeEnable"] is False and lock["AwbEnable"] is False
    # Locked near the converged values, not the first (bright, warm) guess.
    assert abs(lock["ExposureTime"] - 20000) < 0.02 * 20000
    assert abs(lock["AnalogueGain"] - 2.0) < 0.05
    assert source.locked_controls["ColourGains"] == list(lock["ColourGains"])
    frame = source.read()
    assert frame.image.shape == (72, 128, 3)
    source.close()
    assert not cam.running


def test_profile_controls_are_locked_without_settling(picamera2):
    saved = {"ExposureTime": 15000, "AnalogueGain": 1.5, "ColourGains": [2.0, 1.6]}
    source = open_source("picam:1", controls=saved)
    cam = picamera2.instances[0]
    assert cam.num == 1
    assert cam.n == 0  # not a single frame spent settling
    assert cam.controls == [
        {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": 15000,
            "AnalogueGain": 1.5,
            "ColourGains": (2.0, 1.6),
        }
    ]
    a, b = source.read(), source.read()
    assert b.t - a.t == pytest.approx(1 / 30, abs=1e-3)  # sensor clock, not wall clock


def test_a_camera_that_stops_answering_is_source_gone(picamera2):
    source = open_source("picam", controls={"ExposureTime": 10000})
    picamera2.instances[0].unplugged = True
    with pytest.raises(SourceGone, match="stopped giving frames"):
        source.read()


def test_without_picamera2_installed_the_message_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceGone, match="apt install python3-picamera2"):
        open_source("picam")
