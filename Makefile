# Operator contract: see README.md and design notes. Only python3 and make are assumed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
export REGISTRY_DB ?= ./registry.db

.PHONY: install run test lint bench clean db

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# Build the embedded default once: schema, curation, then every source from seeds/.
$(REGISTRY_DB): | install
	$(BIN)/flask --app registry init-db
	$(BIN)/flask --app registry curate
	REGISTRY_OFFLINE=1 $(BIN)/flask --app registry ingest --offline || true

db: $(REGISTRY_DB)

run: install db
	$(BIN)/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) 'registry:create_app()'

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/python -m compileall -q registry tests scripts
	$(BIN)/python -m pyflakes registry tests scripts 2>/dev/null || $(BIN)/pip install --quiet pyflakes && $(BIN)/python -m pyflakes registry tests scripts

clean:
	rm -rf $(VENV) *.egg-info build dist
