# Two commands a newcomer needs:
#   make demo   set up a virtualenv and run the companion on the simulated camera
#   make test   set up a virtualenv (with test tools) and run every check
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# The stamp is remade when pyproject.toml changes, so new dependencies land.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/tilewatch demo

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: $(VENV)/.installed
	scripts/test-deps
	$(MAKE) lint
	$(BIN)/pytest

bench: $(VENV)/.installed
	$(BIN)/pytest -m "not browser" --benchmark-enable --benchmark-only --benchmark-columns=median,iqr,rounds
	$(BIN)/tilewatch bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
