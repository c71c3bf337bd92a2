"""POST /mcp: the MCP tools over streamable HTTP, inside the Flask app (so under its rate limit).

The SDK's transport is ASGI and the app is WSGI: each request runs one stateless, JSON-response
exchange (StreamableHTTPSessionManager(stateless=True, json_response=True)) on its own event loop in
the request's thread, with the request's database connection (docs/api-decisions.md#mcp).
"""
from __future__ import annotations

import asyncio
import json

from flask import Blueprint, Response, current_app, request

from ..web import limits
from ..web.connection import get_db
from .tools import MAX_IDENTIFIERS

bp = Blueprint("mcp", __name__)
PATH = "/mcp"
# JSON-RPC 2.0's own error codes (the SDK's mcp.types has the same): the SDK itself (pydantic,
# starlette, anyio: some 35 MB) is imported on the first MCP request, not by every web worker.
PARSE_ERROR, INVALID_REQUEST = -32700, -32600


def _headers() -> list:
    """The request's headers for the SDK; a missing or wildcard Accept does accept JSON (RFC 9110 §12.5.1),
    which the SDK's literal check would otherwise refuse."""
    headers = [(k.lower(), v) for k, v in request.headers.items()]
    accept = request.headers.get("Accept", "*/*")
    if "application/json" not in accept and ("*/*" in accept or "application/*" in accept):
        headers = [(k, v) for k, v in headers if k != "accept"] + [("accept", "application/json, " + accept)]
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]


def _scope() -> dict:
    host, _, port = (request.host or "localhost").partition(":")
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": request.method,
        "scheme": request.scheme, "path": PATH, "raw_path": PATH.encode(), "root_path": "",
        "query_string": request.query_string,
        "headers": _headers(),
        "client": (request.remote_addr or "", 0), "server": (host, int(port) if port.isdigit() else 80),
    }


async def _exchange(scope: dict, body: bytes) -> tuple[int, list, bytes]:
    """Run one request through the SDK's stateless transport; (status, headers, body)."""
    import anyio
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

    from .server import server
    manager = StreamableHTTPSessionManager(app=server()._mcp_server, stateless=True, json_response=True)
    answer = {"status": 500, "headers": [], "body": []}
    delivered = False

    async def receive():
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await anyio.sleep_forever()   # the client stays connected until the answer is sent

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            answer["body"].append(message.get("body", b""))

    async with manager.run():
        await manager.handle_request(scope, receive, send)
    return answer["status"], answer["headers"], b"".join(answer["body"])


def _resolves(message) -> int:
    """How many identifiers the message's `check` calls resolve (at least 1: the request itself)."""
    calls = message if isinstance(message, list) else [message]
    total = 0
    for call in calls:
        params = call.get("params") if isinstance(call, dict) and call.get("method") == "tools/call" else None
        arguments = params.get("arguments") if isinstance(params, dict) and params.get("name") == "check" else None
        identifiers = arguments.get("identifiers") if isinstance(arguments, dict) else None
        total += min(len(identifiers), MAX_IDENTIFIERS) if isinstance(identifiers, list) else 0
    return max(1, total)


def _rpc_error(code: int, message: str, status: int = 400) -> Response:
    return Response(json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}),
                    status=status, mimetype="application/json")


@bp.post(PATH)
def mcp_endpoint():
    # Bounded before it is read: past REGISTRY_MAX_BODY_BYTES a 413 (registry/web/request_body.py).
    data = request.get_data()
    try:   # the SDK answers a body that is not UTF-8 with a 500: refuse it here as the parse error it is
        message = current_app.json.loads(data)   # with the client limits: no NaN, no nesting past CLIENT_DEPTH
    except ValueError as exc:
        return _rpc_error(PARSE_ERROR, f"Parse error: the body is not JSON (UTF-8) within the limits: {exc}.")
    # The request was counted once; a `check` of n identifiers does n resolves' work, and counts as n.
    over = limits.charge(_resolves(message) - 1)
    if over is not None:
        return over
    from .server import DATABASE
    token = DATABASE.set((get_db(), current_app.config["DATABASE"]))
    try:
        status, headers, body = asyncio.run(_exchange(_scope(), data))
    finally:
        DATABASE.reset(token)
    kept = [(k, v) for k, v in headers if k.lower() not in ("content-length", "transfer-encoding", "content-type")]
    mimetype = next((v for k, v in headers if k.lower() == "content-type"), None)
    if status >= 400 and not (mimetype or "").startswith("application/json"):
        # The transport's own refusals (a missing Content-Type ...) are plain text: every error of
        # this endpoint is a JSON-RPC error instead (INVALID_REQUEST), as MCP clients read them.
        answer = _rpc_error(INVALID_REQUEST, body.decode("utf-8", "replace") or "Invalid request", status)
        answer.headers.extend(kept)
        return answer
    return Response(body, status=status, headers=kept, mimetype=mimetype)
