"""``tilewatch doctor``: look at the set-up the way the service will, and say
what to fix, in words a hobbyist can act on.

Each check returns a :class:`Finding`: ``ok``, ``warn`` (works, could be
better) or ``fix`` (the companion will not work well until this is fixed).
Checks never raise: a broken camera is a finding, not a traceback.
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from device.config import Config

if TYPE_CHECKING:  # vision is loaded only when a check needs it
    from vision.gridfit import GridFit

# Free space below which the game record could fill the card mid-game; a
# game's log is a few hundred kB, so these are generous.
DISK_FIX_BYTES = 20 * 1024 * 1024
DISK_WARN_BYTES = 200 * 1024 * 1024
# Light: mean lightness (CIELAB L*, 0..100) of the frame, and the share of
# pixels clipped to black or white, beyond which colours cannot be read.
DARK_L = 20.0
BRIGHT_L = 90.0
CLIPPED_SHARE = 0.05
# A profile older than this probably predates a moved lamp or camera.
STALE_DAYS = 30
# The grid found now vs. the profile's corners: beyond this share of the
# grid's side the camera was moved since calibration.
MOVED_SHARE = 0.03
GRIDS = {"bits": (6, 6), "lits": (10, 10)}
# Room (in cells) the grid should leave to the picture's edge: the board's
# rim (a BITS ramp's rails and lip, a LITS board's margin: 0.7 to 0.9 of a
# cell) must be in view, or the search can take a row of the header for
# cells and find the grid a row off (simulated LITS 15138: the bottom row
# out of the picture, the title band read as the top row).
ROOM_CELLS = 1.0


@dataclass
class Finding:
    check: str
    status: str  # ok | warn | fix
    message: str

    def line(self) -> str:
        mark = {"ok": "ok  ", "warn": "warn", "fix": "FIX "}[self.status]
        return f"{mark} {self.check}: {self.message}"


def check_storage(cfg: Config) -> list[Finding]:
    path = cfg.storage.resolved()
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".tilewatch-write-test"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as err:
        return [Finding("storage", "fix", f"cannot write to {folder} ({err}); check its owner")]
    findings = []
    free = shutil.disk_usage(folder).free
    mb = free // (1024 * 1024)
    if free < DISK_FIX_BYTES:
        findings.append(
            Finding("disk", "fix", f"only {mb} MB free on {folder}; free space on the SD card")
        )
    elif free < DISK_WARN_BYTES:
        findings.append(Finding("disk", "warn", f"{mb} MB free on {folder}; running low"))
    else:
        findings.append(Finding("disk", "ok", f"{mb} MB free on {folder}"))
    if path.exists():
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                result = db.execute("PRAGMA quick_check").fetchone()[0]
                games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.Error as err:
            findings.append(
                Finding("database", "fix", f"{path} cannot be read ({err}); move it aside")
            )
        else:
            if result == "ok":
                findings.append(Finding("database", "ok", f"{path}: {games} game(s) recorded"))
            else:
                findings.append(Finding("database", "fix", f"{path} is damaged: {result}"))
    else:
        findings.append(Finding("database", "ok", f"{path} will be made on first start"))
    return findings


def grab_frame(cfg: Config, timeout: float = 10.0) -> tuple[np.ndarray | None, Finding]:
    """One frame from the configured camera (the first few are skipped: a
    camera's first frames are often dark while it starts)."""
    from device.sources.base import SourceGone
    from device.sources.open import open_source

    spec = cfg.camera.source
    try:
        source = open_source(spec)
    except (SourceGone, ValueError, OSError) as err:
        return None, Finding("camera", "fix", f"{spec}: {err}")
    frame = None
    try:
        deadline = time.monotonic() + timeout
        for _ in range(5):
            got = source.read()
            if got is None or time.monotonic() > deadline:
                break
            frame = got
    except SourceGone as err:
        return None, Finding("camera", "fix", f"{spec}: {err}")
    finally:
        source.close()
    if frame is None:
        return None, Finding("camera", "fix", f"{spec} gave no frame")
    h, w = frame.image.shape[:2]
    status = "ok" if min(w, h) >= 480 else "warn"
    hint = "" if status == "ok" else "; 640x480 or more reads cells more surely"
    return frame.image, Finding("camera", status, f"{spec} gives {w}x{h} frames{hint}")


def check_light(image: np.ndarray) -> Finding:
    lab = cv2.cvtColor(image.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    mean_l = float(lab[..., 0].mean())
    grey = image.max(axis=2)
    blown = float((grey >= 250).mean())
    crushed = float((image.min(axis=2) <= 5).mean())
    if mean_l < DARK_L or crushed > CLIPPED_SHARE * 4:
        return Finding(
            "light", "fix", f"too dark (mean L* {mean_l:.0f}); turn on a lamp over the table"
        )
    if mean_l > BRIGHT_L or blown > CLIPPED_SHARE:
        return Finding(
            "light",
            "fix",
            f"too bright ({blown:.0%} of the picture is blown out); "
            "move the lamp or turn the board out of direct sun",
        )
    return Finding("light", "ok", f"mean L* {mean_l:.0f}, {blown:.1%} blown out")


def check_grid(image: np.ndarray, game: str, profile_path: Path) -> list[Finding]:
    from vision.locate import locate_grid

    rows, cols = GRIDS[game]
    findings = []
    profile = None
    if profile_path.exists():
        from calibration.profile import Profile, ProfileError

        try:
            profile = Profile.load(profile_path)
        except (ProfileError, OSError, ValueError) as err:
            findings.append(
                Finding("calibration", "fix", f"{profile_path}: {err}; run tilewatch calibrate")
            )
    fit = locate_grid(image, rows, cols)
    if fit is None:
        findings.append(
            Finding(
                "grid",
                "fix",
                f"no {rows}x{cols} grid in view; point the camera at the whole board "
                "(tilewatch read --debug-image shows what it sees)",
            )
        )
    else:
        findings.append(
            Finding("grid", "ok", f"{rows}x{cols} grid found, quality {fit.quality:.2f}")
        )
        tight = framing(fit, image)
        if tight is not None:
            findings.append(Finding("grid", "warn", tight))
    if profile is None:
        if profile_path.exists():
            return findings
        findings.append(
            Finding(
                "calibration",
                "warn",
                "no profile yet: it works uncalibrated, but one tilewatch calibrate "
                "(or the phone's Calibrate page) makes colours surer",
            )
        )
        return findings
    age = _age_days(profile.created)
    if age is not None and age > STALE_DAYS:
        findings.append(
            Finding(
                "calibration",
                "warn",
                f"profile is {age:.0f} days old; recalibrate if the light changed",
            )
        )
    else:
        findings.append(Finding("calibration", "ok", f"profile {profile_path}"))
    if fit is not None and profile.corners is not None:
        side = max(float(np.linalg.norm(fit.corners[1] - fit.corners[0])), 1.0)
        moved = float(np.abs(fit.corners - profile.corners).max()) / side
        if moved > MOVED_SHARE:
            findings.append(
                Finding(
                    "calibration",
                    "warn",
                    f"the board sits {moved:.0%} of its side away from where it was "
                    "calibrated; the companion follows it, but recalibrate if colours misread",
                )
            )
    return findings


def too_tight(fit: GridFit, image: np.ndarray) -> float | None:
    """How many cells the grid found leaves to the picture's edge, when that
    is less than ``ROOM_CELLS`` (the board's rim may be out of view), else
    ``None``."""
    room = fit.room(image.shape[1], image.shape[0])
    return None if room >= ROOM_CELLS else max(room, 0.0)


def framing(fit: GridFit, image: np.ndarray) -> str | None:
    """What to do when the grid found is :func:`too_tight`, else ``None``."""
    room = too_tight(fit, image)
    if room is None:
        return None
    return (
        f"the grid comes within {room:.1f} of a cell of the picture's edge: "
        "the board may run out of view, and a grid found a row off reads every cell "
        "wrong; raise or turn the camera until a cell's width of table shows around "
        "the whole board"
    )


def _age_days(created: str) -> float | None:
    try:
        when = datetime.fromisoformat(created)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return (datetime.now(UTC) - when).total_seconds() / 86400


def run_checks(cfg: Config, game: str = "bits") -> list[Finding]:
    findings = check_storage(cfg)
    image, camera = grab_frame(cfg)
    findings.append(camera)
    if image is not None:
        findings.append(check_light(image))
        findings.extend(check_grid(image, game, cfg.calibration.resolved()))
    return findings


def as_json(findings: list[Finding]) -> dict[str, Any]:
    return {
        "ok": all(f.status != "fix" for f in findings),
        "findings": [asdict(f) for f in findings],
    }
