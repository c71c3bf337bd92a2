#!/usr/bin/env python3
"""Every import from one registry subpackage into another, one line per (importing module, imported module):
the names it takes. Read it to see that each is what the importer is for, not a helper borrowed from a
sibling (a helper two packages share belongs in the lower one, or in registry/fields.py if it is a word
of the shared vocabulary).

    python3 scripts/package_imports.py [--from PACKAGE]
"""
import argparse
import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "registry"


def _module_parts(path: Path, root: Path) -> tuple[list, list]:
    """(the module's dotted parts, its package's parts) for a file under root (registry/)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return parts[:-1], parts[:-1]
    return parts, parts[:-1]


def cross_imports(root: Path = ROOT) -> dict:
    """{(importing module, imported module): names} for imports between two registry subpackages."""
    subpackages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    edges = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        module, package = _module_parts(path, root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    edges[(".".join(module), alias.name)].add("*")
                continue
            else:
                continue
            importer, imported = module[1:2], target.split(".")[1:2]
            if importer and imported and importer != imported and set(importer + imported) <= subpackages:
                edges[(".".join(module), target)].update(names)
    return {k: v for k, v in edges.items() if k[1].startswith("registry.")}


def main() -> None:
    """Print the cross-package imports, optionally only those of one importing package."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="package", help="only imports made by this subpackage (pages, api, ...)")
    args = ap.parse_args()
    for (importer, imported), names in sorted(cross_imports().items()):
        if args.package is None or importer.split(".")[1] == args.package:
            print(f"{importer:30} <- {imported:30} {', '.join(sorted(names))}")


if __name__ == "__main__":
    main()
