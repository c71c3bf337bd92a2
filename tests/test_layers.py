"""The package's imports run downward and in no circle (docs/data-flow.md#layers).

A module imports only modules of its own layer or lower. The write path sits below the reads: what both wings
need (normalization, the upgrade decision, the documents search reads) belongs low, where both can import it.
KNOWN_UPWARD lists the imports that still run up, each a debt to move down (none now): a new one fails.
"""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "registry"
# Low to high. A unit is a top-level module or subpackage of registry/.
LAYERS = [
    {"fields", "config", "text", "json_limits", "url_policy", "storage", "sql", "generations", "pricing"},
    # identifiers normalized, and the search documents: both wings read them, the write path keeps them
    {"normalize", "documents", "wording", "lifecycle", "db", "migrations"},
    {"merge"},                                  # the write path: facts -> models, lifecycle, changes
    {"curation", "ingest"},                     # the writers
    {"queries"},                                # the reads
    {"search", "resolve", "feeds", "notify", "export"},
    {"scan", "audit"},
    {"web"},
    {"api", "pages", "mcp"},
    {"cli", "serve", "registry", "console"},   # the entry points
]
# Imports that still run up a layer (issue 43, "writes below reads"): each to be moved down, never added to.
KNOWN_UPWARD: set = set()


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(anywhere: bool = False) -> dict:
    """module -> the registry modules it imports when it is imported (top level), or anywhere in it (a function's
    own import is a dependency too, only a later one)."""
    modules = {_name(p): p for p in PACKAGE.rglob("*.py")}
    edges = {}
    for module, path in modules.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        found = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in (ast.walk(tree) if anywhere else tree.body):
            for item in ([node] if isinstance(node, (ast.Import, ast.ImportFrom)) else
                         [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
                         if isinstance(node, (ast.Try, ast.If)) and not anywhere else []):
                if isinstance(item, ast.Import):
                    found |= {a.name for a in item.names if a.name in modules}
                    continue
                base = package[:len(package) - item.level + 1] if item.level else []
                target = ".".join(base + ([item.module] if item.module else []))
                for alias in item.names:
                    full = f"{target}.{alias.name}"
                    found.add(full if full in modules else target)
        edges[module] = {m for m in found if m in modules and m != module}
    return edges


def unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "registry"


def layer(name: str) -> int:
    return next(i for i, units in enumerate(LAYERS) if name in units)


def test_no_circle_of_imports():
    edges, seen, done, circles = module_imports(), set(), set(), []

    def visit(module, path):
        seen.add(module)
        for other in sorted(edges[module]):
            if other in path:
                circles.append(" -> ".join(path[path.index(other):] + [other]))
            elif other not in seen:
                visit(other, path + [other])
        done.add(module)

    for module in sorted(edges):
        if module not in seen:
            visit(module, [module])
    assert circles == []


def test_every_unit_has_a_layer():
    units = {unit(m) for m in module_imports()}
    assert units - set().union(*LAYERS) == set()


def test_no_import_runs_up_a_layer_but_the_known_ones():
    upward = {(unit(a), unit(b)) for a, bs in module_imports(anywhere=True).items() for b in bs
              if layer(unit(b)) > layer(unit(a))}
    assert upward - KNOWN_UPWARD == set(), "an import runs up a layer: move what it takes down"
    assert KNOWN_UPWARD - upward == set(), "a known upward import is gone: strike it from KNOWN_UPWARD"


@pytest.mark.parametrize("edges, circle", [
    ({"a": {"b"}, "b": {"a"}}, True),
    ({"a": {"b"}, "b": set()}, False),
])
def test_the_circle_check_finds_a_circle(monkeypatch, edges, circle):
    monkeypatch.setitem(globals(), "module_imports", lambda anywhere=False: edges)
    if circle:
        with pytest.raises(AssertionError):
            test_no_circle_of_imports()
    else:
        test_no_circle_of_imports()


# The app factory registers the commands; the `registry` script and the server build the app with it (Flask's pattern:
# create_app adds app.cli commands, FlaskGroup(create_app=...) calls it): one unit, the entry points.
ENTRY_POINTS = {"registry", "cli", "console", "serve"}


def test_no_circle_between_packages():
    """A package (or top-level module) needs no other that needs it back, even through a function's import."""
    def whole(module):
        name = unit(module)
        return "entry points" if name in ENTRY_POINTS else name

    needs: dict = {}
    for module, others in module_imports(anywhere=True).items():
        needs.setdefault(whole(module), set()).update(whole(o) for o in others if whole(o) != whole(module))
    circles = sorted((a, b) for a in needs for b in needs[a] if a < b and a in needs.get(b, ()))
    assert circles == []
