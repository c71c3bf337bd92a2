"""The shipped registry for the evaluation scripts: built as the Makefile's db target builds it, and
served through the app's test client (every answer through the same code as the API)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(db: str) -> None:
    """Schema, curation and every seed, as the Makefile's db target does."""
    flask = [sys.executable, "-m", "flask", "--app", "registry"]
    env = {**os.environ, "REGISTRY_DB": db}
    for args in (["init-db"], ["curate"], ["ingest", "--offline"]):
        subprocess.run(flask + args, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


@contextmanager
def client(db: str | None = None):
    """A test client of the app over db, or over a registry built now in a temporary folder."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        if db is None:
            db = os.path.join(tmp, "registry.db")
            build(db)
        from registry import create_app
        app = create_app({"TESTING": True, "DATABASE": db, "RATELIMIT_ENABLED": False})
        yield app.test_client()
