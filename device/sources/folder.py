"""Frames from a folder of photos, in file-name order.

Useful for replaying a recorded session (``tilewatch simulate`` writes such a
folder) or for judging a handful of phone photos. A file that fails to decode
is skipped and counted, never fatal: one corrupt JPEG must not end a replay.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import cv2

from device.sources.base import Frame, FrameSource, SourceGone

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def _natural_key(path: Path) -> list[object]:
    # frame2 before frame10, as a person numbering files expects.
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


class FolderSource(FrameSource):
    """Every image in ``folder`` at ``fps`` frames per second of stream time."""

    def __init__(self, folder: str | Path, fps: float = 10.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceGone(f"no such folder: {self.folder}")
        if fps <= 0:
            raise ValueError("fps must be positive")
        self.fps = fps
        self.files = sorted(
            (p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
            key=_natural_key,
        )
        if not self.files:
            raise SourceGone(f"no images in {self.folder}")
        self.name = f"folder:{self.folder}"
        self.skipped: list[Path] = []
        self._next = 0

    def read(self) -> Frame | None:
        while self._next < len(self.files):
            index = self._next
            path = self.files[index]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.skipped.append(path)
                log.warning("skipping %s: not a readable image", path)
                continue
            return Frame(image=image, t=index / self.fps, index=index, meta={"path": str(path)})
        return None
