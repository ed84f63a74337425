"""Frames from a Raspberry Pi camera through picamera2.

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and is
imported only when this source is chosen, so the rest of tilewatch runs on any
laptop. One object owns the camera, as in picamera2's own examples.

Colours must stay put during a game: the camera's automatic exposure and white
balance would otherwise "correct" a board that fills with dark tiles, and the
reader would see the colours drift. So the source lets AE/AWB settle on the
scene, then locks the values it settled on (or the ones saved in the
calibration profile) and reports them through :attr:`locked_controls`.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from device.sources.base import Frame, FrameSource, SourceGone

# Settling: AE/AWB are considered settled when exposure, gain and both colour
# gains all change by less than this fraction over SETTLE_STABLE_FRAMES frames.
SETTLE_TOLERANCE = 0.02
SETTLE_STABLE_FRAMES = 5
SETTLE_MAX_FRAMES = 90  # ~3 s at 30 fps; lock whatever we have after that

LOCKABLE = ("ExposureTime", "AnalogueGain", "ColourGains")


def _import_picamera2() -> Any:
    try:
        return importlib.import_module("picamera2")
    except ImportError as err:
        raise SourceGone(
            "picamera2 is not installed: on Raspberry Pi OS run "
            "'sudo apt install python3-picamera2' and make the venv with "
            "--system-site-packages"
        ) from err


def _close_enough(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def values(md: dict[str, Any]) -> list[float]:
        gains = md.get("ColourGains") or (0.0, 0.0)
        return [
            float(md.get("ExposureTime", 0)),
            float(md.get("AnalogueGain", 0)),
            float(gains[0]),
            float(gains[1]),
        ]

    for x, y in zip(values(a), values(b), strict=True):
        if abs(x - y) > SETTLE_TOLERANCE * max(abs(x), abs(y), 1e-6):
            return False
    return True


class PiCameraSource(FrameSource):
    """A Pi camera at ``size`` (width, height) and ``fps``.

    ``controls``: camera controls to lock at once (from a calibration
    profile), e.g. ``{"ExposureTime": 20000, "AnalogueGain": 2.0,
    "ColourGains": [1.8, 1.5]}``; without them the source settles first.
    """

    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = (1280, 720),
        fps: float = 30.0,
        controls: dict[str, Any] | None = None,
    ) -> None:
        module = _import_picamera2()
        self.name = f"picamera:{camera_num}"
        try:
            self._cam = module.Picamera2(camera_num)
            # "RGB888" is stored B, G, R in memory: exactly OpenCV's order.
            config = self._cam.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"},
                controls={"FrameRate": float(fps)},
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as err:  # the library raises many kinds; all mean "no camera"
            raise SourceGone(f"cannot start the Pi camera {camera_num}: {err}") from err
        self._index = 0
        self.locked_controls: dict[str, Any] = {}
        if controls:
            self._lock(controls)
        else:
            self._settle_and_lock()

    def _capture(self) -> tuple[Any, dict[str, Any]]:
        try:
            request = self._cam.capture_request()
            try:
                image = request.make_array("main")
                metadata = request.get_metadata()
            finally:
                request.release()
        except Exception as err:
            raise SourceGone(f"{self.name} stopped giving frames: {err}") from err
        return image, metadata

    def _settle_and_lock(self) -> None:
        previous: dict[str, Any] | None = None
        stable = 0
        metadata: dict[str, Any] = {}
        for _ in range(SETTLE_MAX_FRAMES):
            _, metadata = self._capture()
            stable = stable + 1 if previous and _close_enough(previous, metadata) else 0
            if stable >= SETTLE_STABLE_FRAMES:
                break
            previous = metadata
        self._lock({k: metadata[k] for k in LOCKABLE if k in metadata})

    def _lock(self, controls: dict[str, Any]) -> None:
        values = {k: controls[k] for k in LOCKABLE if k in controls}
        if "ColourGains" in values:
            values["ColourGains"] = tuple(float(g) for g in values["ColourGains"])
        self._cam.set_controls({"AeEnable": False, "AwbEnable": False, **values})
        self.locked_controls = {
            k: list(v) if isinstance(v, tuple) else v for k, v in values.items()
        }

    def read(self) -> Frame | None:
        image, metadata = self._capture()
        # SensorTimestamp is in nanoseconds of the camera's clock: real stream time.
        stamp = metadata.get("SensorTimestamp")
        t = stamp / 1e9 if stamp else time.monotonic()
        frame = Frame(image=image, t=t, index=self._index, meta={"controls": metadata})
        self._index += 1
        return frame

    def close(self) -> None:
        cam, self._cam = getattr(self, "_cam", None), None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()
