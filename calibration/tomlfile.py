"""Read a TOML file with one clear error for every way it can fail."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


def read_toml(path: Path, what: str, error: type[ValueError]) -> dict[str, Any]:
    """The parsed file, or ``error`` with a message naming ``what`` and ``path``."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{what} not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise error(f"cannot read {what} {path}: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise error(f"{what} {path} is not valid TOML: {err}") from None
