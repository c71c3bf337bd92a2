"""The rules that make an inferred upgrade sound (docs/api-decisions.md#upgrade): one row per case."""
import pytest

from registry.resolve import soundness


def model(slug, model_type="chat", release="2025-01-01", count=None, family="line", status="active"):
    return {"slug": slug, "model_type": model_type, "release_date": release, "parameter_count": count,
            "parameter_label": None, "family_slug": family, "status": status}


@pytest.mark.parametrize("rule, current, upgrade, broken", [
    # the same kind of model
    (soundness.strictly_same_type, model("text-embedding-3-large", "embedding"),
     model("whisper-large-v3", "speech_to_text"), True),
    (soundness.strictly_same_type, model("a", None), model("b"), True),
    (soundness.strictly_same_type, model("a", "unknown"), model("b", "unknown"), True),
    (soundness.strictly_same_type, model("a"), model("b"), False),
    (soundness.same_type, model("devstral-2512", "code"), model("mistral-medium-2604", "chat"), False),
    (soundness.same_type, model("grok-code-fast-1", "code"), model("grok-imagine-image", "image"), True),
    # released after the current model
    (soundness.released_after, model("a", release="2025-05-01"), model("b", release="2024-01-01"), True),
    (soundness.released_after, model("a", release="2025-05-01"), model("b", release="2025-05-01"), True),
    (soundness.released_after, model("a", release=None), model("b"), True),
    (soundness.released_after, model("a", release="2024-01-01"), model("b", release="2025-05-01"), False),
    # pinned stays pinned
    (soundness.pinned_stays_pinned, model("gpt-4o"), model("gpt-4o-2024-11-20"), True),
    (soundness.pinned_stays_pinned, model("gpt-4"), model("gpt-4-0314"), True),
    (soundness.pinned_stays_pinned, model("qwen-plus-2024-09-19"), model("qwen3.7-plus"), True),
    (soundness.pinned_stays_pinned, model("qwen-plus-2024-09-19"), model("qwen-plus-2025-12-01"), False),
    (soundness.pinned_stays_pinned, model("gpt-4o"), model("gpt-5"), False),
    # the same tier
    (soundness.same_tier, model("gemini-2.5-flash"), model("gemini-3.1-flash-lite"), True),
    (soundness.same_tier, model("gpt-4o-mini"), model("gpt-5.6-sol"), True),
    (soundness.same_tier, model("claude-3-haiku-20240307"), model("claude-haiku-4-5-20251001"), False),
    # open weights: the same or a larger size class
    (soundness.not_smaller, model("Llama-3.3-70B-Instruct", count=70e9),
     model("Llama-3.3-8B-Instruct", count=8e9), True),
    (soundness.not_smaller, model("gpt-oss-120b", count=117e9), model("gpt-oss-20b", count=21e9), True),
    (soundness.not_smaller, model("qwen3-235b-a22b", count=235e9), model("qwen3.6-27b", count=27e9), True),
    (soundness.not_smaller, model("llama-3.1-8b", count=8e9), model("llama-3.3-70b", count=70e9), False),
    (soundness.not_smaller, model("qwen3-32b", count=32e9), model("qwen3.6-27b", count=27e9), False),   # one class
    # never into a catch-all family
    (soundness.not_catch_all, model("rerank-v3.5"), model("aya-expanse-32b", family="cohere-uncategorized"), True),
    (soundness.not_catch_all, model("a"), model("b"), False),
])
def test_rule(rule, current, upgrade, broken):
    assert bool(rule(current, upgrade)) is broken


def test_a_sound_upgrade_breaks_no_rule():
    current = model("claude-3-5-haiku-20241022", release="2024-10-22")
    upgrade = model("claude-haiku-4-5-20251001", release="2025-10-15")
    assert soundness.broken_rules(current, upgrade, soundness.INFERRED_RULES) == []
