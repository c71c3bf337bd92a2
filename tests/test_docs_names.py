"""The docs name only what exists: every file, `module.name` and setting a reader is sent to (README, docs/,
curation/README.md) is in the tree (a page that names what was renamed sends a newcomer nowhere)."""
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "curation" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = re.compile(r"`([^`\n]+)`")
FILE = re.compile(r"^[\w.+/-]*\w\.(?:py|sql|yaml|yml|json|cfg|toml|md|jsonl|ini)(?:::(\w+))?$")
DOTTED = re.compile(r"^([a-z_][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?$")
SETTING = re.compile(r"^(?:REGISTRY|RATELIMIT|ADMIN|TRUSTED|WEB|GUNICORN|MCP)_[A-Z0-9_]+$")
FOLDERS = ("registry", "tests", "scripts", "bench", "seeds", "curation", "docs", ".ci")
# Files of other projects a page sends a curator to read (the providers' SDKs, LiteLLM's model map): not ours.
UPSTREAM_FILES = {"anthropic/_data/deprecated_models.py", "openai/types/shared/chat_model.py", "audio_model.py",
                  "image_model.py", "model_prices_and_context_window_backup.json"}


@lru_cache(maxsize=1)
def tree() -> list:
    """Every file a page may name."""
    files = [p for folder in FOLDERS for p in (ROOT / folder).rglob("*") if p.is_file() and ".cache" not in p.parts]
    return files + [p for p in ROOT.iterdir() if p.is_file()]


@lru_cache(maxsize=1)
def code_text() -> str:
    """The text of the code, the Makefile and CI (not the tests): where a setting is read, a file name written."""
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in tree()
                     if "tests" not in p.relative_to(ROOT).parts
                     and (p.suffix in (".py", ".cfg", ".toml", ".sql", ".yaml") or p.name in ("Makefile", "run")))


@lru_cache(maxsize=1)
def tables() -> set:
    """The tables of schema.sql: `models.status` names a column, not a module's name."""
    schema = (ROOT / "registry" / "schema.sql").read_text(encoding="utf-8")
    return set(re.findall(r"CREATE (?:VIRTUAL )?TABLE IF NOT EXISTS (\w+)", schema))


@lru_cache(maxsize=None)
def modules(name: str) -> list:
    """The registry's modules (or packages) of a name."""
    package = ROOT / "registry"
    return [p for p in package.rglob(f"{name}.py")] + [p / "__init__.py" for p in package.rglob(name) if p.is_dir()]


def defines(path: Path, name: str) -> bool:
    """Does the module define name (a function, class, constant or import of it)?"""
    text = path.read_text(encoding="utf-8")
    return re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b|^\s*{name}\s*[:=]|\bimport\b[^\n]*\b{name}\b"
                     rf"|^\s*{name},|\({name},|, {name}\)|, {name},",
                     text, re.M) is not None or re.search(rf"self\.{name}\s*=|\b{name}\s*=", text) is not None


def named(page: Path) -> list:
    """The code spans of a page, each once."""
    return sorted(set(CODE.findall(page.read_text(encoding="utf-8"))))


def missing(token: str) -> str | None:
    """Why a code span names nothing that exists, or None when it does (or names no file, module or setting)."""
    token = token.strip()
    if token in UPSTREAM_FILES or token in code_text():   # a name the code itself writes (a file it reads, an event)
        return None
    file = FILE.match(token)
    if file and not token.startswith(("http://", "https://", "/")):
        path, _, function = token.partition("::")
        found = [p for p in tree() if p.as_posix().endswith("/" + path)]
        if not found:
            return f"no file {path}"
        if function and not any(defines(p, function) for p in found):
            return f"{path} defines no {function}"
        return None
    dotted = DOTTED.match(token)
    if dotted and modules(dotted.group(1)) and dotted.group(1) not in tables():
        module, name = dotted.groups()
        if not any(defines(p, name) for p in modules(module)):
            return f"no module {module} defines {name}"
        return None
    if SETTING.match(token) and token not in code_text():
        return f"no code reads {token}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_name_in_a_page_exists(page):
    misses = [f"`{token}`: {why}" for token in named(page) if (why := missing(token))]
    assert misses == []


@pytest.mark.parametrize("token, found", [
    ("registry/web/front.py", True),
    ("registry/curation/audit.py", False),
    ("soundness.py", False),
    ("tests/test_ingest.py::test_rerun_with_unchanged_data_changes_nothing", True),
    ("tests/test_ingest.py::test_no_such_test", False),
    ("runs.refresh_if_stale", True),
    ("runs.no_such_function", False),
    ("upgrade_alias.written", True),          # a field of an answer, no module: not checked
    ("RATELIMIT_PUBLIC", True),
    ("REGISTRY_NO_SUCH_SETTING", False),
])
def test_the_check_tells_what_exists(token, found):
    assert (missing(token) is None) is found
