"""Admin authentication: a bearer key compared in constant time against every configured key."""
import hmac

from flask import current_app, request

from .errors import ApiError

UNAUTHORIZED = "The API key is invalid or missing."


def presented_key() -> str | None:
    """The bearer token of the request, or None when the header is missing or malformed."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or " " in token.strip():
        return None
    return token.strip()


def key_is_valid(token: str | None) -> bool:
    """Constant-time comparison against every configured key (a list allows rotation)."""
    keys = current_app.config.get("ADMIN_API_KEYS") or []
    if token is None or not keys:
        return False
    matched = False
    for key in keys:   # no early exit: the time taken does not tell which key matched
        matched |= hmac.compare_digest(token.encode(), key.encode())
    return matched


def require_admin() -> None:
    """401 unless the request carries a valid admin key (no key configured: always 401)."""
    if not key_is_valid(presented_key()):
        raise ApiError(401, "unauthorized", UNAUTHORIZED, {"WWW-Authenticate": 'Bearer realm="admin"'})
