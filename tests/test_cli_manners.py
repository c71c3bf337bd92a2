"""What a newcomer meets at the command line: the registry's own commands and version, one summary line
per source in cron's log, a scan that says where its database is missing, and honest --fix/--diff output."""
import subprocess
import sys

import pytest

from helpers import DATA, build_db
from registry import create_app

ROOT = DATA.parent.parent
REGISTRY = [sys.executable, "-c", "import sys; from registry.console import main; sys.argv[0] = 'registry'; main()"]


def run(*args, cwd=None, env=None):
    import os
    return subprocess.run([*REGISTRY, *args], capture_output=True, text=True, cwd=cwd, timeout=60,
                          env={**os.environ, **(env or {})})


def test_help_lists_the_registrys_own_commands():
    out = run("--help").stdout
    listed = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == {"audit", "curate", "export", "init-db", "ingest", "mcp", "notify", "scan", "serve"}


def test_version_is_the_registrys():
    from importlib.metadata import version
    assert run("--version").stdout.strip() == f"registry {version('model-registry')}"


def test_ingest_prints_one_summary_line_per_source_without_a_terminal(tmp_path, curation_dir):
    build_db(tmp_path / "r.db", curation_dir)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.db"), "SEEDS_DIR": str(ROOT / "seeds")})
    result = app.test_cli_runner().invoke(args=["ingest", "--offline", "--source", "vendor-b-api"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("vendor-b-api: completed: ")
    assert "(run " in lines[0] and "records: " in lines[0]


def test_scan_without_a_database_says_how_to_give_one(tmp_path):
    result = run("scan", str(tmp_path), cwd=tmp_path, env={"REGISTRY_DB": str(tmp_path / "none.db")})
    assert result.returncode == 2
    assert f"no registry database at {tmp_path / 'none.db'}: set REGISTRY_DB" in result.stderr
    assert "--registry URL" in result.stderr and not (tmp_path / "none.db").exists()


@pytest.fixture
def scan_app(tmp_path):
    build_db(tmp_path / "r.db", DATA / "curation", listed=True)
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.db")})


def test_fix_reports_what_it_fixed_and_diff_paths_keep_one_slash(scan_app, tmp_path):
    code = tmp_path / "code"
    code.mkdir()
    (code / "app.py").write_text('MODEL = "claude-3-5-sonnet-20241022"\n')
    runner = scan_app.test_cli_runner()
    diff = runner.invoke(args=["scan", str(code), "--diff"]).output
    assert f"--- a{code}/app.py" in diff and "a//" not in diff
    fixed = runner.invoke(args=["scan", str(code), "--fix"]).output
    assert "1 fixed." in fixed and "can be fixed" not in fixed
