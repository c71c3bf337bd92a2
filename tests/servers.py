"""The one server harness: start a server as a real process on a free port, wait until it answers,
measure and stop it. Used by the deploy tests and by `make bench` (bench/httpload.py)."""
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
    """One server process (`serve` unless argv is given); its output goes to a log file shown when something goes wrong.

    keep_access_log=False throws gunicorn's access log (stdout) away, as a benchmark wants.
    """

    def __init__(self, command: list, env: dict, log_path, cwd=None, argv=("serve",),
                 ready_path: str = READY_PATH, keep_access_log: bool = True):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(log_path)
        self.ready_path = ready_path
        env = {**env, "HOST": "127.0.0.1", "PORT": str(self.port)}
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([*command, *argv], env=env, cwd=cwd,
                                         stdout=log if keep_access_log else subprocess.DEVNULL,
                                         stderr=subprocess.STDOUT if keep_access_log else log,
                                         start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n{self.log()}")
            try:
                if requests.get(self.url + self.ready_path, timeout=2).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve did not answer on {self.url} within {timeout} s:\n{self.log()}")

    def get(self, path: str, **params):
        return requests.get(self.url + path, params=params, timeout=10)

    def status(self, path: str, timeout: float = 60) -> int:
        """The HTTP status of one GET (for load loops that only count answers)."""
        return requests.get(self.url + path, timeout=timeout).status_code

    def workers(self) -> list:
        """The pids of the master's worker processes."""
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
            return [int(c) for c in children]
        except OSError:
            out = []
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.proc.pid:
                    out.append(int(stat.parent.name))
            return out

    def memory(self) -> dict:
        """VmHWM / VmRSS (MB) of the worker (the largest, if several) and of the master."""
        def read(pid):
            values = {}
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                key, _, rest = line.partition(":")
                if key in ("VmHWM", "VmRSS"):
                    values[key] = int(rest.split()[0]) / 1024
            return values
        workers = [read(pid) for pid in self.workers()]
        worker = max(workers, key=lambda v: v.get("VmHWM", 0)) if workers else {}
        return {"worker_hwm_mb": worker.get("VmHWM"), "worker_rss_mb": worker.get("VmRSS"),
                "master_rss_mb": read(self.proc.pid).get("VmRSS"), "workers": len(workers)}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)   # gunicorn's graceful shutdown
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
