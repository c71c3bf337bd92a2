"""Start `serve` as a real process on a free port, wait until it answers, stop it (deploy tests)."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
READY_PATH = "/api/v1/providers"


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def registry_command() -> list:
    """The venv's `registry` console script, next to the running python."""
    script = Path(sys.executable).parent / "registry"
    assert script.exists(), f"{script} is missing: install the package (make install)"
    return [str(script)]


def server_env(db_path, **extra) -> dict:
    """A test server's environment: its db, a generous rate limit, the pinned date, no other REGISTRY_*."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REGISTRY_", "RATELIMIT_")) or k == "REGISTRY_TODAY"}
    env.update(REGISTRY_DB=str(db_path), RATELIMIT_PUBLIC="100000/minute", GUNICORN_THREADS="4")
    env.update({k: str(v) for k, v in extra.items()})
    return env


class Server:
    """One `serve` process; its output goes to a log file shown when something goes wrong."""

    def __init__(self, command: list, env: dict, log_path, cwd=None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_path)
        env = {**env, "HOST": "127.0.0.1", "PORT": str(self.port)}
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([*command, "serve"], env=env, cwd=cwd, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if requests.get(self.url + READY_PATH, timeout=2).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve did not answer on {self.url} within {timeout} s:\n{self.log()}")

    def get(self, path: str, **params):
        return requests.get(self.url + path, params=params, timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)   # gunicorn's graceful shutdown
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
