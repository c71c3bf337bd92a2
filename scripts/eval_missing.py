#!/usr/bin/env python3
"""The model ids teams call that the registry once lacked: which resolve on the shipped registry, to what.

Builds the registry as `make run` does (schema, curation, every source from seeds/) into a temporary
file, unless --db names one, and asks the app's own /api/v1/resolve about every string of
tests/data/missing_models.jsonl (a copy of the evaluation's `missing_models.jsonl`: the string, where
it was seen, and why it missed). A string counts as resolved when /resolve answers at confidence
>= 0.8 (an exact or a normalized match); a substring match (0.5) is listed but not counted.
Whether each answer is the right model is asserted by tests/test_missing_models.py.

    python3 scripts/eval_missing.py [--db PATH] [--data FILE] [--today DATE]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import shipped_registry

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "missing_models.jsonl"
KNOWN = 0.8     # exact (1.0) and normalized (0.8) matches; substring (0.5) is a guess


def read_rows(path: Path = DATA) -> list[dict]:
    """The rows of a missing-models file (q, provider_guess, where, why_missing)."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def resolve_all(client, rows: list[dict]) -> list[dict]:
    """One outcome per row: q, the matched slug (or None), the confidence (or None), the status code."""
    outcomes = []
    for row in rows:
        r = client.get("/api/v1/resolve", query_string={"q": row["q"]})
        body = r.get_json() if r.status_code == 200 else None
        outcomes.append({"q": row["q"], "status": r.status_code,
                         "slug": body["matched_model"]["slug"] if body else None,
                         "confidence": body["confidence"] if body else None})
    return outcomes


def resolved(outcome: dict) -> bool:
    """An exact or normalized match (confidence >= 0.8)."""
    return outcome["confidence"] is not None and outcome["confidence"] >= KNOWN


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="an existing registry database (default: build one from curation and seeds)")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--today", default="2026-11-22")
    args = ap.parse_args()
    os.environ["REGISTRY_TODAY"] = args.today
    rows = read_rows(Path(args.data))
    with shipped_registry.client(args.db) as client:
        outcomes = resolve_all(client, rows)
    for o in outcomes:
        got = f"{o['slug']} ({o['confidence']})" if o["slug"] else f"- ({o['status']})"
        print(f"{'ok ' if resolved(o) else '-- '} {o['q']:<48} {got}")
    n_ok = sum(resolved(o) for o in outcomes)
    guesses = sum(o["confidence"] is not None and not resolved(o) for o in outcomes)
    print(f"resolved (confidence >= {KNOWN}): {n_ok}/{len(outcomes)} {n_ok / len(outcomes):.0%}; "
          f"substring guesses {guesses}; not found {len(outcomes) - n_ok - guesses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
