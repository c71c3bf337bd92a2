"""The upgrade decision: final and forward, in one platform's view (docs/lifecycle.md#the-upgrade).

From the model being asked about, take one step at a time until a step changes nothing:

1. from a model that is not working there, follow the replacement chain the provider (or the
   platform) named, past every link that is not working either, to the first working one;
2. else move to the newest working model of the line (the chain's end's line, then the model's own)
   that fits: same kind, same tier, not a smaller size class, released later, never a snapshot of a
   floating id;
3. else, for a model that is not working, the newest working fit of the line's successor line (the
   line the provider named, followed on while a line has no fit);
4. else, for a model that is not working, the first replacement on its chain that still answers
   (deprecated, not yet shut down): the provider's word is still better than nothing;
5. else, on a platform other than the provider's own API, the newest working model of the provider that
   the platform serves and that fits (the platform's own best fit).

In steps 2, 3 and 5 a generally available fit comes before a preview; a preview is reached only from a model
that is not working (or is a preview itself), and only where no generally available fit exists.

The answer is the last model reached, when it still answers there and is not the model asked about.
So an answer's own upgrade is always null (the steps from it were already taken), and a family's
latest has none.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..fields import WORKING
from .fit import FIT_RULES, LINE_RULES, LINK_RULES, broken_rules, fits, strictly_same_type, undated
from .status import Member

# A product line has tens of working models, not thousands: past this many candidates, none is found
# (bounds one decision on a registry with huge families).
SCAN_LIMIT = 64
MAX_STEPS = 32
UNSERVED = "unserved"   # a view's status of a model the platform does not serve (never stored)
# Why a step went where it went (the upgrade's basis is its first step's; docs/lifecycle.md#why):
REPLACEMENT = "replacement"          # the provider (or the platform) named it: steps 1 and 4
LINE = "line"                        # the newest working fit of the line: step 2
SUCCESSOR_LINE = "successor-line"    # the newest working fit of the line the provider moved to: step 3
PLATFORM = "platform"                # the platform's own best fit, where it serves no fit of the line: step 5
BASES = (REPLACEMENT, LINE, SUCCESSOR_LINE, PLATFORM)


@dataclass
class View:
    """One platform's view of the registry: each model's status and named replacement there.

    families: family id -> its candidate members' ids, newest release first (undated last);
    family_successor: family id -> the line its provider names as successor;
    served: the ids a caller on this platform may be sent to (None: any, its id format aside).
    """

    members: dict
    status: dict
    successor: dict
    families: dict
    family_successor: dict
    # (family, model_type) -> ids newest first, built on first use; views of one registry may share one
    # (it reads only members and families).
    by_kind: dict = field(default_factory=dict)
    # The models this platform calls a preview or experimental release: a fit only where no generally available
    # one is (docs/lifecycle.md#the-upgrade).
    preview: frozenset = frozenset()
    # On a platform other than the provider's own API, the models whose provider offers an upgrade (their own API's
    # decision found one) or does not retire them: where neither the line nor its successor lines offer a fit the
    # platform serves, the platform's own best fit is the newest working model of the provider it serves that fits.
    # A model its provider retires with no fit offered (a `successor: null` on record) gets none here either.
    own_best: frozenset = frozenset()
    # On a platform other than the provider's own API, the models their provider has retired: the decision moves on
    # from them as from a model that is not working, though the platform may still serve its copy (Bedrock's
    # Mistral Large 24.02, the published weights of Mistral 7B).
    moved_on: frozenset = frozenset()
    _served_newest: dict | None = None

    def platform_fit(self, anchor: Member) -> int | None:
        """The newest working model of anchor's provider this platform serves that fits anchor (FIT_RULES), a
        generally available one before a preview; None where own_best does not hold anchor."""
        if anchor.id not in self.own_best or anchor.provider_id is None:
            return None
        if self._served_newest is None:   # (provider, open weights) -> the working models served, newest first
            self._served_newest = {}
            served = (mid for mid in self.status if self.working(mid) and self.members[mid].points_to_id is None)
            for mid in sorted(served, key=lambda mid: (self.members[mid].release_date or "", self.members[mid].slug),
                              reverse=True):
                member = self.members[mid]
                self._served_newest.setdefault((member.provider_id, member.open_weights), []).append(mid)
        rules = FIT_RULES if anchor.release_date else undated(FIT_RULES)
        # Across lines, open weights of a known size go first to weights whose size is known too (not_smaller can
        # check nothing else: Command R's 35B goes to Command A's 111B before an unsized Tiny Aya); a generally
        # available fit goes before a preview. Newest first within each rank: the first fit of the best rank wins.
        sized_first = bool(anchor.open_weights and anchor.parameter_count)
        best = {}
        for mid in self._served_newest.get((anchor.provider_id, anchor.open_weights), ()):
            if mid == anchor.id or not fits(anchor, self.members[mid], rules):
                continue
            rank = (mid in self.preview, sized_first and not self.members[mid].parameter_count)
            best.setdefault(rank, mid)
            if rank == (False, False):
                break
        return best[min(best)] if best else None

    def working(self, model_id: int | None) -> bool:
        """Can a caller on this platform still call the model, and has its provider not moved on from it?"""
        return model_id is not None and self.status.get(model_id) in WORKING and model_id not in self.moved_on

    def chain(self, model_id: int) -> list[int]:
        """The replacement links from a model, in order (cycle-safe); a link that changes the kind of
        model ends the chain there."""
        path, seen, current = [], {model_id}, model_id
        while True:
            following = self.successor.get(current)
            if following is None or following in seen or following not in self.members:
                return path
            if broken_rules(self.members[current], self.members[following], LINK_RULES):
                return path
            seen.add(following)
            path.append(following)
            current = following

    def candidates(self, family_id: int, anchor: Member, rules: tuple) -> list:
        """The line's models that can fit anchor by rules, newest first: only those of its kind when the rules
        ask for it (a family is indexed by kind once, not re-checked per decision; a line is one tier, fit.py)."""
        if strictly_same_type not in rules:
            return self.families.get(family_id, ())
        if not self.by_kind:
            for fid, ids in self.families.items():
                for mid in ids:
                    self.by_kind.setdefault((fid, self.members[mid].model_type), []).append(mid)
        return self.by_kind.get((family_id, anchor.model_type), ())

    def newest_fit(self, family_id: int, anchor: Member, rules: tuple, previews: bool = True) -> int | None:
        """The newest generally available working model of a line that fits anchor by rules, else (previews) the
        newest preview that does, or None."""
        if not anchor.release_date:
            rules = undated(rules)
        preview = None
        for seen, candidate_id in enumerate(self.candidates(family_id, anchor, rules)):
            candidate = self.members[candidate_id]
            if seen >= SCAN_LIMIT:
                break
            if anchor.release_date and candidate.release_date and candidate.release_date <= anchor.release_date:
                break   # newest first: every later candidate is older still
            if candidate_id == anchor.id or not self.working(candidate_id):
                continue
            if fits(anchor, candidate, rules):
                if candidate_id not in self.preview:
                    return candidate_id
                preview = preview or candidate_id
        return preview if previews else None

    def successor_lines(self, family_id: int) -> list[int]:
        """The lines a line's named successors lead to, in order (cycle-safe)."""
        lines, current = [], family_id
        while True:
            current = self.family_successor.get(current)
            if current is None or current == family_id or current in lines:
                return lines
            lines.append(current)

    def callable(self, model_id: int | None) -> bool:
        """Does the model still answer there (working, or deprecated before its shutdown)?"""
        return model_id is not None and self.status.get(model_id) in WORKING + ("deprecated",)

    def step(self, position: int, touched: set | None = None) -> tuple[int, str] | None:
        """Where one step of the decision goes from a model and why (one of BASES), or None (docstring of this
        module).

        touched: when given, receives the replacement links the step walked past."""
        here = self.members[position]
        working = self.working(position)
        end = still_answers = None
        if not working:
            links = self.chain(position)
            if touched is not None:
                touched.update(links)
            first_working = next((link for link in links if self.working(link)), None)
            if first_working is not None:
                return first_working, REPLACEMENT
            end = self.members[links[-1]] if links else None
            still_answers = next((link for link in links if self.callable(link)), None)
        anchors = ([end] if end is not None else []) + [here]
        # A working, generally available model is never moved to a preview: only one that is going is.
        previews = not working or position in self.preview
        for anchor in anchors:
            found = self.newest_fit(anchor.family_id, anchor, FIT_RULES, previews)
            if found is not None:   # the line of the replacement's chain is still the provider's word
                return found, REPLACEMENT if anchor is end else LINE
        if working:
            return None
        for anchor in anchors:
            for line in self.successor_lines(anchor.family_id):
                found = self.newest_fit(line, anchor, LINE_RULES)
                if found is not None:
                    return found, SUCCESSOR_LINE
        if still_answers is None:
            found = self.platform_fit(here)
            return (found, PLATFORM) if found is not None else None
        return still_answers, REPLACEMENT


def steps(view: View, model_id: int, touched: set | None = None) -> list[tuple[int, str | None]]:
    """The models the decision's steps visit from a model, in order, each with why the step went there (the
    model itself first, with None).

    touched: when given, receives every model the steps reached, replacement links walked past included."""
    visited = [(model_id, None)]
    if view.status.get(model_id) != "latest":
        for _ in range(MAX_STEPS):
            following = view.step(visited[-1][0], touched)
            if following is None or following[0] in {v for v, _ in visited}:
                break
            visited.append(following)
    if touched is not None:
        touched.update(v for v, _ in visited)
    return visited


def path(view: View, model_id: int, touched: set | None = None) -> list[int]:
    """The models the decision's steps visit from a model, in order (the model itself first)."""
    return [v for v, _ in steps(view, model_id, touched)]


def upgrade_in(view: View, model_id: int, touched: set | None = None) -> tuple[int | None, str | None]:
    """The upgrade of a model in a platform's view (final and forward, or None) and its basis: why the first step
    moved (one of BASES)."""
    visited = steps(view, model_id, touched)
    position = visited[-1][0]
    if position == model_id or not view.callable(position):
        return None, None
    return position, visited[1][1]
