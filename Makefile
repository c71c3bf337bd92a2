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
# Built under a temporary name, so a failed build never leaves a half-made database behind.
$(REGISTRY_DB): | install
	rm -f $@.build $@.build-wal $@.build-shm
	REGISTRY_DB=$@.build $(BIN)/flask --app registry init-db
	REGISTRY_DB=$@.build $(BIN)/flask --app registry curate
	REGISTRY_DB=$@.build $(BIN)/flask --app registry ingest --offline
	mv $@.build $@
	rm -f $@.build.*.lock

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
