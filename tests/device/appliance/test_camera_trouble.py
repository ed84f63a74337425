"""The running appliance when the camera misbehaves: the page keeps serving,
says what is wrong, and tracking resumes when frames return."""

import json
import time
import urllib.request

import cv2
import pytest

from device.appliance import Appliance
from device.config import load_config_text
from device.sim.conditions import Conditions
from device.sim.stills import still
from device.sources.base import Frame, FrameSource, SourceGone
from device.sources.folder import FolderSource


def _config(tmp_path):
    return load_config_text(
        f'[server]\nhost = "127.0.0.1"\nport = 0\n'
        f'[storage]\npath = "{tmp_path / "game.sqlite"}"\n'
        f'[calibration]\nprofile = "{tmp_path / "profile.toml"}"\n'
    )


@pytest.fixture
def frames(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    shot = still("bits", 3, conditions=Conditions(seed=3))
    for i in range(5):
        cv2.imwrite(str(folder / f"f{i}.png"), shot.image)
    return folder


def _camera(url):
    with urllib.request.urlopen(url + "api/state", timeout=5) as response:
        return json.loads(response.read())["camera"]


def _wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


class Looping(FrameSource):
    """A camera that is plugged in: a real folder of frames played over and
    over, its clock running on. (A folder that ran out after five frames
    made the loop reopen it every quarter second: the page's status then
    flickered between "ok", "looking for the board" and "gone", and a test
    polling for "ok" caught it or not by chance.)"""

    def __init__(self, folder, fps=20.0):
        self.folder, self.fps, self.count = folder, fps, 0
        self.inner = FolderSource(folder, fps=fps)

    def read(self):
        frame = self.inner.read()
        if frame is None:
            self.inner = FolderSource(self.folder, fps=self.fps)
            frame = self.inner.read()
        self.count += 1
        return Frame(frame.image, self.count / self.fps, self.count, frame.meta)


class Flaky:
    """A camera that is unplugged for the first ``gone`` opens, then plugged
    in (:class:`Looping`)."""

    def __init__(self, folder, gone=2, crash=False):
        self.folder, self.gone, self.crash, self.opens = folder, gone, crash, 0
        self.app = None
        self.page_said = []  # every camera status the page was sent

    def _heard(self, message):
        if message.kind == "camera":
            self.page_said.append(message.data)

    def __call__(self):
        self.opens += 1
        if self.opens == 1:  # the table exists once the camera is first opened
            self.app.table.listen(self._heard)
        if self.opens <= self.gone:
            if self.crash:
                raise RuntimeError("driver bug")  # not a SourceGone: a real crash
            raise SourceGone("camera unplugged")
        return Looping(self.folder)


@pytest.mark.parametrize("crash", [False, True], ids=["unplugged", "crashing"])
def test_page_serves_through_camera_loss_and_tracking_resumes(tmp_path, frames, crash):
    camera = Flaky(frames, gone=2, crash=crash)
    app = Appliance(_config(tmp_path), source_factory=camera)
    camera.app = app
    app.start()
    try:
        url = app.server.url
        _wait_for(lambda: camera.opens > camera.gone)
        _wait_for(lambda: _camera(url)["status"] == "ok")
        # the page answered all along, and a snapshot of the board arrived
        _wait_for(lambda: app.table.snapshot() is not None)
    finally:
        app.stop()
    # While the camera could not be opened, the page said it was gone, and
    # why; then that it was back.
    why = "driver bug" if crash else "camera unplugged"
    statuses = [s["status"] for s in camera.page_said]
    back = statuses.index("ok")
    first_gone = [s for s in camera.page_said[:back] if s["status"] == "gone"]
    assert first_gone and all(why in s["message"] for s in first_gone)


def test_a_broken_profile_is_ignored_not_fatal(tmp_path, frames):
    (tmp_path / "profile.toml").write_text("this is [not a profile")
    app = Appliance(_config(tmp_path), source_factory=lambda: Looping(frames))
    app.start()
    try:
        assert app.profile is None
        _wait_for(lambda: _camera(app.server.url)["status"] == "ok")
    finally:
        app.stop()
