"""`registry audit`: the invariants that make the registry's answers true, checked over the whole
registry (docs/lifecycle.md#the-audit). `make test` fails on any violation of the shipped registry
(tests/test_offline_cycle.py), and each invariant is a table of small cases in tests/test_audit.py.
"""
from __future__ import annotations

from ..curation.reader import Curation
from ..fields import PLATFORM_NAMES
from . import answers, sources


def audit(conn, cur: Curation, directory, reg: answers.Registry | None = None) -> dict:
    """Every violation, by invariant (empty lists: nothing to fix). conn must hold lifecycles decided
    for today (merge.runs.refresh_if_stale); reg: the registry as the invariants read it, when already loaded."""
    reg = reg or answers.Registry(conn)
    findings = {name: check(reg) for name, check in answers.INVARIANTS.items()}
    findings["(h) a source wrote another provider's model or alias"] = sources.outside_lanes(conn)
    findings["(i) lifecycle value without a source"] = (sources.unsourced_lifecycle(conn, cur, directory)
                                                        + sources.unsourced_platform_lifecycles(conn))
    findings["(k) upgrade without its basis, or a named replacement without a source"] = \
        sources.unexplained_upgrades(conn)
    findings["working model without model_type"] = sources.untyped_working_models(conn)
    return findings


def known_gaps(conn, reg: answers.Registry | None = None) -> dict:
    """What the registry records as unknown, with a reason in curation: listed, not counted as findings."""
    return {"working models whose release day no source gives": answers.undated_on_record(reg or
                                                                                           answers.Registry(conn))}


def platform_figures(reg: answers.Registry) -> str:
    """Per platform, the share of its ids with an upgrade whose upgrade comes back as an id of the same
    platform (docs/lifecycle.md#the-audit)."""
    lines = ["Upgrades given on the caller's platform, of its ids with an upgrade:"]
    lines += [f"  {PLATFORM_NAMES[p]} ({p}): {kept} of {total} ({kept / total:.3f})"
              for p, (kept, total) in answers.platform_shares(reg).items()]
    return "\n".join(lines)


def render(findings: dict) -> str:
    """The findings as text, one heading per invariant with its count."""
    out = []
    for kind, items in findings.items():
        out.append(f"{kind} ({len(items)}):")
        out += [f"  {item}" for item in items]
    return "\n".join(out)
