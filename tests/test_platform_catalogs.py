"""The platforms' own catalogs as sources (registry/ingest/sources/openrouter.py, bedrock.py, vertex.py): each
fetched as its upstream serves it (OpenRouter's public JSON, Bedrock through boto3, Vertex AI with Google's
credentials), parsed to its platform's ids and schedule, and written only into its platform's lane."""
import datetime
import json

import pytest
import responses
from botocore.stub import Stubber

from helpers import DATA
from registry.ingest.http import make_session
from registry.ingest.records import Page, Record, SourceError
from registry.ingest.sources import bedrock, openrouter, vertex

UPSTREAM = DATA / "upstream"


def load(name):
    return json.loads((UPSTREAM / name).read_text(encoding="utf-8"))


# -- OpenRouter -------------------------------------------------------------------------------------------------

@responses.activate
def test_openrouter_fetches_its_public_catalog_without_a_key():
    responses.get("https://mirror.test/api/v1/models", json=load("openrouter-models.json"))
    pages = openrouter.fetch(make_session(retries=0), "https://mirror.test", None)
    assert "Authorization" not in responses.calls[0].request.headers
    assert [m["id"] for m in pages[0].body["data"]][:2] == ["~anthropic/claude-sonnet-latest", "minimax/minimax-m2.5"]


@pytest.mark.parametrize("model_id, provider, fields, links, skip", [
    ("anthropic/claude-sonnet-4.5", "anthropic", {"platforms": {"gateway": {}}},
     ["anthropic/claude-4.5-sonnet-20250929"], None),
    # the gateway's floating id of a line
    ("~anthropic/claude-sonnet-latest", "anthropic", {"platforms": {"gateway": {}}},
     ["~anthropic/claude-sonnet-latest"], None),
    # the day OpenRouter stops serving an id is the gateway's own shutdown day
    ("google/gemini-2.0-flash-001", "google", {"platforms": {"gateway": {"sunset_date": "2026-06-01"}}},
     ["google/gemini-2.0-flash-001"], None),
    # the weights' repo helps find the model
    ("minimax/minimax-m2.5", "minimax", {"platforms": {"gateway": {}}},
     ["minimax/minimax-m2.5-20260211", "MiniMaxAI/MiniMax-M2.5"], None),
    # a provider curated for its gateway ids: the repo it names helps find the model
    ("sao10k/l3-euryale-70b", "sao10k", {"platforms": {"gateway": {}}},
     ["sao10k/l3-euryale-70b", "Sao10K/L3-70B-Euryale-v2.1"], None),
    # the gateway's own router is no provider's model
    ("openrouter/auto", None, {}, [], "a router or cloaked model of the gateway, no provider's"),
    # an organisation outside the registry's providers is counted, not read
    ("eleutherai/llemma_7b", None, {}, [], "organisation outside the registry's providers"),
])
def test_openrouter_parse(model_id, provider, fields, links, skip):
    records = {r.model_id: r for r in openrouter.parse([Page(load("openrouter-models.json"))])}
    record = records[model_id]
    lane = {k: v for k, v in record.fields.items() if k != "prices"}   # prices: test_openrouter_prices
    assert (record.provider, lane, record.links, record.skip) == (provider, fields, links, skip)
    assert record.aliases == ([] if skip else [(model_id, "gateway")])


USD = {"currency": "USD"}


@pytest.mark.parametrize("model_id, price", [
    # USD per token, as strings, read exactly per 1M tokens; cache reads and writes beside
    ("anthropic/claude-sonnet-4.5", {"input_per_mtok": 3.0, "output_per_mtok": 15.0,
                                     "cached_input_read_per_mtok": 0.3, "cached_input_write_per_mtok": 3.75, **USD}),
    ("google/gemini-2.0-flash-001", {"input_per_mtok": 0.1, "output_per_mtok": 0.4, "cached_input_read_per_mtok":
                                     0.025, "cached_input_write_per_mtok": 0.08333333333333334, **USD}),
    ("minimax/minimax-m2.5", {"input_per_mtok": 0.15, "output_per_mtok": 1.15, **USD}),
])
def test_openrouter_prices(model_id, price):
    records = {r.model_id: r for r in openrouter.parse([Page(load("openrouter-models.json"))])}
    assert records[model_id].fields["prices"] == {"gateway": price}


@pytest.mark.parametrize("pricing, price", [
    ({"prompt": "-1", "completion": "-1"}, None),             # a router's "varies": no price
    ({"prompt": "0", "completion": "0"}, {"input_per_mtok": 0.0, "output_per_mtok": 0.0, **USD}),   # free
    ({"prompt": "0.000001", "request": "0.005"}, {"input_per_mtok": 1.0, "per_request": 0.005, **USD}),
    ({}, None),
])
def test_openrouter_price_shapes(pricing, price):
    page = Page({"data": [{"id": "openai/gpt-4o", "pricing": pricing}]})
    assert openrouter.parse([page])[0].fields.get("prices") == ({"gateway": price} if price else None)


def test_a_variant_is_priced_as_that_variant_not_as_the_model():
    # `:free` costs nothing, for that variant only: the model's price on the gateway is its plain id's
    page = Page({"data": [{"id": "openai/gpt-4o:free", "pricing": {"prompt": "0", "completion": "0"}},
                          {"id": "openai/gpt-4o", "pricing": {"prompt": "0.0000025", "completion": "0.00001"}}]})
    free, plain = openrouter.parse([page])
    assert "prices" not in free.fields
    assert plain.fields["prices"] == {"gateway": {"input_per_mtok": 2.5, "output_per_mtok": 10.0, "currency": "USD"}}


def test_a_price_that_is_no_number_is_refused_alone(catalog_conn):
    """One id's bad price never fails the run: the check of upstream values refuses that price, with why."""
    from registry.ingest.match import records_to_facts
    page = Page({"data": [{"id": "anthropic/claude-sonnet-4.5", "pricing": {"prompt": "three dollars"}},
                          {"id": "anthropic/claude-3.5-sonnet", "pricing": {"prompt": "0.000003"}}]})
    facts, _aliases, details = records_to_facts(catalog_conn, "openrouter-catalog", openrouter.parse([page]))
    assert any("prices.gateway" in line and "must be a number" in line for line in details["refused"])
    priced = {slug for _source, slug, field, _value in facts if field == "prices"}
    assert priced == {"claude-3-5-sonnet-20241022"}


# -- Amazon Bedrock ---------------------------------------------------------------------------------------------

def _stubbed(monkeypatch, per_region: dict):
    """bedrock.client_for answering each region's calls from a botocore Stubber (boto3's own test double)."""
    clients, real = {}, bedrock.client_for

    def client_for(region, endpoint):
        client = real(region, endpoint)
        stub = Stubber(client)
        for method, response in per_region[region]:
            stub.add_response(method, response)
        stub.activate()
        clients[region] = stub
        return client
    monkeypatch.setattr(bedrock, "client_for", client_for)
    return clients


FOUNDATION = {"modelSummaries": [
    {"modelArn": "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-opus-4-1-20250805-v1:0",
     "modelId": "anthropic.claude-opus-4-1-20250805-v1:0", "modelName": "Claude Opus 4.1", "providerName": "Anthropic",
     "inputModalities": ["TEXT", "IMAGE"], "outputModalities": ["TEXT"], "responseStreamingSupported": True,
     "customizationsSupported": [], "inferenceTypesSupported": ["INFERENCE_PROFILE"],
     "modelLifecycle": {"status": "LEGACY", "legacyTime": datetime.datetime(2026, 7, 8, tzinfo=datetime.timezone.utc),
                        "endOfLifeTime": datetime.datetime(2027, 1, 8, tzinfo=datetime.timezone.utc)}},
    {"modelArn": "arn:aws:bedrock:us-east-1::foundation-model/writer.palmyra-x5-v1:0",
     "modelId": "writer.palmyra-x5-v1:0", "modelName": "Palmyra X5", "providerName": "Writer",
     "inputModalities": ["TEXT"], "outputModalities": ["TEXT"], "modelLifecycle": {"status": "ACTIVE"}},
]}


OPUS_ARN = "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-opus-4-1-20250805-v1:0"


def _profiles(*ids, token=None):
    body = {"inferenceProfileSummaries": [
        {"inferenceProfileName": f"{i} profile", "inferenceProfileArn": f"arn:aws:bedrock:us-east-1:123456789012:"
         f"inference-profile/{i}", "inferenceProfileId": i, "status": "ACTIVE", "type": "SYSTEM_DEFINED",
         "models": [{"modelArn": OPUS_ARN}]} for i in ids]}
    return {**body, "nextToken": token} if token else body


def test_bedrock_fetches_through_boto3_every_region_and_page(monkeypatch):
    monkeypatch.setenv("REGISTRY_BEDROCK_REGIONS", "us-east-1,eu-central-1")
    _stubbed(monkeypatch, {
        "us-east-1": [("list_foundation_models", FOUNDATION),
                      ("list_inference_profiles", _profiles("us.anthropic.claude-opus-4-1-20250805-v1:0", token="t1")),
                      ("list_inference_profiles", _profiles("global.anthropic.claude-opus-4-1-20250805-v1:0"))],
        "eu-central-1": [("list_inference_profiles", _profiles("eu.anthropic.claude-opus-4-1-20250805-v1:0"))],
    })
    pages = bedrock.fetch(None, bedrock.BASE_URL, None)
    assert len(pages) == 4
    # the pages are the REST bodies: timestamps as the wire writes them, no SDK metadata
    assert pages[0].body["modelSummaries"][0]["modelLifecycle"]["endOfLifeTime"] == "2027-01-08T00:00:00Z"
    assert all("ResponseMetadata" not in p.body for p in pages)
    json.dumps([p.body for p in pages])   # a snapshot can be written as it is
    records = {r.model_id: r for r in bedrock.parse(pages)}
    opus = records["anthropic.claude-opus-4-1-20250805-v1:0"]
    assert (opus.provider, opus.fields) == ("anthropic", {"platforms": {"cloud-a": {
        "listed": True, "deprecation_date": "2026-07-08", "sunset_date": "2027-01-08"}}})
    # each cross-region profile is an id of the model it routes to, with its schedule
    profile = records["eu.anthropic.claude-opus-4-1-20250805-v1:0"]
    assert profile.links == ["anthropic.claude-opus-4-1-20250805-v1:0"] and profile.fields == opus.fields
    assert profile.aliases == [("eu.anthropic.claude-opus-4-1-20250805-v1:0", "cloud-a")]
    # Bedrock's providerName, read by its letters ("Writer"), names the registry's provider
    writer = records["writer.palmyra-x5-v1:0"]
    assert (writer.provider, writer.skip) == ("writer", None)


@pytest.mark.parametrize("lifecycle, schedule", [
    ({"status": "ACTIVE"}, {"listed": True}),
    # LEGACY is deprecated on Bedrock; with no legacy day the word itself says so
    ({"status": "LEGACY", "endOfLifeTime": "2027-03-30T00:00:00Z"},
     {"listed": True, "sunset_date": "2027-03-30", "status": "deprecated"}),
    ({"status": "LEGACY", "legacyTime": "2026-07-08T00:00:00Z"}, {"listed": True, "deprecation_date": "2026-07-08"}),
])
def test_bedrock_lifecycle_is_bedrocks_own_schedule(lifecycle, schedule):
    body = {"modelSummaries": [{"modelId": "meta.llama3-1-70b-instruct-v1:0", "providerName": "Meta",
                                "modelLifecycle": lifecycle}]}
    [record] = bedrock.parse([Page(body)])
    assert record.fields == {"platforms": {"cloud-a": schedule}}


def test_bedrock_without_credentials_fails_the_run_in_words(monkeypatch):
    monkeypatch.setenv("REGISTRY_BEDROCK_REGIONS", "us-east-1")
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    with pytest.raises(SourceError, match="bedrock-catalog: NoCredentialsError"):
        bedrock.fetch(None, bedrock.BASE_URL, None)


# -- Vertex AI --------------------------------------------------------------------------------------------------

@pytest.fixture
def anonymous(monkeypatch):
    """Google's Application Default Credentials, answered by google-auth's own anonymous credentials."""
    import google.auth
    from google.auth.credentials import AnonymousCredentials
    monkeypatch.setattr(google.auth, "default", lambda scopes=None: (AnonymousCredentials(), None))


@responses.activate
def test_vertex_lists_every_page_of_every_publisher(monkeypatch, anonymous):
    monkeypatch.setenv("REGISTRY_VERTEX_PUBLISHERS", "google,qwen")
    url = "https://aiplatform.test/v1beta1/publishers/{}/models"
    first = {"publisherModels": [{"name": "publishers/google/models/gemini-2.5-pro", "versionId": "default",
                                  "launchStage": "GA"}], "nextPageToken": "p2"}
    second = {"publisherModels": [{"name": "publishers/google/models/gemini-3.1-pro-preview", "versionId": "default",
                                   "launchStage": "PUBLIC_PREVIEW"}]}
    responses.get(url.format("google"), json=first,
                  match=[responses.matchers.query_param_matcher({"pageSize": "100", "listAllVersions": "true"})])
    responses.get(url.format("google"), json=second, match=[responses.matchers.query_param_matcher(
        {"pageSize": "100", "listAllVersions": "true", "pageToken": "p2"})])
    responses.get(url.format("qwen"), json={})    # Google's APIs leave an empty list out
    pages = vertex.fetch(None, "https://aiplatform.test", None)
    assert [p.body for p in pages] == [first, second, {}]
    records = {r.model_id: r.fields for r in vertex.parse(pages)}
    # the launch stage says preview or not; Vertex's lifecycle page (curated) says the days
    assert records == {"gemini-2.5-pro": {"platforms": {"cloud-b": {}}},
                       "gemini-3.1-pro-preview": {"platforms": {"cloud-b": {"preview": True}}}}


@pytest.mark.parametrize("publisher, model, version, called", [
    ("google", "gemini-2.5-pro", "default", "gemini-2.5-pro"),
    ("anthropic", "claude-3-5-sonnet-v2", "20241022", "claude-3-5-sonnet-v2@20241022"),
    ("google", "textembedding-gecko", "003", "textembedding-gecko@003"),
    ("meta", "llama-3.3-70b-instruct-maas", "001", "meta/llama-3.3-70b-instruct-maas"),
])
def test_vertex_ids_are_what_a_team_calls(publisher, model, version, called):
    assert vertex.vertex_id(publisher, model, version) == called


def test_vertex_without_credentials_fails_the_run_in_words(monkeypatch):
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError

    def none(scopes=None):
        raise DefaultCredentialsError("Your default credentials were not found.")
    monkeypatch.setattr(google.auth, "default", none)
    with pytest.raises(SourceError, match="no Google credentials .* GOOGLE_APPLICATION_CREDENTIALS"):
        vertex.fetch(None, vertex.BASE_URL, None)


def test_vertex_refuses_a_drifted_name():
    with pytest.raises(SourceError, match="not publishers/<publisher>/models/<model>"):
        vertex.parse([Page({"publisherModels": [{"name": "models/gemini-2.5-pro"}]})])


# -- the lane of a platform's catalog ---------------------------------------------------------------------------

@pytest.mark.parametrize("record, outcome", [
    # an id of the catalog's own platform, attached to the model its decorations leave
    (Record("anthropic/claude-sonnet-4.5", "anthropic", {"platforms": {"gateway": {"listed": True}}},
            [("anthropic/claude-sonnet-4.5", "gateway")]), "landed on a known model"),
    # a model the registry does not know: listed for a curator, never made a model
    (Record("minimax/minimax-m9", "minimax", {"platforms": {"gateway": {"listed": True}}},
            [("minimax/minimax-m9", "gateway")]), "platform id no model of its provider is"),
    # another platform's id or schedule is not the gateway's to write
    (Record("anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic", {"platforms": {"cloud-a": {"listed": True}}},
            [("anthropic.claude-sonnet-4-5-20250929-v1:0", "cloud-a")]), "refused: another platform's id or schedule"),
])
def test_a_catalog_writes_only_its_platform(catalog_conn, record, outcome):
    from registry.ingest.match import records_to_facts
    facts, aliases, details = records_to_facts(catalog_conn, "openrouter-catalog", [record])
    assert details["outcomes"] == {outcome: 1}
    if outcome == "landed on a known model":
        assert {(f[1], f[2]) for f in facts} <= {("claude-sonnet-4-5-20250929", "platforms"),
                                                ("claude-sonnet-4-5-20250929", "provider")}
        assert [(a[1], a[2], a[3]) for a in aliases] == [("anthropic/claude-sonnet-4.5", "claude-sonnet-4-5-20250929",
                                                         "gateway")]
    else:
        assert facts == [] and aliases == []
    if outcome.startswith("platform id"):
        assert details["unattached"] == ["minimax/minimax/minimax-m9"]


def _gateway(model_id, provider="anthropic"):
    return Record(model_id, provider, {"platforms": {"gateway": {"listed": True}}}, [(model_id, "gateway")])


@pytest.mark.parametrize("records, attached", [
    # OpenRouter's floating id of a line: the newest working model of that family the gateway serves
    ([_gateway("~anthropic/claude-sonnet-latest")], "claude-sonnet-4-5-20250929"),
    # ... whatever order the catalog lists it in
    ([_gateway("~anthropic/claude-sonnet-latest"), _gateway("anthropic/claude-sonnet-4")],
     "claude-sonnet-4-5-20250929"),
    # a line whose every model is retired: no model to name, listed for a curator
    ([_gateway("~anthropic/claude-haiku-latest")], None),
    # words that spell no family of the provider: never guessed
    ([_gateway("~anthropic/claude-latest")], None),
    # a `~` alone is no floating id of a line
    ([_gateway("~anthropic/claude-sonnet-4.5-beta")], None),
])
def test_a_gateway_floating_id_names_its_lines_newest_served_model(catalog_conn, records, attached):
    from registry.ingest.match import records_to_facts
    _facts, aliases, details = records_to_facts(catalog_conn, "openrouter-catalog", records)
    floating = records[0].model_id
    got = {a[1]: a[2] for a in aliases}
    assert got.get(floating) == attached
    if attached is None:
        assert details["unattached"] == [f"anthropic/{floating}"]


@pytest.fixture
def catalog_conn(tmp_path):
    from helpers import build_db
    from registry.db import connect_rw
    build_db(tmp_path / "r.db", DATA / "curation")
    conn = connect_rw(str(tmp_path / "r.db"))
    yield conn
    conn.close()


def test_a_catalog_alone_never_makes_a_model_nor_a_first_party_fact():
    from registry.merge.priority import accepts, pick
    assert not accepts("bedrock-catalog", "sunset_date") and accepts("bedrock-catalog", "platforms")
    assert pick("release_date", {"openrouter-catalog": "2026-01-01"}) is None
