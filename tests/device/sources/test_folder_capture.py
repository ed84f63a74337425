"""Folder and VideoCapture sources on real files written to a temp dir."""

import shutil

import cv2
import numpy as np
import pytest

from device.sources.base import SourceGone
from device.sources.capture import CaptureSource
from device.sources.folder import FolderSource
from device.sources.open import open_source


@pytest.fixture
def photo_folder(tmp_path, shared_data):
    photos = sorted((shared_data / "sudoku-grids" / "images").glob("image1*.jpg"))[:3]
    for i, photo in enumerate(photos):
        shutil.copy(photo, tmp_path / f"frame{[2, 10, 1][i]}.jpg")
    (tmp_path / "frame5.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_folder_plays_in_natural_order_and_skips_a_corrupt_file(photo_folder):
    source = FolderSource(photo_folder, fps=5)
    frames = list(source)
    names = [f.meta["path"].rsplit("/", 1)[-1] for f in frames]
    assert names == ["frame1.jpg", "frame2.jpg", "frame10.jpg"]
    assert [p.name for p in source.skipped] == ["frame5.jpg"]
    assert all(f.image.dtype == np.uint8 and f.image.ndim == 3 for f in frames)
    # stream time follows the file order at the given rate (the corrupt one keeps its slot)
    assert [f.t for f in frames] == [0.0, 0.2, 0.6]


def test_empty_or_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(SourceGone, match="no images"):
        FolderSource(tmp_path)
    with pytest.raises(SourceGone, match="no such folder"):
        FolderSource(tmp_path / "nope")


def _write_video(path, frames, fps=10.0):
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()


def test_video_file_frames_carry_the_files_own_timestamps(tmp_path):
    # Four flat frames of distinct brightness, so we can tell them apart after MJPG.
    frames = [np.full((48, 64, 3), v, np.uint8) for v in (20, 80, 140, 200)]
    video = tmp_path / "game.avi"
    _write_video(video, frames, fps=10.0)
    source = open_source(str(video))
    got = list(source)
    source.close()
    assert len(got) == 4
    assert [round(f.t, 2) for f in got] == [0.0, 0.1, 0.2, 0.3]
    # MJPG's YUV round trip moves a flat grey by a level or two, never more.
    assert [f.image.mean() for f in got] == pytest.approx([20, 80, 140, 200], abs=4)


def test_missing_video_and_unknown_spec_are_clear_errors(tmp_path):
    with pytest.raises(SourceGone, match="no such video file"):
        CaptureSource(str(tmp_path / "missing.mp4"))
    with pytest.raises(SourceGone, match="unknown camera"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(ValueError, match="must be a number"):
        open_source("usb:front")


def test_an_absent_webcam_is_source_gone():
    # Index 97 exists on no machine this runs on; VideoCapture fails to open it.
    with pytest.raises(SourceGone, match="cannot open"):
        open_source("usb:97")
