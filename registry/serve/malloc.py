"""The C allocator's settings of a worker: fixed thresholds and two arenas (glibc; elsewhere nothing).

glibc raises its mmap threshold each time a large block is freed (up to 32 MB), so after the first large
page answers, bodies of tens of KB come from the heap, where the holes the response cache's evictions
leave grow the worker for good; and each of the eight request threads may get an arena of its own.
Measured at 50k models after the bench load (docs/running.md#memory): these settings take ~10 MB off a
worker's peak. The environment's MALLOC_* variables, when set, are left to win.
"""
import ctypes
import ctypes.util
import logging
import os

log = logging.getLogger(__name__)

# mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
SETTINGS = (
    (M_ARENA_MAX, "MALLOC_ARENA_MAX_", 2),               # the threads share two arenas
    # 8 KB and up: mapped, given back on free. At 64 KB the kept answers of 10-50 KB (family and model pages,
    # model lists) came from the heap, and the holes their evictions left grew a worker at 50k models to
    # 155 MB after the bench load; at 16 KB 148 MB, at 8 KB 146 MB (docs/running.md#memory).
    (M_MMAP_THRESHOLD, "MALLOC_MMAP_THRESHOLD_", 8192),
    (M_TRIM_THRESHOLD, "MALLOC_TRIM_THRESHOLD_", 131072),  # free heap top past 128 KB goes back
)


def tune() -> bool:
    """Apply SETTINGS with mallopt (glibc only); True if applied."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        mallopt = libc.mallopt if libc is not None else None
    except (OSError, AttributeError):
        mallopt = None
    if mallopt is None:
        return False
    for param, env, value in SETTINGS:
        if env not in os.environ and env.rstrip("_") not in os.environ:
            if not mallopt(param, value):
                log.warning("mallopt(%s, %s) was refused", param, value)
    return True
