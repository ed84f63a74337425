"""The running companion: one process that owns the camera, runs the
tracking loop, records every event and serves the phone page.

    app = Appliance(config)          # or Appliance(config, demo=DemoGames(...))
    app.start()                      # page up, camera thread running, READY=1
    app.wait()                       # until SIGTERM / Ctrl-C
    app.stop()

Parts fail separately: the camera thread is supervised (a crash in tracking
is logged, reported on the page and the loop started again), and the page
keeps serving whatever happens to the camera.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.config import Config
from device.doctor import too_tight
from device.memory import TRIM_EVERY_S, keep_trimmed
from device.notify import Notifier
from device.server import WebServer
from device.sources.base import Frame, FrameSource
from device.store import Store
from device.table import Table, TableError
from device.track.loop import LoopSettings, run_loop

log = logging.getLogger(__name__)

GRIDS = {"bits": (6, 6), "lits": (10, 10)}
# How long start-up waits for the camera's first word before saying READY
# anyway (the page then shows the camera as it is: starting or gone).
CAMERA_START_S = 20.0
# After the tracking loop crashes, wait this long before starting it again.
RESTART_S = 2.0


class Appliance:
    """``config``: the service config. ``demo``: an object with
    ``next_source()`` that sets up a game and returns its camera (the
    built-in demo); without it the camera is ``config.camera.source``."""

    def __init__(
        self,
        config: Config,
        demo: Any = None,
        notifier: Notifier | None = None,
        source_factory: Callable[[], FrameSource] | None = None,
    ) -> None:
        self.config = config
        self.demo = demo
        self.notifier = notifier or Notifier()
        self.stop_event = threading.Event()
        # Ends the current run of the tracking loop only (shutdown, or a new
        # calibration to read with); a fresh one is made for every run.
        self._run_stop = threading.Event()
        self._source_factory = source_factory
        self._latest: Frame | None = None
        self.frames = 0  # frames tracked since start (for the soak run)
        self._calibration_lock = threading.Lock()
        self.store: Store | None = None
        self.table: Table | None = None
        self.server: WebServer | None = None
        self.camera_thread: threading.Thread | None = None
        self.profile: Any = None
        # Housekeeping: freed memory goes back to the system this often (s).
        self.trim_every_s = TRIM_EVERY_S

    # -- start and stop -----------------------------------------------------

    def start(self) -> None:
        cfg = self.config
        self.store = Store(cfg.storage.resolved())
        self.table = Table(self.store, pin=cfg.table.pin or None)
        if self.demo is not None:
            self.demo.table = self.table
        self.profile = self._load_profile()
        from web_ui import create_app

        app = create_app(self.table, {"LANGUAGE": cfg.table.language})
        self.server = WebServer(
            app, self.table, host=cfg.server.host, port=cfg.server.port, threads=cfg.server.threads
        )
        self.server.start()
        self.table.listen(self._on_message)
        self.camera_thread = threading.Thread(target=self._camera, name="camera", daemon=True)
        self.camera_thread.start()
        keep_trimmed(self.stop_event, self.trim_every_s)
        self._wait_for_camera()
        self.notifier.ready(f"serving {self.server.url}")

    def _wait_for_camera(self) -> None:
        """READY=1 means camera and page are up: wait for the camera's first
        answer (frames, or a clear 'gone') so systemd reports honestly."""
        assert self.table is not None
        deadline = time.monotonic() + CAMERA_START_S
        while time.monotonic() < deadline and not self.stop_event.is_set():
            if self.table.state()["camera"]["status"] in ("ok", "gone"):
                return
            self.notifier.watchdog()
            time.sleep(0.05)

    def wait(self) -> None:
        """Block until SIGTERM or SIGINT (or :meth:`stop` from elsewhere)."""

        def handle(signum: int, _frame: Any) -> None:
            log.info("signal %s: stopping", signum)
            self.stop_event.set()

        previous = {s: signal.signal(s, handle) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            while not self.stop_event.wait(1.0):
                pass
        finally:
            for s, h in previous.items():
                signal.signal(s, h)

    def stop(self) -> None:
        self.stop_event.set()
        self._run_stop.set()
        self.notifier.stopping()
        if self.camera_thread is not None:
            self.camera_thread.join(timeout=10)
        if self.server is not None:
            self.server.stop()
        if self.store is not None:
            self.store.close()

    # -- the camera thread ----------------------------------------------------

    def _open_camera(self) -> FrameSource:
        if self._source_factory is not None:
            return self._source_factory()
        from device.sources.open import open_source

        cam = self.config.camera
        spec = cam.source
        if spec.startswith("picam"):
            controls = getattr(self.profile, "camera", None) or None
            return open_source(spec, size=(cam.width, cam.height), fps=cam.fps, controls=controls)
        if spec.startswith("usb:") or spec.isdigit():
            return open_source(spec, width=cam.width, height=cam.height, fps=cam.fps)
        return open_source(spec)

    def _camera(self) -> None:
        """Run the tracking loop until stopped; start it again after a crash
        or when a new calibration asks for it."""
        assert self.table is not None
        while not self.stop_event.is_set():
            self._run_stop = threading.Event()
            if self.stop_event.is_set():  # stop() came between the check and the new event
                break
            try:
                if self.demo is not None:
                    # One run per demo game: the source ends with the game.
                    factory = _once(self.demo.next_source())
                    settings = LoopSettings(until_end=True)
                else:
                    factory = self._open_camera
                    settings = LoopSettings()
                run_loop(
                    factory,
                    self.table,
                    self._run_stop,
                    notifier=self.notifier,
                    profile=self.profile,
                    settings=settings,
                    on_frame=self._keep_frame,
                )
            except Exception as err:
                log.exception("the tracking loop crashed; starting it again")
                try:
                    self.table.camera_status("gone", f"tracking crashed ({err}); restarting")
                except Exception:
                    log.exception("could not report the crash")
                self.stop_event.wait(RESTART_S)

    def _keep_frame(self, frame: Frame, _events: list[dict[str, Any]]) -> None:
        self._latest = frame
        self.frames += 1

    # -- calibration from the phone's wizard -------------------------------------

    def _profile_path(self) -> Path:
        return self.config.calibration.resolved()

    def _load_profile(self) -> Any:
        path = self._profile_path()
        if not path.exists():
            return None
        from calibration.profile import Profile, ProfileError

        try:
            return Profile.load(path)
        except (ProfileError, OSError, ValueError) as err:
            # A broken profile must not stop the game: read uncalibrated and say so.
            log.error("ignoring calibration profile %s: %s", path, err)
            return None

    def _on_message(self, message: Any) -> None:
        if message.kind != "calibration":
            return
        change = message.data.get("change")
        if change in ("start", "corners", "confirm"):
            # Reading a frame takes tens of ms: not in the web request's thread.
            threading.Thread(
                target=self._calibrate, args=(change, message.data), daemon=True
            ).start()

    def _calibrate(self, change: str, data: dict[str, Any]) -> None:
        assert self.table is not None
        with self._calibration_lock:
            try:
                if change == "confirm":
                    self._confirm_calibration(data["corners"])
                else:
                    self._calibration_picture(data.get("corners"))
            except (TableError, ValueError) as err:
                log.warning("calibration %s failed: %s", change, err)
                self.table.camera_status("ok", f"calibration: {err}")

    def _game_grid(self) -> tuple[str, tuple[int, int]]:
        assert self.table is not None
        game = self.table.game_name or "bits"
        return game, GRIDS[game]

    def _read(self, corners: Any) -> tuple[Frame, Any, str]:
        from calibration.palette import load_palette
        from vision.photo import read_photo

        frame = self._latest
        if frame is None:
            raise ValueError("no camera picture yet")
        game, (rows, cols) = self._game_grid()
        reading = read_photo(frame.image, rows, cols, load_palette(game), corners=corners)
        if reading is None:
            raise ValueError("no board found in the picture; drag the corners onto it")
        return frame, reading, game

    def _calibration_picture(self, corners: Any) -> None:
        assert self.table is not None
        frame, photo, _ = self._read(corners)
        ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if not ok:
            raise ValueError("could not encode the picture")
        cells = ["".join(row) for row in photo.reading.codes]
        grid = (photo.fit.rows, photo.fit.cols)
        # Corners a player dragged are where they said; a grid the search
        # found near the picture's edge may be a row off (the CLI warns too).
        tight = too_tight(photo.fit, frame.image) if corners is None else None
        self.table.calibration_snapshot(
            bytes(jpeg), np.asarray(photo.fit.corners).tolist(), grid, cells, frame.t, tight
        )

    def _confirm_calibration(self, corners: Any) -> None:
        from calibration.palette import load_palette
        from calibration.wizard import build_profile

        frame, photo, game = self._read(corners)
        h, w = frame.image.shape[:2]
        profile = build_profile(
            photo.reading,
            {},
            corners=np.asarray(photo.fit.corners),
            image_size=(w, h),
            camera=(self.profile.camera if self.profile is not None else {}),
            source=self.config.camera.source,
            nominal=load_palette(game),
        )
        path = self._profile_path()
        profile.save(path)
        log.info("calibration saved to %s", path)
        self.profile = profile
        self._run_stop.set()  # the loop starts again, reading with the new profile


def _once(source: FrameSource) -> Callable[[], FrameSource]:
    return lambda: source
