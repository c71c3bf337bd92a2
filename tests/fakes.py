"""Fake source modules for engine tests: the real contract (SOURCE, PROVIDER, parse) over fixed records."""
import dataclasses
import types

from registry.ingest import runner, sources
from registry.ingest.records import Record, SourceError


def fake_module(source: str, provider, records=(), error: str | None = None):
    """A source module whose parse returns records, or raises SourceError(error)."""
    def parse(pages):
        if error:
            raise SourceError(error)
        return list(records)
    return types.SimpleNamespace(SOURCE=source, PROVIDER=provider, KEY_ENV=None, KEY_REQUIRED=False,
                                 BASE_URL="http://upstream.invalid", fetch=lambda *a: [], parse=parse)


def install(monkeypatch, modules: dict) -> None:
    """Make the runner use these fake modules (by source name) instead of the real upstreams."""
    real_load = sources.load
    monkeypatch.setattr(sources, "load", lambda name: modules[name] if name in modules else real_load(name))
    monkeypatch.setattr(runner, "fetch_pages", lambda module, offline, seeds_dir, session=None: [])


VENDOR_B = [
    # the curated model, by a curated alias: updates it, creates nothing
    Record("claude-sonnet-4-5-20250929", "anthropic",
           {"display_name": "Claude Sonnet 4.5 (vendor)", "release_date": "2025-09-30",
            "input_context_window": 1000000, "capabilities": {"batch": True}},
           [("claude-sonnet-4-5-20250929", "official")]),
    # new id matching the claude-sonnet glob: lands in that family
    Record("claude-sonnet-5-20260901", "anthropic",
           {"display_name": "Claude Sonnet 5", "release_date": "2026-09-01", "output_context_window": 128000},
           [("claude-sonnet-5-20260901", "official"), ("claude-sonnet-5", "official")]),
    # new id no glob matches: lands in a family derived from its id (claude-fable)
    Record("claude-fable-1", "anthropic", {"display_name": "Claude Fable 1", "release_date": "2026-10-01"},
           [("claude-fable-1", "official")]),
    # a curated model the vendor says is deprecated, with its own dates
    Record("claude-sonnet-4-20250514", "anthropic",
           {"deprecated": True, "deprecation_date": "2026-06-01"}, [("claude-sonnet-4-20250514", "official")]),
]

FEED = [
    # matched by a curated alias; the feed may not overwrite the vendor's deprecation date
    Record("claude-sonnet-4-20250514", "anthropic",
           {"deprecation_date": "2026-05-01", "sunset_date": "2026-12-14", "successor": "claude-sonnet-4-5-20250929",
            "display_name": "ignored: the feed only supplies lifecycle fields"}),
    # supplements a curated model with no sunset date
    Record("Llama-3.1-70B-Instruct", "meta", {"sunset_date": "2099-01-01"}),
    # a model only the vendor lists: applies whichever of the two runs first
    Record("claude-sonnet-5-20260901", "anthropic", {"deprecation_date": "2027-09-01"}),
    # unknown model: creates nothing
    Record("gpt-9000", "openai", {"deprecation_date": "2026-01-01"}),
]

HUB = [
    Record("Llama-3.1-8B-Instruct", "meta",
           {"parameter_count": 8030261249, "parameter_label": "8B", "release_date": "2024-07-18",
            "canonical_url": "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct", "tags": ["llama"]},
           [("Llama-3.1-8B-Instruct", "official")]),
    Record("Llama-3.1-70B-Instruct", "meta",
           {"parameter_count": 70553706497, "tags": ["llama"]}, [("Llama-3.1-70B-Instruct", "official")]),
    Record("Llama-3.1-1B-Instruct", "meta",
           {"parameter_count": 1235814400, "parameter_label": "1B", "release_date": "2024-09-25"},
           [("Llama-3.1-1B-Instruct", "official")]),
]

SONNET_5 = "claude-sonnet-5-20260901"
# vendor-b-api's next snapshot: one window grows, an alias is renamed, claude-fable-1 is no longer
# listed, Sonnet 4 gets a shutdown day and a newer Sonnet appears (tests/test_changes.py).
VENDOR_B_NEXT = [
    VENDOR_B[0],
    Record(SONNET_5, "anthropic",
           {"display_name": "Claude Sonnet 5", "release_date": "2026-09-01", "output_context_window": 256000},
           [(SONNET_5, "official"), ("claude-sonnet-5-0", "official")]),
    dataclasses.replace(VENDOR_B[3], fields={**VENDOR_B[3].fields, "sunset_date": "2027-01-14"}),
    Record("claude-sonnet-5-1-20261101", "anthropic",
           {"display_name": "Claude Sonnet 5.1", "release_date": "2026-11-01"},
           [("claude-sonnet-5-1-20261101", "official")]),
]


def vendor_b_history(monkeypatch, db_path: str) -> None:
    """Run vendor-b-api over VENDOR_B, then over VENDOR_B_NEXT: a history with every kind of change."""
    from registry.ingest.runner import run_source
    for records in (VENDOR_B, VENDOR_B_NEXT):
        install(monkeypatch, {"vendor-b-api": fake_module("vendor-b-api", "anthropic", records)})
        assert run_source(db_path, "vendor-b-api").status == "completed"
