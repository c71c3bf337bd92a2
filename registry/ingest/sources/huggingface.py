"""model-hub: Hugging Face GET /api/models?author=ORG (Link pages; open models, sizes, hub pages)."""
import re
from urllib.parse import urlsplit

from requests.utils import parse_header_links

from ...config import setting
from ...fields import SOURCE_URLS
from ..http import get_json
from ..records import Page, Record, SourceError
from . import _util as u

SOURCE = "model-hub"
PROVIDER = None
KEY_ENV = "HF_TOKEN"
KEY_REQUIRED = False   # public repos (gated ones included) are listed without a token
BASE_URL = SOURCE_URLS[SOURCE]
PATH = "/api/models"
HUB_PAGE = "https://huggingface.co/"
ORGS = ("meta-llama", "google", "Qwen", "deepseek-ai", "mistralai", "openai", "CohereLabs")
ORG_PROVIDERS = {"meta-llama": "meta", "google": "google", "qwen": "qwen", "deepseek-ai": "deepseek",
                 "mistralai": "mistral", "openai": "openai", "cohereforai": "cohere", "coherelabs": "cohere"}
REPO_PREFIXES = {"coherelabs": "c4ai-", "cohereforai": "c4ai-"}
# With expand, only these keys (plus id) come back: ask for everything parse reads.
EXPAND = ("safetensors", "createdAt", "tags", "pipeline_tag", "config", "private", "disabled", "gated")
LIMIT = 500
# Model tasks worth a registry entry; repos without one (adapters, eval dumps) or of other tasks
# (a decade of BERT/T5/ViT research checkpoints under google) are noise for a model registry.
TASKS = {"text-generation": None, "image-text-to-text": None, "any-to-any": None,
         "audio-text-to-text": None, "video-text-to-text": None,
         "feature-extraction": "embedding", "sentence-similarity": "embedding", "text-ranking": "embedding",
         "automatic-speech-recognition": "speech_to_text", "text-to-speech": "audio_generation",
         "text-to-image": "image"}
# Quantized or converted re-uploads of a model already listed: not models of their own.
_DERIVED = re.compile(r"(?i)(?:^|[-_.])(gguf|awq|gptq|bnb|mlx|onnx|exl2|fp8|int[48]|[48]bit|w[48]a\d+)(?:[-_.]|$)")
_CREATED_UNKNOWN = "2022-03-02T23:29:04"   # stamped on every repo older than the hub's createdAt field
_SIZE = re.compile(r"^(?:(\d+)x)?(\d+(?:\.\d+)?)([bBmM])$")
_EXPERTS = re.compile(r"^\d+[eE]$")      # Llama-4-Scout-17B-16E: 17B is the active count, not the total


def orgs() -> list[str]:
    """The organisations to list: REGISTRY_HUB_ORGS (comma-separated) or ORGS."""
    configured = setting("REGISTRY_HUB_ORGS") or ""
    return [o.strip() for o in configured.split(",") if o.strip()] or list(ORGS)


def fetch(session, base_url: str, key: str | None) -> list[Page]:
    """GET every page of every org, following Link rel="next" (kept on the configured base URL)."""
    base = base_url.rstrip("/")
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    pages = []
    for org in orgs():
        def get_page(cursor, org=org):
            if cursor:   # the next link's query, sent to our base URL (a mirror's links may name the hub)
                body, resp_headers = get_json(session, f"{base}{PATH}?{cursor}", headers=headers)
            else:
                params = [("author", org), *[("expand[]", e) for e in EXPAND], ("limit", LIMIT)]
                body, resp_headers = get_json(session, base + PATH, params=params, headers=headers)
            link = next((v for k, v in resp_headers.items() if k.lower() == "link"), None)
            return Page(body, {"Link": link} if link else {}), _next_query(link)
        pages += u.follow(get_page, SOURCE)
    return pages


def _next_query(link: str | None) -> str | None:
    """The query string of the rel="next" target of a Link header, or None on the last page."""
    for entry in parse_header_links(link) if link else []:
        if entry.get("rel") == "next" and entry.get("url"):
            query = urlsplit(entry["url"]).query
            if not query:
                raise SourceError(f"{SOURCE}: next link without a query: {entry['url'][:200]}")
            return query
    return None


def parse(pages: list[Page]) -> list[Record]:
    """One Record per public, original model repo of a listed org; the id is the repo name."""
    records = {}
    for p, page in enumerate(pages, 1):
        for i, raw in enumerate(u.body_list(page.body, None, f"{SOURCE} page {p}"), 1):
            ctx = u.where(SOURCE, i)
            item = u.item_dict(raw, ctx)
            hub_id = u.req_str(item, "id", ctx)
            ctx = u.where(SOURCE, i, hub_id)
            org, _, name = hub_id.partition("/")
            if not name or "/" in name:
                raise SourceError(f"{ctx}: 'id' should be 'org/name'")
            task = u.opt_str(item, "pipeline_tag", ctx)
            tags = u.opt_list(item, "tags", ctx)
            if (u.opt_bool(item, "private", ctx) or u.opt_bool(item, "disabled", ctx) or task not in TASKS
                    or _DERIVED.search(name) or "gguf" in tags
                    or any(t.startswith("base_model:quantized:") for t in tags)):
                continue
            fields = {"hub_id": hub_id, "canonical_url": HUB_PAGE + hub_id, "pipeline_tag": task}
            if tags:
                fields["tags"] = tags
            if TASKS[task] or (task in ("text-generation", "image-text-to-text") and "conversational" in tags):
                fields["model_type"] = TASKS[task] or "chat"
            else:
                # A generation task without the conversational tag (a base or completion model): the hub
                # does not say which kind, and saying so lets no upgrade be inferred across kinds.
                fields["model_type"] = "unknown"
            created = u.opt_str(item, "createdAt", ctx)
            released = None if created and created.startswith(_CREATED_UNKNOWN) else u.day(created, ctx, "createdAt")
            if released:
                fields["release_date"] = released
            fields.update(_size(item, name, ctx))
            _extras(item, fields, ctx)
            provider = ORG_PROVIDERS.get(org.lower(), org.lower())
            # Cohere's hub repos carry a c4ai- prefix its API ids lack: the API id matches the curation.
            prefix = REPO_PREFIXES.get(org.lower(), "")
            model_id = name[len(prefix):] if prefix and name.lower().startswith(prefix) else name
            # The repo id itself is how the weights are named where they are published: the hub's own
            # id format (docs/lifecycle.md#platforms), kept as an official alias of the open model.
            aliases = [(model_id, "official")] + ([(name, "official")] if model_id != name else []) \
                + [(hub_id, "official")]
            records[hub_id] = Record(model_id, provider, fields, aliases)
    return list(records.values())


def _size(item: dict, name: str, ctx: str) -> dict:
    """parameter_count (safetensors.total, else the name's size) and a label as people write it."""
    from_name = size_from_name(name)
    safetensors = item.get("safetensors")
    total = None
    if safetensors is not None:
        total = u.opt_int(u.item_dict(safetensors, f"{ctx} safetensors"), "total", ctx)
    if total:
        return {"parameter_count": total, "parameter_label": from_name[1] if from_name else label(total)}
    return {"parameter_count": from_name[0], "parameter_label": from_name[1]} if from_name else {}


def size_from_name(name: str) -> tuple[int, str] | None:
    """(count, label) from a size token of a repo name: 8B, 1.5B, 500M, 8x7B (=56B total)."""
    tokens = re.split(r"[-_]", name)
    for i, token in enumerate(tokens):
        match = _SIZE.match(token)
        if not match:
            continue
        if i + 1 < len(tokens) and _EXPERTS.match(tokens[i + 1]):
            return None   # an active-parameter count of a mixture of experts says nothing of the total
        experts, number, unit = match.groups()
        count = round(float(number) * (1e9 if unit in "bB" else 1e6) * int(experts or 1))
        return count, token.upper().replace("X", "x")
    return None


def label(count: int) -> str:
    """A short label for a parameter count: 8030261248 -> '8B', 494032768 -> '494M'."""
    value, unit = (count / 1e9, "B") if count >= 1e9 else (count / 1e6, "M")
    return f"{value:.1f}".rstrip("0").rstrip(".") + unit if value < 10 else f"{round(value)}{unit}"


def _extras(item: dict, fields: dict, ctx: str) -> None:
    """Metadata beyond the spec's fields: architectures, model_type of the config, gating."""
    config = item.get("config")
    if isinstance(config, dict):
        architectures = u.opt_list(config, "architectures", ctx)
        if architectures:
            fields["architectures"] = architectures
    gated = item.get("gated")
    if gated not in (None, False):
        fields["gated"] = gated
