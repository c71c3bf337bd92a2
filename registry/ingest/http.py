"""One HTTP session for upstreams: timeouts, and retries with backoff on 429 and 5xx honouring Retry-After."""
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from .records import SourceError

TIMEOUT = (5, 30)   # connect, read (seconds)
USER_AGENT = "model-registry-ingest/0.1 (+https://github.com/)"


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
    """GET url and return (parsed JSON, response headers); any fault raises SourceError."""
    try:
        response = session.get(url, params=params, headers=headers, timeout=TIMEOUT)
    except requests.RequestException as exc:
        raise SourceError(f"GET {url} failed: {type(exc).__name__}: {exc}") from exc
    if response.status_code in (401, 403):
        raise SourceError(f"GET {url}: HTTP {response.status_code}: the API key was refused")
    if response.status_code >= 400:
        raise SourceError(f"GET {url}: HTTP {response.status_code}: {response.text[:200]}")
    try:
        return response.json(), dict(response.headers)
    except ValueError as exc:
        raise SourceError(f"GET {url}: malformed JSON: {exc}") from exc
