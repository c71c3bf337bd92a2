"""The pre-commit hook, run as a user's repository runs it: `pre-commit try-repo` against this checkout.

Offline, so the `language: system` hook (the installed `registry` on PATH); the `language: python`
one would have pre-commit pip-install this package and its dependencies, which needs the index.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import TODAY

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def db_path(module_db):
    return module_db


@pytest.mark.parametrize("content, code, shown", [
    ('MODEL = "claude-3-5-sonnet-20241022"\n', 1, "app.py:1:10: 'claude-3-5-sonnet-20241022'"),
    ('MODEL = "anthropic.claude-3-sonnet-20240229-v1:0"\n', 1,
     "upgrade to 'anthropic.claude-sonnet-4-5-20250929-v1:0'"),
    ('MODEL = "claude-sonnet-4-5-20250929"\n', 0, "0 deprecated or sunset model id(s)"),
    ('MODEL = "claude-3-5-sonnet-20241022"  # registry: ignore\n', 0, "Passed"),
])
def test_try_repo(tmp_path, db_path, content, code, shown):
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text(content)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "REGISTRY_DB": str(db_path),
           "PRE_COMMIT_HOME": str(tmp_path / "cache"), "REGISTRY_TODAY": TODAY, "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=env)
    subprocess.run(["git", "add", "app.py"], cwd=project, check=True, env=env)
    result = subprocess.run([str(BIN / "pre-commit"), "try-repo", str(ROOT), "registry-scan-system", "--all-files",
                             "--verbose"], cwd=project, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == code, result.stdout + result.stderr
    assert shown in result.stdout, result.stdout
