"""How a caller wrote an identifier: the platform it is written for, and the client's decoration around the
platform's own id (pure, standard library only; docs/lifecycle.md#how-an-id-is-written).

LiteLLM and agent SDKs put a route in front of a platform's id: `bedrock/us.anthropic.claude-...`,
`vertex_ai/gemini-2.5-pro`, `openrouter/anthropic/claude-3.5-sonnet`, `gemini/gemini-1.5-pro`, `openai:gpt-4o`.
The route names the platform (Bedrock, Vertex AI, OpenRouter, the provider's own API, or one outside the
registry's four: Groq, Ollama, Together, ...) and is kept, as written, in front of the upgrade's id.

`anthropic/`, `openai/`, `deepseek/`, `cohere/` and `perplexity/` are both LiteLLM's routes to the provider's API and
OpenRouter's organisations: an id the gateway lists is the gateway's (matched exactly), and otherwise one
written as the provider writes it (`anthropic/claude-opus-4-1-20250805`) is LiteLLM's, while a dotted version
(`anthropic/claude-sonnet-5.5`) is the gateway's way of writing it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..fields import OFFICIAL
from ..normalize import (BEDROCK_PREFIXES, DIRECT_API_PREFIXES, GATEWAY_VARIANTS, HOSTED_PATHS, SDK_SOURCES,
                        SHARED_ROUTES, sdk_prefix)

BEDROCK, VERTEX, GATEWAY = "cloud-a", "cloud-b", "gateway"   # the alias sources of registry/fields.py
ELSEWHERE = "another platform"   # an outside platform's spelling that names no route (Groq's 'llama3-70b-8192')
# LiteLLM routes that call the provider's own API with its own id.
OFFICIAL_ROUTES = frozenset({"gemini", "mistral", "xai", "dashscope", "meta_llama", "cohere_chat", "anthropic_api",
                             "text-completion-openai", "codestral", "moonshot"})
# Routes of the registry's other platforms: the longest first, so `bedrock/converse/` is one route.
PLATFORM_ROUTES = (("bedrock/converse/", BEDROCK), ("bedrock/invoke/", BEDROCK), ("bedrock_converse/", BEDROCK),
                   *((p, BEDROCK) for p in BEDROCK_PREFIXES if p not in ("bedrock_converse/",)),
                   ("vertex_ai_beta/", VERTEX), ("vertex_ai/", VERTEX), ("openrouter/", GATEWAY))
# Every other route LiteLLM knows names a platform outside the four (Groq, Together, Ollama, Azure, ...).
OUTSIDE_ROUTES = DIRECT_API_PREFIXES - OFFICIAL_ROUTES - SHARED_ROUTES
# How a person names the best known of them (the others by their route).
OUTSIDE_NAMES = {"groq": "Groq", "together_ai": "Together AI", "fireworks_ai": "Fireworks AI", "ollama": "Ollama",
                 "ollama_chat": "Ollama", "azure": "Azure OpenAI", "azure_ai": "Azure AI", "deepinfra": "DeepInfra",
                 "cerebras": "Cerebras", "sambanova": "SambaNova", "nvidia_nim": "NVIDIA NIM", "watsonx": "watsonx",
                 "sagemaker": "SageMaker", "replicate": "Replicate", "huggingface": "Hugging Face Inference"}
_DOTTED_VERSION = re.compile(r"\d\.\d")
_OLLAMA_TAG = re.compile(r"[a-z0-9][a-z0-9_.-]*")


@dataclass(frozen=True)
class Written:
    """prefix: what the caller wrote in front of the platform's id ('' when nothing); platform: the registry
    platform the route names (official, cloud-a, cloud-b, gateway), None when the id alone must say; outside:
    the platform outside the four it is written for ('groq', 'ollama', ...), else None."""

    prefix: str = ""
    platform: str | None = None
    outside: str | None = None

    def outside_note(self, bare: str, upgrade: str) -> str:
        """What an answer about an outside platform's id says of its upgrade's id there."""
        where = f"{bare} is another platform's spelling" if self.outside == ELSEWHERE \
            else f"{bare} is an id of {self.outside}"
        return (f"{where}: no id of {upgrade} on that platform is known, so no upgrade id is given in your format "
                f"(this answer is its provider's own lifecycle).")

    def around(self, alias: str) -> str:
        """An id of the same platform written the way the caller writes ids."""
        return self.prefix + alias


def written(q: str, gateway_listed: bool = False, spelled_elsewhere: bool = False) -> Written:
    """How q is written (the module docstring); gateway_listed: q is itself an id the gateway lists;
    spelled_elsewhere: q matched only as another platform spells the provider's id (Groq's `llama3-70b-8192`),
    so it is an id of a platform outside the four, which one unknown."""
    text = (q or "").strip()
    lower = text.lower()
    for route, platform in PLATFORM_ROUTES:
        if lower.startswith(route):   # what follows is the platform's own id ('anthropic/...' is OpenRouter's)
            return Written(text[:len(route)], platform)
    head, rest = sdk_prefix(lower)
    if head is not None:                                   # 'openai:gpt-4o', 'bedrock:meta.llama3-...'
        prefix = text[:len(text) - len(rest)]
        if head in SDK_SOURCES:
            return Written(prefix, SDK_SOURCES[head])
        if head in OUTSIDE_ROUTES:
            return Written(prefix, None, OUTSIDE_NAMES.get(head, head))
        return Written(prefix, OFFICIAL)
    first, slash, inner = lower.partition("/")
    if slash and inner:
        if first in OUTSIDE_ROUTES:
            return Written(text[:len(first) + 1], None, OUTSIDE_NAMES.get(first, first))
        if first in OFFICIAL_ROUTES or first in HOSTED_PATHS:   # 'gemini/...', Gemini's 'models/...'
            return Written(text[:len(first) + 1], OFFICIAL)
        if first in SHARED_ROUTES and not gateway_listed and not _DOTTED_VERSION.search(inner):
            return Written(text[:len(first) + 1], OFFICIAL)
        return Written()
    if _ollama_tag(lower):
        return Written("", None, "Ollama")
    return Written("", None, ELSEWHERE) if spelled_elsewhere else Written()


def _ollama_tag(s: str) -> bool:
    """An Ollama name:tag ('llama3.1:70b', 'deepseek-r1:14b', 'llama4:maverick'): a tag that is no Bedrock version
    (':0', ':0:200k') nor a gateway variant (':free')."""
    name, colon, tag = s.partition(":")
    return bool(name and colon and tag) and not tag.isdigit() and tag not in GATEWAY_VARIANTS \
        and bool(_OLLAMA_TAG.fullmatch(tag))
