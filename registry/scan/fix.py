"""--fix and --diff: each fixable id replaced by its upgrade_alias in place, each file written atomically."""
from __future__ import annotations

import difflib
import os
import tempfile
from itertools import groupby

from ..storage import classify
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


def apply(findings: list[Finding]) -> tuple[list[str], dict]:
    """Rewrite every file that has fixable findings: (the paths rewritten, as reports show them; {file: (its path
    as reports show it, why)} of those left as they were: changed since the scan read them, or refused by the disk)."""
    written, left = [], {}
    for path, group in by_file(findings):
        shown = group[0].path
        try:
            _old, new = rewritten(path, group)
            _write_atomically(path, new)
        except Changed:
            left[path] = (shown, "it changed after the scan read it")
        except OSError as exc:   # the file as it was stays: the write goes through a temporary file beside it
            left[path] = (shown, str(classify(exc, path, elsewhere="fix it by hand", output=True) or exc))
        else:
            written.append(shown)
    return written, left


def diff(findings: list[Finding]) -> str:
    """The unified diff --fix would make; nothing is written."""
    chunks = []
    for path, group in by_file(findings):
        try:
            old, new = rewritten(path, group)
        except Changed:   # changed after the scan read it: --fix would leave it as it is
            continue
        shown = group[0].path.lstrip("/")   # git's a/ and b/ prefixes go before the path, absolute or not
        chunks.extend(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                           fromfile=f"a/{shown}", tofile=f"b/{shown}"))
    return "".join(chunks)
