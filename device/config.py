"""The service configuration: one TOML file, every key optional.

>>> cfg = load_config_text('[server]\\nport = 9000')
>>> cfg.server.port, cfg.camera.source
(9000, 'sim')

A wrong key or value is refused with a message that names the key and says
what is wrong, before anything starts: a typo must not silently run the
companion on the wrong camera.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, get_type_hints


class ConfigError(ValueError):
    """The config file is missing, unreadable or has a wrong key or value."""


def _default_state_dir() -> Path:
    # systemd's StateDirectory= exports the folder; by hand, a folder here.
    return Path(os.environ.get("TILEWATCH_STATE_DIR") or "var")


@dataclass
class CameraConfig:
    source: str = "sim"  # sim | picam | usb:N | URL | folder | video file
    width: int = 1280
    height: int = 720
    fps: float = 30.0
    # Frames per second the tracker judges; the rest are only shown.
    track_fps: float = 15.0


@dataclass
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    # Each phone holding the live event stream keeps one thread; 30 phones
    # plus page loads fit in 40 (idle threads only sleep, even on a Pi Zero).
    threads: int = 40


@dataclass
class StorageConfig:
    path: str = ""  # default: <state dir>/tilewatch.sqlite

    def resolved(self) -> Path:
        return Path(self.path) if self.path else _default_state_dir() / "tilewatch.sqlite"


@dataclass
class CalibrationConfig:
    profile: str = ""  # default: <state dir>/profile.toml

    def resolved(self) -> Path:
        return Path(self.profile) if self.profile else _default_state_dir() / "profile.toml"


@dataclass
class TableConfig:
    # The PIN phones must enter to change the game; empty = a random PIN made
    # once and kept in the database (phones stay unlocked across restarts),
    # shown on the console, in the journal and on the Pi's own page.
    pin: str = ""
    language: str = "en"  # en | zh-Hant


@dataclass
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    server: ServerConfig = field(default_factory=ServerConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    calibration: CalibrationConfig = field(default_factory=CalibrationConfig)
    table: TableConfig = field(default_factory=TableConfig)


def _check_value(where: str, hint: Any, value: Any) -> Any:
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected a whole number, got {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string in quotes, got {value!r}")
        return value
    raise ConfigError(f"{where}: unsupported setting type")  # pragma: no cover


def _build(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a [section], got {data!r}")
    hints = get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(
            f"{where + '.' if where else ''}{unknown[0]}: unknown setting "
            f"(known here: {', '.join(sorted(known))})"
        )
    values = {}
    for name, value in data.items():
        key = f"{where}.{name}" if where else name
        hint = hints[name]
        if is_dataclass(hint):
            values[name] = _build(hint, value, key)  # type: ignore[arg-type]
        else:
            values[name] = _check_value(key, hint, value)
    return cls(**values)


def _validate(cfg: Config) -> None:
    # 0 = any free port (the banner says which): for tests and second copies.
    if not 0 <= cfg.server.port <= 65535:
        raise ConfigError(f"server.port: {cfg.server.port} is not a port (0-65535)")
    if cfg.server.threads < 2:
        raise ConfigError("server.threads: at least 2 (one for pages, one per phone stream)")
    for key in ("width", "height"):
        if getattr(cfg.camera, key) <= 0:
            raise ConfigError(f"camera.{key}: must be positive")
    if cfg.camera.fps <= 0 or cfg.camera.track_fps <= 0:
        raise ConfigError("camera.fps and camera.track_fps must be positive")
    if not cfg.camera.source.strip():
        raise ConfigError("camera.source: empty; use sim, picam, usb:0, a URL or a path")
    if cfg.table.pin and not (cfg.table.pin.isdigit() and 4 <= len(cfg.table.pin) <= 8):
        raise ConfigError("table.pin: 4 to 8 digits, or empty for a random PIN")
    if cfg.table.language not in ("en", "zh-Hant"):
        raise ConfigError("table.language: en or zh-Hant")


def load_config_text(text: str, name: str = "config") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{name}: not valid TOML: {err}") from err
    cfg: Config = _build(Config, data, "")
    _validate(cfg)
    return cfg


def load_config(path: str | Path | None) -> Config:
    """The config at ``path``; all defaults when ``path`` is None."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise ConfigError(f"{path}: no such config file") from err
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read: {err}") from err
    return load_config_text(text, str(path))
