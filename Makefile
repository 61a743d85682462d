# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve-prod test lint typecheck pytest weights migrate bench clean backup restore lock messages

UV := $(BIN)/uv
LOCK_FLAGS := --generate-hashes --python-version 3.11 --universal $(if $(UPGRADE),--upgrade,)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# uv installs the locks; pip only brings uv itself, checked against its hash.
$(UV): requirements/bootstrap.lock | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/bootstrap.lock
	touch $(UV)

# Exactly the locked versions (requirements/README.md), then the project itself,
# built here with the locked setuptools (no download of build tools); that
# compiles the solver's C core (games/engine/solver/_core.c) with the system
# gcc. Reinstalls when a lock, the project's declaration or the core changes.
$(STAMP): requirements/dev.lock pyproject.toml setup.py games/engine/solver/_core.c | $(UV)
	$(UV) pip sync --quiet --python $(BIN)/python --require-hashes requirements/dev.lock
	$(UV) pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Re-resolve the locks from pyproject.toml (UPGRADE=1 moves every pin forward).
lock: | $(UV)
	$(UV) pip compile --quiet pyproject.toml requirements/build.in $(LOCK_FLAGS) \
		-o requirements/app.lock
	$(UV) pip compile --quiet pyproject.toml requirements/build.in requirements/bootstrap.in \
		--extra test -c requirements/app.lock $(LOCK_FLAGS) -o requirements/dev.lock

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

# `python -m daphne`, not the daphne script: a solver process re-imports the main module
# it was started from, and the script's would load Twisted into it (games/quotas/process.py).
run: migrate
	$(BIN)/python -m daphne -b $(HOST) -p $(PORT) sultan_site.asgi:application

# The production topology on loopback: two Daphne processes behind nginx on
# http://127.0.0.1:8080, against DATABASE_URL and REDIS_URL (README.md, "Production").
SERVE_LISTEN ?= 8080
SERVE_PORTS ?= 8001,8002
serve-prod: $(STAMP)
	$(BIN)/python deploy/serve_prod.py --listen $(SERVE_LISTEN) --ports $(SERVE_PORTS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy .

# The suite on every core (pytest-xdist: a worker per core, each module on one worker,
# each worker isolated: tests/settings.py), in a random order whose seed the header
# prints (pytest-randomly; replay one with PYTEST_ARGS=--randomly-seed=N),
# and the 15 slowest tests at the end (docs/testing.md). The costliest modules
# start first (tests/weights.py): xdist's own reordering, by number of tests, is off.
# A worker more than the cores: the suite waits on timers, sockets and other processes
# (a tournament's rest, a server's start), and with a worker per core the cores were 88%
# busy; with one more, 98% (docs/testing.md, "Workers").
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
pytest: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15 $(PYTEST_ARGS)

# Measure what each test module costs into tests/weights.json (commit it).
weights: $(STAMP)
	$(MAKE) pytest PYTEST_ARGS="--record-weights $(PYTEST_ARGS)"

# mypy runs beside the suite rather than before it: it keeps one core busy for most of a
# minute, and the suite leaves a share of the cores idle (waits on timers, sockets, other
# processes) that it fills (docs/testing.md). Its report follows the suite's; either
# failing fails `make test`.
test: lint
	@$(BIN)/mypy . > $(VENV)/mypy.log 2>&1 & types=$$!; \
	$(MAKE) --no-print-directory pytest; suite=$$?; \
	wait $$types; typed=$$?; \
	echo "== mypy ."; cat $(VENV)/mypy.log; \
	exit $$(( suite || typed ))

# The translations (docs/pages.md, "Language"): collects every marked string
# into locale/<lang>/LC_MESSAGES/*.po, then compiles the .mo files committed
# beside them (games/management/commands/messages.py). Needs GNU gettext
# (apt: gettext); `make run` does not.
messages: $(STAMP)
	$(BIN)/python manage.py messages

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .mypy_cache .ruff_cache

# Backups of the event store (README.md, "Production"): pg_dump's custom format
# of DATABASE_URL into backups/; a restore goes into RESTORE_URL, a new or
# empty database, never over the live one.
BACKUP_DIR ?= backups
backup:
	BACKUP_DIR=$(BACKUP_DIR) deploy/pg_backup.sh backup

restore:
	@test -n "$(BACKUP)" || (echo "make restore BACKUP=backups/<file>.dump RESTORE_URL=postgres://..." >&2; exit 2)
	deploy/pg_backup.sh restore $(BACKUP)
