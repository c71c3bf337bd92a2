"""vertex-catalog: Vertex AI Model Garden's publisher models (v1beta1 ListPublisherModels, every version), with
Google's Application Default Credentials (google-auth, the `vertex` extra): Vertex's ids and their launch stage
(a preview is an upgrade only where no generally available fit is).

A publisher model is called `{model}` (version `default`), `{model}@{version}` (Anthropic's dated versions,
`textembedding-gecko@003`), or, for partner models served as a service (`-maas`), `{publisher}/{model}`.
Vertex publishes its retirement days on its "Model versions and lifecycle" page, not in this API: those are
curated (docs/curating.md). A platform catalog writes only its platform's ids and schedule
(docs/lifecycle.md#platform-catalogs).
"""
from ...config import setting
from ...fields import PLATFORM_SOURCES, SOURCE_URLS
from ..http import get_json, make_session
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "vertex-catalog"
PROVIDER = None
KEY_ENV = None          # credentials come from Application Default Credentials
KEY_REQUIRED = False
BASE_URL = SOURCE_URLS[SOURCE]
PLATFORM = PLATFORM_SOURCES[SOURCE]
PATH = "/v1beta1/publishers/{publisher}/models"
SCOPE = "https://www.googleapis.com/auth/cloud-platform"
PAGE_SIZE = 100
# Model Garden's publishers -> the registry's providers.
PUBLISHERS = {"google": "google", "anthropic": "anthropic", "meta": "meta", "mistralai": "mistral",
              "deepseek-ai": "deepseek", "qwen": "qwen", "openai": "openai", "moonshotai": "moonshotai",
              "zai-org": "zai", "minimaxai": "minimax", "ai21": "ai21", "cohere": "cohere"}
PREVIEW_STAGES = ("EXPERIMENTAL", "PRIVATE_PREVIEW", "PUBLIC_PREVIEW", "DOGFOOD")


def authorized_session(session=None):
    """A requests session carrying Google's Application Default Credentials, with the ingest's retries (those of
    session, else a new bounded one's)."""
    try:
        import google.auth
        from google.auth.exceptions import DefaultCredentialsError
        from google.auth.transport.requests import AuthorizedSession
    except ImportError as exc:
        raise SourceError(f"{SOURCE}: google-auth is not installed (pip install 'model-registry[vertex]')") from exc
    try:
        credentials, _ = google.auth.default(scopes=[SCOPE])
    except DefaultCredentialsError as exc:
        raise SourceError(f"{SOURCE}: no Google credentials ({str(exc)[:200]}); set "
                          "GOOGLE_APPLICATION_CREDENTIALS or run `gcloud auth application-default login`") from exc
    authed = AuthorizedSession(credentials)
    for prefix, adapter in (session or make_session()).adapters.items():
        authed.mount(prefix, adapter)
    return authed


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """Every page of every configured publisher's models, all versions."""
    from google.auth.exceptions import GoogleAuthError
    authed = authorized_session(session)
    try:
        return _every_page(authed, base_url)
    except GoogleAuthError as exc:   # a refused or expired credential, found while a page was asked for
        raise SourceError(f"{SOURCE}: Google refused the credentials: {type(exc).__name__}: {str(exc)[:200]}") from exc


def _every_page(authed, base_url: str) -> list[Page]:
    pages = []
    for publisher in setting("REGISTRY_VERTEX_PUBLISHERS"):
        url = base_url.rstrip("/") + PATH.format(publisher=publisher)

        def get_page(cursor, url=url):
            params = {"pageSize": PAGE_SIZE, "listAllVersions": "true"}
            if cursor:
                params["pageToken"] = cursor
            body, _ = get_json(authed, url, params=params)
            if not isinstance(body, dict):
                raise SourceError(f"{SOURCE}: expected a JSON object, got {type(body).__name__}")
            return Page(body), u.opt_str(body, "nextPageToken", SOURCE)

        pages += u.follow(get_page, SOURCE)
    return pages


def parse(pages: list[Page]) -> list[Record]:
    """One Record per publisher model version: the id Vertex calls it by, its launch stage."""
    records = []
    # Google's APIs leave an empty list out: a publisher with no models answers {}.
    pages = [page for page in pages if not (isinstance(page.body, dict) and set(page.body) <= {"nextPageToken"})]
    for name, item, ctx in u.listed(pages, "publisherModels", "name", SOURCE):
        parts = name.split("/")
        if len(parts) != 4 or parts[0] != "publishers" or parts[2] != "models" or not parts[3]:
            raise SourceError(f"{ctx}: 'name' is not publishers/<publisher>/models/<model>")
        publisher, model = parts[1], parts[3]
        model_id = vertex_id(publisher, model, u.opt_str(item, "versionId", ctx))
        provider = PUBLISHERS.get(publisher.lower())
        if provider is None:
            records.append(Record(model_id, None, skip="publisher outside the registry's providers"))
            continue
        # The launch stage says preview or GA only: Vertex publishes deprecations and retirement days on its
        # lifecycle page, which curation carries (docs/curating.md).
        preview = u.opt_str(item, "launchStage", ctx) in PREVIEW_STAGES
        schedule = u.stated(preview=True if preview else None)
        records.append(Record(model_id, provider, {"platforms": {PLATFORM: schedule}}, [(model_id, PLATFORM)],
                              links=[model] if model != model_id else []))
    return records


def vertex_id(publisher: str, model: str, version: str | None) -> str:
    """The id a team calls a publisher model version by (module docstring)."""
    if model.endswith("-maas"):
        return f"{publisher}/{model}"
    return model if version in (None, "default") else f"{model}@{version}"
