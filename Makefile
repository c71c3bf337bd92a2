# Operator contract: see docs/running.md. Only python3 and make are assumed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
DIST   ?= dist/registry.pyz
export REGISTRY_DB ?= ./registry.db

.PHONY: install run test test-browser lint bench clean db dist

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
	@# the WAL folded into the file and its -wal/-shm gone before the move (the last writer out removes them)
	$(BIN)/python -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); 	    c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.execute("PRAGMA journal_mode = DELETE"); c.close()' $@.build
	mv $@.build $@
	rm -f $@.build.*.lock

db: $(REGISTRY_DB)

run: install db
	HOST=$(HOST) PORT=$(PORT) $(BIN)/registry serve

# axe-core (the accessibility rules tests/test_pages_browser.py runs in chromium) comes from npm at
# install time into a git-ignored folder, never committed.
AXE := .axe/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix .axe 'axe-core@^4.10'

# One worker (pytest-xdist) more than the cores: a test that waits on a server or a subprocess leaves its core to
# another (docs/contributing.md). Each test module on one worker, so its module fixtures are built once.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: install $(AXE)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope

# Only the pages in a real browser (Debian's chromium and chromium-driver; .ci/run installs them).
test-browser: install $(AXE)
	$(BIN)/python -m pytest -q tests/test_pages_browser.py

$(BIN)/ruff: | $(BIN)/python
	$(BIN)/pip install --quiet 'ruff>=0.5'

lint: install $(BIN)/ruff
	$(BIN)/ruff check registry tests scripts bench

bench: install
	$(BIN)/python bench/run.py $(BENCH_ARGS)

$(BIN)/shiv: | $(BIN)/python
	$(BIN)/pip install --quiet 'shiv>=1.0,<2'

# One executable file (a shiv zipapp) holding the package, schema.sql and every dependency:
# `./dist/registry.pyz serve | init-db | curate | ingest`, with the Redis client the multi-host setup uses
# (docs/running.md#rate-limits-caching-and-redis). Its shebang names this python3.X,
# since PyYAML and MarkupSafe ship compiled code; the host needs that python (and nothing else).
# setuptools' build/ is removed first: a stale copy of a deleted module would ship otherwise.
dist: $(BIN)/shiv
	rm -rf build
	mkdir -p $(dir $(DIST))
	$(BIN)/shiv --console-script registry --output-file $(DIST).build --reproducible --compressed \
	    --python "/usr/bin/env $$($(BIN)/python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')" '.[redis]'
	$(BIN)/python -c 'import sys, zipfile; \
	    packed = zipfile.ZipFile(sys.argv[1]).read("site-packages/registry/schema.sql"); \
	    sys.exit(0 if packed == open("schema.sql", "rb").read() else "schema.sql in the build differs")' $(DIST).build
	mv $(DIST).build $(DIST)
	rm -rf build
	@ls -l $(DIST)

clean:
	rm -rf $(VENV) *.egg-info build dist .axe test-artifacts
