"""The questions a team asks on the day a model dies, put to the registry `make run` builds (2026-11-26),
in every id format: is my id dying, what do I move to, written my way, and does the answer have
anything further to say? (docs/lifecycle.md; the cases users found, each a row.)"""
import textwrap

import pytest

from helpers import build_db, shipped_app, shipped_ingested_app
from registry import create_app
from registry.web.connection import close_thread_connections

TODAY = "2026-11-26"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = shipped_ingested_app(tmp_path_factory.mktemp("shipped") / "registry.db", TODAY)
    yield app.test_client()
    close_thread_connections()


def resolve(client, q):
    response = client.get("/api/v1/resolve", query_string={"q": q})
    return response.get_json() if response.status_code == 200 else None


def final(client, answer) -> None:
    """The upgrade has nothing further to say, in the caller's own platform or the model's own."""
    upgrade = answer["upgrade"]["slug"]
    again = resolve(client, answer["upgrade_alias"]["alias"]) if answer["upgrade_alias"] else None
    if again is not None:
        assert again["matched_model"]["slug"] == upgrade and again["upgrade"] is None, again
    assert client.get(f"/api/v1/models/{upgrade}/upgrade").get_json()["upgrade"] is None


@pytest.mark.parametrize("q, source, prefix", [
    ("claude-sonnet-4-5", "official", ""),
    ("claude-sonnet-4-5-20250929", "official", ""),
    ("anthropic.claude-sonnet-4-5-20250929-v1:0", "cloud-a", "anthropic."),
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "cloud-a", "us.anthropic."),
    ("claude-sonnet-4-5@20250929", "cloud-b", ""),
])
def test_a_dying_sonnet_moves_to_the_newest_sonnet_in_its_own_format(client, q, source, prefix):
    answer = resolve(client, q)
    assert answer["matched_model"]["slug"] == "claude-sonnet-4-5-20250929"
    assert answer["matched_model"]["status"] == "deprecated" and answer["platform_lifecycle"]["sunset_date"]
    family = client.get("/api/v1/families/claude-sonnet").get_json()["models"]
    latest = [m["slug"] for m in family if m["status"] == "latest"]
    assert answer["upgrade"]["slug"] == latest[0]            # not the snapshot-to-snapshot null of old
    assert answer["upgrade_alias"]["source"] == source and answer["upgrade_alias"]["alias"].startswith(prefix)
    assert answer["upgrade_alias_kept"] is True
    final(client, answer)


@pytest.mark.parametrize("q", ["gpt-4o-2024-08-06", "gpt-4o-2024-11-20", "gpt-4o", "claude-3-5-sonnet-20241022",
                               "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "amazon.titan-text-express-v1"])
def test_every_retiring_id_has_a_final_upgrade(client, q):
    answer = resolve(client, q)
    assert answer["matched_model"]["status"] in ("deprecated", "sunset"), answer["matched_model"]
    assert answer["upgrade"] is not None and answer["upgrade"]["status"] in ("active", "latest")
    final(client, answer)


def test_a_floating_id_points_at_its_snapshot_and_goes_with_it(client):
    model = client.get("/api/v1/models/gpt-4o").get_json()
    assert model["points_to"]["slug"] == "gpt-4o-2024-08-06" and model["points_to"]["source"]
    assert model["status"] != "latest" and model["status"] == model["points_to"]["status"]


def test_a_cross_region_prefix_is_kept(client):
    answer = resolve(client, "us.anthropic.claude-3-7-sonnet-20250219-v1:0")
    assert answer["matched_alias"]["alias"] == "us.anthropic.claude-3-7-sonnet-20250219-v1:0"
    assert answer["upgrade_alias"]["alias"].startswith("us.anthropic.")


@pytest.mark.parametrize("q, status", [
    ("meta-llama/Llama-3.2-3B-Instruct", ("active", "latest")),        # published weights: never shut down
    ("Qwen/Qwen3-235B-A22B-Instruct-2507", ("active", "latest")),
    ("meta.llama3-2-3b-instruct-v1:0", ("sunset",)),                   # Bedrock retired its copy
    ("meta.llama2-13b-chat-v1", ("sunset",)),
    ("amazon.titan-text-express-v1", ("sunset",)),
])
def test_each_id_answers_with_its_own_platform(client, q, status):
    answer = resolve(client, q)
    assert answer["matched_model"]["status"] in status, answer["platform_lifecycle"]


@pytest.mark.parametrize("slug", ["claude-opus-5", "claude-opus-5-5", "llama-3.3-70b-instruct", "gpt-oss-120b"])
def test_working_models_are_dated(client, slug):
    assert client.get(f"/api/v1/models/{slug}").get_json()["release_date"]


def test_the_newest_release_is_the_latest(client):
    opus = client.get("/api/v1/families/claude-opus").get_json()["models"]
    working = [m for m in opus if m["status"] in ("active", "latest")]
    assert max(working, key=lambda m: m["release_date"])["status"] == "latest"
    assert resolve(client, "Llama-2-70b-chat-hf")["upgrade"]["slug"] == "llama-3.3-70b-instruct"
    small, large = (client.get(f"/api/v1/models/{s}").get_json() for s in ("gpt-oss-20b", "gpt-oss-120b"))
    assert small["family"] != large["family"] and {small["status"], large["status"]} == {"latest"}


@pytest.mark.parametrize("q, model, retired", [
    ("gemini-pro", "gemini-1.0-pro", True), ("gemini-pro-vision", "gemini-1.0-pro-vision", True),
    ("gemini-exp-1206", "gemini-exp-1206", True),
    ("mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-instruct-v0.3", False),
])
def test_names_land_on_the_model_they_name(client, q, model, retired):
    answer = resolve(client, q)
    assert answer["matched_model"]["slug"] == model
    assert (answer["matched_model"]["status"] == "sunset") is retired


@pytest.mark.parametrize("word", ["claude", "grok", "embedding", "sonnet", "gemini", "llama"])
def test_a_bare_product_word_is_no_model(client, word):
    answer = resolve(client, word)
    assert answer is None or answer["confidence"] <= 0.5


ACME = """\
    provider: acme
    families:
      - slug: acme-chat
        name: Acme Chat
        match: ["acme-chat-*"]
        models:
          - slug: acme-chat-2
            display_name: Acme Chat 2
            version: "2"
            model_type: chat
            release_date: 2024-01-01
            # https://acme.example/deprecations: retired 2025-06-01, replacement acme-chat-3
            deprecation_date: 2025-01-01
            sunset_date: 2025-06-01
            successor: acme-chat-3
            aliases: {official: [acme-chat-2], cloud-a: [us.acme.chat-2-v1:0]}
          - slug: acme-chat-3
            display_name: Acme Chat 3
            version: "3"
            model_type: chat
            release_date: 2025-01-01
            aliases: {official: [acme-chat-3], cloud-a: [us.acme.chat-3-v1:0]}
          - slug: acme-chat-4
            display_name: Acme Chat 4
            version: "4"
            model_type: chat
            release_date: 2026-01-01
            aliases: {official: [acme-chat-4], cloud-a: [acme.chat-4-v1:0, us.acme.chat-4-v1:0]}
"""


def test_decisions_10_conformance(tmp_path, curation_dir):
    """acme-chat-2 (successor acme-chat-3, family latest acme-chat-4) upgrades to acme-chat-4, in
    /models/{slug}/upgrade and /resolve alike, in the caller's own format."""
    (curation_dir / "providers.yaml").write_text((curation_dir / "providers.yaml").read_text()
                                                 + "- slug: acme\n  name: Acme\n  website_url: https://acme.example\n")
    (curation_dir / "acme.yaml").write_text(textwrap.dedent(ACME))
    build_db(tmp_path / "acme.db", curation_dir)
    client = create_app({"TESTING": True, "DATABASE": str(tmp_path / "acme.db")}).test_client()
    assert client.get("/api/v1/models/acme-chat-2/upgrade").get_json()["upgrade"]["slug"] == "acme-chat-4"
    answer = resolve(client, "us.acme.chat-2-v1:0")
    assert (answer["upgrade"]["slug"], answer["upgrade_alias"]["alias"]) == ("acme-chat-4", "us.acme.chat-4-v1:0")
    assert client.get("/api/v1/models/acme-chat-3/upgrade").get_json()["upgrade"]["slug"] == "acme-chat-4"
    assert client.get("/api/v1/models/acme-chat-4/upgrade").get_json()["upgrade"] is None
    close_thread_connections()


# A source writing another provider's models is the same hole as a hostile value (issue 28): each real
# upstream page plus one record claiming what is not its own (docs/lifecycle.md#sources-stay-in-their-lane).
CLAIMS = {
    "vendor-a-api": {"object": "model", "id": "claude-sonnet-4-5-20250929", "created": 1759104000,
                     "owned_by": "system", "shutdown_date": "2026-12-01"},
    "vendor-f-api": {"id": "grok-claim-1", "created": 1791676800, "object": "model", "owned_by": "xai",
                     "aliases": ["claude-sonnet-4-5", "gpt-4o", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"]},
    "deprecation-feed": {"provider": "OpenAI", "model_id": "claude-sonnet-4-5-20250929", "announcement_date":
                         "2026-11-01", "shutdown_date": "2026-12-01", "replacement_models": ["gpt-5"]},
    "model-hub": {"id": "meta-llama/claude-sonnet-4-5-20250929", "createdAt": "2026-01-01T00:00:00.000Z",
                  "pipeline_tag": "text-generation", "tags": ["conversational"]},
}
ASKED = ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
         "claude-sonnet-4-5@20250929", "gpt-4o", "gpt-4o-2024-08-06", "meta-llama/Llama-3.2-3B-Instruct"]


@pytest.fixture(scope="module")
def claimed(tmp_path_factory):
    """The shipped registry after every source ran again with its claim on another lane added."""
    import json as jsonlib
    from pathlib import Path

    from registry.ingest.records import Page
    from registry.ingest.runner import run_source
    from registry.ingest.snapshots import load_pages, save_pages
    tmp = tmp_path_factory.mktemp("claimed")
    app = shipped_app(tmp / "registry.db", TODAY)
    seeds = Path(__file__).resolve().parent.parent / "seeds"
    assert app.test_cli_runner().invoke(args=["ingest", "--offline"]).exit_code == 0
    details = {}
    for source, claim in CLAIMS.items():
        pages = load_pages(seeds, source)
        body = jsonlib.loads(jsonlib.dumps(pages[0].body))
        (body if isinstance(body, list) else next(v for v in body.values() if isinstance(v, list))).append(claim)
        save_pages(tmp / "seeds", source, [Page(body, pages[0].headers)] + pages[1:])
        result = run_source(str(tmp / "registry.db"), source, offline=True, seeds_dir=str(tmp / "seeds"))
        assert result.status == "completed", result.error
        details[source] = result.details
    yield app.test_client(), details
    close_thread_connections()


def test_a_claim_on_another_lane_is_refused_by_every_source(claimed):
    _, details = claimed
    assert all(details[source].get("refused") for source in CLAIMS), details


@pytest.mark.parametrize("q", ASKED)
def test_a_claim_on_another_lane_changes_no_answer(client, claimed, q):
    """Every identifier answers as before the claims: the same model, status, days and upgrade in its format."""
    keys = ("matched_model", "matched_alias", "platform_lifecycle", "upgrade", "upgrade_alias")
    before, after = resolve(client, q), resolve(claimed[0], q)
    assert {k: after[k] for k in keys} == {k: before[k] for k in keys}
