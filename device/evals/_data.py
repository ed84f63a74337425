"""Where evaluations find the shared labelled data.

``../shared/data`` beside the checkout (as the tests' ``shared_data`` fixture),
or ``TILEWATCH_SHARED_DATA``. A private module (leading underscore), so the
``tilewatch eval`` loader does not take it for an evaluation.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def shared_data_dir() -> Path:
    return Path(os.environ.get("TILEWATCH_SHARED_DATA", REPO.parent / "shared" / "data"))
