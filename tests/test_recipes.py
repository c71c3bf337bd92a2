"""The contributing recipes hold (docs/contributing.md): done in a copy of the tree, each step's named test fails
before the step and passes after it. Run in a subprocess on the copy, so the package under test is the copy's."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("registry", "tests", "docs", "curation", "seeds", "setup.cfg", "README.md")

# "An endpoint", steps 1 and 3: a view on the /api/v1 blueprint, then its entry in the OpenAPI document.
TOY_VIEW = '''

@bp.get("/toy-providers")
def toy_providers():
    return jsonify({"providers": catalog.list_providers(get_db())})
'''
TOY_PATH = '''  /toy-providers:
    get:
      operationId: listToyProviders
      tags: [catalog]
      summary: All providers again (a recipe's toy).
      parameters:
        - $ref: "#/components/parameters/IfNoneMatch"
      responses:
        "200":
          description: The providers.
          headers: *public-headers
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [providers]
                properties:
                  providers: {type: array, items: {$ref: "#/components/schemas/Provider"}}
        <<: *public-errors

'''
ENDPOINT_TESTS = ["tests/test_openapi.py::test_every_route_is_documented_and_nothing_else",
                  "tests/test_every_endpoint.py"]


@pytest.fixture
def tree(tmp_path):
    """A copy of the project's code, tests, docs and data."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", ".cache"))
        else:
            shutil.copy(source, tmp_path / name)
    return tmp_path


def pytest_in(tree: Path, tests: list) -> subprocess.CompletedProcess:
    """The named tests run on the copy (its registry package first on the path)."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests],
                          cwd=tree, capture_output=True, text=True, timeout=600,
                          env={**_env(), "PYTHONPATH": str(tree)})


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


class TestEndpointRecipe:
    """One class per recipe: `make test` (--dist loadscope) runs each on any worker."""

    def test_it(self, tree):
        catalog = tree / "registry" / "api" / "catalog.py"
        assert "list_providers" in catalog.read_text(encoding="utf-8")   # the query the toy view calls exists
        catalog.write_text(catalog.read_text(encoding="utf-8") + TOY_VIEW, encoding="utf-8")
        undocumented = pytest_in(tree, ENDPOINT_TESTS)
        assert undocumented.returncode == 1, undocumented.stdout[-2000:]
        assert "/toy-providers" in undocumented.stdout
        document = tree / "registry" / "web" / "openapi.yaml"
        text = document.read_text(encoding="utf-8")
        anchor = "  /providers/{slug}:\n"
        document.write_text(text.replace(anchor, TOY_PATH + anchor, 1), encoding="utf-8")
        documented = pytest_in(tree, ENDPOINT_TESTS)
        assert documented.returncode == 0, documented.stdout[-3000:]


# "A model field", a metadata field: its row in FIELDS is all curation and the answers need.
TOY_FIELD = '    Field("toy_note", "text", "metadata"),\n'
READ_TOY = """
import json, sys
from registry import create_app
from tests.helpers import build_db
build_db(sys.argv[1], "tests/data/curation")
client = create_app({"TESTING": True, "DATABASE": sys.argv[1]}).test_client()
print(json.dumps(client.get("/api/v1/models/claude-3-5-sonnet-20241022").get_json()["metadata"]))
"""


def run_in(tree: Path, *args) -> subprocess.CompletedProcess:
    """A Python script run on the copy (its registry package first on the path)."""
    return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True, timeout=300,
                          env={**_env(), "PYTHONPATH": f"{tree}:{tree / 'tests'}", "REGISTRY_TODAY": "2026-11-21"})


class TestMetadataFieldRecipe:
    """One class per recipe: `make test` (--dist loadscope) runs each on any worker."""

    def test_it(self, tree):
        import json
        curation = tree / "tests" / "data" / "curation" / "anthropic.yaml"
        text = curation.read_text(encoding="utf-8")
        anchor = '        display_name: Claude 3.5 Sonnet (2024-10-22)\n'
        noted = text.replace(anchor, anchor + "        toy_note: kept from the recipe\n", 1)
        curation.write_text(noted, encoding="utf-8")
        unknown = run_in(tree, "-c", READ_TOY, str(tree / "before.db"))
        assert unknown.returncode != 0 and "toy_note" in unknown.stderr   # curation refuses a field FIELDS lacks
        fields = tree / "registry" / "fields.py"
        source = fields.read_text(encoding="utf-8")
        row = '    Field("preview", "flag", "metadata"),\n'
        fields.write_text(source.replace(row, row + TOY_FIELD, 1), encoding="utf-8")
        known = run_in(tree, "-c", READ_TOY, str(tree / "after.db"))
        assert known.returncode == 0, known.stderr[-2000:]
        metadata = json.loads(known.stdout.strip().splitlines()[-1])
        assert metadata["toy_note"] == "kept from the recipe"
        assert metadata["provenance"]["toy_note"] == "curation"


# "An audit invariant": a function over the loaded Registry, one line per violation, in INVARIANTS.
TOY_INVARIANT = '''

def toy_aliases_without_a_model(reg: Registry) -> list:
    """(z) an alias whose model the registry does not hold (a recipe's toy)."""
    slugs = {a.model_slug for a in reg.aliases}
    return [f"{a.alias} names {a.model_slug}" for a in reg.aliases if a.model_slug not in slugs or {BREAK}]


INVARIANTS["(z) an alias names no model"] = toy_aliases_without_a_model
'''
AUDIT_TESTS = ["tests/test_audit.py::test_the_fixture_registry_holds_every_answer_invariant"]


class TestAuditInvariantRecipe:
    """One class per recipe: `make test` (--dist loadscope) runs each on any worker."""

    @pytest.mark.parametrize("breaks, passes", [("False", True), ("a.alias.startswith('claude')", False)])
    def test_it(self, tree, breaks, passes):
        answers = tree / "registry" / "audit" / "answers.py"
        answers.write_text(answers.read_text(encoding="utf-8") + TOY_INVARIANT.replace("{BREAK}", breaks),
                           encoding="utf-8")
        run = pytest_in(tree, AUDIT_TESTS)
        assert (run.returncode == 0) is passes, run.stdout[-2000:]
        if not passes:   # the test names the invariant and the line it reports
            assert "(z) an alias names no model" in run.stdout


# "A page", steps 1 to 3: a view, its two templates, its entry under x-pages.
TOY_PAGE_VIEW = '''

@page("/toy-providers")
def toy_providers():
    """Every provider again (a recipe's toy)."""
    return render("toy_providers", providers=catalog.list_providers(get_db()))
'''
SHOW_TOY_PAGE = """
import sys
from registry import create_app
from tests.helpers import build_db
build_db(sys.argv[1], "tests/data/curation")
client = create_app({"TESTING": True, "DATABASE": sys.argv[1]}).test_client()
html, md = client.get("/toy-providers"), client.get("/toy-providers.md")
print(html.status_code, md.status_code, "Anthropic" in md.get_data(as_text=True))
"""
TOY_PAGE_DOC = "    /toy-providers:\n      get: {summary: Every provider again, <<: *page}\n"
PAGE_TESTS = ["tests/test_openapi.py::test_every_page_is_documented_and_nothing_else"]


class TestPageRecipe:
    """One class per recipe: `make test` (--dist loadscope) runs each on any worker."""

    def test_it(self, tree):
        pages = tree / "registry" / "pages"
        (pages / "catalog.py").write_text((pages / "catalog.py").read_text(encoding="utf-8") + TOY_PAGE_VIEW,
                                          encoding="utf-8")
        for suffix in ("html", "md"):   # the providers page's own templates, under the toy's name
            (pages / "templates" / f"toy_providers.{suffix}").write_text(
                (pages / "templates" / f"providers.{suffix}").read_text(encoding="utf-8"), encoding="utf-8")
        undocumented = pytest_in(tree, PAGE_TESTS)
        assert undocumented.returncode == 1 and "/toy-providers" in undocumented.stdout, undocumented.stdout[-2000:]
        document = tree / "registry" / "web" / "openapi.yaml"
        anchor = "    /providers/{slug}:\n      get: {summary: \"A provider:"
        text = document.read_text(encoding="utf-8")
        assert text.count(anchor) == 1
        document.write_text(text.replace(anchor, TOY_PAGE_DOC + anchor, 1), encoding="utf-8")
        documented = pytest_in(tree, PAGE_TESTS + ["tests/test_pages.py::test_every_link_of_the_pages_answers"])
        assert documented.returncode == 0, documented.stdout[-3000:]
        # the page and its Markdown twin answer, with the providers in them
        shown = run_in(tree, "-c", SHOW_TOY_PAGE, str(tree / "pages.db"))
        assert shown.returncode == 0 and shown.stdout.split() == ["200", "200", "True"], shown.stderr[-2000:]


# "A source", steps 1 and 2: its module (here xAI's, under a new name), registered in MODULES, VENDOR_SOURCES and
# SOURCE_URLS; then its name in the two `source` enums of the OpenAPI document.
SOURCE_TESTS = ["tests/test_openapi.py::test_enums_match_the_app",
                "tests/test_openapi.py::test_schema_enums_match_the_app"]


class TestSourceRecipe:
    """One class per recipe: `make test` (--dist loadscope) runs each on any worker."""

    def test_it(self, tree):
        sources = tree / "registry" / "ingest" / "sources"
        module = (sources / "xai.py").read_text(encoding="utf-8").replace('"vendor-f-api"', '"vendor-g-api"')
        (sources / "toy.py").write_text(module, encoding="utf-8")
        registry = (sources / "__init__.py").read_text(encoding="utf-8")
        entry = '    "vendor-f-api": "xai",\n'
        (sources / "__init__.py").write_text(registry.replace(entry, entry + '    "vendor-g-api": "toy",\n'),
                                             encoding="utf-8")
        fields = tree / "registry" / "fields.py"
        text = fields.read_text(encoding="utf-8")
        listed_vendors = '"vendor-e-api",\n                  "vendor-f-api")'
        text = text.replace(listed_vendors, listed_vendors[:-1] + ', "vendor-g-api")')
        text = text.replace('"https://api.x.ai",', '"https://api.x.ai", "https://toy.invalid",')
        fields.write_text(text, encoding="utf-8")
        check = run_in(tree, "-c", "from registry.ingest import sources; from registry.fields import SOURCE_URLS;"
                       " print(sources.load('vendor-g-api').SOURCE, SOURCE_URLS['vendor-g-api'])")
        assert check.stdout.split() == ["vendor-g-api", "https://toy.invalid"], check.stderr[-2000:]
        unlisted = pytest_in(tree, SOURCE_TESTS)
        assert unlisted.returncode == 1 and "vendor-g-api" in unlisted.stdout, unlisted.stdout[-2000:]
        document = tree / "registry" / "web" / "openapi.yaml"
        text = document.read_text(encoding="utf-8")
        assert text.count("vendor-e-api, vendor-f-api,") == 2
        document.write_text(text.replace("vendor-e-api, vendor-f-api,", "vendor-e-api, vendor-f-api, vendor-g-api,"),
                            encoding="utf-8")
        listed = pytest_in(tree, SOURCE_TESTS)
        assert listed.returncode == 0, listed.stdout[-3000:]
