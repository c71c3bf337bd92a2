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

import urllib3
from requests import certs
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


def _pool(receiver: urls.Receiver, address) -> urllib3.HTTPConnectionPool:
    """A connection pool to one checked address; for https the certificate is checked against the host
    name, which is also sent as SNI (urllib3's documented way to connect to an IP under a name)."""
    timeout = urllib3.Timeout(connect=CONNECT_SECONDS, read=ATTEMPT_SECONDS)
    if receiver.scheme == "https":
        return urllib3.HTTPSConnectionPool(str(address), receiver.port, timeout=timeout, retries=False,
                                           cert_reqs="CERT_REQUIRED", ca_certs=certs.where(),
                                           server_hostname=receiver.host, assert_hostname=receiver.host)
    return urllib3.HTTPConnectionPool(str(address), receiver.port, timeout=timeout, retries=False)


def send(receiver: urls.Receiver, body: bytes, headers: dict) -> int:
    """POST body to the receiver at the addresses its check saw, in order, never resolving its name again;
    redirects are not followed. Return the HTTP status (urllib3.exceptions.HTTPError when none answers)."""
    failure = None
    for address in receiver.addresses:
        pool = _pool(receiver, address)
        try:
            response = pool.urlopen("POST", receiver.target, body=body,
                                    headers={**headers, "Host": receiver.host_header},
                                    redirect=False, assert_same_host=False, preload_content=False)
            response.release_conn()   # the answer's body is never read
            return response.status
        except (urllib3.exceptions.NewConnectionError, urllib3.exceptions.ConnectTimeoutError) as exc:
            failure = exc   # this address does not take connections: the next checked one may
        finally:
            pool.close()
    raise failure


def _post(url: str, body: str, headers: dict, allow_private: bool, outcome: dict) -> None:
    try:
        # Checked again before each attempt (the name may now resolve elsewhere), and the connection goes
        # to the addresses this check saw (docs/threat-model.md#admins).
        receiver = urls.check(url, allow_private)
        outcome["status"] = send(receiver, body.encode(), headers)
    except urls.UnsafeURL as exc:
        outcome["error"] = f"refused: {exc}"
    except urllib3.exceptions.HTTPError as exc:
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
