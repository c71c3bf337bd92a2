"""`curate --report`: what curators should look at."""
import json

from ..fields import COLUMNS
from ..fields import CURATION


def curation_report(conn) -> str:
    """Models without a release date, models in families derived from their id, and disagreements with curation."""
    lines = []
    missing = conn.execute("SELECT slug FROM models WHERE release_date IS NULL ORDER BY slug").fetchall()
    lines.append(f"Models without a release date ({len(missing)}):")
    lines += [f"  {r[0]}" for r in missing]
    uncategorized = conn.execute(
        "SELECT f.slug, m.slug FROM models m JOIN families f ON f.id = m.family_id"
        " WHERE f.is_uncategorized = 1 ORDER BY f.slug, m.slug").fetchall()
    lines.append(f"Models in a family ingestion derived from their id ({len(uncategorized)}):")
    lines += [f"  {family}: {slug}" for family, slug in uncategorized]
    disagreements = []
    curated = {}
    for slug, field, value in conn.execute(
            "SELECT model_slug, field, value FROM facts WHERE source = ?", (CURATION,)):
        curated[(slug, field)] = value
    for source, slug, field, value in conn.execute(
            "SELECT source, model_slug, field, value FROM facts WHERE source != ? ORDER BY model_slug, field, source",
            (CURATION,)):
        mine = curated.get((slug, field))
        if field in COLUMNS + ("successor",) and mine is not None and value is not None \
                and json.loads(value) != json.loads(mine):
            disagreements.append(f"  {slug}.{field}: curation {json.loads(mine)!r}, {source} {json.loads(value)!r}")
    lines.append(f"Values where sources disagree with curation ({len(disagreements)}):")
    lines += disagreements
    return "\n".join(lines)
