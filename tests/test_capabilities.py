"""The normalized capability set: read from what each source states, picked by priority with provenance,
unknown never false; shown on the single-model answer and filtered on by /models and /search."""
import pytest

import fakes
from helpers import assert_error
from registry.ingest.records import Record
from registry.ingest.runner import run_source
from registry.merge.capabilities import capabilities, stated_by

ANTHROPIC = {"image_input": {"supported": True}, "pdf_input": {"supported": True},
             "thinking": {"supported": False, "types": {}}, "batch": {"supported": True}}
MISTRAL_CHAT = {"completion_chat": True, "function_calling": True, "vision": False, "audio": True,
                "reasoning": False}
MISTRAL_TRANSCRIBE = {"completion_chat": False, "audio_transcription": True, "function_calling": False}


@pytest.mark.parametrize("source, fields, expected", [
    # Anthropic's Models API: inputs beyond text, and thinking; no statement about tools
    ("vendor-b-api", {"capabilities": ANTHROPIC},
     {"vision": True, "reasoning": False, "input_modalities": ["text", "image", "pdf"]}),
    # Mistral's plain booleans: a chat model reads text, and audio here; it answers text
    ("vendor-d-api", {"capabilities": MISTRAL_CHAT},
     {"tool_calling": True, "vision": False, "reasoning": False, "input_modalities": ["text", "audio"],
      "output_modalities": ["text"]}),
    ("vendor-d-api", {"capabilities": MISTRAL_TRANSCRIBE},
     {"tool_calling": False, "input_modalities": ["audio"], "output_modalities": ["text"], "vision": False}),
    # xAI's modality lists; vision follows from them
    ("vendor-f-api", {"input_modalities": ["text", "image"], "output_modalities": ["text"]},
     {"input_modalities": ["text", "image"], "output_modalities": ["text"], "vision": True}),
    ("vendor-f-api", {"input_modalities": ["TEXT", "hologram"]}, {"input_modalities": ["text"], "vision": False}),
    # Gemini's thinking flag
    ("vendor-c-api", {"thinking": True, "supported_generation_methods": ["generateContent"]}, {"reasoning": True}),
    # Cohere's features of a chat model are the whole list: no "tools" there means no tools
    ("vendor-e-api", {"features": ["json_mode", "vision"], "endpoints": ["chat"]},
     {"tool_calling": False, "reasoning": False, "vision": True, "input_modalities": ["text", "image"],
      "output_modalities": ["text"], "structured_output": False}),     # JSON mode alone is no schema
    ("vendor-e-api", {"features": ["tools"], "endpoints": ["embed"]}, {}),     # not a chat model: says nothing
    ("vendor-e-api", {"supports_vision": False}, {"vision": False}),
    # the hub's pipeline tag
    ("model-hub", {"pipeline_tag": "image-text-to-text"},
     {"input_modalities": ["text", "image"], "output_modalities": ["text"], "vision": True}),
    ("model-hub", {"pipeline_tag": "automatic-speech-recognition"},
     {"input_modalities": ["audio"], "output_modalities": ["text"], "vision": False}),
    ("model-hub", {"pipeline_tag": "feature-extraction"}, {"input_modalities": ["text"], "vision": False}),
    ("model-hub", {"pipeline_tag": "something-new"}, {}),
    # curation, citing a reference; a curated null says "unknown"
    ("curation", {"tool_calling": True, "reasoning": None}, {"tool_calling": True, "reasoning": None}),
    # hostile or unknown shapes state nothing
    ("vendor-b-api", {"capabilities": "everything"}, {}),
    ("vendor-b-api", {"capabilities": {"image_input": "yes", "thinking": {"supported": "maybe"}}},
     {"input_modalities": ["text"], "vision": False}),
    ("vendor-f-api", {"input_modalities": "text"}, {}),
    ("vendor-f-api", {"input_modalities": [["text"], 3, "x" * 100]}, {}),
    ("vendor-a-api", {"owned_by": "openai"}, {}),
    # Anthropic's structured outputs and the efforts a request may ask for
    ("vendor-b-api", {"capabilities": {"structured_outputs": {"supported": True}, "effort": {
        "supported": True, "low": {"supported": True}, "high": {"supported": True}, "max": {"supported": False}}}},
     {"structured_output": True, "reasoning_efforts": ["low", "high"]}),
    ("vendor-b-api", {"capabilities": {"effort": {"supported": False, "low": {"supported": True}}}}, {}),
    # Cohere's json_schema feature is structured output
    ("vendor-e-api", {"features": ["json_schema", "tools"], "endpoints": ["chat"]},
     {"tool_calling": True, "reasoning": False, "vision": False, "structured_output": True,
      "input_modalities": ["text"], "output_modalities": ["text"]}),
    # the public catalog names each capability as the registry does (registry/ingest/sources/modelsdev.py)
    ("public-catalog", {"structured_output": True, "knowledge_cutoff": "2025-03",
                        "reasoning_efforts": ["max", "low", "turbo"], "input_modalities": ["text", "image"]},
     {"structured_output": True, "knowledge_cutoff": "2025-03", "reasoning_efforts": ["low", "max"],
      "input_modalities": ["text", "image"], "vision": True}),
    ("public-catalog", {"knowledge_cutoff": 2025, "reasoning_efforts": "max"}, {}),
])
def test_each_source_shape_is_read_into_the_set(source, fields, expected):
    stated = stated_by({field: {source: value} for field, value in fields.items()}, source)
    assert {k: v for k, v in stated.items() if v is not None or source == "curation"} == expected


def test_priority_picks_each_capability_with_its_source_and_unknown_stays_out():
    fields = {
        "capabilities": {"vendor-b-api": ANTHROPIC},
        "pipeline_tag": {"model-hub": "text-generation"},
        "tool_calling": {"curation": True},
        "vision": {"curation": None},          # curation: no value, whatever the listing says
    }
    assert capabilities(fields) == {
        "input_modalities": (["text", "image", "pdf"], "vendor-b-api"),   # the listing before the hub
        "output_modalities": (["text"], "model-hub"),                      # only the hub says
        "tool_calling": (True, "curation"),
        "reasoning": (False, "vendor-b-api"),
    }
    assert capabilities({"owned_by": {"vendor-a-api": "openai"}}) == {}
    # the public catalog has the last word: a listing's statement wins, the catalog fills in what none states
    assert capabilities({"capabilities": {"vendor-b-api": {"structured_outputs": {"supported": False}}},
                         "structured_output": {"public-catalog": True},
                         "knowledge_cutoff": {"public-catalog": "2025-03-31"}}) == {
        "structured_output": (False, "vendor-b-api"), "knowledge_cutoff": ("2025-03-31", "public-catalog")}


SONNET = "claude-sonnet-4-5-20250929"
LLAMA = "llama-3.1-8b-instruct"


@pytest.fixture
def stated(app, monkeypatch):
    """The fixture registry after a listing and the hub stated some capabilities."""
    fakes.install(monkeypatch, {
        "vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", [
            Record(SONNET, "anthropic", {"capabilities": ANTHROPIC}, [(SONNET, "official")])]),
        "model-hub": fakes.fake_module("model-hub", None, [
            Record("Llama-3.1-8B-Instruct", "meta", {"pipeline_tag": "text-generation"},
                   [("Llama-3.1-8B-Instruct", "official")])]),
    })
    for source in ("vendor-b-api", "model-hub"):
        assert run_source(app.config["DATABASE"], source).status == "completed"
    return app


def test_the_single_model_answer_shows_the_set_with_provenance(client, stated):
    body = client.get(f"/api/v1/models/{SONNET}").get_json()
    assert body["capabilities"] == {"input_modalities": ["text", "image", "pdf"], "output_modalities": None,
                                    "tool_calling": None, "reasoning": False, "vision": True,
                                    "structured_output": None, "reasoning_efforts": None, "knowledge_cutoff": None}
    provenance = body["metadata"]["provenance"]
    assert {k: provenance[k] for k in ("input_modalities", "reasoning", "vision")} == \
        {"input_modalities": "vendor-b-api", "reasoning": "vendor-b-api", "vision": "vendor-b-api"}
    assert "tool_calling" not in provenance
    nothing = client.get("/api/v1/models/claude-3-haiku-20240307").get_json()
    assert set(nothing["capabilities"].values()) == {None}


@pytest.mark.parametrize("query, expected", [
    ("vision=true", {SONNET}),
    ("vision=false", {LLAMA}),                         # the hub states text in, so no images
    ("reasoning=false", {SONNET}),
    ("reasoning=true", set()),
    ("tool_calling=true", set()),                      # nobody states it: neither true nor false
    ("tool_calling=false", set()),
    ("input_modalities=image", {SONNET}),
    ("input_modalities=text", {SONNET, LLAMA}),
    ("input_modalities=text,pdf", {SONNET}),           # every one listed
    ("output_modalities=text", {LLAMA}),
    ("model_type=chat&vision=true", {SONNET}),
    ("model_type=embedding&vision=true", set()),
])
def test_models_and_search_filter_on_stated_capabilities(client, stated, query, expected):
    models = client.get(f"/api/v1/models?per_page=200&{query}").get_json()["models"]
    assert {m["slug"] for m in models} == expected
    found = {r["slug"] for q in ("claude", "llama") for r in
             client.get(f"/api/v1/search?q={q}&limit=100&{query}").get_json()["results"]}
    assert found == expected


def test_search_filters_apply_to_names_too(client, stated):
    assert [r["slug"] for r in client.get(f"/api/v1/search?q={SONNET}").get_json()["results"]][:1] == [SONNET]
    assert client.get(f"/api/v1/search?q={SONNET}&vision=false").get_json()["results"] == []


def test_the_filter_rows_follow_a_changed_statement(app, client, stated, monkeypatch):
    fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", [
        Record(SONNET, "anthropic", {"capabilities": {**ANTHROPIC, "image_input": {"supported": False}}},
               [(SONNET, "official")])])})
    assert run_source(app.config["DATABASE"], "vendor-b-api").status == "completed"
    assert client.get("/api/v1/models?vision=true").get_json()["models"] == []
    assert [m["slug"] for m in client.get("/api/v1/models?vision=false&per_page=200").get_json()["models"]] \
        .count(SONNET) == 1


@pytest.mark.parametrize("query, name", [
    ("model_type=embeddings", "model_type"),
    ("model_type=chat,,code", "model_type"),
    ("vision=yes", "vision"),
    ("input_modalities=smell", "input_modalities"),
    ("tool_calling=true&tool_calling=false", "tool_calling"),
    ("structured_output=1", "structured_output"),
    ("reasoning_efforts=turbo", "reasoning_efforts"),
    ("min_knowledge_cutoff=2025", "min_knowledge_cutoff"),
    ("min_knowledge_cutoff=2025-13", "min_knowledge_cutoff"),
    ("knowledge_cutoff=2025-03", "knowledge_cutoff"),    # filtered by the earliest one accepted, not by equality
])
@pytest.mark.parametrize("path", ["/api/v1/models?", "/api/v1/search?q=claude&"])
def test_bad_filters_are_a_400_naming_the_parameter(client, path, query, name):
    assert_error(client.get(path + query), 400, "bad_request", f"'{name}'")
