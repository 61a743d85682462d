# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve-prod test lint typecheck pytest migrate bench clean backup restore

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

# Reinstall only when the project's declaration changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e '.[test]'
	touch $(STAMP)

migrate: $(STAMP)
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/daphne -b $(HOST) -p $(PORT) sultan_site.asgi:application

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

pytest: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

test: lint typecheck pytest

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
