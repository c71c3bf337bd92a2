"""Identifiers as platforms and SDKs write them (issue 16): one row per rule, naming where the form is
seen; negative rows (precision over recall); stage 3 substring; and the wild development-set figures.
Rules: docs/api-decisions.md#resolve."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers import load_script

from registry.resolve.index import AliasIndex, AliasRow
from registry.normalize import guess_source, normalize

ROOT = Path(__file__).resolve().parent.parent


eval_resolve = load_script("eval_resolve")
eval_wild = load_script("eval_wild")


def index_of(*aliases):
    """An index of one model per alias (slug = alias), all official, one release date."""
    return AliasIndex([AliasRow(a, "official", a, 0, "2025-01-01", "active") for a in aliases])


@pytest.fixture(scope="module")
def truth():
    rows = eval_resolve.truth_rows(eval_resolve.read_jsonl(ROOT / "tests" / "data" / "models_truth.jsonl"))
    return AliasIndex(rows)


# --- strict normalization: spellings of one id -----------------------------------------------
@pytest.mark.parametrize("where, raw, expected", [
    ("pydantic-ai / LangChain init_chat_model", "openai:gpt-4o", "gpt-4o"),
    ("pydantic-ai", "google-gla:gemini-1.5-flash", "gemini-1-5-flash"),
    ("LangChain init_chat_model", "google_vertexai: gemini-2.5-flash", "gemini-2-5-flash"),
    ("LangChain init_chat_model", "bedrock_converse:anthropic.claude-3-5-sonnet-20241022-v2:0",
     "claude-3-5-sonnet-20241022"),
    ("Vercel AI gateway", "gateway/anthropic:claude-3-opus-latest", "claude-3-opus-latest"),
    ("LangChain with Ollama", "ollama:llama3.1:70b", "llama3-1-70b"),
    ("Azure OpenAI", "gpt-35-turbo-16k", "gpt-3-5-turbo-16k"),
    ("Fireworks", "accounts/fireworks/models/llama-v3p1-70b-instruct", "llama-v3-1-70b-instruct"),
    ("Fireworks", "accounts/fireworks/models/qwen2p5-72b-instruct", "qwen2-5-72b-instruct"),
    ("Ollama size tag", "gpt-oss:20b", "gpt-oss-20b"),
    ("Ollama tag with variant and quantization", "llama3.2:3b-instruct-fp16", "llama3-2-3b-instruct"),
    ("Ollama GGUF quantization", "qwen2.5:7b-instruct-q4_K_M", "qwen2-5-7b-instruct"),
    ("Ollama GGUF quantization", "mistral:7b-instruct-q8_0", "mistral-7b-instruct"),
    ("Ollama named tag", "llama4:maverick", "llama4-maverick"),
    ("Ollama floating tag", "qwen2.5:latest", "qwen2-5"),
    ("Ollama word tag (not an SDK prefix)", "mistral:instruct", "mistral-instruct"),
    ("Cloudflare Workers AI", "@cf/meta/llama-3.2-1b-instruct", "llama-3-2-1b-instruct"),
    ("OpenRouter variant (still dropped)", "anthropic/claude-3.7-sonnet:thinking", "claude-3-7-sonnet"),
])
def test_normalize_platform_spellings(where, raw, expected):
    assert normalize(raw) == expected, where


@pytest.mark.parametrize("q, expected", [
    ("openai:gpt-4o", "official"),
    ("anthropic:claude-3-5-haiku-latest", "official"),
    ("bedrock:meta.llama3-1-70b-instruct-v1:0", "cloud-a"),
    ("google_vertexai: gemini-2.5-flash", "cloud-b"),
    ("huggingface:Qwen/Qwen3-235B-A22B", "official"),
    ("accounts/fireworks/models/gpt-oss-120b", "official"),
    ("@cf/meta/llama-3.2-1b-instruct", "official"),
    ("llama4:maverick", "official"),
    ("google/gemma-3-12b-it:free", "gateway"),
])
def test_guess_source_of_platform_forms(q, expected):
    assert guess_source(q) == expected


# --- platform forms resolve to the right model (truth registry) --------------------------------
@pytest.mark.parametrize("where, q, canonical, confidence", [
    ("pydantic-ai provider:model", "openai:gpt-3.5-turbo-0613", "gpt-3.5-turbo-0613", 0.8),
    ("pydantic-ai provider:model", "heroku:claude-4-sonnet", "claude-sonnet-4-20250514", 0.8),
    ("pydantic-ai bedrock:", "bedrock:mistral.mistral-large-2407-v1:0", "mistral-large-2407", 0.8),
    ("pydantic-ai cerebras:", "cerebras:qwen-3-32b", "qwen3-32b", 0.8),
    ("LangChain google_vertexai:", "google_vertexai: gemini-2.5-flash", "gemini-2.5-flash", 0.8),
    ("Vercel AI gateway + -latest alias", "gateway/anthropic:claude-3-opus-latest",
     "claude-3-opus-20240229", 0.8),
    ("-latest without an alias: the family's newest", "grok:grok-4.3-latest", "grok-4.3", 0.8),
    ("Groq -versatile", "groq:llama-3.3-70b-versatile", "Llama-3.3-70B-Instruct", 0.8),
    ("Groq -instant", "groq/llama-3.1-8b-instant", "Meta-Llama-3.1-8B-Instruct", 0.8),
    ("Groq context size", "groq/llama3-70b-8192", "Meta-Llama-3-70B-Instruct", 0.8),
    ("Groq context size", "mixtral-8x7b-32768", "open-mixtral-8x7b", 0.8),
    ("Groq -preview", "groq/llama-3.2-11b-vision-preview", "Llama-3.2-11B-Vision-Instruct", 0.8),
    ("Together -Turbo", "meta-llama/Llama-3.3-70B-Instruct-Turbo", "Llama-3.3-70B-Instruct", 0.8),
    ("Together -Turbo (not a snapshot)", "deepseek-ai/DeepSeek-R1-Turbo", "DeepSeek-R1", 0.8),
    ("Together -chat-hf", "meta-llama/Llama-3-8b-chat-hf", "Meta-Llama-3-8B-Instruct", 0.8),
    ("Fireworks v3p1", "accounts/fireworks/models/deepseek-v3p1-terminus", "DeepSeek-V3.1-Terminus", 0.8),
    ("Fireworks llama-v3", "accounts/fireworks/models/llama-v3-8b-instruct", "Meta-Llama-3-8B-Instruct", 0.8),
    ("Fireworks -basic", "accounts/fireworks/models/llama4-scout-instruct-basic",
     "Llama-4-Scout-17B-16E-Instruct", 0.8),
    ("Ollama name:size", "llama3.1:70b", "Meta-Llama-3.1-70B-Instruct", 0.8),
    ("Ollama MoE by total size", "qwen3.5:35b", "qwen3.5-35b-a3b", 0.8),
    ("Ollama name:variant", "llama4:maverick", "Llama-4-Maverick-17B-128E-Instruct", 0.8),
    ("Ollama quantization tag", "llama3.2:3b-instruct-fp16", "Llama-3.2-3B-Instruct", 0.8),
    ("Ollama, Gemma without '-it'", "gemma3:27b", "gemma-3-27b-it", 0.8),
    ("Ollama, Gemma 3n", "gemma3n:e4b", "gemma-3n-e4b-it", 0.8),
    ("Azure gpt-35", "azure/gpt-35-turbo", "gpt-3.5-turbo", 0.8),
    ("Azure gpt-35 with context size", "gpt-35-turbo-16k", "gpt-3.5-turbo-16k", 0.8),
    ("HF repo id in lower case", "qwen/qwen2.5-72b-instruct", "Qwen2.5-72B-Instruct", 0.8),
    ("HF repo id", "meta-llama/Llama-4-Scout-17B-16E-Instruct", "Llama-4-Scout-17B-16E-Instruct", 0.8),
    ("a 'v' before the version", "anthropic/claude-v3-haiku", "claude-3-haiku-20240307", 0.8),
    ("typo in a word", "xai/groq-3-beta", "grok-3-beta", 0.5),
    ("typo in a word", "claude-3-5-sonet", "claude-3-5-sonnet-20241022", 0.5),
    ("typo in a word (not the shorter gpt-4o)", "gpt-4o-mnii", "gpt-4o-mini", 0.5),
    ("Groq -specdec", "llama-3.3-70b-specdec", "Llama-3.3-70B-Instruct", 0.8),
    ("Ollama name without a tag: a part of an id", "llama3.3", "Llama-3.3-70B-Instruct", 0.5),
    ("a date cut short: a part of an id", "claude-3-haiku-2024030", "claude-3-haiku-20240307", 0.5),
])
def test_platform_form_resolves(truth, where, q, canonical, confidence):
    m = truth.match(q)
    assert m is not None, where
    assert (m.row.model_slug, m.confidence) == (canonical, confidence), where


# --- precision over recall: these must not land on a neighbour --------------------------------
@pytest.mark.parametrize("why, aliases, q", [
    ("3.1 70B is not 3.3 70B", ["Llama-3.3-70B-Instruct", "Llama-3.1-8B-Instruct"], "llama3.1:70b"),
    ("3.1 70B is not 3.3 70B", ["Llama-3.3-70B-Instruct", "Llama-3.1-8B-Instruct"],
     "groq/llama-3.1-70b-versatile"),
    ("a distill is not its teacher", ["DeepSeek-R1", "Qwen2.5-7B-Instruct"],
     "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"),
    ("a distill is not its teacher (Ollama)", ["DeepSeek-R1"], "deepseek-r1:7b"),
    ("the teacher is not a distill", ["DeepSeek-R1-Distill-Llama-70B"], "deepseek-r1"),
    ("7B is not 72B", ["Qwen2.5-72B-Instruct"], "qwen2.5:7b"),
    ("7B is not 70B", ["Meta-Llama-3-70B-Instruct"], "llama3:7b"),
    ("a cut number", ["llama-3-70b"], "llama-3-7"),
    ("a size the alias lacks", ["gemini-1.5-flash"], "gemini-1.5-flash-8b"),
    ("'turbo' names OpenAI models", ["gpt-4", "gpt-3.5-turbo"], "gpt-4-turbo"),
    ("'instruct' is not dropped where no alias uses it", ["gpt-3.5-turbo"], "gpt-3.5-turbo-instruct-0914"),
    ("a context size that names a model", ["gpt-4", "gpt-3.5-turbo-16k"], "gpt-4-32k"),
    ("'gpt-4o' is not 'gpt-4'", ["gpt-4"], "gpt-4o-search"),
    ("a version is not cut", ["gpt-5"], "gpt-5-6-luna"),
    ("one word names no model", ["deepseek-chat"], "deepseek"),
    ("a typo never in a number", ["gpt-4-1-mini"], "gpt-4-2-mini"),
])
def test_no_wrong_model(why, aliases, q):
    m = index_of(*aliases).match(q)
    assert m is None, f"{why}: {q!r} -> {m.row.alias!r}"


@pytest.mark.parametrize("aliases, q, alias", [
    # Groq's context size kept when it names the model, dropped otherwise
    (["gpt-3.5-turbo", "gpt-3.5-turbo-16k"], "gpt-35-turbo-16k", "gpt-3.5-turbo-16k"),
    # the base snapshot, not a dated one, for a platform's undated id
    (["DeepSeek-R1", "DeepSeek-R1-0528"], "DeepSeek-R1-Turbo", "DeepSeek-R1"),
    (["DeepSeek-R1", "DeepSeek-R1-0528"], "together_ai/deepseek-ai/DeepSeek-R1-0528", "DeepSeek-R1-0528"),
])
def test_resolves_to_the_right_one(aliases, q, alias):
    assert index_of(*aliases).match(q).row.alias == alias


@pytest.mark.parametrize("params, q, found", [
    (685_000_000_000, "deepseek-v3.1:671b", True),     # Ollama's size; the hub counts 685B
    (685_000_000_000, "deepseek-v3.1:7b", False),      # another size: not this model
    (None, "deepseek-v3.1:671b", False),               # size unknown: no guess
])
def test_size_tag_on_a_model_named_without_size(params, q, found):
    idx = AliasIndex([AliasRow("DeepSeek-V3.1", "official", "deepseek-v3.1", 0, "2025-08-21", "active", params)])
    m = idx.match(q)
    assert (m is not None and m.confidence == 0.8) is found


# --- stage 3: the string is a substring of a known alias, or the reverse -----------------------
@pytest.mark.parametrize("aliases, q, alias", [
    (["acme-chat-2-20200301"], "chat-2-2020", "acme-chat-2-20200301"),      # the spec's case
    (["acme-chat-2-20200301"], "chat-2-202003", "acme-chat-2-20200301"),    # a date's prefix
    (["acme-chat-2-20200301"], "acme-chat-2-20200301-ft-custom", "acme-chat-2-20200301"),  # reverse
    (["foo-bar-baz"], "xfoo-bar-baz-qux", "foo-bar-baz"),                   # reverse, cutting q
    (["gemini-exp"], "mini-exp", "gemini-exp"),                             # forward, cutting a word
    # whole tokens first, even when longer (the guard is a preference, not a filter)
    (["xchat-2-pro", "acme-chat-2-pro-long-name"], "chat-2-pro", "acme-chat-2-pro-long-name"),
    (["foo-barx", "foo-bar-quxquux"], "foo-bar", "foo-bar-quxquux"),
])
def test_substring_stage(aliases, q, alias):
    m = index_of(*aliases).match(q)
    assert (m.row.alias, m.stage, m.confidence) == (alias, "substring", 0.5)


# --- the development sets (copies in tests/data) --------------------------------------------------
def test_wild_dev_set():
    res = eval_wild.evaluate(ROOT / "tests" / "data")
    assert res["n"] == 144
    assert res["accuracy"] >= 0.97, [r for r in res["results"] if not r["ok"]]


def test_resolve_dev_set_stays_exact():
    res = eval_resolve.evaluate(ROOT / "tests" / "data")
    assert res["model_accuracy"] == 1.0 and res["confidence_accuracy"] == 1.0, res["failures"]
