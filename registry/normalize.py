"""Normalization rules for model identifier strings (pure, standard library only).

Every rule is a general pattern over the *shape* of an identifier (platform prefixes,
region prefixes, version suffixes, date spellings); there is no table of model names.

normalize(s)   -> the strict normalized form: decorations removed, model name,
                  its date pin and its size/variant words kept, so distinct models stay apart.
loose_key(n)   -> the loose form of a normalized string: also drops snapshot pins,
                  "-latest", an API revision "-vN" after a version number, a ".0" minor
                  version and letter/digit hyphens. Used only as a fallback
                  when the strict form matches nothing.
guess_source(q)-> which alias format q looks like: official, cloud-a (Bedrock),
                  cloud-b (Vertex AI), gateway (OpenRouter), or None.
decoration(a)  -> (region, pinned, variant): the parts of an alias an upgrade should keep.

normalize()'s output is stored and served, not only compared: the write path stores normalize() of each
model's primary alias as `aliases.normalized` of every alias of that model (registry/merge/recompute.py
model_key), and GET /models/{slug} and the export serve it as each alias's `normalized`
(docs/api-decisions.md#resolve). A change to a rule here changes those answers; the next recompute
rewrites the stored values.
"""
from __future__ import annotations

import re

# LiteLLM provider prefixes that address a vendor's own API (the "official" format).
# OpenRouter organisation names differ (google/, mistralai/, x-ai/, qwen/, meta-llama/).
DIRECT_API_PREFIXES = frozenset({
    "gemini", "mistral", "xai", "dashscope", "meta_llama", "cohere_chat", "anthropic_api",
    "text-completion-openai", "codestral", "groq", "fireworks_ai", "together_ai",
    "deepinfra", "perplexity", "ollama", "ollama_chat", "azure", "azure_ai", "watsonx",
    "sagemaker", "replicate", "huggingface", "nvidia_nim", "cerebras", "sambanova",
    "moonshot", "volcengine", "databricks", "snowflake", "friendliai", "lm_studio",
    "hosted_vllm", "vllm", "github", "nscale", "novita", "featherless_ai", "nebius",
})
# LiteLLM's routes to a provider's own API that are OpenRouter organisations too (registry/resolve/written.py).
SHARED_ROUTES = frozenset({"anthropic", "openai", "deepseek", "cohere", "perplexity"})
_DOTTED_VERSION = re.compile(r"\d\.\d")
# path heads of ids that name the provider's own model: Gemini 'models/', Fireworks
# 'accounts/fireworks/models/', Cloudflare '@cf/'
HOSTED_PATHS = frozenset({"models", "accounts", "@cf", "cloudflare"})
BEDROCK_PREFIXES = ("bedrock/", "bedrock_converse/", "converse/", "invoke/")
VERTEX_PREFIXES = ("vertex_ai/", "vertex_ai_beta/", "publishers/", "projects/")
PLATFORM_SUFFIXES = ("maas",)                     # Vertex AI model-as-a-service ids
QUANT_SUFFIXES = ("fp8", "fp16", "bf16", "fp4", "int4", "int8", "awq", "gptq", "gguf", "mlx")
FLOATING_WORDS = ("latest", "default")
# OpenRouter's variant suffixes ('model:free'); any other ':tag' is an Ollama tag ('llama4:maverick')
GATEWAY_VARIANTS = frozenset({"free", "beta", "extended", "thinking", "online", "nitro", "floor",
                              "exacto"})
# 'provider:model' prefixes of agent SDKs (pydantic-ai, LangChain init_chat_model) that name a cloud
SDK_SOURCES = {"bedrock": "cloud-a", "bedrock_converse": "cloud-a", "vertexai": "cloud-b",
               "google-vertex": "cloud-b", "google_vertexai": "cloud-b", "openrouter": "gateway"}

_DOT_PREFIX = re.compile(r"^[a-z][a-z0-9_-]*\.(?=[a-z])")      # us. / anthropic. / us-gov.
_BEDROCK_VERSION = re.compile(r"-v?\d{1,2}:\d+(?::[a-z0-9]+)*$")  # -v1:0, -v0:1, -1:0, -v1:0:200k
_DATE_DASHED = re.compile(r"(?<!\d)(20\d\d)-(\d\d)-(\d\d)(?!\d)")  # 2024-10-22 -> 20241022
_V_BEFORE_DATE = re.compile(r"-v\d+(?=-20\d{6}(?:-|$))")        # sonnet-v2-20241022
_DIGIT_DOT = re.compile(r"(?<=\d)\.(?=\d)")                     # 3.5 -> 3-5
_SEPARATORS = re.compile(r"[\s_/]+")
_SUFFIX = re.compile(r"-(%s)$" % "|".join(PLATFORM_SUFFIXES + QUANT_SUFFIXES))
_SUFFIX_TAILS = tuple("-" + x for x in PLATFORM_SUFFIXES + QUANT_SUFFIXES)
_LOOSE_FLOATING = re.compile(r"-(?:%s)(?=-|$)" % "|".join(FLOATING_WORDS))
_LOOSE_TRAILING_V = re.compile(r"(?<=\d)-v\d+$")          # claude-opus-4-6-v1
_ANY_TRAILING_V = re.compile(r"-v\d+$")
_LOOSE_ZERO_MINOR = re.compile(r"(?<=\d)-0$")                # v3.0 -> v3
_LETTER_DIGIT = re.compile(r"(?<=[a-z])-(?=\d)|(?<=\d)-(?=[a-z])")
# snapshot pins inside a normalized string: 20241022, -09-2025, -0613/-2407/-2507 (YYMM,
# MMDD), -06-05 / -07-25 at the end, -001 at the end
_PIN_TOKEN = re.compile(r"-(20\d{6}|\d\d-20\d\d$|\d\d-\d\d$|\d{4}|\d{3}$)(?=-|$)")
_SIZE_TAG = re.compile(r"\d+(?:\.\d+)?b(?![a-z])")                # ollama 'llama3:70b'
# 'openai:gpt-4o', 'google-gla:gemini-1.5-flash', 'google_vertexai: gemini-2.5-flash': the head
# has no digit and the model after it does not start with one (Ollama's 'gpt-oss:20b' does)
_SDK_PREFIX = re.compile(r"([a-z][a-z_-]*):\s*(?=[a-z])")
_OLLAMA_TAG = re.compile(r"[a-z0-9][a-z0-9_.-]*")            # '70b', '3b-instruct-fp16', 'maverick'
_GGUF_QUANT = re.compile(r"-i?q[2-8](?:-(?:k|0|1|xs|xxs|s|m|l|nl))*$")   # -q4_K_M, -q8_0, -iq4_xs
_FIREWORKS_POINT = re.compile(r"(?<=[a-z]\d)p(?=\d)")           # Fireworks 'v3p1' = 'v3.1'
_AZURE_GPT = re.compile(r"(?<![a-z0-9])gpt-(\d)(\d)(?=-|$)")       # Azure 'gpt-35' = 'gpt-3.5'


def _last_segment(s: str) -> str:
    s = s.strip().lower().rstrip("/")
    return s.rsplit("/", 1)[-1]


def sdk_prefix(s: str) -> tuple[str | None, str]:
    """('openai', 'gpt-4o') for an agent SDK's 'openai:gpt-4o'; (None, s) for anything else."""
    m = _SDK_PREFIX.match(s)
    if m is None or s.startswith("ft:"):
        return None, s
    rest = s[m.end():]
    if not any(c.isdigit() or c in "-./" for c in rest):   # Ollama 'mistral:instruct'
        return None, s
    return m.group(1), rest


def _strip_version_tails(s: str) -> str:
    """SDK 'provider:' heads, Vertex '@version', Bedrock ':version', OpenRouter ':variant', Ollama ':tag'."""
    if s.startswith("ft:"):                                # OpenAI fine-tune of a base model
        s = s[3:]
    if ":" in s:
        s = sdk_prefix(s)[1]
    if "@" in s:
        base, ver = s.split("@", 1)
        s = f"{base}-{ver}" if ver.isdigit() else base    # @20241022/@001 pin; @default floats
    if ":" not in s:
        return s
    s = _BEDROCK_VERSION.sub("", s)
    head, _, tail = s.partition(":")
    tail = tail.strip()
    if tail in GATEWAY_VARIANTS or tail in FLOATING_WORDS or tail.isdigit():
        return head
    if _OLLAMA_TAG.fullmatch(tail):
        return f"{head}-{tail}"                            # 'llama3.2:3b-instruct-fp16', 'llama4:maverick'
    return head


def _strip_dot_prefixes(s: str) -> tuple[str, list[str]]:
    """Bedrock cross-region prefix and vendor prefix: 'us.anthropic.claude-...'."""
    parts = []
    while True:
        m = _DOT_PREFIX.match(s)
        if not m:
            return s, parts
        parts.append(m.group(0)[:-1])
        s = s[m.end():]


def normalize(identifier: str) -> str:
    """Strict normalized form of a model identifier (see module docstring)."""
    # A gateway's floating id of a line keeps its mark: apart from the provider's ids of the same words.
    return "~" + _normalize(identifier) if names_a_line(identifier) else _normalize(identifier)


def names_a_line(identifier: str) -> bool:
    """Is it a gateway's floating id of a line (OpenRouter's `~anthropic/claude-sonnet-latest`), which names
    whatever the gateway serves newest in that line, not one model (`gemini-flash-latest` on Vertex is Google's
    own floating id, not OpenRouter's `~google/gemini-flash-latest`)?"""
    if "~" not in (identifier or ""):
        return False
    parts = identifier.strip().lower().rstrip("/").split("/")
    return len(parts) >= 2 and parts[-2].startswith("~")


def _normalize(identifier: str) -> str:
    s = _last_segment(identifier or "")
    s = _strip_version_tails(s)
    s, _ = _strip_dot_prefixes(s)
    if "-20" in s:
        s = _DATE_DASHED.sub(_join_date, s)
        if "-v" in s:
            s = _V_BEFORE_DATE.sub("", s)
    if " " in s or "_" in s:
        s = _SEPARATORS.sub("-", s)
    while s.endswith(_SUFFIX_TAILS):
        s = _SUFFIX.sub("", s)
    if "-q" in s or "-iq" in s:
        s = _GGUF_QUANT.sub("", s)
    if "." in s:
        s = _DIGIT_DOT.sub("-", s)
    if "p" in s:
        s = _FIREWORKS_POINT.sub("-", s)
    if "gpt-" in s:
        s = _AZURE_GPT.sub(r"gpt-\1-\2", s)
    return s.strip("-.")


def _join_date(m: re.Match) -> str:
    return m.group(1) + m.group(2) + m.group(3)


def pins(normalized: str) -> tuple[str, ...]:
    """The snapshot pins (dates, YYMM/MMDD numbers, -001) of a normalized string."""
    return tuple(_PIN_TOKEN.findall(normalized))


def pin_free(normalized: str) -> str:
    """A normalized string without its snapshot pins."""
    return _PIN_TOKEN.sub("", normalized)


def pin_at(normalized: str, pos: int) -> bool:
    """Does a pin token ('-20241022', '-0613', ...) start at pos?"""
    return _PIN_TOKEN.match(normalized, pos) is not None


def loose_key(normalized: str) -> str:
    """Looser form of a normalize() result: no pins, no floating words, no trailing -vN."""
    s = _PIN_TOKEN.sub("", normalized)
    s = _LOOSE_FLOATING.sub("", s)
    if "-v" in s:
        s = _LOOSE_TRAILING_V.sub("", s)
    if s.endswith("-0"):
        s = _LOOSE_ZERO_MINOR.sub("", s)
    s = _LETTER_DIGIT.sub("", s)
    return s.strip("-")


def drop_revision(loose: str) -> str:
    """A loose key without a trailing re-release tag ('claude-3-5-sonnet-v2' as Vertex AI
    names it); for Vertex-style queries only, so 'titan-embed-text-v3' does not become v2."""
    return _ANY_TRAILING_V.sub("", loose)


def guess_source(q: str) -> str | None:
    """Which alias format q looks like: 'cloud-a', 'cloud-b', 'gateway', 'official' or None."""
    raw = (q or "").strip()
    if raw.lower().startswith("ft:"):                    # fine-tune of an official model
        raw = raw[3:]
    s = raw.lower()
    if not s or not re.search(r"[a-z0-9]", s):
        return None
    head, rest = sdk_prefix(s)
    if head is not None:                                 # 'bedrock:meta.llama3-...', 'openai:gpt-4o'
        return SDK_SOURCES.get(head) or (guess_source(raw[-len(rest):]) if rest else None)
    if s.startswith(BEDROCK_PREFIXES) or "arn:aws:bedrock" in s:
        return "cloud-a"
    last = _last_segment(s)
    if s.startswith(VERTEX_PREFIXES) or "@" in last:
        return "cloud-b"
    base = last.split(":", 1)[0]
    if any(base.endswith("-" + suf) for suf in PLATFORM_SUFFIXES):
        return "cloud-b"
    if s.startswith("openrouter/"):
        return "gateway"
    if _BEDROCK_VERSION.search(last) or _DOT_PREFIX.match(last):
        return "cloud-a"
    if "/" in s:
        first, _, rest = s.partition("/")
        if first in DIRECT_API_PREFIXES or first in HOSTED_PATHS:
            return "official"
        # LiteLLM's route to the provider's API, written as the provider writes its id ('anthropic/claude-opus-4-1-
        # 20250805'); the gateway writes a version with a dot ('anthropic/claude-sonnet-4.5'): resolve/written.py
        if first in SHARED_ROUTES and not _DOTTED_VERSION.search(rest):
            return "official"
        # a published-weights name ('Qwen/Qwen2.5-72B-Instruct') keeps its capitals;
        # gateway ids are lower case
        if raw.rsplit("/", 1)[-1] != raw.rsplit("/", 1)[-1].lower():
            return "official"
        return "gateway"
    if ":" in last and last.rsplit(":", 1)[1] in GATEWAY_VARIANTS:   # 'model:free' without an org
        return "gateway"
    return "official"


def decoration(alias: str) -> tuple[str | None, bool, str | None]:
    """(region prefix or None, date-pinned?, gateway variant or None) of an alias string.

    region:  Bedrock cross-region prefix ('us', 'eu', 'apac', 'global', 'us-gov', ...), i.e.
             the first of two dotted prefixes ('us.anthropic.claude-...').
    pinned:  True when the alias names a dated/numbered snapshot (20241022, @20241022,
             -2024-08-06, -0613, -2407, -09-2025, -001, @001); False for floating ids
             ('-latest', '@default', or no pin at all).
    variant: OpenRouter ':free' / ':beta' / ... suffix.
    """
    s = _last_segment(alias or "")
    variant = None
    m = re.search(r":([a-z][a-z0-9-]*)$", s)
    if m and "@" not in s:
        variant = m.group(1)
    _, prefixes = _strip_dot_prefixes(_strip_version_tails(s))
    region = prefixes[0] if len(prefixes) >= 2 else None
    n = normalize(s)
    floating = any(n.endswith("-" + w) for w in FLOATING_WORDS)
    return (region, (not floating) and bool(pins(n)), variant)
