"""Fixtures (flaskr style): an app over a temp database built from the fixture curation."""
import os
import shutil
import tempfile

import pytest

from registry import create_app
from registry.db import connect_rw
from registry.web.connection import close_thread_connections

from helpers import DATA, SHARED_ENV, TODAY, build_db


@pytest.fixture(scope="module")
def module_db(tmp_path_factory):
    """A registry of the fixture curation, one per test module (its tests may write to it)."""
    path = tmp_path_factory.mktemp("module-db") / "registry.db"
    build_db(path, DATA / "curation")
    return path


@pytest.fixture(autouse=True)
def pinned_today(monkeypatch):
    """Lifecycle depends on today's date: pin it so the fixture's statuses are stable."""
    monkeypatch.setenv("REGISTRY_TODAY", TODAY)


@pytest.fixture
def curation_dir(tmp_path):
    """A writable copy of the fixture curation."""
    target = tmp_path / "curation"
    shutil.copytree(DATA / "curation", target)
    return target


@pytest.fixture
def app(tmp_path, curation_dir):
    db_path = tmp_path / "registry.db"
    build_db(db_path, curation_dir)
    app = create_app({"TESTING": True, "DATABASE": str(db_path), "CURATION_DIR": str(curation_dir),
                      "ADMIN_API_KEYS": []})
    yield app
    close_thread_connections()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def rw(app):
    """A read-write connection to the app's database."""
    conn = connect_rw(app.config["DATABASE"])
    yield conn
    conn.close()


os.environ.setdefault("REGISTRY_TODAY", TODAY)
# Every app a test builds gets budgets high enough for loops over every alias, in-process counters
# and no trusted proxy, whatever the shell says; tests of the limits themselves set their own.
os.environ.update({"RATELIMIT_PUBLIC": "100000/minute", "RATELIMIT_ADMIN": "100000/minute",
                   "RATELIMIT_STORAGE_URI": "memory://", "TRUSTED_PROXIES": "0"})


def pytest_configure(config):
    if not hasattr(config, "workerinput"):   # the run itself (not a pytest-xdist worker): workers inherit it
        os.environ[SHARED_ENV] = tempfile.mkdtemp(prefix="registry-tests-")
    config.addinivalue_line("markers", "slow: builds or starts real processes (make test runs it)")


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ.pop(SHARED_ENV, ""), ignore_errors=True)


def pytest_collection_modifyitems(session, config, items):
    """The modules that hold slow tests first (stable otherwise): pytest-xdist hands out whole modules in this
    order, so the long ones start first and the short ones fill in around them, and the workers end together."""
    slow_modules = {item.module.__name__ for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.module.__name__ not in slow_modules)
