"""The curation shipped in curation/ loads cleanly and keeps the registry's invariants."""
from pathlib import Path

import pytest

from helpers import build_db
from registry import create_app
from registry.curation.reader import read_curation
from registry.db import connect_rw
from registry.web.connection import close_thread_connections

SHIPPED = Path(__file__).resolve().parents[1] / "curation"


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    db = tmp_path_factory.mktemp("shipped") / "registry.db"
    import os
    os.environ["REGISTRY_TODAY"] = "2026-11-21"
    build_db(db, SHIPPED)
    app = create_app({"TESTING": True, "DATABASE": str(db)})
    yield app, connect_rw(str(db))
    close_thread_connections()


def test_shipped_curation_is_valid():
    cur = read_curation(SHIPPED)
    assert cur.errors == []
    assert len(cur.providers) >= 10
    assert len(cur.families) >= 40
    assert len(cur.facts) >= 220


def test_every_family_has_a_provider_and_models(shipped):
    _, conn = shipped
    orphans = conn.execute("SELECT slug FROM families f WHERE NOT EXISTS"
                           " (SELECT 1 FROM providers p WHERE p.id = f.provider_id)").fetchall()
    empty = conn.execute("SELECT slug FROM families f WHERE NOT EXISTS"
                         " (SELECT 1 FROM models m WHERE m.family_id = f.id)").fetchall()
    assert orphans == [] and empty == []


def test_successors_exist_and_never_cycle(shipped):
    _, conn = shipped
    cur = read_curation(SHIPPED)
    links = {slug: f["successor"] for slug, f in cur.facts.items() if f.get("successor")}
    assert links, "the curation names replacements"
    for slug, successor in links.items():
        assert conn.execute("SELECT 1 FROM models WHERE slug = ?", (successor,)).fetchone(), (slug, successor)
        seen, current = {slug}, successor
        while current in links:
            assert current not in seen, f"cycle through {slug}"
            seen.add(current)
            current = links[current]


def test_one_latest_per_family(shipped):
    _, conn = shipped
    for family, latest, working in conn.execute(
            "SELECT f.slug, sum(m.status = 'latest'), sum(m.status IN ('active', 'latest'))"
            " FROM families f JOIN models m ON m.family_id = f.id GROUP BY f.slug"):
        assert latest == (1 if working else 0), family


def test_no_month_only_dates_and_no_alias_twice(shipped):
    _, conn = shipped
    for column in ("release_date", "deprecation_date", "sunset_date"):
        bad = conn.execute(f"SELECT slug FROM models WHERE {column} IS NOT NULL AND length({column}) != 10").fetchall()
        assert bad == [], column
    cur = read_curation(SHIPPED)
    aliases = [a[0] for a in cur.aliases]
    assert len(aliases) == len(set(aliases))


def test_each_exact_alias_resolves_to_its_own_model(shipped):
    app, conn = shipped
    client = app.test_client()
    rows = conn.execute("SELECT a.alias, m.slug FROM aliases a JOIN models m ON m.id = a.model_id").fetchall()
    assert len(rows) >= 500
    wrong = []
    for alias, slug in rows:
        body = client.get("/api/v1/resolve", query_string={"q": alias}).get_json()
        if body["matched_model"]["slug"] != slug or body["confidence"] != 1.0:
            wrong.append((alias, slug, body["matched_model"]["slug"]))
    assert wrong == []


def test_open_weight_models_carry_hub_facts(shipped):
    _, conn = shipped
    rows = conn.execute("SELECT m.slug, m.parameter_count, m.canonical_url FROM models m"
                        " JOIN families f ON f.id = m.family_id WHERE f.is_open_source = 1").fetchall()
    assert len(rows) >= 40
    with_url = [r for r in rows if r[2] and r[2].startswith("https://huggingface.co/")]
    with_count = [r for r in rows if r[1]]
    # Open-weight families also hold the providers' dated API ids (Mistral, Cohere, Qwen snapshots that
    # the lifecycle pages list), which have no hub repository of their own: most models, not all.
    assert len(with_url) >= 0.6 * len(rows) and len(with_count) >= 0.6 * len(rows)
