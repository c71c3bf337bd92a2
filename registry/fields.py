"""The model's fields, in one table, and the shared vocabulary of their values.

FIELDS says what curation may state, what the models table holds, what the list and single-model answers
show: column lists, curation validation and response shapes derive from it (as Datasette's SETTINGS table
gives defaults, validation and docs from one place). The vocabulary (statuses, their order and their
words; alias sources and platforms, their order and their names; each source's upstream) lives here once:
schema.sql's CHECK lists and the OpenAPI enums are checked against it (tests/test_vocabulary.py), and
the SQL orders are generated from it (sql_rank).
"""
import re
from dataclasses import dataclass

MODEL_TYPES = ("chat", "embedding", "image", "audio_generation", "speech_to_text", "realtime",
               "moderation", "video_generation", "search", "code", "unknown")
# A model's status (docs/lifecycle.md#status), in the order the schema and the API list them.
STATUSES = ("active", "latest", "deprecated", "sunset")
WORKING = ("active", "latest")          # a model a team can still call
RETIRING = ("deprecated", "sunset")     # announced for removal, or gone
# Best first: how results tie (search) and which model a person should reach for first.
STATUS_RANK = ("latest", "active", "deprecated", "sunset")
# Why a model has its status (docs/api-decisions.md#lifecycle), in a sentence (the pages).
STATUS_TEXT = {
    "latest": "the newest working release of its family",
    "active": "working; a newer release of its family exists",
    "deprecated": "announced for retirement; move off it before the shutdown day",
    "sunset": "shut down: requests to it fail",
}
# What a recorded change can be (docs/api-decisions.md#change-history): the API's kind filter, the feeds,
# webhooks and registry/wording.py all read this one list.
CHANGE_KINDS = ("model_added", "model_removed", "field_changed", "status_changed", "deprecation_announced",
                "shutdown_scheduled", "alias_added", "alias_removed", "latest_changed")
# Where an identifier is served: an alias source's platform, and the hub for open weights
# (docs/lifecycle.md#platforms). "official" is the provider's own API, the model's own lifecycle.
OFFICIAL, HUB_PLATFORM = "official", "hub"
ALIAS_SOURCES = (OFFICIAL, "cloud-a", "cloud-b", "gateway")
PLATFORMS = ALIAS_SOURCES + (HUB_PLATFORM,)
# Each platform as a person knows it (pages, the platform_lifecycle answers); in PLATFORMS order.
PLATFORM_NAMES = {"official": "Provider API", "cloud-a": "Amazon Bedrock", "cloud-b": "Google Vertex AI",
                  "gateway": "OpenRouter", "hub": "Hugging Face Hub"}
# Who states a fact (the spec's sources): curation, six providers' listings, the deprecation feed, the hub;
# their precedence is registry/merge/priority.py's.
CURATION = "curation"
VENDOR_SOURCES = ("vendor-a-api", "vendor-b-api", "vendor-c-api", "vendor-d-api", "vendor-e-api",
                  "vendor-f-api")
FEED_SOURCE, HUB_SOURCE = "deprecation-feed", "model-hub"
# The platforms' own catalogs, each the source of one platform's ids and schedule, never of a model's own facts
# (docs/lifecycle.md#platform-catalogs): source -> the alias source (platform) it writes.
PLATFORM_SOURCES = {"openrouter-catalog": "gateway", "bedrock-catalog": "cloud-a", "vertex-catalog": "cloud-b"}
# A public catalog of many platforms (models.dev's api.json): each row's price on its own platform and, from a
# provider's own rows, the model's capabilities; the last word on both, and never an id or a date of its own
# (docs/data-flow.md#the-public-catalog).
CATALOG_SOURCE = "public-catalog"
# A second public catalog, of prices only (LiteLLM's model cost map): each row's price on its own platform, with the
# batch, flex and priority services models.dev does not state; after models.dev (docs/data-flow.md#the-price-map).
PRICE_MAP_SOURCE = "price-map"
CATALOG_SOURCES = (CATALOG_SOURCE, PRICE_MAP_SOURCE)
AUTOMATED_SOURCES = VENDOR_SOURCES + (FEED_SOURCE, HUB_SOURCE) + tuple(PLATFORM_SOURCES) + CATALOG_SOURCES
# Each automated source's upstream: its default base URL (REGISTRY_<SOURCE>_URL overrides where a run
# reads, registry/ingest/sources/), and where a page links a fact that source gave; in AUTOMATED_SOURCES order.
SOURCE_URLS = dict(zip(AUTOMATED_SOURCES, (
    "https://api.openai.com", "https://api.anthropic.com", "https://generativelanguage.googleapis.com",
    "https://api.mistral.ai", "https://api.cohere.com", "https://api.x.ai",
    "https://deprecations.info", "https://huggingface.co",
    "https://openrouter.ai", "https://bedrock.us-east-1.amazonaws.com",
    "https://us-central1-aiplatform.googleapis.com", "https://models.dev",
    "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json"), strict=True))


def sql_list(values) -> str:
    """The values as a SQL list of literals, "('a', 'b')" (for IN and the schema's CHECK lists)."""
    assert all("'" not in v for v in values)    # vocabulary words, never user text
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


def sql_rank(column: str, order, default: int | None = None, first: int = 0) -> str:
    """A SQL CASE giving column's value its place in order (first, first + 1, ...), else default."""
    assert all("'" not in v for v in order)
    whens = " ".join(f"WHEN '{v}' THEN {i}" for i, v in enumerate(order, first))
    return f"CASE {column} {whens}" + (f" ELSE {default}" if default is not None else "") + " END"


@dataclass(frozen=True)
class Field:
    """One field of a model.

    kind: the value's form, checked by curation (registry/curation/rules.py);
    stored: "column" (a models column fed by facts), "link" (resolved to a row id: family,
    successor), "signal" (read by the lifecycle only), "metadata" (kept in metadata) or "capability"
    (one of the normalized capability set, in the models.capabilities column);
    shown: "list" (in every Model object) or "detail" (single-model answers only) or None.
    """

    name: str
    kind: str
    stored: str
    shown: str | None = None
    nullable: bool = True


FIELDS = (
    Field("family", "family_slug", "link", nullable=False),
    Field("display_name", "text", "column", "list", nullable=False),
    Field("version", "version", "column", "list", nullable=False),
    Field("model_type", "model_type", "column", "list"),
    Field("release_date", "date", "column", "list"),
    Field("deprecation_date", "date", "column", "list"),
    Field("sunset_date", "date", "column", "list"),
    Field("parameter_count", "count", "column", "list"),
    Field("parameter_label", "text", "column", "list"),
    Field("input_context_window", "count", "column", "list"),
    Field("output_context_window", "count", "column", "list"),
    Field("canonical_url", "url", "column", "detail"),
    Field("successor", "model_slug", "link", "detail"),
    Field("status", "status", "signal"),
    # A provider's "not sooner than" retirement date: not a shutdown day (docs/api-decisions.md#lifecycle).
    Field("earliest_sunset_date", "date", "metadata"),
    # A platform's own schedule for its ids of the model, by platform (cloud-a: {sunset_date: ...}).
    Field("platforms", "platforms", "metadata"),
    # The page where the provider names the replacement (a curated successor's, docs/lifecycle.md#why).
    Field("successor_url", "url", "metadata"),
    # What the model costs on each platform (registry/pricing.py, docs/api.md#prices): platform -> price entry.
    Field("prices", "prices", "metadata"),
    # A floating id (gpt-4o, *-latest): the dated snapshot it points at (docs/lifecycle.md#floating-ids).
    Field("points_to", "model_slug", "metadata"),
    # The provider calls it a preview or experimental release (a public preview whose id says nothing of it):
    # an upgrade only where no generally available fit exists (docs/lifecycle.md#the-upgrade).
    Field("preview", "flag", "metadata"),
    # The normalized capability set (docs/api-decisions.md#capabilities): each read at merge time from the
    # sources that state it (registry/merge/capabilities.py), or curated with the reference it comes from.
    Field("input_modalities", "modalities", "capability"),
    Field("output_modalities", "modalities", "capability"),
    Field("tool_calling", "flag", "capability"),
    Field("reasoning", "flag", "capability"),
    Field("vision", "flag", "capability"),
    # Answers in a JSON schema the caller gives (a dedicated feature, not JSON mode alone).
    Field("structured_output", "flag", "capability"),
    # The reasoning efforts a caller may ask for (Anthropic's `effort`, OpenAI's `reasoning_effort`).
    Field("reasoning_efforts", "efforts", "capability"),
    # The last month (or day) of the model's training data, as its source writes it: YYYY-MM or YYYY-MM-DD.
    Field("knowledge_cutoff", "month", "capability"),
)
BY_NAME = {f.name: f for f in FIELDS}

CURATED = tuple(f.name for f in FIELDS)
COLUMNS = tuple(f.name for f in FIELDS if f.stored == "column")
CAPABILITIES = tuple(f.name for f in FIELDS if f.stored == "capability")
# What input_modalities and output_modalities may hold; anything else a source sends is dropped.
MODALITIES = ("text", "image", "audio", "video", "pdf")
# What reasoning_efforts may hold, least first; anything else a source sends is dropped.
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
# A knowledge cutoff: a month, or a day where the source names one (2025-03, 2025-03-31).
KNOWLEDGE_CUTOFF = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?")   # ASCII: \d takes any script's
LINKS = tuple(f.name for f in FIELDS if f.stored == "link")
# Listed in every Model object, after slug/display_name/version/status/model_type/family/provider.
# The columns a single-model answer adds to the list's Model object (a link such as successor is shaped apart).
DETAIL_COLUMNS = tuple(f.name for f in FIELDS if f.shown == "detail" and f.stored == "column")
LIST_DATES_AND_SIZES = tuple(f.name for f in FIELDS if f.shown == "list"
                             and f.name not in ("display_name", "version", "model_type"))
# The metadata key of a tombstone: a model no source lists any longer keeps answering, with the time
# it was last listed (docs/api-decisions.md#change-history).
REMOVED = "removed_at"

# What an upstream's value may be (registry/ingest/validate.py, docs/threat-model.md#upstreams): a day
# in this window (a shutdown of 9999-12-31 is a typo or an attack, never a plan), a count in its range.
DATE_WINDOW = ("1990-01-01", "2100-12-31")
COUNT_RANGES = {"parameter_count": (1, 10**14), "input_context_window": (1, 10**8),
                "output_context_window": (1, 10**8)}
# An identifier: what providers, clouds and the hub use (letters, digits, . _ : / @ + -; OpenRouter's floating ids
# start with a ~: `~anthropic/claude-sonnet-latest`), no longer than a query may be
# (docs/api-decisions.md#parameters), so every stored id can be resolved.
ID_PATTERN = r"~?[A-Za-z0-9][A-Za-z0-9._:/@+-]*"
MAX_ID = 200
MAX_NAME = 200      # a display name, label or version: one line
MAX_TEXT = 5000     # a description: free text, lines kept
