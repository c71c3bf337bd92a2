"""Rules of registry.resolve (normalize, index, upgrade alias): table-driven cases per rule, tie-breaks,
format-preserving upgrade aliases, and the development-set accuracy thresholds (measured on
the copies in tests/data)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import load_script

from registry import normalize as N
from registry.resolve.index import AliasIndex, AliasRow
from registry.normalize import decoration, guess_source, normalize
from registry.resolve.upgrade import format_kept, pick_upgrade_alias

ROOT = Path(__file__).resolve().parent.parent
eval_resolve = load_script("eval_resolve")


def row(alias, source="official", slug=None, position=0, release="2025-01-01", status="active"):
    return AliasRow(alias, source, slug or alias, position, release, status)


# --- normalize(): one rule per line ----------------------------------------------------------
@pytest.mark.parametrize("raw, expected", [
    # lower case; '3.5' and '3-5' one form
    ("Llama-3.3-70B-Instruct", "llama-3-3-70b-instruct"),
    ("gpt-4.1", "gpt-4-1"),
    ("claude-3.5-sonnet", "claude-3-5-sonnet"),
    # LiteLLM provider prefixes, Bedrock region paths
    ("bedrock/anthropic.claude-3-haiku-20240307-v1:0", "claude-3-haiku-20240307"),
    ("bedrock/us-gov-west-1/amazon.nova-lite-v1:0", "nova-lite"),
    ("bedrock/eu-central-1/mistral.mixtral-8x7b-instruct-v0:1", "mixtral-8x7b-instruct"),
    ("bedrock/converse/meta.llama3-8b-instruct-v1:0", "llama3-8b-instruct"),
    ("vertex_ai/gemini-1.5-pro-001", "gemini-1-5-pro-001"),
    ("gemini/gemini-2.0-flash-lite", "gemini-2-0-flash-lite"),
    ("mistral/codestral-2405", "codestral-2405"),
    ("dashscope/qwen3-max", "qwen3-max"),
    ("xai/grok-3-mini", "grok-3-mini"),
    ("meta_llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout-17b-16e-instruct"),
    ("azure/eu/gpt-4o", "gpt-4o"),
    # OpenRouter ids and organisation prefixes
    ("openrouter/anthropic/claude-3-haiku", "claude-3-haiku"),
    ("meta-llama/llama-3.1-8b-instruct", "llama-3-1-8b-instruct"),
    ("x-ai/grok-4", "grok-4"),
    ("mistralai/devstral-small", "devstral-small"),
    ("qwen/qwen3-32b", "qwen3-32b"),
    ("deepseek/deepseek-r1", "deepseek-r1"),
    ("openai/gpt-4o", "gpt-4o"),
    ("google/gemma-3-27b-it", "gemma-3-27b-it"),
    # Vertex publisher paths, Gemini 'models/'
    ("publishers/google/models/gemini-1.5-pro-002", "gemini-1-5-pro-002"),
    ("models/gemini-pro", "gemini-pro"),
    # Bedrock vendor prefixes and cross-region prefixes
    ("anthropic.claude-opus-4-7", "claude-opus-4-7"),
    ("cohere.command-r-plus-v1:0", "command-r-plus"),
    ("us.anthropic.claude-opus-4-7", "claude-opus-4-7"),
    ("eu.amazon.nova-pro-v1:0", "nova-pro"),
    ("apac.anthropic.claude-sonnet-4-20250514-v1:0", "claude-sonnet-4-20250514"),
    ("global.anthropic.claude-opus-4-5-20251101-v1:0", "claude-opus-4-5-20251101"),
    ("jp.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"),
    ("au.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"),
    ("ca.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"),
    ("us-gov.openai.gpt-oss-120b-1:0", "gpt-oss-120b"),
    ("bedrock/us.deepseek.r1-v1:0", "r1"),
    # version suffixes
    ("anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022"),
    ("amazon.titan-embed-text-v2:0", "titan-embed-text"),
    ("amazon.titan-embed-text-v1", "titan-embed-text-v1"),      # -vN without :N is kept
    ("openai.gpt-oss-20b-1:0", "gpt-oss-20b"),
    ("qwen.qwen3-32b:0", "qwen3-32b"),
    ("anthropic.claude-3-haiku-20240307-v1:0:200k", "claude-3-haiku-20240307"),
    # Vertex '@' versions
    ("claude-3-5-haiku@20241022", "claude-3-5-haiku-20241022"),
    ("claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet-20241022"),
    ("gemini-1.5-pro@002", "gemini-1-5-pro-002"),
    ("claude-opus-4-7@default", "claude-opus-4-7"),
    ("text-bison@latest", "text-bison"),
    # OpenRouter variant suffixes
    ("anthropic/claude-3.7-sonnet:beta", "claude-3-7-sonnet"),
    ("google/gemma-3-12b-it:free", "gemma-3-12b-it"),
    ("anthropic/claude-3.7-sonnet:thinking", "claude-3-7-sonnet"),
    ("openai/gpt-4o:extended", "gpt-4o"),
    ("meta-llama/llama-3-70b-instruct:nitro", "llama-3-70b-instruct"),
    ("openai/gpt-4o:online", "gpt-4o"),
    ("openai/gpt-4o:floor", "gpt-4o"),
    ("qwen/qwen3-coder:exacto", "qwen3-coder"),
    # date spellings
    ("gpt-4o-2024-08-06", "gpt-4o-20240806"),
    ("gpt-4o-20240806", "gpt-4o-20240806"),
    ("gpt-4o@20240806", "gpt-4o-20240806"),
    # quantization and platform suffixes
    ("Llama-4-Maverick-17B-128E-Instruct-FP8", "llama-4-maverick-17b-128e-instruct"),
    ("qwen3-30b-a3b-fp8", "qwen3-30b-a3b"),
    ("vertex_ai/meta/llama-3.1-70b-instruct-maas", "llama-3-1-70b-instruct"),
    # other real-world shapes
    ("ft:gpt-4o-2024-08-06:acme::abc123", "gpt-4o-20240806"),
    ("ollama/qwen3:32b", "qwen3-32b"),
    ("arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0",
     "claude-3-haiku-20240307"),
    ("  gpt-4o  ", "gpt-4o"),
    ("", ""),
])
def test_normalize(raw, expected):
    assert normalize(raw) == expected


@pytest.mark.parametrize("a, b", [
    ("claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"),
    ("gpt-4o", "gpt-4o-2024-08-06"),
    ("llama-3.1-8b", "llama-3.1-70b"),
    ("amazon.titan-embed-text-v1", "amazon.titan-embed-text-v2:0"),
    ("gemini-1.5-flash", "gemini-1.5-flash-001"),
    ("qwen3-next-80b-a3b-instruct", "qwen3-next-80b-a3b-thinking"),
    ("DeepSeek-V3", "DeepSeek-V3.1"),
    ("gpt-5", "gpt-5.1"),
    ("claude-opus-4", "claude-opus-4-5"),
    ("gemma-3-4b-it", "gemma-3n-e4b-it"),
])
def test_normalize_keeps_distinct_models_apart(a, b):
    assert normalize(a) != normalize(b)


def test_no_normalized_collisions_between_truth_models():
    truth = eval_resolve.read_jsonl(ROOT / "tests" / "data" / "models_truth.jsonl")
    strict, loose = eval_resolve.collisions(truth)
    assert strict == {}
    # loose keys are shared only by snapshots of one line (undated vs dated ids); they are
    # used after the strict form fails, and a pinned q never crosses to another pin
    assert loose and all(len(members) >= 2 for members in loose.values())


@pytest.mark.parametrize("a, b", [
    ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022"),
    ("mistral-large-latest", "mistral-large-2411"),
    ("embed-english-v3.0", "cohere.embed-english-v3"),
    ("anthropic.claude-opus-4-6-v1", "claude-opus-4-6"),
    ("gpt-3.5-turbo", "gpt-3.5-turbo-0613"),
    ("meta.llama3-1-8b-instruct-v1:0", "meta-llama/llama-3.1-8b-instruct"),
])
def test_loose_key_joins_snapshots_and_spellings(a, b):
    assert N.loose_key(normalize(a)) == N.loose_key(normalize(b))


@pytest.mark.parametrize("a, b", [
    ("DeepSeek-V3", "DeepSeek-V3.1"),
    ("amazon.titan-embed-text-v1", "amazon.titan-embed-text-v2:0"),
    ("qwen3-next-80b-a3b-instruct", "qwen3-next-80b-a3b-thinking"),
])
def test_loose_key_keeps_versions_apart(a, b):
    assert N.loose_key(normalize(a)) != N.loose_key(normalize(b))


# --- guess_source() ---------------------------------------------------------------------------
@pytest.mark.parametrize("q, expected", [
    ("claude-3-5-haiku-20241022", "official"),
    ("gpt-4o", "official"),
    ("Qwen2.5-72B-Instruct", "official"),
    ("gemini/gemini-1.5-flash", "official"),
    ("mistral/codestral-2405", "official"),
    ("xai/grok-3", "official"),
    ("dashscope/qwen-plus", "official"),
    ("meta_llama/Llama-3.3-70B-Instruct", "official"),
    ("Qwen/Qwen3-32B", "official"),
    ("models/gemini-pro", "official"),
    ("ft:gpt-4o-2024-08-06:acme::abc", "official"),
    ("anthropic.claude-3-haiku-20240307-v1:0", "cloud-a"),
    ("us.anthropic.claude-opus-4-7", "cloud-a"),
    ("deepseek.v3.2", "cloud-a"),
    ("bedrock/amazon.nova-premier-v1:0", "cloud-a"),
    ("bedrock/us-gov-west-1/openai.gpt-oss-20b-1:0", "cloud-a"),
    ("openai.gpt-oss-120b-1:0", "cloud-a"),
    ("claude-3-5-haiku@20241022", "cloud-b"),
    ("claude-opus-4-7@default", "cloud-b"),
    ("vertex_ai/claude-3-opus", "cloud-b"),
    ("vertex_ai/openai/gpt-oss-20b-maas", "cloud-b"),
    ("meta/llama-4-maverick-17b-128e-instruct-maas", "cloud-b"),
    ("publishers/google/models/gemini-1.5-pro", "cloud-b"),
    ("anthropic/claude-3.7-sonnet", "gateway"),
    ("x-ai/grok-3", "gateway"),
    ("openrouter/openai/gpt-5-nano", "gateway"),
    ("google/gemma-3-12b-it:free", "gateway"),
    ("mistralai/mistral-large-2411", "gateway"),
    ("", None),
    ("   ", None),
    ("!!!", None),
])
def test_guess_source(q, expected):
    assert guess_source(q) == expected


# --- decoration() -----------------------------------------------------------------------------
@pytest.mark.parametrize("alias, expected", [
    ("us.anthropic.claude-3-5-haiku-20241022-v1:0", ("us", True, None)),
    ("eu.amazon.nova-pro-v1:0", ("eu", False, None)),
    ("apac.anthropic.claude-sonnet-4-6", ("apac", False, None)),
    ("us-gov.openai.gpt-oss-120b-1:0", ("us-gov", False, None)),
    ("global.anthropic.claude-opus-4-5-20251101-v1:0", ("global", True, None)),
    ("anthropic.claude-3-5-haiku-20241022-v1:0", (None, True, None)),
    ("amazon.nova-lite-v1:0", (None, False, None)),
    ("claude-3-5-haiku-20241022", (None, True, None)),
    ("claude-3-5-haiku-latest", (None, False, None)),
    ("claude-haiku-4-5", (None, False, None)),
    ("claude-opus-4@20250514", (None, True, None)),
    ("claude-opus-4-7@default", (None, False, None)),
    ("gpt-4o-2024-08-06", (None, True, None)),
    ("gpt-4-0613", (None, True, None)),
    ("mistral-large-2411", (None, True, None)),
    ("gemini-1.5-flash-001", (None, True, None)),
    ("gemini-2.5-flash-preview-09-2025", (None, True, None)),
    ("gpt-4o", (None, False, None)),
    ("meta-llama/llama-3-8b-instruct:free", (None, False, "free")),
    ("anthropic/claude-3.7-sonnet:beta", (None, False, "beta")),
])
def test_decoration(alias, expected):
    assert decoration(alias) == expected


# --- stages and confidences -------------------------------------------------------------------
@pytest.fixture(scope="module")
def truth_index():
    truth = eval_resolve.read_jsonl(ROOT / "tests" / "data" / "models_truth.jsonl")
    return AliasIndex(eval_resolve.truth_rows(truth))


@pytest.mark.parametrize("q, slug, stage", [
    ("gpt-4o", "gpt-4o", "exact"),
    ("GPT-4o", "gpt-4o", "normalized"),                 # exact stage is case-sensitive
    ("eu.anthropic.claude-3-5-haiku-20241022-v1:0", "claude-3-5-haiku-20241022", "normalized"),
    ("vertex_ai/claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet-20241022", "normalized"),
    ("vertex_ai/claude-3-5-sonnet@20240620", "claude-3-5-sonnet-20240620", "normalized"),
    ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022", "normalized"),   # loose
    ("mistral-large-latest", "mistral-large-2407", "normalized"),   # newest release_date
    ("vertex_ai/claude-3-5-sonnet-v2", "claude-3-5-sonnet-20241022", "normalized"),
    ("titan-embed-text-v3", "amazon.titan-embed-text-v2:0", "substring"),  # not a revision
    ("gpt-5-2025-08-07", "gpt-5", "substring"),         # a pin after the name
    ("o3-mini-high", "o3-mini", "substring"),
    ("databricks-claude-opus-4-7", "claude-opus-4-7", "substring"),
    ("gpt-4o-2024-08-07", "gpt-4o", "substring"),       # unknown pin: not a normalized match
])
def test_match_stage(truth_index, q, slug, stage):
    m = truth_index.match(q)
    assert m is not None and m.row.model_slug == slug and m.stage == stage
    assert m.confidence == {"exact": 1.0, "normalized": 0.8, "substring": 0.5}[stage]


@pytest.mark.parametrize("q", [
    "claude",                 # a single word is too weak for a substring match
    "gpt-5-6-luna",           # 'gpt-5' would cut the version 5.6
    "grok-4-20-reasoning",    # 'grok-4' would cut 4.20
    "claude-sonnet-5-5",      # not claude-sonnet-5
    "o1x",                    # shorter than MIN_SUBSTRING
    "xyz-unknown-model",
    "",
])
def test_no_match(truth_index, q):
    assert truth_index.match(q) is None


def test_keeps_query_format_within_the_model(truth_index):
    m = truth_index.match("vertex_ai/claude-3-7-sonnet")
    assert (m.row.alias, m.row.source, m.stage) == ("claude-3-7-sonnet@20250219", "cloud-b",
                                                    "normalized")


# --- tie-breaks (docs/api-decisions.md#resolve) ----------------------------------------------------------------
@pytest.mark.parametrize("rows, q, slug", [
    # 1. the alias whose source matches the format q looks like
    ([row("acme/foo-1", "gateway", "m-gw", release="2020-01-01"),
      row("acme.foo-1", "cloud-a", "m-bedrock", release="2025-01-01")],
     "openrouter/acme/foo-1", "m-gw"),
    ([row("acme/foo-1", "gateway", "m-gw", release="2025-01-01"),
      row("acme.foo-1", "cloud-a", "m-bedrock", release="2020-01-01")],
     "us.acme.foo-1", "m-bedrock"),
    # 2. a model that is not sunset (beats a newer release)
    ([row("Foo-1", "official", "m-sunset", release="2025-06-01", status="sunset"),
      row("foo-1", "official", "m-live", release="2024-01-01")],
     "FOO-1", "m-live"),
    # 3. newest release_date, None last
    ([row("Foo-1", "official", "m-old", release="2024-01-01"),
      row("foo-1", "official", "m-new", release="2025-01-01"),
      row("FOO-1", "official", "m-none", release=None)],
     "fOo-1", "m-new"),
    ([row("Foo-1", "official", "m-none", release=None),
      row("foo-1", "official", "m-month", release="2025-04")],
     "fOo-1", "m-month"),
    # 4. slug ascending
    ([row("Foo-1", "official", "m-b", release="2025-01-01"),
      row("foo-1", "official", "m-a", release="2025-01-01")],
     "fOo-1", "m-a"),
])
def test_tie_breaks(rows, q, slug):
    for seed in range(5):                 # deterministic whatever the insertion order
        shuffled = rows[:]
        random.Random(seed).shuffle(shuffled)
        assert AliasIndex(shuffled).match(q).row.model_slug == slug


def test_substring_tie_break_closest_length_then_source():
    rows = [row("acme-foo-bar-baz", "official", "m-close"),
            row("acme-foo-bar-baz-qux-quux", "official", "m-far"),
            row("acme/acme-foo-bar-baz-qux-quux-corge", "gateway", "m-gw")]
    idx = AliasIndex(rows)
    m = idx.match("foo-bar")
    assert (m.row.model_slug, m.stage) == ("m-close", "substring")
    # the source guess comes before length: an OpenRouter-looking q prefers the gateway alias
    assert idx.match("openrouter/x/foo-bar").row.model_slug == "m-gw"
    # reverse direction: the longest alias inside q wins
    idx = AliasIndex([row("foo-bar", slug="m-short"), row("foo-bar-baz", slug="m-long")])
    assert idx.match("foo-bar-baz-extra").row.model_slug == "m-long"


def test_exact_beats_normalized_and_normalized_beats_substring():
    idx = AliasIndex([row("Foo-1", slug="m-exact", release="2020-01-01"),
                      row("foo-1", slug="m-norm", release="2025-01-01"),
                      row("foo-1-extra", slug="m-sub", release="2026-01-01")])
    assert idx.match("Foo-1").row.model_slug == "m-exact"
    assert idx.match("FOO-1").row.model_slug == "m-norm"
    assert idx.match("foo-1-extra-long").stage == "substring"


# --- pick_upgrade_alias (docs/api-decisions.md#upgrade_alias) --------------------------------------------------------
UPGRADE = [
    row("claude-haiku-4-5", "official", "up", 0),
    row("claude-haiku-4-5-20251001", "official", "up", 1),
    row("anthropic.claude-haiku-4-5-20251001-v1:0", "cloud-a", "up", 0),
    row("us.anthropic.claude-haiku-4-5-20251001-v1:0", "cloud-a", "up", 1),
    row("eu.anthropic.claude-haiku-4-5-20251001-v1:0", "cloud-a", "up", 2),
    row("anthropic/claude-haiku-4.5", "gateway", "up", 0),
    row("anthropic/claude-haiku-4.5:free", "gateway", "up", 1),
]


@pytest.mark.parametrize("matched, upgrade, expected", [
    # same region prefix as the matched alias
    (row("us.anthropic.claude-3-5-haiku-20241022-v1:0", "cloud-a"), UPGRADE,
     "us.anthropic.claude-haiku-4-5-20251001-v1:0"),
    (row("eu.anthropic.claude-3-5-haiku-20241022-v1:0", "cloud-a"), UPGRADE,
     "eu.anthropic.claude-haiku-4-5-20251001-v1:0"),
    # no alias with that region: the source's primary alias
    (row("apac.anthropic.claude-3-5-haiku-20241022-v1:0", "cloud-a"), UPGRADE,
     "anthropic.claude-haiku-4-5-20251001-v1:0"),
    (row("anthropic.claude-3-5-haiku-20241022-v1:0", "cloud-a"), UPGRADE,
     "anthropic.claude-haiku-4-5-20251001-v1:0"),
    # date-pinned stays pinned, floating stays floating (whatever the positions)
    (row("claude-3-5-haiku-20241022", "official"), UPGRADE, "claude-haiku-4-5-20251001"),
    (row("claude-3-5-haiku-latest", "official"), UPGRADE, "claude-haiku-4-5"),
    (row("claude-3-5-haiku-20241022", "official"),
     [row("claude-haiku-4-5-20251001", "official", "up", 0),
      row("claude-haiku-4-5", "official", "up", 1)], "claude-haiku-4-5-20251001"),
    (row("claude-3-5-haiku-latest", "official"),
     [row("claude-haiku-4-5-20251001", "official", "up", 0),
      row("claude-haiku-4-5", "official", "up", 1)], "claude-haiku-4-5"),
    # no alias with that decoration: primary
    (row("claude-3-5-haiku-20241022", "official"),
     [row("claude-haiku-4-5", "official", "up", 0)], "claude-haiku-4-5"),
    # gateway variant kept when the upgrade has it
    (row("anthropic/claude-3.5-haiku:free", "gateway"), UPGRADE, "anthropic/claude-haiku-4.5:free"),
    (row("anthropic/claude-3.5-haiku", "gateway"), UPGRADE, "anthropic/claude-haiku-4.5"),
    # the upgrade has no alias of the matched source: None, never another format
    (row("claude-3-5-haiku@20241022", "cloud-b"), UPGRADE, None),
    (row("claude-3-5-haiku-20241022", "official"), [], None),
    (row("anthropic/claude-3.5-haiku", "gateway"),
     [row("claude-haiku-4-5", "official", "up", 0)], None),
])
def test_pick_upgrade_alias(matched, upgrade, expected):
    got = pick_upgrade_alias(matched, upgrade)
    assert (got.alias if got else None) == expected
    if got:
        assert got.source == matched.source


# (the caller's id, the alias it matched, the upgrade's alias chosen, kept, note): what resolve says of the format
# kept. A provider API id written with its API's path head ('models/', LiteLLM's 'gemini/') is not a Hugging
# Face repo id, and its upgrade's API id keeps its format.
FORMATS = [
    ("models/gemini-1.5-pro-002", "gemini-1.5-pro-002", "gemini-2.5-pro-002", True, None),
    ("gemini/gemini-1.5-pro-002", "gemini-1.5-pro-002", "gemini-2.5-pro-002", True, None),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "qwen3-8b", False,
     "Up has no Hugging Face repo id; this is its provider API id."),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-8B", True, None),
]


@pytest.mark.parametrize("query, matched, chosen, kept, note", FORMATS)
def test_what_resolve_says_of_the_format_kept(query, matched, chosen, kept, note):
    said = format_kept(row(matched, "official"), row(chosen, "official", "up", 0),
                       {"display_name": "Up"}, query=query)
    assert (said.kept, said.note) == (kept, note)


# --- development set --------------------------------------------------------------------------
def test_dev_set_accuracy():
    res = eval_resolve.evaluate(ROOT / "tests" / "data")
    assert res["n"] == 240
    assert res["model_accuracy"] >= 0.97, res["failures"]
    assert res["confidence_accuracy"] >= 0.95, res["failures"]


def test_eval_reads_only_project_copies():
    assert eval_resolve.DATA == ROOT / "tests" / "data"
    assert (eval_resolve.DATA / "resolve_dev.jsonl").exists()
    assert (eval_resolve.DATA / "models_truth.jsonl").exists()
