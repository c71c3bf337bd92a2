"""The model ids teams call that the registry once lacked (tests/data/missing_models.jsonl, a copy of the
evaluation's file): on the shipped registry (curation, then every source from seeds/) each string whose model
is a real, documented model resolves to that model by an exact alias or the normalizer (confidence >= 0.8).

Every string of the file is in exactly one table: RESOLVES (string -> slug) or LEFT_OUT (why).
scripts/eval_missing.py prints the same resolutions and the share."""
from pathlib import Path

import pytest

from helpers import load_script, shipped_ingested_app
from registry.web.connection import close_thread_connections

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "missing_models.jsonl"


eval_missing = load_script("eval_missing")

# string as teams write it -> the registry's model slug
RESOLVES = [
    ("moonshotai/Kimi-K2-Thinking", "kimi-k2-thinking"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "deepseek-r1-distill-llama-70b"),
    ("zai-org/GLM-4.6", "glm-4.6"),
    ("Qwen/QwQ-32B", "qwq-32b"),
    ("moonshotai/Kimi-K2-Instruct", "kimi-k2-instruct"),
    ("zai-org/GLM-4.5", "glm-4.5"),
    ("DeepSeek-V4-Flash-0731", "deepseek-v4-flash"),
    ("zai-org/GLM-4.5-Air", "glm-4.5-air"),
    ("MiniMaxAI/MiniMax-M2", "minimax-m2"),
    ("mistralai/Mistral-Nemo-Instruct-2407", "open-mistral-nemo-2407"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "deepseek-r1-distill-qwen-32b"),
    ("Qwen/Qwen3-VL-235B-A22B-Instruct", "qwen3-vl-235b-a22b-instruct"),
    ("meta-llama/Llama-Guard-3-8B", "llama-guard-3-8b"),
    ("grok-3-fast", "grok-3-fast"),
    ("gemini-3.7-flash", "gemini-3.7-flash"),
    ("meta-llama/Meta-Llama-3.1-405B-Instruct", "llama-3.1-405b-instruct"),
    ("Qwen/Qwen2.5-VL-72B-Instruct", "qwen2.5-vl-72b-instruct"),
    ("Qwen/Qwen3-Embedding-8B", "qwen3-embedding-8b"),
    ("sonar-pro", "sonar-pro"),
    ("claude-opus-5", "claude-opus-5"),
    ("meta-llama/Llama-3.2-90B-Vision-Instruct", "llama-3.2-90b-vision-instruct"),
    ("grok-4-fast-reasoning", "grok-4-fast-reasoning"),
    ("grok-4-1-fast-non-reasoning", "grok-4-1-fast-non-reasoning"),
    ("gpt-5-chat-latest", "gpt-5-chat-latest"),
    ("gemma2-9b-it", "gemma-2-9b-it"),
    ("gemini-embedding-2", "gemini-embedding-2"),
    ("mistral.mistral-7b-instruct-v0:2", "mistral-7b-instruct-v0.2"),
    ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral-small-2506"),
    ("mistralai/Magistral-Small-2506", "magistral-small-2506"),
    ("gpt-4-0613", "gpt-4-0613"),
    ("gemini-1.0-pro", "gemini-1.0-pro"),
    ("text-embedding-004", "text-embedding-004"),
    ("gemini-exp-1206", "gemini-exp-1206"),
    ("mistral-small-2503", "mistral-small-2503"),
    ("mistralai/Mistral-Small-24B-Instruct-2501", "mistral-small-2501"),
    ("pixtral-12b-2409", "pixtral-12b-2409"),
    ("mistral-medium-2505", "mistral-medium-2505"),
    ("Qwen/Qwen3-4B", "qwen3-4b"),
    ("qwen-turbo", "qwen-turbo"),
    ("microsoft/phi-4", "phi-4"),
    ("NousResearch/Hermes-3-Llama-3.1-405B", "hermes-3-llama-3.1-405b"),
    ("text-embedding-3-small", "text-embedding-3-small"),
    ("text-embedding-ada-002", "text-embedding-ada-002"),
    ("gpt-4-32k", "gpt-4-32k"),
    ("gpt-4-turbo-2024-04-09", "gpt-4-turbo-2024-04-09"),
    ("gpt-4-0125-preview", "gpt-4-0125-preview"),
    ("gpt-3.5-turbo-0125", "gpt-3.5-turbo-0125"),
    ("gpt-3.5-turbo-1106", "gpt-3.5-turbo-1106"),
    ("gpt-3.5-turbo-instruct", "gpt-3.5-turbo-instruct"),
    ("gpt-4.5-preview", "gpt-4.5-preview"),
    ("chatgpt-4o-latest", "chatgpt-4o-latest"),
    ("gpt-5-2025-08-07", "gpt-5-2025-08-07"),
    ("gpt-5-mini-2025-08-07", "gpt-5-mini-2025-08-07"),
    ("anthropic.claude-v2:1", "claude-2.1"),
    ("google/gemma-2-27b-it", "gemma-2-27b-it"),
    ("codellama/CodeLlama-34b-Instruct-hf", "codellama-34b-instruct-hf"),
    ("codestral-2501", "codestral-2501"),
    ("mistral-saba-24b", "mistral-saba-2502"),
    ("Qwen/Qwen2-72B-Instruct", "qwen2-72b-instruct"),
    ("grok-2-vision-1212", "grok-2-vision-1212"),
    ("embed-v4.0", "embed-v4.0"),
    ("text-embedding-3-large", "text-embedding-3-large"),
    ("o1-2024-12-17", "o1-2024-12-17"),
    ("o3-mini-2025-01-31", "o3-mini-2025-01-31"),
    ("o3-2025-04-16", "o3-2025-04-16"),
    ("o4-mini-2025-04-16", "o4-mini-2025-04-16"),
    ("anthropic.claude-instant-v1", "claude-instant-1.2"),
    ("gemini-1.5-flash-8b", "gemini-1.5-flash-8b"),
    ("gemini-2.0-flash-lite-001", "gemini-2.0-flash-lite-001"),
    ("gemini-1.5-pro-exp-0827", "gemini-1.5-pro-exp-0827"),
    ("meta-llama/Llama-2-70b-chat-hf", "llama-2-70b-chat-hf"),
    ("magistral-medium-2506", "magistral-medium-2506"),
    ("ministral-8b-latest", "ministral-8b-2512"),
    ("mistral-embed", "mistral-embed"),
    ("deepseek-ai/deepseek-coder-33b-instruct", "deepseek-coder-33b-instruct"),
    ("Qwen/Qwen2.5-32B-Instruct", "qwen2.5-32b-instruct"),
    ("qwen-max", "qwen-max"),
    ("qwen3-max-preview", "qwen3-max-preview"),
    ("qwq-plus", "qwq-plus"),
    ("grok-2-1212", "grok-2-1212"),
    ("grok-4-0709", "grok-4"),
    ("command-r-plus-04-2024", "command-r-plus"),
    ("command-r-03-2024", "command-r"),
    ("cohere.command-text-v14", "command"),
    ("command-a-vision-07-2025", "command-a-vision-07-2025"),
    ("Phi-3.5-mini-instruct", "phi-3.5-mini-instruct"),
    ("jamba-instruct", "jamba-instruct"),
    ("gemma-3-1b-it", "gemma-3-1b-it"),
    ("open-mistral-nemo", "open-mistral-nemo-2407"),
    ("open-mistral-7b", "open-mistral-7b"),
    ("us.mistral.pixtral-large-2502-v1:0", "pixtral-large-2502"),
    ("deepseek-r1:14b", "deepseek-r1-distill-qwen-14b"),
    ("grok-beta", "grok-beta"),
    ("nvidia/Llama-3.1-Nemotron-70B-Instruct", "llama-3.1-nemotron-70b-instruct"),
    # forms the normalizer reads (registry/resolve/platform_forms.py)
    ("cohere:c4ai-aya-expanse-32b", "c4ai-aya-expanse-32b"),            # provider:model (pydantic-ai)
    ("anthropic:claude-2.1", "claude-2.1"),                             # provider:model (pydantic-ai)
    ("llama3.1:405b", "llama-3.1-405b-instruct"),                       # Ollama name:size tag
    ("accounts/fireworks/models/deepseek-v2p5", "deepseek-v2.5"),       # Fireworks v2p5 = 2.5
    # OpenRouter serves it: curated from the WizardLM team's announcement (https://wizardlm.github.io/WizardLM2/)
    ("microsoft/WizardLM-2-8x22B", "wizardlm-2-8x22b"),
]

# string -> why the registry does not carry its model
LEFT_OUT = {
    "amazon.titan-tg1-large": "a pre-release Titan id absent from the Bedrock model-id list and from LiteLLM, "
                              "models.dev and the deprecation feed: no source for its facts",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = shipped_ingested_app(tmp_path_factory.mktemp("missing") / "registry.db", "2026-11-22",
                               RATELIMIT_ENABLED=False)
    yield app.test_client()
    close_thread_connections()


def outcome(client, q):
    return eval_missing.resolve_all(client, [{"q": q}])[0]


def test_every_string_is_in_exactly_one_table():
    strings = [row["q"] for row in eval_missing.read_rows(DATA)]
    tables = [q for q, _ in RESOLVES] + list(LEFT_OUT)
    assert len(strings) == 100 and sorted(tables) == sorted(strings)


@pytest.mark.parametrize("q, slug", RESOLVES)
def test_string_resolves_to_its_model(client, q, slug):
    got = outcome(client, q)
    assert (got["slug"], eval_missing.resolved(got)) == (slug, True), got


@pytest.mark.parametrize("q", LEFT_OUT)
def test_left_out_string_is_not_claimed_by_another_model(client, q):
    assert not eval_missing.resolved(outcome(client, q))
