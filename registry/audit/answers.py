"""The invariants of the answers a team asks for (docs/lifecycle.md#the-audit): is my id dying, and what
do I move to, written my way? Each function returns the violations, one line each.

(a) a retiring model whose provider offers a working fit has an upgrade; (b) every upgrade is final;
(c) each family's latest is its newest working release, and every working model is dated;
(d) no hub id of open weights answers sunset; (e) upgrade_alias keeps the caller's source and
decoration whenever the upgrade has such an alias; (f) no bare product word resolves above 0.5;
(g) a model's upgrade is the same model whichever of its ids is asked, platform schedules and what a platform
serves aside; (j) a platform's id is upgraded to an id of the same platform.
"""
from __future__ import annotations

from datetime import date

from .. import lifecycle as rules
from ..fields import HUB_PLATFORM, OFFICIAL, RETIRING, WORKING
from ..lifecycle.fit import FIT_RULES, fits, undated
from ..resolve import answer_match
from ..resolve.index import AliasIndex, Match
from ..normalize import normalize
from ..resolve.upgrade import alias_form, upgrade_aliases, wanted_form


class Registry:
    """What the invariants read, loaded once: members, decided lifecycles, providers, the alias index."""

    def __init__(self, conn):
        from ..merge.lifecycle import load_members   # the write side's loader: the same members the rules saw
        from ..resolve.cache import load_rows
        self.conn = conn
        self.members, self.family_successor, self.rows = load_members(conn)
        self.stored = {(r["model_id"], r["platform"]): r for r in conn.execute("SELECT * FROM platform_lifecycles")}
        self.provider = {r[0]: r[1] for r in conn.execute(
            "SELECT m.id, p.slug FROM models m JOIN families f ON f.id = m.family_id"
            " JOIN providers p ON p.id = f.provider_id")}
        self.aliases = load_rows(conn)
        self.index = AliasIndex(self.aliases)
        self.ids = {r["slug"]: mid for mid, r in self.rows.items()}
        self.undated_on_record = {r[0] for r in conn.execute(
            "SELECT model_slug FROM facts WHERE source = 'curation' AND field = 'release_date' AND value = 'null'")}
        self.newest_first = sorted(self.members.values(), key=lambda m: (m.release_date or "", m.slug), reverse=True)
        self._answers: dict = {}
        day = conn.execute("SELECT value FROM registry_state WHERE key = 'status_day'").fetchone()
        on = date.fromordinal(day[0]).isoformat() if day else rules.today()
        # the rules' own views of the day the stored rows were decided for: the paths their steps take
        self.views = {platform: view for platform, (view, _) in rules.views(self.members, self.family_successor,
                                                                             on).items()}

    def slug(self, model_id) -> str:
        """A model id's slug."""
        return self.rows[model_id]["slug"]

    def lifecycle(self, model_id: int, platform: str):
        """The stored row of a model on a platform, falling back to its own API's."""
        return self.stored.get((model_id, platform)) or self.stored.get((model_id, OFFICIAL))

    def serves(self, model_id: int, platform: str) -> bool:
        """Does the platform serve the model, and is it working there?"""
        return platform in self.members[model_id].served and self.working_on(model_id, platform)

    def working_on(self, model_id: int, platform: str) -> bool:
        """Does the model work on the platform (its row there, else its own)?"""
        row = self.lifecycle(model_id, platform)
        return row is not None and row["status"] in WORKING

    def answer(self, alias_row):
        """The /resolve answer for an alias string asked exactly (asked once per alias)."""
        key = (alias_row.alias, alias_row.source)   # one string may be an id of two platforms
        if key not in self._answers:
            self._answers[key] = answer_match(self.conn, alias_row.alias, Match(alias_row, "exact", 1.0))
        return self._answers[key]


def retiring_without_upgrade(reg: Registry) -> list:
    """(a) A model retiring on a platform with no upgrade there, while a working model of its provider fits.

    A model whose curation states `successor: null` (its provider names no replacement, with the source
    in a comment) is not held to a fit in another line: the registry does not invent one.
    """
    none_named = {r[0] for r in reg.conn.execute(
        "SELECT model_slug FROM facts WHERE source = 'curation' AND field = 'successor' AND value = 'null'")}
    found = []
    for (model_id, platform), row in sorted(reg.stored.items(), key=lambda kv: (reg.slug(kv[0][0]), kv[0][1])):
        if row["status"] not in RETIRING or row["upgrade_id"] is not None or reg.slug(model_id) in none_named:
            continue
        x = reg.members[model_id]
        rules_here = FIT_RULES if x.release_date else undated(FIT_RULES)
        fit = next((m for m in reg.newest_first
                    if reg.provider[m.id] == reg.provider[model_id] and m.points_to_id is None and not m.removed
                    and m.open_weights == x.open_weights   # a hosted line and published weights are other products
                    and (platform == OFFICIAL or platform in m.served)   # a fit the caller's platform serves
                    # and that its provider has not retired (a copy a platform still serves is no place to move to)
                    and reg.working_on(m.id, platform) and reg.working_on(m.id, OFFICIAL)
                    and fits(x, m, rules_here)), None)
        if fit is not None:
            found.append(f"{x.slug} [{platform}] is {row['status']} with no upgrade, though {fit.slug} fits")
    return found


def upgrades_not_final(reg: Registry) -> list:
    """(b) An upgrade whose own upgrade (on the same platform) is another model, or that is shut down there."""
    found = []
    for (model_id, platform), row in sorted(reg.stored.items(), key=lambda kv: (reg.slug(kv[0][0]), kv[0][1])):
        upgrade = row["upgrade_id"]
        if upgrade is None:
            continue
        if reg.lifecycle(upgrade, platform)["status"] == "sunset":
            found.append(f"{reg.slug(model_id)} [{platform}] -> {reg.slug(upgrade)}, which is shut down there")
            continue
        further = reg.lifecycle(upgrade, platform)["upgrade_id"]
        if further is not None:
            found.append(f"{reg.slug(model_id)} [{platform}] -> {reg.slug(upgrade)} -> {reg.slug(further)}")
    return found


def latest_not_newest(reg: Registry) -> list:
    """(c) A family whose latest is not its newest working release, and working models with no release date."""
    found, families = [], {}
    for m in reg.members.values():
        families.setdefault(m.family_id, []).append(m)
    for members in families.values():
        status = {m.id: reg.rows[m.id]["status"] for m in members}
        live = [m for m in members if status[m.id] in WORKING and m.points_to_id is None and not m.removed]
        latest = [m for m in members if status[m.id] == "latest"]
        newest = max(live, key=lambda m: (m.release_date or "", m.slug), default=None)
        if newest is not None and [m.id for m in latest] != [newest.id]:
            found.append(f"family of {newest.slug}: latest is {', '.join(sorted(m.slug for m in latest)) or 'none'},"
                         f" newest working release is {newest.slug}")
        found += [f"{m.slug}: working ({status[m.id]}) with no release date" for m in live
                  if not m.release_date and m.slug not in reg.undated_on_record]
    return sorted(found)


def undated_on_record(reg: Registry) -> list:
    """Working models whose curation records that no source gives a release day (`release_date: null`,
    with why in a comment): not violations, but listed, so a curator sees them until a day is found."""
    return sorted(f"{m.slug}: release day unknown (curated null)" for m in reg.members.values()
                  if m.slug in reg.undated_on_record and reg.rows[m.id]["status"] in WORKING)


def hub_ids_sunset(reg: Registry) -> list:
    """(d) A hub id of open weights that answers sunset."""
    found = []
    for alias in reg.aliases:
        model_id = reg.ids[alias.model_slug]
        if alias.source == "official" and "/" in alias.alias and reg.members[model_id].open_weights:
            answer = reg.answer(alias)
            if answer.status == "sunset":
                found.append(f"{alias.alias} ({alias.model_slug}) answers sunset on {answer.platform}")
    return sorted(found)


def format_not_kept(reg: Registry) -> list:
    """(e) An id whose upgrade has an alias of its source and decoration, but upgrade_alias is another."""
    found = []
    for alias in reg.aliases:
        answer = reg.answer(alias)
        if answer.upgrade is None:
            continue
        theirs = [a for a in upgrade_aliases(reg.conn, answer.upgrade) if a.source == alias.source]
        chosen = answer.upgrade_alias
        if theirs and (chosen is None or chosen.source != alias.source):
            found.append(f"{alias.alias}: upgrade {answer.upgrade['slug']} has {alias.source} ids, none given")
            continue
        want = wanted_form(alias, alias.alias)
        if any(alias_form(a) == want for a in theirs) and alias_form(chosen) != want:
            found.append(f"{alias.alias} -> {chosen.alias}: {answer.upgrade['slug']} has an id of the same form")
    return sorted(found)


def bare_words_resolved(reg: Registry) -> list:
    """(f) A single word (a product, tier or kind: 'claude', 'sonnet', 'embedding') resolving above 0.5
    other than exactly. A word that is a model's own slug (Mancer's `weaver`) names that model: not a bare word."""
    words = {w for a in reg.aliases for w in normalize(a.alias).split("-") if w.isalpha() and len(w) >= 3}
    words -= set(reg.ids)
    found = []
    for word in sorted(words):
        match = reg.index.match(word)
        if match is not None and match.confidence > 0.5 and match.stage != "exact":
            found.append(f"'{word}' resolves to {match.row.model_slug} at {match.confidence} ({match.row.alias})")
    return found


def upgrade_differs_by_id(reg: Registry) -> list:
    """(g) An id whose upgrade differs from its model's on that platform, or from the model's own where
    that platform's schedules change nothing for it."""
    found = []
    for alias in reg.aliases:
        model_id = reg.ids[alias.model_slug]
        answer = reg.answer(alias)
        got = answer.upgrade["id"] if answer.upgrade is not None else None
        stored = reg.lifecycle(model_id, answer.platform)
        if got != stored["upgrade_id"]:
            found.append(f"{alias.alias}: resolve says {answer.upgrade and answer.upgrade['slug']},"
                         f" the registry {stored['upgrade_id'] and reg.slug(stored['upgrade_id'])}")
            continue
        own = reg.lifecycle(model_id, OFFICIAL)["upgrade_id"]
        if got == own or answer.platform == HUB_PLATFORM or _schedules_matter(reg, model_id, answer.platform, got, own):
            continue
        if own is not None and not reg.serves(own, answer.platform):   # chosen among what the platform serves
            continue
        found.append(f"{alias.alias} [{answer.platform}]: upgrade {got and reg.slug(got)},"
                     f" the model's own {own and reg.slug(own)}, with no schedule of that platform to say why")
    return sorted(set(found))


def _schedules_matter(reg: Registry, model_id: int, platform: str, got, own) -> bool:
    """Does a schedule of that platform explain a different upgrade: does a model the decision visits
    there, or in the model's own view, or the model's own upgrade, have one?"""
    visited = set()
    for view in (reg.views[platform], reg.views[OFFICIAL]):
        for position in rules.path(view, model_id):   # each step, and the replacement links it walked past
            visited |= {position, *view.chain(position)}
    return any(platform in reg.members[mid].schedules for mid in visited | {got, own} if mid in reg.members)


def platform_ids(reg: Registry):
    """(alias, its answer) of every id a platform other than the provider's own API serves (a cloud's, the
    gateway's, a hub repo's), asked exactly."""
    for alias in reg.aliases:
        answer = reg.answer(alias)
        if answer.platform != OFFICIAL:
            yield alias, answer


def upgrade_off_platform(reg: Registry) -> list:
    """(j) A platform's id whose upgrade is given as no id, or as an id of another platform; a hub id of open
    weights whose upgrade is not published weights."""
    found = []
    for alias, answer in platform_ids(reg):
        if answer.upgrade is None:
            continue
        chosen, want = answer.upgrade_alias, OFFICIAL if answer.platform == HUB_PLATFORM else answer.platform
        if chosen is None or chosen.source != want:
            found.append(f"{alias.alias} [{answer.platform}] -> {answer.upgrade['slug']}: "
                         f"{'no id' if chosen is None else chosen.alias + ' (' + chosen.source + ')'} in its platform")
        elif answer.platform == HUB_PLATFORM and not reg.members[answer.upgrade["id"]].open_weights:
            found.append(f"{alias.alias} [hub] -> {answer.upgrade['slug']}, which is not published weights")
    return sorted(found)


def platform_shares(reg: Registry) -> dict:
    """platform -> (ids whose upgrade comes back as an id of that platform, ids with an upgrade): the figure
    `registry audit` prints per platform."""
    shares: dict = {}
    for alias, answer in platform_ids(reg):
        if answer.upgrade is None or alias.source != answer.platform and answer.platform != HUB_PLATFORM:
            continue
        want = OFFICIAL if answer.platform == HUB_PLATFORM else answer.platform
        kept, total = shares.get(answer.platform, (0, 0))
        chosen = answer.upgrade_alias
        shares[answer.platform] = (kept + (chosen is not None and chosen.source == want), total + 1)
    return dict(sorted(shares.items()))


INVARIANTS = {
    "(a) retiring with no upgrade though a working fit exists": retiring_without_upgrade,
    "(b) upgrade not final": upgrades_not_final,
    "(c) family latest not its newest working release, or a working model undated": latest_not_newest,
    "(d) hub id of open weights answers sunset": hub_ids_sunset,
    "(e) upgrade_alias does not keep the caller's format": format_not_kept,
    "(f) bare product word resolves above 0.5": bare_words_resolved,
    "(g) upgrade differs by id, platform schedules aside": upgrade_differs_by_id,
    "(j) a platform's id upgraded off its platform": upgrade_off_platform,
}
