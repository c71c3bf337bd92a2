"""--fix and --diff: each fixable id replaced by its upgrade_alias in place, each file written atomically."""
from __future__ import annotations

import difflib
import os
import tempfile
from itertools import groupby

from . import Finding
from .walk import read_text


class Changed(Exception):
    """A file changed between the scan and the fix: it is left as it is."""


def rewritten(path: str, findings: list[Finding]) -> tuple[str, str]:
    """(old text, new text) of one file with its fixable findings replaced (only those characters)."""
    old = read_text(path)
    if old is None:
        raise Changed(path)
    new = old
    for f in sorted(findings, key=lambda f: f.start, reverse=True):
        if new[f.start:f.end] != f.text:
            raise Changed(path)
        new = new[:f.start] + f.upgrade_alias + new[f.end:]
    return old, new


def _write_atomically(path: str, text: str) -> None:
    # A temporary file beside the original, then rename: a reader sees the old file or the new one. A symlink
    # (one named on the command line; the walk follows none) stays a link: the file it points at is rewritten.
    path = os.path.realpath(path)
    directory = os.path.dirname(path)
    mode = os.stat(path).st_mode
    fd, tmp = tempfile.mkstemp(prefix=".registry-fix-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def by_file(findings: list[Finding]):
    """(file, its fixable findings) in path order."""
    fixable = sorted((f for f in findings if f.fixable), key=lambda f: (f.file, f.start))
    return [(path, list(group)) for path, group in groupby(fixable, key=lambda f: f.file)]


def apply(findings: list[Finding]) -> list[str]:
    """Rewrite every file that has fixable findings; the paths changed (as reports show them)."""
    changed = []
    for path, group in by_file(findings):
        _old, new = rewritten(path, group)
        _write_atomically(path, new)
        changed.append(group[0].path)
    return changed


def diff(findings: list[Finding]) -> str:
    """The unified diff --fix would make; nothing is written."""
    chunks = []
    for path, group in by_file(findings):
        old, new = rewritten(path, group)
        shown = group[0].path.lstrip("/")   # git's a/ and b/ prefixes go before the path, absolute or not
        chunks.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                           fromfile=f"a/{shown}", tofile=f"b/{shown}"))
    return "".join(chunks)
