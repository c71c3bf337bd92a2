"""Queue each endpoint's due events, then POST them signed the Standard Webhooks way, with retries.

Bounded on every side (docs/api-decisions.md#webhooks): an attempt gets ATTEMPT_SECONDS (it runs in a
daemon thread, so even a receiver that trickles its answer cannot hold the run), a run stops starting
attempts after its budget, a delivery is tried at most MAX_TRIES times with BACKOFF seconds between
tries, and what is still pending waits for the next `flask notify`. A delivery is a row per (endpoint,
event), so no event is sent twice to one endpoint, however often notify runs.
"""
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import requests
from standardwebhooks import Webhook

from ..db import now_iso
from . import events, store, urls

ATTEMPT_SECONDS = 10
CONNECT_SECONDS = 3
MAX_TRIES = 6
BACKOFF = (1, 10, 60, 600, 3600)      # seconds before tries 2, 3, ... (then the delivery fails)
DEFAULT_BUDGET = 30                   # seconds a run may spend delivering (the end of `flask ingest`)
USER_AGENT = "model-registry-webhooks/1"


@dataclass
class Report:
    """What one notify run did."""

    queued: int = 0
    delivered: int = 0
    retrying: int = 0
    failed: int = 0
    errors: list = field(default_factory=list)


def queue_due(conn, on: str | None = None) -> int:
    """Queue every endpoint's new change events and reached shutdown thresholds; return how many were new."""
    added = 0
    for row in store.webhooks(conn):
        endpoint = events.Endpoint(row)
        found, cursor = events.change_events(conn, endpoint)
        added += store.queue(conn, endpoint.id, found + events.threshold_events(conn, endpoint, on), cursor)
    return added


def _post(url: str, body: str, headers: dict, allow_private: bool, outcome: dict) -> None:
    try:
        urls.check(url, allow_private)   # again: the name may resolve elsewhere than when it was registered
        response = requests.post(url, data=body.encode(), headers=headers, allow_redirects=False,
                                 timeout=(CONNECT_SECONDS, ATTEMPT_SECONDS), stream=True)
        outcome["status"] = response.status_code
        response.close()   # the answer's body is never read
    except urls.UnsafeURL as exc:
        outcome["error"] = f"refused: {exc}"
    except requests.RequestException as exc:
        outcome["error"] = f"{type(exc).__name__}: {exc}"


def attempt(delivery, allow_private: bool) -> tuple[int | None, str | None, int]:
    """POST one delivery, signed now; return (HTTP status or None, error or None, milliseconds)."""
    message_id = f"msg_{delivery['id']}"
    stamp = datetime.now(timezone.utc)
    body = delivery["payload"]
    headers = {"content-type": "application/json", "user-agent": USER_AGENT, "webhook-id": message_id,
               "webhook-timestamp": str(int(stamp.timestamp())),
               "webhook-signature": Webhook(delivery["secret"]).sign(message_id, stamp, body)}
    outcome: dict = {}
    started = time.monotonic()
    worker = threading.Thread(target=_post, args=(delivery["url"], body, headers, allow_private, outcome),
                              name=f"webhook-{delivery['id']}", daemon=True)
    worker.start()
    worker.join(ATTEMPT_SECONDS + CONNECT_SECONDS + 1)
    elapsed = int((time.monotonic() - started) * 1000)
    if worker.is_alive():
        return None, f"no answer within {ATTEMPT_SECONDS + CONNECT_SECONDS} s", elapsed
    return outcome.get("status"), outcome.get("error"), elapsed


def _later(seconds: float) -> str:
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def deliver_due(conn, allow_private: bool, budget: float = DEFAULT_BUDGET, report: Report | None = None) -> Report:
    """Attempt every due delivery, waiting for retries that fall due within the budget; return the report."""
    report = report or Report()
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        due = store.due_deliveries(conn, now_iso(), 100)
        if not due:
            following = store.next_due(conn)
            wait = (datetime.strptime(following, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
                    - datetime.now(timezone.utc)).total_seconds() if following else None
            if wait is None or time.monotonic() + max(wait, 0) >= deadline:
                break
            time.sleep(max(wait, 0) + 0.05)
            continue
        for delivery in due:
            if time.monotonic() >= deadline:
                break
            status, error, elapsed = attempt(delivery, allow_private)
            tries = delivery["tries"] + 1
            if status is not None and 200 <= status < 300:
                store.record_attempt(conn, delivery["id"], status, None, elapsed, "delivered", None)
                report.delivered += 1
                continue
            error = error or f"HTTP {status}"
            if tries >= MAX_TRIES:
                store.record_attempt(conn, delivery["id"], status, error, elapsed, "failed", None)
                report.failed += 1
                report.errors.append(f"webhook {delivery['webhook_id']}: gave up after {tries} tries: {error}")
            else:
                store.record_attempt(conn, delivery["id"], status, error, elapsed, "pending",
                                     _later(BACKOFF[tries - 1]))
    report.retrying = store.pending_count(conn)
    return report


def notify(conn, allow_private: bool, budget: float = DEFAULT_BUDGET, on: str | None = None) -> Report:
    """Queue what is due and deliver it within the budget (the whole of `flask notify`)."""
    report = Report(queued=queue_due(conn, on))
    return deliver_due(conn, allow_private, budget, report)
