"""One HTTP session for upstreams: timeouts, and retries with backoff on 429 and 5xx honouring Retry-After."""
import logging

import requests
from requests.adapters import HTTPAdapter
from urllib3 import exceptions as urllib3_errors
from urllib3.util.retry import Retry

from .. import json_limits
from .records import SourceError

TIMEOUT = (5, 30)   # connect, read (seconds)
# One page of any upstream: the hub's 500-repo pages are ~1 MB, OpenRouter's whole catalog ~1.5 MB, OpenAI's
# list ~20 KB. A parsed page takes 10 to 25 times its bytes in memory (issue 44: 4 pages of 16 MB took 1.57 GB),
# so the bounds are what a real upstream needs with room, not more: a page 16 MiB, a run's pages 256 MiB in all.
MAX_BODY = 16 * 2**20
MAX_RUN_BODY = 256 * 2**20
CHUNK = 65536
USER_AGENT = "model-registry-ingest/0.1 (+https://github.com/)"


# urllib3 logs each retry as a WARNING of ~400 characters, three a source with no network: the run's one
# failure line says what happened instead (why_unreachable).
logging.getLogger("urllib3.connectionpool").setLevel(logging.ERROR)


def why_unreachable(exc: requests.RequestException) -> str:
    """One short line for a request that failed: what went wrong, in words, not the exception chain."""
    cause = exc.args[0] if exc.args else None
    reason = getattr(cause, "reason", cause)   # a MaxRetryError carries the last try's error
    tries = " after retries" if isinstance(cause, urllib3_errors.MaxRetryError) else ""
    if isinstance(reason, urllib3_errors.NameResolutionError):
        return f"cannot reach {reason.conn.host}{tries}: its name does not resolve (no network, or no DNS)"
    if isinstance(reason, urllib3_errors.NewConnectionError):   # (urllib3 makes it a ConnectTimeoutError too)
        return f"cannot connect{tries}: {_last_words(reason)}"
    if isinstance(reason, urllib3_errors.ConnectTimeoutError) or isinstance(exc, requests.ConnectTimeout):
        return f"no answer within {TIMEOUT[0]} s{tries} (no route, or a firewall)"
    if isinstance(exc, requests.ReadTimeout) or isinstance(reason, urllib3_errors.ReadTimeoutError):
        return f"the upstream stopped answering for {TIMEOUT[1]} s{tries}"
    if isinstance(exc, requests.exceptions.SSLError):
        return f"TLS failed{tries}: {_last_words(reason)}"
    return f"{type(exc).__name__}{tries}: {_last_words(reason if reason is not None else exc)}"[:300]


def _last_words(error) -> str:
    """The innermost message of an error ('Connection refused' of '[Errno 111] Connection refused')."""
    text = str(error)
    return text.rsplit("] ", 1)[-1].rstrip(")\"'") if "] " in text else text[:200]


def make_session(retries: int = 3, backoff: float = 1.0) -> requests.Session:
    """A requests session that retries GETs on 429/5xx and connection errors, with backoff."""
    retry = Retry(total=retries, connect=retries, read=retries, status=retries, backoff_factor=backoff,
                  status_forcelist=(429, 500, 502, 503, 504), allowed_methods=("GET",),
                  respect_retry_after_header=True, raise_on_status=False)
    session = requests.Session()
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    session.headers["User-Agent"] = USER_AGENT
    return session


def get_json(session: requests.Session, url: str, params=None, headers=None):
    """GET url and return (parsed JSON, response headers); any fault raises SourceError.

    The body is read up to MAX_BODY bytes and parsed with limits (registry/json_limits.py): an
    upstream is not trusted to be small or well-formed (docs/threat-model.md#upstreams).
    """
    try:
        with session.get(url, params=params, headers=headers, timeout=TIMEOUT, stream=True) as response:
            if response.status_code in (401, 403):
                raise SourceError(f"GET {url}: HTTP {response.status_code}: the API key was refused")
            body = _bounded_body(response, url, session)
    except requests.RequestException as exc:
        raise SourceError(f"GET {url}: {why_unreachable(exc)}") from exc
    if response.status_code >= 400:
        text = body[:200].decode("utf-8", "replace")
        raise SourceError(f"GET {url}: HTTP {response.status_code}: {text!r}")
    try:
        return json_limits.loads(body, json_limits.UPSTREAM_DEPTH, surrogates=True), dict(response.headers)
    except ValueError as exc:
        raise SourceError(f"GET {url}: malformed JSON: {str(exc)[:200]}") from exc


def _bounded_body(response, url: str, session) -> bytes:
    """The response body, or SourceError once it passes MAX_BODY bytes, or the run's pages MAX_RUN_BODY in all
    (decoded size, so no zip bomb; the session counts what its run has read)."""
    chunks, size = [], 0
    read_before = getattr(session, "registry_bytes_read", 0)
    for chunk in response.iter_content(CHUNK):
        size += len(chunk)
        if size > MAX_BODY:
            raise SourceError(f"GET {url}: the response is larger than {MAX_BODY:,} bytes")
        if read_before + size > MAX_RUN_BODY:
            raise SourceError(f"GET {url}: the run's pages are larger than {MAX_RUN_BODY:,} bytes in all")
        chunks.append(chunk)
    session.registry_bytes_read = read_before + size
    return b"".join(chunks)
