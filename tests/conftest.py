"""Shared test fixtures.

``shared_data`` is ``../shared/data`` beside the checkout (as in CI); set
TILEWATCH_SHARED_DATA to point elsewhere. Tests read the real photos there and
never copy them into the repo.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_data_dir() -> Path:
    return Path(os.environ.get("TILEWATCH_SHARED_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        pytest.fail(
            f"shared data not found at {path}: clone beside ../shared or set TILEWATCH_SHARED_DATA"
        )
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO
