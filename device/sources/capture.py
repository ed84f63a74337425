"""Frames from OpenCV's ``VideoCapture``: a USB webcam, a video file or a stream URL.

Live devices are stamped with a monotonic clock; files with their own
timestamps (``CAP_PROP_POS_MSEC``), so a recording replays exactly as it was
filmed, however fast this machine decodes it.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from device.sources.base import Frame, FrameSource, SourceGone

# A live camera that fails this many reads in a row is treated as unplugged;
# single failures happen on a busy USB bus and are retried at once.
FAILED_READS_BEFORE_GONE = 5


class CaptureSource(FrameSource):
    """``target``: a webcam index (``0``), a video file path, or a URL."""

    def __init__(
        self,
        target: int | str,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
    ) -> None:
        self.target = target
        self.is_file = isinstance(target, str) and Path(target).is_file()
        if isinstance(target, str) and not self.is_file and "://" not in target:
            raise SourceGone(f"no such video file: {target}")
        self.name = f"capture:{target}"
        self._size = (width, height)
        self._fps = fps
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._t0 = time.monotonic()
        self._open()

    def _open(self) -> None:
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise SourceGone(f"cannot open {self.target}")
        width, height = self._size
        if width and height and not self.is_file:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if self._fps and not self.is_file:
            cap.set(cv2.CAP_PROP_FPS, self._fps)
        self._cap = cap

    def read(self) -> Frame | None:
        if self._cap is None:
            raise SourceGone(f"{self.name} is closed")
        for _ in range(FAILED_READS_BEFORE_GONE):
            ok, image = self._cap.read()
            if ok and image is not None:
                if self.is_file:
                    t = self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                else:
                    t = time.monotonic() - self._t0
                frame = Frame(image=image, t=t, index=self._index)
                self._index += 1
                return frame
            if self.is_file:
                return None  # end of the recording
        raise SourceGone(f"{self.name} stopped giving frames (unplugged?)")

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
