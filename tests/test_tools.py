"""The measuring tools (scripts/, bench/) still run against the code as it is: a quick run of each
small one, and every bench module imports (make bench itself takes minutes: not in the suite)."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("argv", [
    ["scripts/bench_resolve.py", "--models", "300", "--queries", "30"],
    ["scripts/eval_resolve.py"],
    ["scripts/eval_search.py"],
    ["scripts/package_imports.py", "--from", "pages"],
])
def test_script_runs(argv):
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("module", ["synth", "httpload", "inproc", "ingestbench", "tables", "floorapp"])
def test_bench_module_imports(module):
    code = f"import sys; sys.path[:0] = ['bench', '.']; import {module}"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("importer, lender", [
    ("registry.pages", "registry.api"),           # request parameters live in registry/web/params.py
    ("registry.pages", "registry.ingest"),        # a source's link is in the vocabulary (registry/fields.py)
    ("registry.pages", "registry.curation"),
    ("registry.pages", "registry.merge"),         # source names too
    ("registry.pages", "registry.resolve.answers"),   # days_left lives in registry/lifecycle
])
def test_no_package_borrows_these_helpers_from_a_sibling(importer, lender):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import package_imports
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    borrowed = {(a, b): names for (a, b), names in package_imports.cross_imports().items()
                if a.startswith(importer) and (b == lender or b.startswith(lender + "."))}
    assert borrowed == {}
