"""Which files can hold a candidate at all, asked of ripgrep when it is installed (docs/scan.md#speed).

Most files of a tree name no model. ripgrep finds the files that contain any of the automaton's keys
(case-insensitively, a superset of what the automaton finds) many times faster than Python reads
them, so only those files are read and matched here. Without ripgrep every file is read.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

BATCH = 1000          # paths per ripgrep call: well under the argument-list limit of any system


def ripgrep() -> str | None:
    """The ripgrep executable on PATH, or None."""
    return shutil.which("rg")


def covering(keys: list[str]) -> list[str]:
    """The keys that contain no shorter key: a file holds a key iff it holds one of these.

    Fewer patterns keep ripgrep's case-insensitive search fast (1,600 keys take it ~15x longer).
    """
    kept: list[str] = []
    for key in sorted(set(keys), key=lambda k: (len(k), k)):
        if not any(shorter in key for shorter in kept):
            kept.append(key)
    return kept


def files_with_keys(paths: list[str], keys: list[str], rg: str | None) -> list[str]:
    """The paths (in their order) whose bytes contain a key ignoring case; all of them without ripgrep."""
    if rg is None or not keys or not paths:
        return paths
    with tempfile.NamedTemporaryFile("w", suffix=".keys", delete=False, encoding="utf-8") as f:
        f.write("\n".join(covering(keys)) + "\n")
    try:
        hits = set()
        for i in range(0, len(paths), BATCH):
            # -a: search every byte (a file the reader skips later costs nothing more); -l: names only.
            done = subprocess.run(
                [rg, "--no-config", "-a", "-F", "-i", "-l", "--no-messages", "-f", f.name, "--", *paths[i:i + BATCH]],
                capture_output=True)
            if done.returncode not in (0, 1):   # 1: no match; anything else: read every file instead
                return paths
            hits.update(os.fsdecode(line) for line in done.stdout.splitlines())
    except OSError:
        return paths
    finally:
        os.unlink(f.name)
    return [p for p in paths if p in hits]
