"""Sources stay in their lane (docs/lifecycle.md#sources-stay-in-their-lane): each upstream, in its own
response shape, claiming another provider's model, alias or replacement, is refused and listed in the
run's details; the model it claimed keeps its own facts."""
import json
from pathlib import Path

import pytest

from registry.ingest.runner import run_source
from registry.ingest.snapshots import save_pages
from registry.ingest.records import Page

ROOT = Path(__file__).resolve().parent.parent


def first_item(source: str) -> dict:
    """The first listed item of a source's seed page: a real record of its shape to plant a claim in."""
    body = json.loads((ROOT / "seeds" / source / "page-001.json").read_text())
    items = body if isinstance(body, list) else next(v for v in body.values() if isinstance(v, list))
    return dict(items[0])


def page(source: str, item: dict):
    """A one-page listing of that source holding only item."""
    body = json.loads((ROOT / "seeds" / source / "page-001.json").read_text())
    if isinstance(body, list):
        return [item]
    key = next(k for k, v in body.items() if isinstance(v, list))
    return {**{k: v for k, v in body.items() if not isinstance(v, list)}, key: [item], **(
        {"has_more": False} if "has_more" in body else {})}


CLAIMS = [
    # OpenAI's listing naming Anthropic's model, with a shutdown day
    ("vendor-a-api", {**first_item("vendor-a-api"), "id": "claude-sonnet-4-5-20250929", "shutdown_date": "2026-01-01"},
     "openai/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of openai"),
    # Anthropic's listing naming Meta's open model
    ("vendor-b-api", {**first_item("vendor-b-api"), "id": "Llama-3.1-8B-Instruct", "retires_at": "2026-01-01T00:00:00Z",
                      "lifecycle": "deprecated"},
     "anthropic/Llama-3.1-8B-Instruct -> llama-3.1-8b-instruct: a model of meta, not of anthropic"),
    ("vendor-c-api", {**first_item("vendor-c-api"), "name": "models/claude-sonnet-4-5-20250929"},
     "google/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of google"),
    ("vendor-d-api", {**first_item("vendor-d-api"), "id": "claude-sonnet-4-5-20250929"},
     "mistral/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of mistral"),
    ("vendor-e-api", {**first_item("vendor-e-api"), "name": "claude-sonnet-4-5-20250929", "is_deprecated": True},
     "cohere/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of cohere"),
    # xAI's alias list taking Anthropic's alias for its own new model
    ("vendor-f-api", {**first_item("vendor-f-api"), "id": "grok-x", "aliases": ["claude-3-5-sonnet-latest"]},
     "xai/grok-x: alias claude-3-5-sonnet-latest is claude-3-5-sonnet-20241022's (anthropic)"),
    # a feed row naming one provider and another's model
    ("deprecation-feed", {"provider": "OpenAI", "model_id": "claude-sonnet-4-5-20250929",
                          "announcement_date": "2026-01-01",
                          "shutdown_date": "2026-02-01", "replacement_models": []},
     "openai/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of openai"),
    # a feed row of Anthropic naming another provider's model as the replacement
    ("deprecation-feed", {"provider": "Anthropic", "model_id": "claude-3-5-sonnet-20241022",
                          "shutdown_date": "2026-02-01",
                          "replacement_models": ["Llama-3.1-8B-Instruct"]},
     "anthropic/claude-3-5-sonnet-20241022: replacement llama-3.1-8b-instruct is meta's"),
    # a hub repo of one organisation named like another provider's model
    ("model-hub", {**first_item("model-hub"), "id": "meta-llama/claude-sonnet-4-5-20250929"},
     "meta/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: a model of anthropic, not of meta"),
    # the hub writes only published weights, even of the provider it names
    ("model-hub", {**first_item("model-hub"), "id": "anthropic/claude-sonnet-4-5-20250929"},
     "anthropic/claude-sonnet-4-5-20250929 -> claude-sonnet-4-5-20250929: not an open-weights model"),
]


@pytest.mark.parametrize("source, item, refused", CLAIMS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CLAIMS)])
def test_a_claim_on_another_lane_is_refused(app, client, tmp_path, source, item, refused):
    before = client.get("/api/v1/models/claude-sonnet-4-5-20250929").get_json()
    save_pages(str(tmp_path), source, [Page(page(source, item))])
    result = run_source(app.config["DATABASE"], source, offline=True, seeds_dir=str(tmp_path))
    assert result.status == "completed", result.error
    assert any(line.startswith(refused) for line in result.details["refused"]), result.details
    assert sum(n for why, n in result.details["outcomes"].items() if why.startswith("refused")) >= 1
    after = client.get("/api/v1/models/claude-sonnet-4-5-20250929").get_json()
    assert (after["status"], after["sunset_date"], after["metadata"]) == (before["status"], before["sunset_date"],
                                                                         before["metadata"])
    resolved = client.get("/api/v1/resolve", query_string={"q": "claude-3-5-sonnet-latest"}).get_json()
    assert resolved["matched_model"]["slug"] == "claude-3-5-sonnet-20241022"


def test_an_undated_repo_no_curated_model_claims_is_no_model(app, client, tmp_path):
    """A hub repo older than the hub's creation dates (a research checkpoint such as google/reformer-enwik8)
    has no release day: it is counted, not listed as a working model the registry cannot date."""
    item = {**first_item("model-hub"), "id": "google/reformer-enwik8", "createdAt": "2022-03-02T23:29:04.000Z"}
    save_pages(str(tmp_path), "model-hub", [Page(page("model-hub", item))])
    result = run_source(app.config["DATABASE"], "model-hub", offline=True, seeds_dir=str(tmp_path))
    assert result.details["outcomes"] == {"undated repo no curated model claims": 1}
    assert client.get("/api/v1/models/reformer-enwik8").status_code == 404


# A repo only the hub lists, named like a closed line: (a provider listing's record run first, or None; the hub
# repo; the slug of its model; the family it belongs in). Its family is an open line, never the closed one its
# name matches by glob ("claude-*sonnet*") or whose slug its id derives (claude-sonnet, claude-instant: curated;
# claude-nova: made for a provider listing's model): else the re-run refused it as another lane's model and
# removed it (ingestion was not idempotent).
HUB_ONLY = [
    (None, "anthropic/claude-mini-sonnet-weights-1b", "claude-mini-sonnet-weights-1b",
     "claude-mini-sonnet-weights-1b"),
    (None, "anthropic/claude-sonnet-2.1", "claude-sonnet-2.1", "anthropic-claude-sonnet"),
    (None, "anthropic/claude-instant-1.3-0422", "claude-instant-1.3-0422", "anthropic-claude-instant"),
    (("vendor-b-api", "claude-nova-2"), "anthropic/claude-nova-3", "claude-nova-3", "anthropic-claude-nova"),
    # an open line whose slug the id derives is its line
    (None, "meta-llama/llama-3-1-instruct-2", "llama-3-1-instruct-2", "llama-3-1-instruct"),
]


@pytest.mark.parametrize("listed, repo, slug, family", HUB_ONLY, ids=[c[1] for c in HUB_ONLY])
def test_published_weights_join_an_open_line_and_a_rerun_writes_nothing(app, client, tmp_path, listed, repo, slug,
                                                                        family):
    db = app.config["DATABASE"]
    if listed is not None:
        source, model_id = listed
        save_pages(str(tmp_path / "listing"), source, [Page(page(source, {**first_item(source), "id": model_id}))])
        assert run_source(db, source, offline=True, seeds_dir=str(tmp_path / "listing")).status == "completed"
    save_pages(str(tmp_path), "model-hub", [Page(page("model-hub", {**first_item("model-hub"), "id": repo}))])
    first = run_source(db, "model-hub", offline=True, seeds_dir=str(tmp_path))
    assert first.details["outcomes"] == {"new model": 1}, first.details
    model = client.get(f"/api/v1/models/{slug}").get_json()
    placed = client.get(f"/api/v1/families/{model['family']['slug']}").get_json()
    assert (placed["slug"], placed["is_open_source"]) == (family, True)
    again = run_source(db, "model-hub", offline=True, seeds_dir=str(tmp_path))
    assert (again.added, again.updated, again.details["outcomes"]) == (0, 0, {"landed on a known model": 1})
    assert client.get(f"/api/v1/models/{slug}").get_json() == model
