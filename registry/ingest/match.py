"""Turn a source's Records into its facts: match each to a model by slug or alias, then store.

A source writes only its own lane (docs/lifecycle.md#sources-stay-in-their-lane): a provider's
listing only that provider's models and aliases, a feed row only the provider it names, the hub
only open-weights models of its organisations. A claim on another provider's model, alias or
replacement is refused and listed in the run's details. Before any of that, every value a record
carries has passed the one check of upstream values (validate.py).
"""
import re
from collections import Counter
from functools import cached_property

from ..fields import CATALOG_SOURCES, FEED_SOURCE, HUB_SOURCE, OFFICIAL, PLATFORM_SOURCES
from ..db import tuples
from ..merge.changes import alias_owners
from ..merge.facts import fact_rows
from ..normalize import normalize
from . import held as held_back, prices, validate

_SLUG_JUNK = re.compile(r"[^a-z0-9.]+")


def slugify(model_id: str) -> str:
    """A URL-friendly slug from an upstream id: lowercase, [a-z0-9.-] only."""
    return _SLUG_JUNK.sub("-", model_id.lower()).strip("-.") or "model"


class Matcher:
    """Finds the model an upstream id means: its slug, then any known alias (exact, then case-insensitive)."""

    def __init__(self, conn):
        # Every source's run builds one, a listing of ten ids as a 50k-repo hub: read whole as plain tuples, and
        # the case-folded and Vertex tables only when a record needs them: the daily cycle pays it once per source
        # (bench/results.md).
        lanes = {family: (provider, bool(open_weights)) for family, provider, open_weights in tuples(conn).execute(
            "SELECT f.id, p.slug, f.is_open_source FROM families f JOIN providers p ON p.id = f.provider_id")}
        # slug -> (provider slug, open weights?): whose lane a known model is in; every model has one
        self.owner = {slug: lanes[family]
                      for slug, family in tuples(conn).execute("SELECT slug, family_id FROM models")}
        self.slugs = set(self.owner)
        self.aliases = alias_owners(conn)
        self._conn = conn
        self._lines: dict = {}   # provider -> its lines, read for its first floating id of a line (attach_floating)
        self._on_platform: dict | None = None   # (alias, alias source) -> slug, read for a public catalog's first row
        self._normal: dict | None = None    # normalized id -> slugs, built for the first platform record

    @cached_property
    def folded(self) -> dict:
        """Lowercased alias -> slug (of two aliases that fold alike, the first in order), built for the first id
        that no slug or alias names as written."""
        return {alias.lower(): slug for alias, slug in reversed(sorted(self.aliases.items()))}

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
        if self._normal is None:
            self._normal = {}
            for name, slug in [*((s, s) for s in self.slugs), *self.aliases.items()]:
                self._normal.setdefault(normalize(name), set()).add(slug)
        for name in (record.model_id, *record.links):
            # A floating id written without `-latest` (`mistralai/mistral-large`) names what the provider's
            # `-latest` names; a gateway's floating id of a line (`~google/gemini-pro-latest`), the provider's
            # own floating id of it where there is one.
            n = normalize(name).lstrip("~")
            for form in (n, n + "-latest"):
                mine = {slug for slug in self._normal.get(form, ())
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
        if self._on_platform is None:
            self._on_platform = {(alias, platform): slug for alias, platform, slug in self._conn.execute(
                "SELECT a.alias, a.source, m.slug FROM aliases a JOIN models m ON m.id = a.model_id")}
            for alias, serving, slug in self._conn.execute(
                    "SELECT a.alias, p.key, m.slug FROM models m JOIN aliases a ON a.model_id = m.id"
                    " AND a.source = 'official', json_each(m.metadata, '$.platforms') AS p"
                    " WHERE NOT EXISTS (SELECT 1 FROM aliases b WHERE b.model_id = m.id AND b.source = p.key)"):
                self._on_platform.setdefault((alias, serving), slug)
        return self._on_platform.get((model_id, platform))

    def find_vertex(self, name: str) -> str | None:
        """The slug of the one model whose Vertex ids are versions of the publisher model `name`."""
        versions = self.vertex_names.get(name.lower(), ())
        # Only when the name has versions of exactly one model, so it means that model.
        return next(iter(versions)) if len(versions) == 1 else None


def records_to_facts(conn, source: str, records) -> tuple[list, list, dict]:
    """Return (fact rows, alias fact rows, details) for a source's records.

    details accounts for every record: how many landed on a known model, how many are new models,
    and every other one with its reason (a platform's row, an unknown provider, an id no model has,
    an id that is no identifier); `refused` lists every refused record, value and alias with why,
    `refused_values` and `cleaned` count what the check of upstream values did (validate.py).
    """
    checked = validate.check(records)
    matcher = Matcher(conn)
    placed = {}     # slug -> merged fields; the first record for a model wins per field
    aliases = {}    # (alias, alias_source) -> (slug, position)
    successors = {}
    tally, unknown, refused = Counter(checked.refused_records), [], list(checked.refused)
    platform, unattached = PLATFORM_SOURCES.get(source), []
    # A gateway's floating id of a line comes last: it names a model only the catalog's other ids can show it serves.
    for record in sorted(checked.records, key=lambda r: r.model_id.startswith("~")):
        if record.skip:
            tally[record.skip] += 1
            continue
        if source in CATALOG_SOURCES:
            slug, why = _catalog_row(matcher, record)
            if slug is None:
                tally[why] += 1
                (refused if why.startswith("refused") else unknown).append(f"{record.platform}/{record.model_id}")
                continue
            tally["landed on a known model"] += 1
            _place_catalog_row(placed.setdefault(slug, {}), record)
            continue
        if platform is not None and (any(a[1] != platform for a in record.aliases)
                                     or set(record.fields.get("platforms", {})) - {platform}
                                     or set(record.fields.get("prices", {})) - {platform}):
            tally["refused: another platform's id or schedule"] += 1
            refused.append(f"{record.provider}/{record.model_id}: not an id or schedule of {platform}")
            continue
        # An alias another provider's model holds is no way into that model (refused below, alone).
        names = [a for a, _ in record.aliases if not matcher.foreign(a, record.provider)]
        slug = matcher.find(record.model_id, [*names, *record.links])
        if slug is None and platform is not None:
            slug = matcher.attach(record) or matcher.attach_floating(record, platform, placed)
        elif slug is None and "cloud-b" in record.fields.get("platforms", {}):
            slug = matcher.find_vertex(record.model_id)
        why = _outside_lane(source, record, matcher.owner.get(slug)) if slug is not None else None
        if why:
            tally["refused: another lane's model"] += 1
            refused.append(f"{record.provider or 'platform'}/{record.model_id} -> {slug}: {why}")
            continue
        if slug is None and platform is not None:
            # A platform's id of a model the registry does not know: listed for a curator, never a model of its own.
            tally["platform id no model of its provider is"] += 1
            unattached.append(f"{record.provider}/{record.model_id}")
            continue
        if slug is None:
            if not record.provider:
                tally["platform row with an id no model has" if "platforms" in record.fields
                      else "not a provider's model"] += 1
                continue
            if source == HUB_SOURCE and not record.fields.get("release_date"):
                # A repo older than the hub's creation dates (a research checkpoint) that no curated model
                # claims: no day says when it was released, so it is no working model to list.
                tally["undated repo no curated model claims"] += 1
                continue
            # Kept under the id's slug even for the feed: merge never creates a model from feed facts
            # alone, but they apply once a provider source lists it, whatever the order of runs.
            slug = slugify(record.model_id)
            if source == FEED_SOURCE:
                tally["unknown id"] += 1
                unknown.append(f"{record.provider}/{record.model_id}")
            else:
                tally["new model"] += 1
        else:
            tally["landed on a known model"] += 1
        fields = placed.setdefault(slug, {})
        for field, value in record.fields.items():
            if field == "successor":
                successors.setdefault(slug, value)
            elif field == "platforms":   # one record per cloud id: their schedules add up
                fields.setdefault(field, {}).update(value)
            else:
                fields.setdefault(field, value)
        if record.provider:
            fields.setdefault("provider", record.provider)
        positions = {}
        for alias, alias_source in record.aliases:
            owner = matcher.aliases.get(alias)
            if owner != slug and matcher.foreign(alias, record.provider):
                tally["refused: another provider's alias"] += 1
                refused.append(f"{record.provider}/{record.model_id}: alias {alias} is {owner}'s"
                               f" ({matcher.owner[owner][0]})")
                continue
            if (alias, alias_source) not in aliases:
                aliases[(alias, alias_source)] = (slug, positions.get(alias_source, 0))
                positions[alias_source] = positions.get(alias_source, 0) + 1
    for slug, successor_id in successors.items():
        # An unknown replacement keeps its slug: merge links it when that model exists.
        target = matcher.find(successor_id) or slugify(successor_id)
        mine, theirs = placed[slug].get("provider"), matcher.owner.get(target, (None,))[0]
        if mine and theirs and theirs != mine:
            tally["refused: another provider's replacement"] += 1
            refused.append(f"{mine}/{slug}: replacement {target} is {theirs}'s")
        elif target != slug:
            placed[slug]["successor"] = target
    held, shrunk = prices.dated(conn, source, placed), held_back.shrinking_windows(conn, source, placed)
    facts = _within_bound(fact_rows(source, placed), refused, checked.refused_values)
    alias_rows = [(source, alias, slug, alias_source, position)
                  for (alias, alias_source), (slug, position) in aliases.items()]
    details = {"records": sum(tally.values()), "outcomes": dict(sorted(tally.items()))}
    if unknown:
        details["unknown_ids"] = _bounded(sorted(unknown))
    if unattached:   # registry curate --drift lists them too (docs/curating.md#drift)
        details["unattached"] = _bounded(sorted(unattached))
    if refused:
        details["refused"] = _bounded(sorted(refused))
    if held:   # registry curate --drift lists them too (docs/api.md#prices)
        details["held_prices"] = _bounded(sorted(held))
    if shrunk:
        details["held_windows"] = _bounded(shrunk)
    details.update(checked.details())
    return facts, alias_rows, details


MAX_LISTED = 500   # lines of a run's details: the counts stay exact, the list is what an operator reads
# Bytes of facts one model may have from one source, as stored (JSON). Each value is bounded on its own
# (validate.py), but 200 keys nested 6 deep are not small: 38 MB of one model's `capabilities` made its
# answers slow for everyone (issue 44). The largest real record is under 1 KB.
MAX_RECORD_BYTES = 64 * 1024


def _within_bound(rows: list, refused: list, counts) -> list:
    """The fact rows with, for each model past MAX_RECORD_BYTES, its largest values dropped until it fits;
    each drop listed in refused and counted (a model's id and dates are small: they are never the ones)."""
    totals = {}
    for _source, slug, _field, value in rows:
        totals[slug] = totals.get(slug, 0) + len(value)
    over = {slug for slug, total in totals.items() if total > MAX_RECORD_BYTES}
    if not over:
        return rows
    dropped = set()
    for slug in over:
        total = totals[slug]
        for row in sorted((r for r in rows if r[1] == slug), key=lambda r: len(r[3]), reverse=True):
            if total <= MAX_RECORD_BYTES:
                break
            total -= len(row[3])
            dropped.add(row)
            refused.append(f"{slug}: {row[2]} ({len(row[3])} bytes) dropped: the model's facts from this source"
                           f" held {totals[slug]} bytes, past the {MAX_RECORD_BYTES} a record may hold")
            counts[f"{row[2]} past the bytes a record may hold"] += 1
    return [r for r in rows if r not in dropped]


def _bounded(lines: list) -> list:
    """At most MAX_LISTED lines, the last saying how many more there were."""
    if len(lines) <= MAX_LISTED:
        return lines
    return lines[:MAX_LISTED] + [f"... and {len(lines) - MAX_LISTED} more (counted in outcomes and refused_values)"]


def _catalog_row(matcher, record) -> tuple:
    """(slug, None) for a public catalog's row in its lane, else (None, why): its id must be one the registry knows
    on the row's platform, its price that platform's, and only a provider's own row may state the model's own
    capabilities (docs/data-flow.md#the-public-catalog)."""
    slug = matcher.on_platform(record.model_id, record.platform)
    if slug is None:
        return None, "an id the registry does not know on its platform"
    if set(record.fields.get("prices", {})) - {record.platform}:
        return None, "refused: another platform's price"
    if record.platform != OFFICIAL and set(record.fields) - {"prices"}:
        return None, "refused: a platform's row states the model's own facts"
    if record.provider and matcher.owner.get(slug, (record.provider,))[0] != record.provider:
        return None, "refused: another provider's model"
    return slug, None


def _place_catalog_row(fields: dict, record) -> None:
    """A public catalog's row into its model's fields: the first row of the model on each platform gives that
    platform's price, the first to state a capability gives it."""
    for field, value in record.fields.items():
        if field == "prices":
            fields.setdefault(field, {}).setdefault(record.platform, value[record.platform])
        else:
            fields.setdefault(field, value)


def _outside_lane(source: str, record, owner: tuple | None) -> str | None:
    """Why a record may not write the known model it landed on (None: its own lane)."""
    if owner is None:
        return None
    provider, open_weights = owner
    if record.provider and record.provider != provider:
        return f"a model of {provider}, not of {record.provider}"
    if source == HUB_SOURCE and not open_weights:
        return "not an open-weights model (the hub writes only published weights)"
    return None
