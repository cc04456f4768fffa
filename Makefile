# Truc Lab: `make demo` runs the main job, `make test` the whole suite. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_GAMES ?= 6000
DEMO_OTHER_GAMES ?= 1000

.PHONY: demo test lint typecheck pytest chromium compile bench clean crash fuzz

# The build requirements of pyproject.toml (mypy, Cython, setuptools, pinned there once): make compile uses them.
BUILD_REQUIRES = $(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"])'

# The editable install is built with them (no isolated build environment to fill) and compiles nothing
# (setup.py): make compile builds the hot path in place.
$(STAMP): pyproject.toml setup.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Truc Lab needs Python >= 3.11")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $$($(BUILD_REQUIRES))
	$(BIN)/python -m pip install --quiet --no-build-isolation -e '.[dev,ray,research]'
	@touch $(STAMP)

chromium:
	@scripts/ensure-chromium.sh

# The hot path compiled with mypyc (pipeline/accel.py); nothing to do when it matches the sources.
compile: $(STAMP)
	@$(BIN)/python scripts/compile_fast.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) compile chromium
	$(BIN)/pytest -q

test: lint typecheck pytest

# The crash suite's long run (tests/test_crash.py; make test runs a sample of 4 kills): kill -9 at random
# moments of simulate, import, report, export and --overwrite, CRASH_KILLS times; TRUC_CRASH_SEED picks them.
CRASH_KILLS ?= 200
crash: $(STAMP) compile
	TRUC_CRASH_KILLS=$(CRASH_KILLS) $(BIN)/pytest -q -s tests/test_crash.py

# The fuzzing suite's long run (tests/test_history_fuzz.py; make test runs a sample of 500): FUZZ_INPUTS mutated
# histories through check and import, each held to the invariants; TRUC_FUZZ_SEED picks them.
FUZZ_INPUTS ?= 3000
fuzz: $(STAMP)
	TRUC_FUZZ_INPUTS=$(FUZZ_INPUTS) $(BIN)/pytest -q -s tests/test_history_fuzz.py

# The demo: 4-player Catalan Truc with mixed policies (several thousand games), then every other variant
# and player count, each run in its own folder under data/demo/, and one cross-variant report over them.
# The second bot of every other run: the parameters its family reads (truc policies).
DEMO_LADDER_BOT := threshold:raise_at=0.8,call_at=0.6,bluff=0.05
DEMO_TRUT_BOT := threshold:trut_at=0.7,see_at=0.45
DEMO_RUNS := catalan:2 french:2 french:4 trut:2 trut:3 trut:4 trut:6 trut-gatinaise:2 trut-gatinaise:4 \
	trut-gatine:2 trut-gatine:4 valencian:2 valencian:4

demo: $(STAMP) compile
	@rm -rf data/demo
	$(BIN)/truc simulate --variant catalan --players 4 --games $(DEMO_GAMES) --seed 2026 \
		--policy threshold --seat-policy 1=threshold:raise_at=0.8,call_at=0.6,bluff=0.05 \
		--seat-policy 3=random --option signals=on --workers 2 --out data/demo/catalan-4p
	@for run in $(DEMO_RUNS); do \
		variant=$${run%%:*}; players=$${run##*:}; \
		case $$variant in trut*) bot=$(DEMO_TRUT_BOT);; *) bot=$(DEMO_LADDER_BOT);; esac; \
		echo "truc simulate --variant $$variant --players $$players --games $(DEMO_OTHER_GAMES)"; \
		$(BIN)/truc simulate --variant $$variant --players $$players --games $(DEMO_OTHER_GAMES) --seed 2026 \
			--policy threshold --seat-policy 1=$$bot \
			--workers 2 --quiet --out data/demo/$$variant-$${players}p || exit 1; \
	done
	@rm -rf data/demo-match
	$(BIN)/truc match --variant catalan --players 2 --a threshold --b random --games 2000 --seed 2026 \
		--workers 2 --quiet --out data/demo-match
	$(BIN)/truc stats variant_comparison --data data/demo
	$(BIN)/truc report --data data/demo --out reports/demo
	$(BIN)/truc report --data data/demo-match --out reports/demo-match --title "Threshold against random: a match"
	@echo
	@echo "Datasets:   data/demo/<variant>-<players>p/ (games, hands, seats, events as Parquet; manifest.json)"
	@echo "Statistics: $(BIN)/truc stats NAME --data data/demo   (list them with: $(BIN)/truc stats)"
	@echo "Your SQL:   $(BIN)/truc sql --data data/demo \"select verb, count(*) from events group by all\""
	@echo "Report:     reports/demo/index.html (charts also in reports/demo/charts/; article.md beside it)"
	@echo "Experiment: data/demo-match/ (threshold against random in pairs of games; see docs/experiments.md),"
	@echo "            its report reports/demo-match/index.html"

bench: $(STAMP) compile
	$(BIN)/python bench/simulate_speed.py
	$(BIN)/python bench/variant_ratios.py
	$(BIN)/python bench/hand_costs.py
	$(BIN)/python bench/experiments_speed.py
	@if command -v valgrind >/dev/null; then $(BIN)/python bench/instructions.py; \
	$(BIN)/python bench/import_instructions.py; \
	else echo "bench/instructions.py and bench/import_instructions.py skipped: they need valgrind (apt-get install valgrind)"; fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build pipeline/_compiled.json
	find pipeline -name '*.so' -delete
