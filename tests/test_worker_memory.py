"""A worker's memory: the read connections' page cache and the C allocator's settings (docs/running.md#memory)."""
import ctypes.util
import platform

import pytest

from registry.serve import malloc
from registry.web import connection


@pytest.mark.parametrize("pragma, expected", [
    ("cache_size", -connection.READ_CACHE_KIB),   # KiB when negative: 512 KiB, not SQLite's 2 MB
    ("temp_store", 2),                            # MEMORY: no mapped page cache per temporary b-tree
    ("foreign_keys", 1),                          # connect_ro's own settings stay
])
def test_thread_connection_settings(app, pragma, expected):
    with app.app_context():
        conn = connection.thread_connection(app.config["DATABASE"])
        try:
            assert conn.execute(f"PRAGMA {pragma}").fetchone()[0] == expected
        finally:
            connection.close_thread_connections()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc" or not ctypes.util.find_library("c"),
                    reason="mallopt is glibc's")
def test_malloc_settings_apply_on_glibc():
    assert malloc.tune() is True
