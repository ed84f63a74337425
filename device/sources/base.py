"""The frame source interface.

A source yields :class:`Frame` objects: a BGR ``uint8`` image of shape
``(height, width, 3)`` and the time it was taken, in seconds of *stream time*
(a camera's clock, a video's timestamps, or the simulator's script clock), so
replaying a recording judges exactly as it did live.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np


class SourceGone(RuntimeError):
    """The device went away (cable pulled, camera busy, file deleted).

    The loop reports it and retries with back-off; it is not end of stream."""


@dataclass
class Frame:
    image: np.ndarray  # BGR uint8, (height, width, 3)
    t: float  # stream time in seconds
    index: int = 0
    # Whatever the source knows beyond pixels, e.g. the simulator's ground truth.
    meta: dict[str, Any] = field(default_factory=dict)


class FrameSource(ABC):
    """One object owns the device; ``read()`` returns the next frame."""

    name: str = "source"

    @abstractmethod
    def read(self) -> Frame | None:
        """The next frame, or ``None`` at the end of a finite stream.

        Raises :class:`SourceGone` when the device is lost."""

    def close(self) -> None:  # noqa: B027 - optional for sources with nothing to free
        """Release the device."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self):  # type: ignore[no-untyped-def]
        while (frame := self.read()) is not None:
            yield frame
