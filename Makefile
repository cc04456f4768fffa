# Truc Lab: `make demo` runs the main job, `make test` the whole suite. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_GAMES ?= 6000

.PHONY: demo test lint typecheck pytest chromium bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Truc Lab needs Python >= 3.11")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

chromium:
	@scripts/ensure-chromium.sh

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) chromium
	$(BIN)/pytest -q

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/truc simulate --variant catalan --players 4 --games $(DEMO_GAMES) --seed 2026 \
		--policy threshold --seat-policy 1=threshold:raise_at=0.8,call_at=0.6,bluff=0.05 \
		--seat-policy 3=random --option signals=on --workers 2 --out data/demo --overwrite
	$(BIN)/truc stats first_trick_value --data data/demo
	$(BIN)/truc stats bluff_success --data data/demo
	$(BIN)/truc report --data data/demo --out reports/demo
	@echo
	@echo "Dataset:    data/demo/ (games, hands, seats, events as Parquet; manifest.json)"
	@echo "Statistics: $(BIN)/truc stats NAME --data data/demo   (list them with: $(BIN)/truc stats)"
	@echo "Report:     reports/demo/index.html (charts also in reports/demo/charts/)"

bench: $(STAMP)
	$(BIN)/python bench/simulate_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
