"""Which files can hold a candidate at all, asked of ripgrep when it is installed (docs/scan.md#speed).

Most files of a tree name no model. ripgrep walks the roots and finds the files that contain any of
the automaton's keys (case-insensitively, a superset of what the automaton finds) many times faster
than Python reads them. It runs while walk.py walks the same roots, so only the files both pick are
read and matched in Python. Without ripgrep, or when it fails, every walked file is read.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from .walk import MAX_BYTES, VENDORED


def ripgrep() -> str | None:
    """The ripgrep executable on PATH, or None."""
    return shutil.which("rg")


def covering(keys: list[str]) -> list[str]:
    """The keys that contain no shorter key: a file holds a key iff it holds one of these.

    Fewer patterns keep ripgrep's case-insensitive search fast.
    """
    kept: list[str] = []
    for key in sorted(set(keys), key=lambda k: (len(k), k)):
        if not any(shorter in key for shorter in kept):
            kept.append(key)
    return kept


class Search:
    """One ripgrep run over the roots, started now and read by files(); it never decides alone.

    ripgrep applies the .gitignore files as walk.py does (from the repository's root down; a folder
    named on the command line is searched even if ignored) and no other ignore file (.ignore,
    .rgignore, .git/info/exclude, the global excludes), and searches hidden files, so it searches
    the files walk.py yields (or more); walk.py's own rules (lock files, globs) apply by intersecting.
    Like the reader, it skips files with a NUL byte and files over MAX_BYTES.
    """

    def __init__(self, rg: str, roots: list[str], keys: list[str], vendored: bool):
        self.proc = None
        self.keyfile = None
        if not keys or not roots:
            return
        with tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False, encoding="utf-8") as f:
            f.write("\n".join(covering(keys)) + "\n")
        self.keyfile = f.name
        skip = [] if vendored else [arg for name in sorted(VENDORED) for arg in ("-g", f"!{name}/")]
        try:
            self.proc = subprocess.Popen(
                [rg, "--no-config", "--hidden", "--no-ignore-dot", "--no-ignore-exclude", "--no-ignore-global",
                 "-F", "-i", "-l", "--no-messages", f"--max-filesize={MAX_BYTES}",
                 *skip, "-f", f.name, "--", *roots],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError:
            self.close()

    def files(self) -> set[str] | None:
        """The normalized paths of the files holding a key, or None: ripgrep did not answer."""
        if self.proc is None:
            return None
        try:
            out, _ = self.proc.communicate()
        finally:
            self.close()
        if self.proc.returncode not in (0, 1):   # 1: no file matched; anything else: read every file
            return None
        return {os.path.normpath(os.fsdecode(line)) for line in out.splitlines()}

    def close(self) -> None:
        """Stop ripgrep if it still runs and remove the key file."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.keyfile is not None:
            os.unlink(self.keyfile)
            self.keyfile = None


def start(rg: str | None, roots: list[str], keys: list[str], vendored: bool) -> Search | None:
    """A ripgrep search of roots for keys, running in the background; None without ripgrep, or when
    no root is a folder (pre-commit's list of staged files is read as it is)."""
    if rg is None or not any(os.path.isdir(root) for root in roots):
        return None
    return Search(rg, roots, keys, vendored)


def keep(paths: list[str], search: Search | None) -> list[str]:
    """The paths (in their order) that ripgrep found to hold a key; all of them without an answer."""
    hits = search.files() if search is not None else None
    if hits is None:
        return paths
    return [p for p in paths if os.path.normpath(p) in hits]
