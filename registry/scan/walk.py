"""Which files a scan reads: .gitignore honoured, binaries, lock files and vendored folders skipped.

docs/scan.md says what is skipped and why; --include/--exclude globs use .gitignore syntax.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

import pathspec

# Folders of other people's code or of build output: their ids are not the project's to change.
VENDORED = frozenset({
    ".git", ".hg", ".svn", "node_modules", "bower_components", "vendor", "third_party", "site-packages",
    ".venv", "venv", "__pycache__", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".terraform", ".next", ".gradle",
})
# Resolved dependency lists: generated, and rewriting them by hand breaks their checksums.
LOCK_FILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "poetry.lock",
    "Pipfile.lock", "uv.lock", "pdm.lock", "Cargo.lock", "go.sum", "Gemfile.lock", "composer.lock",
    "packages.lock.json", ".terraform.lock.hcl", "flake.lock", "mix.lock", "pubspec.lock",
})
MAX_BYTES = 4 * 1024 * 1024   # bigger files are data dumps, not code or config


def globs(patterns: Iterable[str]) -> pathspec.PathSpec | None:
    """A matcher for --include/--exclude globs (gitignore syntax), or None when there are none."""
    patterns = [p for p in patterns if p]
    return pathspec.PathSpec.from_lines("gitwildmatch", patterns) if patterns else None


def _gitignore(directory: str) -> pathspec.PathSpec | None:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as f:
            return pathspec.GitIgnoreSpec.from_lines(f)
    except OSError:
        return None


def _ignored(rules: list, path: str, is_dir: bool) -> bool:
    """Whether the .gitignore files from the repository's root down to path's folder ignore path.

    rules: (length of the folder's absolute path with its separator, spec), outermost first; path is
    absolute, so its part below a folder is a slice. The last word wins.
    """
    verdict = False
    for cut, spec in rules:
        rel = path[cut:]
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        result = spec.check_file(rel + "/" if is_dir else rel).include
        if result is not None:
            verdict = result
    return verdict


def _rule(folder: str, spec) -> tuple[int, object]:
    return len(os.path.join(folder, "")), spec


def _outer_rules(top: str) -> list:
    """The .gitignore files of the folders above top, up to its git repository's root (as git and
    ripgrep apply them); none when top is not inside a repository."""
    folders, folder = [], top
    while not os.path.exists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return []   # no repository above: git would apply none of them
        folder = parent
        folders.append(folder)
    rules = []
    for f in reversed(folders):
        spec = _gitignore(f)
        if spec is None:
            continue
        # A folder named on the command line is scanned even if ignored (as ripgrep does): lines
        # that match the folder itself would hide everything in it, so they are dropped.
        inside = os.path.relpath(top, f).replace(os.sep, "/") + "/"
        kept = [line for line in spec.patterns if line.match_file(inside) is None]
        rules.append(_rule(f, pathspec.GitIgnoreSpec(kept)))
    return rules


def read_text(path: str) -> str | None:
    """The file's text (UTF-8, newlines untouched), or None for binaries, huge or undecodable files."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data:   # a binary: ripgrep's test for the files it walks, so its prefilter agrees
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def files(roots: Iterable[str], include=None, exclude=None, vendored: bool = False) -> Iterator[tuple[str, str]]:
    """(path, path relative to its root) of every file to scan under roots, in a stable order.

    A file named on the command line is scanned unless it is a lock file or excluded (pre-commit
    passes the staged files); folders are walked with their .gitignore files applied.
    """
    for root in roots:
        if os.path.isfile(root):
            name = os.path.basename(root)
            if name not in LOCK_FILES and _wanted(root, include, exclude):
                yield root, root
            continue
        yield from _walk(root, include, exclude, vendored)


def _wanted(rel: str, include, exclude) -> bool:
    rel = rel.replace(os.sep, "/")   # a path named on the command line may use the OS separator
    if include is not None and not include.match_file(rel):
        return False
    return exclude is None or not exclude.match_file(rel)


def _walk(root: str, include, exclude, vendored: bool) -> Iterator[tuple[str, str]]:
    top = os.path.abspath(root)
    stack = [(root, top, "", _outer_rules(top))]
    while stack:
        directory, absolute, prefix, rules = stack.pop()
        spec = _gitignore(directory)
        if spec is not None:
            rules = rules + [_rule(absolute, spec)]
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        below = []
        for entry in entries:
            rel = prefix + entry.name
            full = os.path.join(absolute, entry.name)
            if entry.is_dir(follow_symlinks=False):
                if (entry.name in VENDORED and not vendored) or _ignored(rules, full, True):
                    continue
                if exclude is not None and exclude.match_file(rel + "/"):
                    continue
                below.append((entry.path, full, rel + "/", rules))
            elif entry.is_file(follow_symlinks=False):
                if entry.name in LOCK_FILES or _ignored(rules, full, False):
                    continue
                if _wanted(rel, include, exclude):
                    yield entry.path, rel
        stack.extend(reversed(below))   # popped in name order


def display(path: str) -> str:
    """The path as reports show it: relative to the working directory when under it, with '/'."""
    try:
        rel = Path(path).resolve().relative_to(Path.cwd().resolve())
        return rel.as_posix()
    except ValueError:
        return Path(path).as_posix()
