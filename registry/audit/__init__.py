"""`registry audit`: the invariants that make the registry's answers true, checked over the whole
registry (docs/lifecycle.md#the-audit). `make test` fails on any violation of the shipped registry
(tests/test_offline_cycle.py), and each invariant is a table of small cases in tests/test_audit.py.
"""
from __future__ import annotations

from ..curation.reader import Curation
from . import answers, sources


def audit(conn, cur: Curation, directory) -> dict:
    """Every violation, by invariant (empty lists: nothing to fix). conn must hold lifecycles decided
    for today (merge.runs.refresh_if_stale)."""
    reg = answers.Registry(conn)
    findings = {name: check(reg) for name, check in answers.INVARIANTS.items()}
    findings["(h) a source wrote another provider's model or alias"] = sources.outside_lanes(conn)
    findings["(i) lifecycle value without a source"] = (sources.unsourced_lifecycle(conn, cur, directory)
                                                        + sources.unsourced_platform_lifecycles(conn))
    findings["working model without model_type"] = sources.untyped_working_models(conn)
    return findings


def known_gaps(conn) -> dict:
    """What the registry records as unknown, with a reason in curation: listed, not counted as findings."""
    return {"working models whose release day no source gives": answers.undated_on_record(answers.Registry(conn))}


def render(findings: dict) -> str:
    """The findings as text, one heading per invariant with its count."""
    out = []
    for kind, items in findings.items():
        out.append(f"{kind} ({len(items)}):")
        out += [f"  {item}" for item in items]
    return "\n".join(out)
