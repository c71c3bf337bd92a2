"""Helpers the tests share: building a database through the real code paths, the error-shape check,
and a sample URL for every GET route of the app (derived from its URL map)."""
import atexit
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from registry.curation.apply import apply_curation
from registry.curation.reader import read_curation
from registry.db import connect_rw, init_db

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-11-21"
# Values for the URL map's variables that exist in the fixture curation (tests/data/curation).
SAMPLE_VALUES = {
    "slug": {"providers": "anthropic", "families": "claude-sonnet", "models": "claude-3-5-sonnet-20241022"},
    "source": {"ingest": "vendor-a-api"},
    "name": {"static": "style.css"},
    "webhook_id": {"webhooks": "1"},
}
QUERY = {"/api/v1/resolve": "?q=claude-3-5-sonnet-20241022", "/api/v1/search": "?q=claude",
         "/resolve": "?q=claude-3-5-sonnet-20241022", "/resolve.md": "?q=claude-3-5-sonnet-20241022",
         "/search": "?q=claude", "/search.md": "?q=claude",
         "/compare": "?models=claude-3-5-sonnet-20241022,claude-sonnet-4-5-20250929",
         "/compare.md": "?models=claude-3-5-sonnet-20241022,claude-sonnet-4-5-20250929"}


# Databases build_db made in this test process, by what they were made from: the next build of the same copies
# it (about 60 ms a build; most tests start from the fixture curation as it is).
_BUILT: dict = {}


def _made_from(curation_dir, listed: bool) -> tuple:
    """What a build depends on: the curation's files, byte for byte, the flag and the pinned day."""
    digest = hashlib.sha256()
    for file in sorted(Path(curation_dir).rglob("*")):
        if file.is_file():
            digest.update(file.relative_to(curation_dir).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest(), listed, os.environ.get("REGISTRY_TODAY")


def build_db(path, curation_dir, listed: bool = False) -> None:
    """Create a database and apply a curation directory to it; listed: as if each platform's own listing named
    every curated id too (registry scan --fix writes only a listed id). The same build again is a copy."""
    key = _made_from(curation_dir, listed)
    if key in _BUILT and not Path(path).exists():   # over an existing database (open, maybe) the curation is applied
        shutil.copyfile(_BUILT[key], path)
        return
    init_db(str(path))
    cur = read_curation(curation_dir)
    assert not cur.errors, cur.errors
    conn = connect_rw(str(path))
    try:
        apply_curation(conn, cur)
        if listed:
            rewrite(conn, "UPDATE aliases SET listed = 1")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # every page in the file itself, for the copies
    finally:
        conn.close()
    kept = Path(tempfile.mkdtemp(prefix="registry-built-")) / "registry.db"
    shutil.copyfile(path, kept)
    atexit.register(shutil.rmtree, kept.parent, True)
    _BUILT[key] = kept


def rewrite(conn, sql: str, *args) -> None:
    """Change the registry's rows in place, then decide the lifecycles again and bump the data
    generation, as a run does after it writes (registry/merge/lifecycle.py)."""
    from registry.db import bump_generation, transaction
    from registry.merge import lifecycle
    with transaction(conn):
        conn.execute(sql, args)
        lifecycle.recompute(conn)
        bump_generation(conn)


def load_script(name: str):
    """Import scripts/<name>.py as a module (the evaluation scripts the tests hold to their figures)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module   # dataclasses look their module up while the class is made
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def shipped_app(path, today: str, **config):
    """The app over the registry as shipped (curation, then every source from seeds/) built at path."""
    os.environ["REGISTRY_TODAY"] = today
    build_db(path, ROOT / "curation")
    return _app_over(path, **config)


def _app_over(path, **config):
    from registry import create_app
    return create_app({"TESTING": True, "DATABASE": str(path), "SEEDS_DIR": str(ROOT / "seeds"),
                       "CURATION_DIR": str(ROOT / "curation"), **config})


# A directory the whole test run shares, its pytest-xdist workers included (conftest.py makes and removes it).
SHARED_ENV = "REGISTRY_TEST_SHARED"


def shipped_ingested_app(path, today: str, **config):
    """shipped_app after `ingest --offline`: the registry `make run` serves, built once per test run on TODAY,
    before any day a test asks for (each worker copies the first one's), then brought to `today` as a server
    brings its statuses to a new day."""
    from registry.merge.runs import refresh_if_stale
    from filelock import FileLock
    kept = Path(os.environ[SHARED_ENV]) / "shipped-ingested.db"
    with FileLock(str(kept) + ".lock"):
        if not kept.exists():
            built = kept.with_name("building.db")
            result = shipped_app(built, TODAY).test_cli_runner().invoke(args=["ingest", "--offline"])
            assert result.exit_code == 0, result.output
            conn = connect_rw(str(built))
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # every page in the file itself, for the copies
            conn.close()
            built.rename(kept)
    shutil.copyfile(kept, path)
    assert today >= TODAY, f"the shipped registry is built on {TODAY}: a day before it cannot be asked for"
    os.environ["REGISTRY_TODAY"] = today
    conn = connect_rw(str(path))
    try:
        refresh_if_stale(conn, today)
    finally:
        conn.close()
    return _app_over(path, **config)


def assert_error(response, status: int, code: str, contains: str = ""):
    """Every error has the spec's shape: {"error": {"code", "message"}}, JSON, nothing else."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert contains in body["error"]["message"]
    assert "Traceback" not in response.get_data(as_text=True)
    return body


def get_routes(app) -> list:
    """A sample URL for every GET route of the app, derived from its URL map (a new route cannot be left out)."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        url = rule.rule
        for name in rule.arguments:
            collection = rule.rule.split("/<")[0].rsplit("/", 1)[-1]
            url = re.sub(rf"<(?:\w+:)?{name}>", SAMPLE_VALUES[name][collection], url)
        urls.append(url + QUERY.get(rule.rule, ""))
    return sorted(urls)
