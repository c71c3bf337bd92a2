"""Reading and matching files on every core: the Aho-Corasick pass is the scan's cost (docs/scan.md#speed).

Workers are forked after the automaton is built, so they share it without pickling; each takes a
chunk of paths and sends back only the occurrences it found.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from . import prefilter, walk
from .candidates import Matcher, Occurrence

CHUNK = 64          # files per task: small enough to balance, large enough to cost nothing to send
SERIAL_BELOW = 256  # fewer files than this are read in-process (forking costs more than it saves)
_matcher: Matcher | None = None   # the automaton the forked workers inherit


def _chunk(paths: list[str]) -> tuple[list[tuple[str, Occurrence]], int]:
    found, read = [], 0
    for path in paths:
        text = walk.read_text(path)
        if text is None:
            continue
        read += 1
        found.extend((path, occ) for occ in _matcher.find(path, text))
    return found, read


def find_all(matcher: Matcher, paths: list[str],
             search: prefilter.Search | None = None) -> tuple[list[tuple[str, Occurrence]], int]:
    """(path, occurrence) of every candidate in paths, in path order, and the number of files read.

    search: ripgrep's running search of the same roots, to read only the files that hold a key
    (prefilter.py); None reads all.
    """
    global _matcher
    _matcher = matcher
    searched = len(paths)
    if len(paths) >= SERIAL_BELOW:   # a small tree is read as fast as ripgrep's answer is waited for
        paths = prefilter.keep(paths, search)
    skipped = searched - len(paths)   # searched by ripgrep, and found to hold no key
    workers = min(os.cpu_count() or 1, 8)
    chunks = [paths[i:i + CHUNK] for i in range(0, len(paths), CHUNK)]
    if workers < 2 or len(paths) < SERIAL_BELOW or "fork" not in multiprocessing.get_all_start_methods():
        results = [_chunk(c) for c in chunks]
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_chunk, chunks))
    return [p for found, _ in results for p in found], skipped + sum(read for _, read in results)
