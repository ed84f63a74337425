"""The examples in the colour reader's docstrings run (pytest collects doctests
only under engine/, so the reader's modules are run here)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "vision.colour",
    "vision.cells",
    "vision.classify",
    "vision.constancy",
    "vision.gravity",
    "vision.palette",
    "vision.palette_fit",
    "vision.photo",
    "vision.reader",
    "vision.shading",
    "vision.symbols",
    "calibration.orientation",
    "calibration.palette",
    "calibration.profile",
    "calibration.wizard",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
