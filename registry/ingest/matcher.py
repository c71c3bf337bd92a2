"""Which model an upstream's id means: its slug, then any known alias (exact, then ignoring case), on the platform
the id belongs to (docs/data-flow.md); match.py keeps each source's records in their lane with it."""
import re
from functools import cached_property

from ..db import tuples
from ..merge.changes import alias_owners
from ..normalize import normalize

_SLUG_JUNK = re.compile(r"[^a-z0-9.]+")


def slugify(model_id: str) -> str:
    """A URL-friendly slug from an upstream id: lowercase, [a-z0-9.-] only."""
    return _SLUG_JUNK.sub("-", model_id.lower()).strip("-.") or "model"


class Matcher:
    """Finds the model an upstream id means: its slug, then any known alias (exact, then case-insensitive)."""

    def __init__(self, conn):
        # Every source's run builds one, a listing of ten ids as a 50k-repo hub: read whole as plain tuples, and
        # the other tables (case-folded, normalized, platform ids, Vertex) only when a record needs them: the daily
        # cycle pays it once per source (bench/results.md).
        lanes = {family: (provider, bool(open_weights)) for family, provider, open_weights in tuples(conn).execute(
            "SELECT f.id, p.slug, f.is_open_source FROM families f JOIN providers p ON p.id = f.provider_id")}
        # slug -> (provider slug, open weights?): whose lane a known model is in; every model has one
        self.owner = {slug: lanes[family]
                      for slug, family in tuples(conn).execute("SELECT slug, family_id FROM models")}
        self.slugs = set(self.owner)
        self.aliases = alias_owners(conn)
        self._conn = conn
        self._lines: dict = {}   # provider -> its lines, read for its first floating id of a line (attach_floating)

    @cached_property
    def folded(self) -> dict:
        """Lowercased alias -> slug (of two aliases that fold alike, the first in order), built for the first id
        that no slug or alias names as written."""
        return {alias.lower(): slug for alias, slug in reversed(sorted(self.aliases.items()))}

    @cached_property
    def normalized(self) -> dict:
        """Normalized id -> the slugs of the models it names (slugs and aliases), built for the first platform
        record."""
        names: dict[str, set] = {}
        for name, slug in [*((s, s) for s in self.slugs), *self.aliases.items()]:
            names.setdefault(normalize(name), set()).add(slug)
        return names

    @cached_property
    def platform_ids(self) -> dict:
        """(id, platform) -> the slug of the model that holds the id on the platform, or that the platform serves
        under its provider's id (a schedule of its own there, no id of the platform's), read for a public
        catalog's first row."""
        found = {(alias, platform): slug for alias, platform, slug in self._conn.execute(
            "SELECT a.alias, a.source, m.slug FROM aliases a JOIN models m ON m.id = a.model_id")}
        for alias, serving, slug in self._conn.execute(
                "SELECT a.alias, p.key, m.slug FROM models m JOIN aliases a ON a.model_id = m.id"
                " AND a.source = 'official', json_each(m.metadata, '$.platforms') AS p"
                " WHERE NOT EXISTS (SELECT 1 FROM aliases b WHERE b.model_id = m.id AND b.source = p.key)"):
            found.setdefault((alias, serving), slug)
        return found

    @cached_property
    def vertex_names(self) -> dict:
        """Publisher model -> the slugs of its Vertex ids, built for the first notice that names one: a Vertex id is
        `publisher-model@version`; notices name the publisher model alone (docs/data-flow.md#the-deprecation-feed)."""
        names: dict[str, set] = {}
        for alias, slug in self.aliases.items():
            if "@" in alias:
                names.setdefault(alias.split("@", 1)[0].lower(), set()).add(slug)
        return names

    def foreign(self, alias: str, provider: str | None) -> bool:
        """Does another provider's model hold this alias (a provider's record may not take it)?"""
        owner = self.aliases.get(alias)
        return bool(provider) and owner is not None and self.owner.get(owner, (provider,))[0] != provider

    def find(self, model_id: str, aliases=()) -> str | None:
        """The slug of the known model an id (or one of its aliases) names, or None."""
        for name in (model_id, *aliases):
            if name in self.slugs:
                return name
            if name in self.aliases:
                return self.aliases[name]
        for name in (model_id, *aliases):
            if name.lower() in self.folded:
                return self.folded[name.lower()]
            if slugify(name) in self.slugs:
                return slugify(name)
        return None

    def attach(self, record) -> str | None:
        """The one model of the record's provider that a platform's id (or an id the catalog links it to) names
        once the platform's decorations are removed (`anthropic.claude-sonnet-4-5-20250929-v1:0`,
        `anthropic/claude-sonnet-4.5`), or None: a platform id is attached at full confidence or not at all
        (docs/lifecycle.md#platform-catalogs)."""
        for name in (record.model_id, *record.links):
            # A floating id written without `-latest` (`mistralai/mistral-large`) names what the provider's
            # `-latest` names; a gateway's floating id of a line (`~google/gemini-pro-latest`), the provider's
            # own floating id of it where there is one.
            n = normalize(name).lstrip("~")
            for form in (n, n + "-latest"):
                mine = {slug for slug in self.normalized.get(form, ())
                        if self.owner.get(slug, (None,))[0] == record.provider}
                if len(mine) == 1:
                    return mine.pop()
        return None

    def attach_floating(self, record, platform: str, landed) -> str | None:
        """The model a gateway's floating id of a line names (`~anthropic/claude-sonnet-latest`, "always redirects
        to the latest model in the family"): the newest working model of the provider's family its words spell
        that the platform serves (an id of it known, or `landed` in this run); None unless exactly one is newest
        (docs/lifecycle.md#platform-catalogs)."""
        if not record.model_id.startswith("~") or not record.provider:
            return None
        words = normalize(record.model_id).lstrip("~")
        if not words.endswith("-latest"):
            return None
        lines, served_on = self._floating_lines(record.provider)
        served = served_on.get(platform, set())
        line = sorted((day, slug) for day, slug in lines.get((record.provider, slugify(words[:-len("-latest")])), ())
                      if slug in served or slug in landed)
        if not line or (len(line) > 1 and line[-2][0] == line[-1][0]):
            return None
        return line[-1][1]

    def _floating_lines(self, provider: str) -> tuple:
        """((provider slug, family slug) -> {(release day, slug)} of the provider's working models that are no
        floating id, platform -> slugs of those it has an id of): what a floating id of a line chooses among. Read
        once per provider, and only by a run that meets one (a 50k-repo hub run never does)."""
        if provider not in self._lines:
            lines, served_on = {}, {}
            for family, slug, released, source in self._conn.execute(
                    "SELECT f.slug, m.slug, m.release_date, a.source FROM models m"
                    " JOIN families f ON f.id = m.family_id JOIN providers p ON p.id = f.provider_id"
                    " LEFT JOIN aliases a ON a.model_id = m.id"
                    " WHERE p.slug = ? AND m.status IN ('active', 'latest') AND m.release_date IS NOT NULL"
                    " AND json_extract(m.metadata, '$.points_to') IS NULL", (provider,)):
                lines.setdefault((provider, family), set()).add((released, slug))
                if source is not None:
                    served_on.setdefault(source, set()).add(slug)
            self._lines[provider] = (lines, served_on)
        return self._lines[provider]

    def on_platform(self, model_id: str, platform: str) -> str | None:
        """The slug of the model that holds exactly this id on this platform (an alias of that alias source), or
        that the platform serves under exactly this id of its provider's (a schedule of its own there, and no id
        of the platform's: Gemini on Vertex AI), or None: a public catalog's row names a model only through an
        id the registry already knows there (docs/data-flow.md#the-public-catalog)."""
        return self.platform_ids.get((model_id, platform))

    def find_vertex(self, name: str) -> str | None:
        """The slug of the one model whose Vertex ids are versions of the publisher model `name`."""
        versions = self.vertex_names.get(name.lower(), ())
        # Only when the name has versions of exactly one model, so it means that model.
        return next(iter(versions)) if len(versions) == 1 else None
