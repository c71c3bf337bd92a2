"""Admin webhooks: register (201 with the signing secret, shown once), list, remove, and every attempt."""
from contextlib import contextmanager

from flask import current_app, jsonify, request

from ..queries import catalog
from ..db import writable
from ..web.connection import get_db
from ..notify import store, urls
from ..notify.events import EVENT_KINDS
from ..storage import StorageError, writing
from ..web.auth import require_admin
from ..web.errors import ApiError, bad_request
from ..web import params
from .blueprint import bp
from .changes import resolve_watched

FIELDS = ("url", "models", "providers", "kinds", "days_before")
DEFAULT_DAYS = [90, 30, 7]
MAX_ITEMS = 100
MAX_ID = 2**63 - 1   # SQLite's largest rowid: a bigger id in the path is simply not found


def _strings(body: dict, name: str) -> list:
    value = body.get(name, [])
    if not isinstance(value, list) or len(value) > MAX_ITEMS or not all(
            isinstance(v, str) and v.strip() and len(v) <= params.MAX_Q for v in value):
        raise bad_request(f"'{name}' must be a list of at most {MAX_ITEMS} non-empty strings"
                          f" of at most {params.MAX_Q} characters.")
    return list(dict.fromkeys(value))


def _days(body: dict) -> list:
    value = body.get("days_before", DEFAULT_DAYS)
    if not isinstance(value, list) or not 1 <= len(value) <= 10 or not all(
            type(v) is int and 0 <= v <= 3650 for v in value):
        raise bad_request("'days_before' must be a list of 1 to 10 whole days from 0 to 3650.")
    return sorted(set(value), reverse=True)


def _watched(identifiers: list) -> list:
    """Each identifier with the model it resolves to and the alias it matched (for answers in its format)."""
    try:
        found = resolve_watched(get_db(), identifiers)
    except ApiError as exc:
        raise bad_request(f"'models': {exc.message}") from None
    return [{"identifier": q, "slug": slug, "alias": match.row.alias if match else None,
             "alias_source": match.row.source if match else None} for slug, (q, match) in found.items()]


def _endpoint_body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise bad_request("The body must be a JSON object with 'url' and optional filters.")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise bad_request(f"Unknown field '{unknown[0]}'; fields: {', '.join(FIELDS)}.")
    try:
        url = urls.check(body.get("url"), current_app.config["WEBHOOKS_ALLOW_PRIVATE"]).url
    except urls.UnsafeURL as exc:
        raise bad_request(f"'url': {exc}.") from None
    providers = _strings(body, "providers")
    known = catalog.provider_slugs(get_db())
    if set(providers) - known:
        raise bad_request(f"'providers': unknown provider '{sorted(set(providers) - known)[0]}'.")
    kinds = _strings(body, "kinds")
    if set(kinds) - set(EVENT_KINDS):
        raise bad_request(f"'kinds': unknown kind '{sorted(set(kinds) - set(EVENT_KINDS))[0]}';"
                          f" valid: {', '.join(EVENT_KINDS)}.")
    return {"url": url, "models": _watched(_strings(body, "models")), "providers": providers, "kinds": kinds,
            "days_before": _days(body)}


@contextmanager
def _writer():
    """A read-write connection; the disk refusing the write is a 503 naming cause and path, not a 500."""
    path = current_app.config["DATABASE"]
    try:
        with writing(path), writable(path) as conn:
            yield conn
    except StorageError as exc:
        raise ApiError(503, "service_unavailable", f"Cannot change webhooks: {exc}.") from exc


def _missing(webhook_id: int) -> ApiError:
    return ApiError(404, "not_found", f"Webhook '{webhook_id}' not found.")


def _found(webhook_id: int):
    row = store.webhook(get_db(), webhook_id) if webhook_id <= MAX_ID else None
    if row is None:
        raise _missing(webhook_id)
    return row


@bp.post("/admin/webhooks")
def create_webhook():
    require_admin()
    endpoint = _endpoint_body()
    with _writer() as conn:
        webhook_id = store.create(conn, **endpoint)
        row = store.webhook(conn, webhook_id)
    answer = {**store.webhook_dict(row), "secret": row["secret"]}
    return jsonify({"webhook": answer}), 201, {"Location": f"/api/v1/admin/webhooks/{webhook_id}"}


@bp.get("/admin/webhooks")
def list_webhooks():
    require_admin()
    return jsonify({"webhooks": [store.webhook_dict(r) for r in store.webhooks(get_db())]})


@bp.delete("/admin/webhooks/<int:webhook_id>")
def delete_webhook(webhook_id):
    require_admin()
    with _writer() as conn:
        if webhook_id > MAX_ID or not store.delete(conn, webhook_id):
            raise _missing(webhook_id)
    return "", 204


@bp.get("/admin/webhooks/<int:webhook_id>/deliveries")
def webhook_deliveries(webhook_id):
    require_admin()
    _found(webhook_id)
    limit = params.integer("limit", default=50, minimum=1, maximum=200)
    return jsonify({"deliveries": store.webhook_deliveries(get_db(), webhook_id, limit)})
