"""Ingestion run records: a row 'running' before work, then 'completed' or 'failed'."""
import os

from .db import transaction
from .merge import now_iso


def start_run(conn, source: str, provider_slug: str | None = None) -> int:
    """Record a run of source as running (committed at once, so others see it); return its id."""
    with transaction(conn):
        provider = conn.execute("SELECT id FROM providers WHERE slug = ?", (provider_slug,)).fetchone() \
            if provider_slug else None
        cur = conn.execute(
            "INSERT INTO ingestion_runs (source, provider_id, status, pid, started_at)"
            " VALUES (?, ?, 'running', ?, ?)", (source, provider[0] if provider else None, os.getpid(), now_iso()))
        return cur.lastrowid


def complete_run(conn, run_id: int, added: int, updated: int) -> None:
    """Mark a run completed with its counts (inside the caller's transaction)."""
    conn.execute(
        "UPDATE ingestion_runs SET status = 'completed', models_added = ?, models_updated = ?,"
        " completed_at = ? WHERE id = ?", (added, updated, now_iso(), run_id))


def fail_run(conn, run_id: int, message: str) -> None:
    """Mark a run failed with an error message (its own transaction)."""
    with transaction(conn):
        conn.execute(
            "UPDATE ingestion_runs SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ?",
            (message[:2000], now_iso(), run_id))
