"""The lifecycle rules on plain records (registry/lifecycle/, docs/lifecycle.md): status, platforms, the
final and forward upgrade. Each case is a small registry and what the rules decide for it."""
import pytest

from registry import lifecycle as rules
from registry.lifecycle.fit import FIT_RULES, broken_rules

TODAY = "2026-11-26"
FAMILY = {"acme-chat": 1, "acme-mini": 2, "acme-next": 3, "acme-embed": 4, "llama": 5, "sonnet": 6, "haiku": 7}


def m(slug, family, release=None, **kw):
    """A model record: family by name, ids given by slug order in the case."""
    kw.setdefault("model_type", "chat")
    return dict(slug=slug, family=family, release_date=release, **kw)


def decide(models: list, successor_lines: dict | None = None, on: str = TODAY):
    """(slug -> (platform -> Lifecycle), slug -> id) for a list of m() records."""
    ids = {spec["slug"]: i for i, spec in enumerate(models, 1)}
    members = {}
    for spec in models:
        spec = dict(spec)
        slug, family = spec.pop("slug"), spec.pop("family")
        for link in ("successor", "points_to"):
            if link in spec:
                spec[f"{link}_id"] = ids[spec.pop(link)]
        schedules = spec.pop("schedules", {})
        spec["schedules"] = {p: {**e, "successor_id": ids.get(e.get("successor")), "source": "curation"}
                             for p, e in schedules.items()}
        spec["served"] = frozenset(spec.get("served", ("official",)))
        spec.setdefault("key", slug)
        members[ids[slug]] = rules.Member(id=ids[slug], slug=slug, family_id=FAMILY[family], **spec)
    lines = {FAMILY[a]: FAMILY[b] for a, b in (successor_lines or {}).items()}
    decided = rules.lifecycles(members, lines, on)
    slugs = {i: s for s, i in ids.items()}
    out = {}
    for (mid, platform), lc in decided.items():
        out.setdefault(slugs[mid], {})[platform] = (lc.status, slugs.get(lc.upgrade_id))
    return out


VISION = frozenset({"text", "image"})
ACME = [m("acme-chat-2", "acme-chat", "2024-01-01", sunset_date="2026-01-01", successor="acme-chat-3"),
        m("acme-chat-3", "acme-chat", "2025-01-01"),
        m("acme-chat-4", "acme-chat", "2026-01-01")]


@pytest.mark.parametrize("models, lines, expected", [
    # decisions 10: the provider's replacement, then the newest working fit of its line; final
    (ACME, None, {"acme-chat-2": ("sunset", "acme-chat-4"), "acme-chat-3": ("active", "acme-chat-4"),
                  "acme-chat-4": ("latest", None)}),
    # past every retired link of the chain to the first working one, then on
    ([m("a-1", "acme-chat", "2023-01-01", sunset_date="2024-01-01", successor="b-1"),
      m("b-1", "acme-next", "2024-01-01", sunset_date="2025-01-01", successor="c-1"),
      m("c-1", "acme-next", "2025-01-01"), m("c-2", "acme-next", "2026-01-01")], None,
     {"a-1": ("sunset", "c-2"), "b-1": ("sunset", "c-2"), "c-1": ("active", "c-2"), "c-2": ("latest", None)}),
    # a chain ending retired: the newest fit of its end's line, else of the model's own
    ([m("a-1", "acme-chat", "2023-01-01", sunset_date="2024-01-01", successor="b-1"),
      m("a-2", "acme-chat", "2025-01-01"),
      m("b-1", "acme-next", "2024-01-01", sunset_date="2025-01-01")], None,
     {"a-1": ("sunset", "a-2"), "b-1": ("sunset", None)}),
    # a dated snapshot moves to a newer versioned id; tiers stay (sonnet never becomes haiku)
    ([m("claude-sonnet-4-5-20250929", "sonnet", "2025-09-29", sunset_date="2026-11-30", pinned=True),
      m("claude-sonnet-4-6", "sonnet", "2026-02-17"), m("claude-sonnet-5", "sonnet", "2026-06-30"),
      m("claude-haiku-5", "haiku", "2026-09-01")], None,
     {"claude-sonnet-4-5-20250929": ("deprecated", "claude-sonnet-5"),
      "claude-sonnet-4-6": ("active", "claude-sonnet-5")}),
    # a line is one tier (issue 45), whatever words its ids hold: text-embedding-ada-002 -> text-embedding-3-small
    ([m("acme-embed-ada-002", "acme-embed", "2022-12-15", sunset_date="2025-01-01", model_type="embedding"),
      m("acme-embed-3-small", "acme-embed", "2024-01-25", model_type="embedding")], None,
     {"acme-embed-ada-002": ("sunset", "acme-embed-3-small")}),
    # a line with no working fit follows the line its provider names as successor
    ([m("acme-chat-1", "acme-chat", "2024-01-01", sunset_date="2026-12-01"),
      m("acme-next-1", "acme-next", "2025-01-01"), m("acme-next-2", "acme-next", "2026-01-01")],
     {"acme-chat": "acme-next"}, {"acme-chat-1": ("deprecated", "acme-next-2")}),
    # ...and without that line, nothing: never a bad recommendation
    ([m("acme-chat-1", "acme-chat", "2024-01-01", sunset_date="2026-12-01"),
      m("acme-next-1", "acme-next", "2025-01-01")], None, {"acme-chat-1": ("deprecated", None)}),
    # a named replacement of another kind ends the chain (an embedding model is no chat model's upgrade)
    ([m("acme-chat-1", "acme-chat", "2024-01-01", sunset_date="2025-01-01", successor="acme-embed-1"),
      m("acme-embed-1", "acme-embed", "2025-01-01", model_type="embedding")], None, {"acme-chat-1": ("sunset", None)}),
    # an undated model goes to no lower version of its line (issue 45: Rerank v5.0 Fast to v4.0 Fast); a date
    # stamp is no version number to compare
    ([m("rerank-v5.0-fast", "acme-chat", None, sunset_date="2025-01-01", version="5.0"),
      m("rerank-v4.0-fast", "acme-chat", "2025-12-11", version="4.0")], None, {"rerank-v5.0-fast": ("sunset", None)}),
    ([m("acme-1-exp-0827", "acme-chat", None, sunset_date="2025-01-01", version="0827"),
      m("acme-3", "acme-chat", "2025-12-11", version="3")], None, {"acme-1-exp-0827": ("sunset", "acme-3")}),
    # a vision model moves to the newest line-mate that still reads images, past a newer text-only one
    ([m("acme-vl-1", "acme-chat", "2024-01-01", sunset_date="2025-01-01", input_modalities=VISION),
      m("acme-vl-2", "acme-chat", "2025-01-01", input_modalities=VISION),
      m("acme-3", "acme-chat", "2026-01-01", input_modalities=frozenset({"text"}))], None,
     {"acme-vl-1": ("sunset", "acme-vl-2")}),
    # open weights never move to a smaller size class
    ([m("llama-70b", "llama", "2024-01-01", sunset_date="2025-01-01", parameter_count=70 * 10**9),
      m("llama-8b", "llama", "2025-01-01", parameter_count=8 * 10**9)], None, {"llama-70b": ("sunset", None)}),
    # no working fit anywhere: the provider's replacement that still answers (deprecated) is the last resort
    ([m("acme-chat-1", "acme-chat", "2024-01-01", sunset_date="2025-01-01", successor="acme-next-1"),
      m("acme-next-1", "acme-next", "2025-01-01", sunset_date="2027-01-01")], None,
     {"acme-chat-1": ("sunset", "acme-next-1"), "acme-next-1": ("deprecated", None)}),
    # a retiring model with no release date moves to a dated working line-mate
    ([m("acme-chat-old", "acme-chat", None, sunset_date="2025-01-01"), m("acme-chat-9", "acme-chat", "2026-01-01")],
     None, {"acme-chat-old": ("sunset", "acme-chat-9")}),
])
def test_the_upgrade_is_final_and_forward(models, lines, expected):
    decided = decide(models, lines)
    for slug, want in expected.items():
        assert decided[slug]["official"] == want, slug
    for slug, platforms in decided.items():   # upgrade(upgrade(x)) is null, whatever x
        for platform, (_, upgrade) in platforms.items():
            if upgrade is not None:
                assert decided[upgrade].get(platform, decided[upgrade]["official"])[1] is None, (slug, upgrade)


@pytest.mark.parametrize("models, expected", [
    # a floating id with no lifecycle of its own answers with its target's, and is never latest
    ([m("gpt-4o", "acme-chat", "2024-05-13", points_to="gpt-4o-2024-08-06"),
      m("gpt-4o-2024-08-06", "acme-chat", "2024-08-06", sunset_date="2027-01-14", pinned=True),
      m("gpt-4o-2024-11-20", "acme-chat", "2024-11-20", sunset_date="2027-01-14", pinned=True)],
     {"gpt-4o": "deprecated", "gpt-4o-2024-08-06": "deprecated", "gpt-4o-2024-11-20": "deprecated"}),
    ([m("o3", "acme-chat", "2025-04-16", points_to="o3-2025-04-16"),
      m("o3-2025-04-16", "acme-chat", "2025-04-16", pinned=True)], {"o3": "active", "o3-2025-04-16": "latest"}),
    # where it has days of its own, they decide
    ([m("gpt-x", "acme-chat", "2024-01-01", points_to="gpt-x-1", sunset_date="2026-01-01"),
      m("gpt-x-1", "acme-chat", "2024-01-01", pinned=True)], {"gpt-x": "sunset", "gpt-x-1": "latest"}),
])
def test_floating_ids(models, expected):
    decided = decide(models)
    assert {slug: decided[slug]["official"][0] for slug in expected} == expected


def test_a_floating_id_never_moves_to_its_own_snapshot():
    decided = decide([m("o3", "acme-chat", "2025-04-16", points_to="o3-2025-04-16", key="o3"),
                      m("o3-2025-04-16", "acme-chat", "2025-04-16", pinned=True, key="o3-20250416"),
                      m("o3-2025-09-01", "acme-chat", "2025-09-01", pinned=True, key="o3-20250901")])
    assert decided["o3"]["official"] == ("active", None)


BEDROCK_LLAMA = [
    m("llama-3.2-3b", "llama", "2024-09-25", served=("official", "cloud-a", "hub"), open_weights=True,
      parameter_count=3 * 10**9, schedules={"cloud-a": {"sunset_date": "2026-07-07", "successor": "llama-4"}}),
    m("llama-4", "llama", "2025-04-05", served=("official", "cloud-a", "hub"), open_weights=True,
      parameter_count=400 * 10**9)]


def test_each_platform_has_its_own_lifecycle_and_upgrade():
    decided = decide(BEDROCK_LLAMA)
    # Bedrock retired its copy: that id is sunset there and moves to Bedrock's named replacement
    assert decided["llama-3.2-3b"]["cloud-a"] == ("sunset", "llama-4")
    # the provider's own lifecycle and the published weights are not touched by a host's schedule
    assert decided["llama-3.2-3b"]["official"] == ("active", "llama-4")
    assert decided["llama-3.2-3b"]["hub"] == ("active", "llama-4")


def test_a_hub_id_moves_only_to_published_weights():
    decided = decide(BEDROCK_LLAMA + [m("llama-api", "llama", "2026-01-01", served=("official",),
                                        parameter_count=500 * 10**9)])
    assert decided["llama-3.2-3b"]["hub"] == ("active", "llama-4")
    assert decided["llama-3.2-3b"]["official"] == ("active", "llama-api")


def test_open_weights_stay_working_on_the_hub_when_the_providers_api_retires_them():
    decided = decide([m("qwen3-235b", "llama", "2025-07-21", sunset_date="2026-10-10", open_weights=True,
                        served=("official", "hub"))])
    assert decided["qwen3-235b"] == {"official": ("sunset", None), "hub": ("active", None)}


@pytest.mark.parametrize("current, upgrade, broken", [
    (m("text-embedding-3", "acme-embed", "2024-01-01", model_type="embedding"),
     m("whisper-2", "acme-embed", "2025-01-01", model_type="speech_to_text"), "strictly_same_type"),
    (m("a", "acme-chat", "2025-05-01"), m("b", "acme-chat", "2024-01-01"), "released_after"),
    (m("claude-3-haiku", "haiku", "2024-03-07"), m("claude-sonnet-5", "sonnet", "2026-06-30"), "same_tier"),
    # one line is one tier (issue 45): no word of an id makes a tier of its own
    (m("text-embedding-ada-002", "embed", "2022-12-15", model_type="embedding"),
     m("text-embedding-3-small", "embed", "2024-01-25", model_type="embedding"), None),
    (m("llama-70b", "llama", "2024-01-01", parameter_count=70e9), m("llama-8b", "llama", "2025-01-01",
                                                                    parameter_count=8e9), "not_smaller"),
    (m("gpt-4o", "acme-chat", "2024-05-13", key="gpt-4o"),
     m("gpt-4o-2024-11-20", "acme-chat", "2024-11-20", pinned=True, key="gpt-4o-20241120"), "not_own_snapshot"),
    (m("claude-sonnet-4-5-20250929", "sonnet", "2025-09-29", pinned=True),
     m("claude-sonnet-5", "sonnet", "2026-06-30"), None),
    # a vision model is not sent to a text-only one (issue 45); where a source states both
    (m("acme-vl-1", "acme-chat", "2025-01-01", input_modalities=frozenset({"text", "image"})),
     m("acme-2", "acme-chat", "2026-01-01", input_modalities=frozenset({"text"})), "keeps_modalities"),
    (m("acme-vl-1", "acme-chat", "2025-01-01", input_modalities=frozenset({"text", "image"})),
     m("acme-2", "acme-chat", "2026-01-01", input_modalities=frozenset({"text", "image", "audio"})), None),
    (m("acme-vl-1", "acme-chat", "2025-01-01", input_modalities=frozenset({"text", "image"})),
     m("acme-2", "acme-chat", "2026-01-01"), None),                              # unknown: no claim either way
    (m("acme-tts-1", "acme-tts", "2025-01-01", model_type="audio_generation", output_modalities=frozenset({"audio"})),
     m("acme-tts-2", "acme-tts", "2026-01-01", model_type="audio_generation", output_modalities=frozenset({"text"})),
     "keeps_modalities"),
])
def test_fit_rules(current, upgrade, broken):
    family_ids = {current["family"]: 1, upgrade["family"]: 2 if upgrade["family"] != current["family"] else 1}
    a, b = (rules.Member(id=i, slug=x["slug"], family_id=family_ids[x["family"]],
                         **{k: v for k, v in x.items() if k not in ("slug", "family")})
            for i, x in ((1, current), (2, upgrade)))
    got = [rule.__name__ for rule in FIT_RULES if rule(a, b)]
    assert got == ([broken] if broken else []), broken_rules(a, b)
