"""The families a merge places models in: curated ones by their globs, else a family derived from the id."""
import fnmatch
import itertools
import json
import re

from ..db import now_iso
from ..normalize import normalize, pin_free


class Families:
    """Curated families by slug, and the glob-matching that places ingested ids."""

    def __init__(self, conn):
        self.conn = conn
        self.rows = {r["slug"]: r for r in conn.execute(
            "SELECT f.id, f.slug, f.match_globs, f.position, f.provider_id, f.is_open_source, p.slug AS provider,"
            " p.name AS provider_name FROM families f JOIN providers p ON p.id = f.provider_id"
            " ORDER BY p.slug, f.position, f.slug")}
        # provider -> (one pattern of every family's globs, family ids): alternatives in family order, one
        # named group per family, so one match per name finds the first family that claims it; compiled
        # once, not per model (ingesting 50k hub models calls place() 50k times). open_globs: the same of
        # the open-weights families only, for a model only the hub lists.
        self.globs, self.open_globs = _patterns(self.rows.values()), _patterns(
            row for row in self.rows.values() if row["is_open_source"])
        self.providers = {r["slug"]: r for r in conn.execute("SELECT id, slug, name FROM providers")}

    def place(self, provider: str | None, names: list, open_weights: bool = False) -> int | None:
        """Return the family id for an uncurated model of a provider: by the families' globs, else
        a family of its own derived from its id (open weights when only the hub lists the model)."""
        if provider not in self.providers:
            return None
        # Published weights only the hub lists never join a closed family (the hub writes only open weights,
        # docs/lifecycle.md#sources-stay-in-their-lane): else the next run would refuse what the first made.
        globs = self.open_globs if open_weights else self.globs
        if provider in globs:
            match, family_ids = globs[provider]
            claimed = [int(m.lastgroup[1:]) for m in map(match, (n.lower() for n in names)) if m]
            if claimed:
                return family_ids[min(claimed)]
        return self.derived(provider, names[0], open_weights)

    def derived(self, provider: str, model_id: str, open_weights: bool = False) -> int:
        """Return (creating it if needed) the family an unplaced id derives: its product line.

        Never a shared catch-all: "newest in the family" must stay a sound upgrade
        (docs/api-decisions.md#upgrade), so dall-e-3 gets dall-e and whisper-large-v3 whisper-large.
        """
        stem = family_stem(model_id)
        for slug in _derived_slugs(provider, stem):
            taken = self.rows.get(slug)
            if taken is None:
                break
            # Published weights join only an open line of their provider: a closed family of the same name
            # (Codestral, the API line) is no home for the hub's mistralai/Codestral-... repos, which the
            # next run would refuse (docs/lifecycle.md#sources-stay-in-their-lane).
            if taken["provider"] == provider and (taken["is_open_source"] or not open_weights):
                return taken["id"]
        p = self.providers[provider]
        stamp = now_iso()
        cur = self.conn.execute(
            "INSERT INTO families (slug, name, provider_id, description, is_open_source, is_uncategorized,"
            " position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, 1000000, ?, ?)"
            " ON CONFLICT(slug) DO UPDATE SET is_uncategorized = 1 RETURNING id",
            (slug, stem, p["id"], f"{p['name']} models named {stem}-*, found by ingestion; no curated family"
             " claims them yet.", int(open_weights), stamp, stamp))
        family_id = cur.fetchone()[0]
        self.rows[slug] = {"id": family_id, "slug": slug, "match_globs": "[]", "provider": provider,
                           "is_open_source": int(open_weights)}
        return family_id


def _derived_slugs(provider: str, stem: str):
    """The slugs a derived family may take, in order: the stem, the stem under its provider's name, then
    that numbered (a name another provider's or a closed family holds is passed over)."""
    yield stem
    yield f"{provider}-{stem}"
    for n in itertools.count(2):
        yield f"{provider}-{stem}-{n}"


def _patterns(rows) -> dict:
    """provider -> (a match function of every family's globs in order, the family ids of its named groups)."""
    by_provider = {}
    for row in rows:
        globs = [fnmatch.translate(glob.lower()) for glob in json.loads(row["match_globs"])]
        if globs:   # families derived from ids have none: 50k of them must not be walked per model
            by_provider.setdefault(row["provider"], []).append((row["id"], globs))
    out = {}
    for provider, families in by_provider.items():
        pattern = "|".join(f"(?P<f{i}>{'|'.join(globs)})" for i, (_, globs) in enumerate(families))
        out[provider] = (re.compile(pattern).match, [family_id for family_id, _ in families])
    return out


_TRAILING_VERSION = re.compile(r"-v?\d+(?:[.-]\d+)*$")


def family_stem(model_id: str) -> str:
    """The product line an id names: its last path segment without date pins and trailing version
    numbers (dall-e-3 -> dall-e, whisper-large-v3 -> whisper-large); sizes (-8b, -300m) stay."""
    stem = normalize(model_id)
    stem = pin_free(stem)
    while True:
        shorter = _TRAILING_VERSION.sub("", stem)
        if shorter == stem or not shorter:
            break
        stem = shorter
    return re.sub(r"[^a-z0-9-]+", "-", stem).strip("-") or "model"
