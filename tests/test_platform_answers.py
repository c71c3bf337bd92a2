"""The team's question on the registry `make run` builds (curation, then every source from seeds/, today
2026-12-06): is the id I call dying on my platform, and what do I move to, written the way I write ids?
(docs/lifecycle.md#how-an-id-is-written, #the-upgrade)"""
import pytest

from helpers import ROOT, shipped_ingested_app
from registry.fields import PLATFORM_SOURCES
from registry.ingest import sources
from registry.ingest.match import records_to_facts
from registry.ingest.snapshots import load_pages
from registry.web.connection import close_thread_connections

TODAY = "2026-12-06"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("platforms") / "registry.db"
    app = shipped_ingested_app(db, TODAY, RATELIMIT_PUBLIC="1000000/minute")
    yield app.test_client()
    close_thread_connections()


def resolve(client, q):
    response = client.get("/api/v1/resolve", query_string={"q": q})
    assert response.status_code == 200, (q, response.get_json())
    return response.get_json()


# q, the model, the platform answered for, its shutdown day there, how the upgrade's id starts (None: none given)
CASES = [
    # LiteLLM's route to Anthropic's API: Anthropic's own day (August), the upgrade behind the same route
    ("anthropic/claude-opus-4-1-20250805", "claude-opus-4-1-20250805", "official", "2026-08-05", "anthropic/claude-"),
    # the gateway's dotted spelling of an id OpenRouter does not list: the model, never a Bedrock id
    ("anthropic/claude-sonnet-5.5", "claude-sonnet-5-5", "official", None, None),
    # OpenRouter's own id: its upgrade is an id OpenRouter lists or curation gives it
    ("anthropic/claude-3.5-sonnet", "claude-3-5-sonnet-20241022", "gateway", "2025-10-28", "anthropic/claude-sonnet-"),
    ("openrouter/anthropic/claude-3.5-sonnet", "claude-3-5-sonnet-20241022", "gateway", "2025-10-28",
     "openrouter/anthropic/claude-sonnet-"),
    # one string, two platforms: the Gemini API's day, and written as LiteLLM writes a Vertex id, Vertex AI's
    ("gemini-2.5-pro", "gemini-2.5-pro", "official", "2026-12-01", "gemini-"),
    ("vertex_ai/gemini-2.5-pro", "gemini-2.5-pro", "cloud-b", "2026-10-20", "vertex_ai/gemini-"),
    # an agent SDK's provider prefix is kept
    ("openai:gpt-4o", "gpt-4o", "official", "2027-01-14", "openai:gpt-"),
    # a Bedrock route and region prefix both kept
    ("bedrock/us.anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022", "cloud-a", "2026-07-30",
     "bedrock/us.anthropic.claude-"),
    ("us.anthropic.claude-3-7-sonnet-20250219-v1:0", "claude-3-7-sonnet-20250219", "cloud-a", "2026-07-30",
     "us.anthropic.claude-"),
    # a model its provider retired, still served by a platform: moved on there, to what that platform serves
    ("mistral.mistral-large-2402-v1:0", "mistral-large-2402", "cloud-a", None, "mistral.mistral-large-3"),
    ("mistralai/Mistral-7B-Instruct-v0.3", "mistral-7b-instruct-v0.3", "hub", None, "mistralai/Ministral-3-8B"),
    ("mistralai/Mixtral-8x22B-Instruct-v0.1", "open-mixtral-8x22b", "hub", None, "mistralai/Mistral-Small-4"),
    ("CohereLabs/c4ai-command-r-v01", "command-r", "hub", None, "CohereLabs/c4ai-command-a-"),
    # ids of platforms outside the four: their model, and no other platform's id handed back
    ("llama3-70b-8192", "meta-llama-3-70b-instruct", "official", None, None),
    ("groq/llama3-70b-8192", "meta-llama-3-70b-instruct", "official", None, None),
    ("llama3.1:70b", "meta-llama-3.1-70b-instruct", "official", None, None),
]


@pytest.mark.parametrize("q, slug, platform, sunset, written", CASES)
def test_an_id_is_answered_on_its_platform_in_its_own_writing(client, q, slug, platform, sunset, written):
    body = resolve(client, q)
    assert body["matched_model"]["slug"] == slug
    assert body["platform_lifecycle"]["platform"] == platform
    assert body["platform_lifecycle"]["sunset_date"] == sunset
    alias = body["upgrade_alias"]
    if platform == "hub":   # published weights are named by their repo id, the provider's own
        platform = "official"
    if written is None:
        assert alias is None
    else:
        assert alias["written"].startswith(written), alias
        assert alias["source"] == platform
        # asked again, the upgrade has nothing further to say on the same platform
        again = resolve(client, alias["written"])
        assert again["platform_lifecycle"]["platform"] == body["platform_lifecycle"]["platform"]
        assert again["upgrade"] is None


@pytest.mark.parametrize("q, says", [
    ("groq/llama3-70b-8192", "an id of Groq"),
    ("llama3.1:70b", "an id of Ollama"),
    ("llama3-70b-8192", "another platform's spelling"),
])
def test_an_outside_platforms_id_says_no_id_of_it_is_known(client, q, says):
    body = resolve(client, q)
    assert body["upgrade"] is not None and says in body["upgrade_alias_note"]


@pytest.mark.parametrize("q", ["meta.llama3-1-70b-instruct-v1:0", "meta-llama/Llama-3.1-8B-Instruct"])
def test_where_the_platform_has_no_fit_the_providers_own_upgrade_is_named_beside(client, q):
    body = resolve(client, q)
    assert body["upgrade"] is None and body["upgrade_alias"] is None
    assert body["first_party_upgrade"] is not None
    assert body["first_party_upgrade"]["display_name"] in body["upgrade_alias_note"]


def test_a_preview_is_an_upgrade_only_where_no_generally_available_fit_exists(client):
    # Mistral Large 4 is a public preview (its card says so): the floating id stays on Mistral Large 3
    assert resolve(client, "mistral-large-latest")["upgrade"] is None
    # every Gemini Pro that is generally available has shut down on the Gemini API: the preview, marked
    body = resolve(client, "gemini-1.5-pro-002")
    assert body["upgrade"]["preview"] is True


def test_every_id_the_catalogs_attach_resolves_to_its_model_on_its_platform(client):
    """Each id a platform's snapshot lists and the registry attaches answers for that model on that platform:
    as written, or, where the string is also the provider's own id, behind the platform's LiteLLM route."""
    from registry.db import connect_ro
    from registry.resolve.written import PLATFORM_ROUTES
    route = {platform: prefix for prefix, platform in reversed(PLATFORM_ROUTES)}
    conn = connect_ro(client.application.config["DATABASE"])
    wrong = []
    try:
        for source, platform in PLATFORM_SOURCES.items():
            records = sources.load(source).parse(load_pages(str(ROOT / "seeds"), source))
            _, aliases, _ = records_to_facts(conn, source, records)
            for _, alias, slug, _, _ in aliases:
                body = resolve(client, alias)
                if body["platform_lifecycle"]["platform"] != platform:
                    body = resolve(client, route[platform] + alias)
                if (body["matched_model"]["slug"], body["platform_lifecycle"]["platform"]) != (slug, platform):
                    wrong.append((alias, slug, body["matched_model"]["slug"], body["platform_lifecycle"]["platform"]))
    finally:
        conn.close()
    assert wrong == []


# q, its upgrade there, the basis, who named it (None: no replacement basis), and what the move must change
WHY = [
    # Alibaba named a chat model for its code model: the answer says so, and that the kind of model changes
    ("qwen3-coder-plus", "qwen3.7-plus", "replacement", "curation", {"model_type"}),
    # no replacement named: the newest working Sonnet of the line
    ("claude-sonnet-4-5-20250929", "claude-sonnet-5-5", "line", None, set()),
    # the Devstral line has no working fit: the line Mistral moved to
    ("devstral-medium-2507", "mistral-medium-3-5", "successor-line", None, set()),
    # OpenRouter serves no fit of GPT-4o's own line: its newest fitting OpenAI model, said as the platform's
    ("openai/gpt-4o", "gpt-5.4", "platform", None, set()),
    # a line is one tier whatever its ids say: 'small' in text-embedding-3-small is no tier ada-002 lacks
    ("text-embedding-ada-002", "text-embedding-3-small", "line", None, set()),
    # issue 46: what the move changes in price on the caller's platform (xAI's own API: $3 / $15 to $2 / $6)
    ("grok-4-0709", "grok-4.7", "replacement", "curation", {"input_per_mtok", "output_per_mtok"}),
]


@pytest.mark.parametrize("q, upgrade, basis, named_by, changed", WHY)
def test_every_upgrade_says_why(client, q, upgrade, basis, named_by, changed):
    """Issue 45 item 1: the basis, who named a replacement, and what the move keeps or changes, in /resolve and on
    the platform lifecycle alike."""
    body = resolve(client, q)
    why = body["upgrade"]["why"]
    assert (body["upgrade"]["slug"], why["basis"]) == (upgrade, basis)
    assert body["platform_lifecycle"]["upgrade"]["basis"] == basis
    assert (why["named_by"] or {}).get("source") == named_by
    assert changed <= set(why["changes"]) and not set(why["keeps"]) & set(why["changes"])


@pytest.mark.parametrize("q, slug", [
    ("gpt4o", "gpt-4o"),    # no date pin: the floating id, as `gpt-4o` is (issue 45), not its newest snapshot
    ("gpt4", "gpt-4"),
    ("gpt-4o-2024-11-20", "gpt-4o-2024-11-20"),   # a pin names its snapshot
])
def test_an_id_without_a_date_names_the_floating_id(client, q, slug):
    assert resolve(client, q)["matched_model"]["slug"] == slug



@pytest.mark.parametrize("q, slug", [
    # OpenRouter's floating id of a line: the newest Sonnet its catalog serves, as written or behind LiteLLM's route
    ("~anthropic/claude-sonnet-latest", "claude-sonnet-5"),
    ("openrouter/~anthropic/claude-sonnet-latest", "claude-sonnet-5"),
    # Google's own floating id of the Pro line, where OpenRouter's names it
    ("~google/gemini-pro-latest", "gemini-pro-latest"),
    # the same words without the `~` are not OpenRouter's: no id the registry knows (Google's own
    # gemini-flash-latest has no source for its target yet: `registry curate --drift` lists it)
    ("claude-sonnet-latest", None),
    ("gemini-flash-latest", None),
])
def test_a_gateway_floating_id_answers_what_the_gateway_serves(client, q, slug):
    response = client.get("/api/v1/resolve", query_string={"q": q})
    if slug is None:
        assert response.status_code == 404
        return
    body = response.get_json()
    assert (body["matched_model"]["slug"], body["matched_alias"]["source"]) == (slug, "gateway")
    assert body["upgrade_alias"] is None    # the line's newest the gateway serves has nothing further there
