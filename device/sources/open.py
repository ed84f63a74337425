"""Choose a frame source from one string, as written in the config or on the
command line.

=====================  =============================================
``sim``                the built-in simulated camera (``sim:lits``, ...)
``picam`` / ``picam:1``  a Raspberry Pi camera (picamera2)
``usb:0`` / ``0``      a USB webcam by index
``rtsp://...``         a network stream
a folder               its images in name order
a file                 a video file
=====================  =============================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from device.sources.base import FrameSource, SourceGone


def open_source(spec: str, **options: Any) -> FrameSource:
    """Open the source ``spec`` names; ``SourceGone`` if it cannot be opened,
    ``ValueError`` if the spec itself makes no sense."""
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    if kind == "sim":
        from device.sources.simulated import open_simulated

        simulated: FrameSource = open_simulated(arg, **options)
        return simulated
    if kind == "picam":
        from device.sources.picamera import PiCameraSource

        return PiCameraSource(camera_num=int(arg or 0), **options)
    if kind == "usb" or spec.isdigit():
        from device.sources.capture import CaptureSource

        index = arg if kind == "usb" else spec
        if not index.isdigit():
            raise ValueError(f"usb camera index must be a number, got {index!r}")
        return CaptureSource(int(index), **options)
    if "://" in spec:
        from device.sources.capture import CaptureSource

        return CaptureSource(spec, **options)
    path = Path(spec)
    if path.is_dir():
        from device.sources.folder import FolderSource

        return FolderSource(path, **options)
    if path.is_file():
        from device.sources.capture import CaptureSource

        return CaptureSource(str(path), **options)
    raise SourceGone(
        f"unknown camera {spec!r}: use sim, picam, usb:N, a URL, a folder or a video file"
    )
