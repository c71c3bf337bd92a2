"""Webhook rows: endpoints, their queued deliveries and every attempt (apart from the catalog's registry/queries/)."""
import base64
import json
import secrets

from ..db import now_iso, transaction

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A Standard Webhooks signing secret: whsec_ and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def create(conn, url: str, models: list, providers: list, kinds: list, days_before: list) -> int:
    """Register an endpoint; the history before now is not replayed to it. Return its id."""
    with transaction(conn):
        latest = conn.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0]
        return conn.execute(
            "INSERT INTO webhooks (url, secret, models, providers, kinds, days_before, change_cursor, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (url, new_secret(), json.dumps(models), json.dumps(providers), json.dumps(kinds),
             json.dumps(days_before), latest, now_iso())).lastrowid


def delete(conn, webhook_id: int) -> bool:
    """Remove an endpoint with its deliveries; False when there was none."""
    with transaction(conn):
        return conn.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,)).rowcount > 0


def queue(conn, webhook_id: int, events: list, cursor: int | None) -> int:
    """Queue events [(event_id, type, payload)] once each per endpoint; move its change cursor. Return how many
    were new."""
    stamp, added = now_iso(), 0
    with transaction(conn):
        for event_id, kind, payload in events:
            added += conn.execute(
                "INSERT INTO webhook_deliveries (webhook_id, event_id, type, payload, status, next_attempt_at,"
                " created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (webhook_id, event_id) DO NOTHING",
                (webhook_id, event_id, kind, json.dumps(payload, sort_keys=True), stamp, stamp)).rowcount
        if cursor is not None:
            conn.execute("UPDATE webhooks SET change_cursor = max(change_cursor, ?) WHERE id = ?", (cursor, webhook_id))
    return added


def record_attempt(conn, delivery_id: int, status_code: int | None, error: str | None, duration_ms: int,
                   outcome: str, next_attempt_at: str | None) -> None:
    """Record one attempt and where the delivery stands after it (pending, delivered or failed)."""
    stamp = now_iso()
    with transaction(conn):
        conn.execute("INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms)"
                     " VALUES (?, ?, ?, ?, ?)", (delivery_id, stamp, status_code, (error or "")[:500] or None,
                                                 duration_ms))
        conn.execute("UPDATE webhook_deliveries SET tries = tries + 1, status = ?, next_attempt_at = ?,"
                     " completed_at = ? WHERE id = ?",
                     (outcome, next_attempt_at, stamp if outcome != "pending" else None, delivery_id))


def webhook_dict(row) -> dict:
    """A Webhook object (never its secret)."""
    return {"id": row["id"], "url": row["url"], "models": [m["identifier"] for m in json.loads(row["models"])],
            "providers": json.loads(row["providers"]), "kinds": json.loads(row["kinds"]),
            "days_before": json.loads(row["days_before"]), "created_at": row["created_at"]}


def has_endpoints(db) -> bool:
    """Whether any webhook is registered."""
    return db.execute("SELECT 1 FROM webhooks LIMIT 1").fetchone() is not None


def webhooks(db) -> list:
    """Every webhook row, oldest first."""
    return db.execute("SELECT * FROM webhooks ORDER BY id").fetchall()


def webhook(db, webhook_id: int):
    """One webhook row or None."""
    return db.execute("SELECT * FROM webhooks WHERE id = ?", (webhook_id,)).fetchone()


def webhook_deliveries(db, webhook_id: int, limit: int) -> list:
    """An endpoint's deliveries, newest first, each with every attempt (oldest first)."""
    rows = db.execute("SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?",
                      (webhook_id, limit)).fetchall()
    attempts = {}
    for a in db.execute("SELECT * FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))"
                        " ORDER BY id", (json.dumps([r["id"] for r in rows]),)):
        attempts.setdefault(a["delivery_id"], []).append(
            {k: a[k] for k in ("attempted_at", "status_code", "error", "duration_ms")})
    return [{"id": r["id"], "event_id": r["event_id"], "type": r["type"], "status": r["status"], "tries": r["tries"],
             "next_attempt_at": r["next_attempt_at"] if r["status"] == "pending" else None,
             "created_at": r["created_at"], "completed_at": r["completed_at"], "attempts": attempts.get(r["id"], []),
             "payload": json.loads(r["payload"])} for r in rows]


def due_deliveries(db, now: str, limit: int) -> list:
    """Pending deliveries whose next attempt is due, oldest first, with their endpoint's URL and secret."""
    return db.execute(
        "SELECT d.id, d.webhook_id, d.payload, d.tries, w.url, w.secret FROM webhook_deliveries d"
        " JOIN webhooks w ON w.id = d.webhook_id WHERE d.status = 'pending' AND d.next_attempt_at <= ?"
        " ORDER BY d.next_attempt_at, d.id LIMIT ?", (now, limit)).fetchall()


def next_due(db) -> str | None:
    """When the earliest pending delivery is due, or None."""
    return db.execute("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'").fetchone()[0]


def pending_count(db) -> int:
    """How many deliveries still wait for a try."""
    return db.execute("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").fetchone()[0]
