"""Directories the disk refuses to write: a tiny tmpfs that fills up, a read-only mount, and a
directory not even root may create files in. Each skips the test cleanly where the machine does
not allow making it (mount needs root; chattr +i needs CAP_LINUX_IMMUTABLE)."""
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest


def _run(*argv) -> bool:
    return subprocess.run(argv, capture_output=True).returncode == 0


@contextmanager
def tmpfs(where: Path, size_kb: int):
    """A tmpfs of size_kb at where, unmounted afterwards (the test is skipped without mount rights)."""
    where.mkdir(parents=True, exist_ok=True)
    if not shutil.which("mount") or not _run("mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(where)):
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield where
    finally:
        _run("umount", "-l", str(where))


@contextmanager
def no_new_files(directory: Path):
    """No file can be created in directory: chmod 0555 for a user, chattr +i for root (whom modes
    do not stop); files already there stay writable."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield directory
        finally:
            directory.chmod(0o755)
        return
    if not (shutil.which("chattr") and _run("chattr", "+i", str(directory))):
        pytest.skip("chattr +i is not available here")
    try:
        if _can_create(directory):
            pytest.skip("chattr +i does not stop root here")
        yield directory
    finally:
        _run("chattr", "-i", str(directory))


@contextmanager
def refusing(kind: str, where: Path, files: dict, room_kb: int = 0):
    """A directory holding files (name -> source path) whose disk refuses writes as kind says:
    full (a tmpfs with room_kb beyond the files), read-only (a tmpfs remounted ro), not-writable."""
    size = sum(os.path.getsize(p) for p in files.values()) // 1024 + (room_kb if kind == "full" else 4096)
    with tmpfs(where, size) as fs:
        for name, source in files.items():
            shutil.copyfile(source, fs / name)
        if kind == "read-only" and not _run("mount", "-o", "remount,ro", str(fs)):
            pytest.skip("remounting read-only is not permitted here")
        if kind == "not-writable":
            with no_new_files(fs):
                yield fs
        else:
            yield fs


def _can_create(directory: Path) -> bool:
    try:
        (directory / ".probe").touch()
    except OSError:
        return False
    (directory / ".probe").unlink()
    return True
