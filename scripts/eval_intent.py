#!/usr/bin/env python3
"""Search by intent on the shipped registry (tests/data/intent_dev.jsonl): success@1 and working-first rate.

Each line is a query a person types into a model registry's search box (a task, a size, a provider
and a tier, a capability, a typo, open weights, recency) and `want`, the predicate a person would
judge the first result by ("top result is a working speech-to-text model"). The registry is built as
`make run` builds it (curation and every seed, scripts/shipped_registry.py) with REGISTRY_TODAY pinned,
and every query goes through GET /api/v1/search.

success@1: share of queries whose first result satisfies `want`.
working-first: among queries where a working model satisfies `want` (its status part left out), the
share whose first result is a working model.

`want` keys, all of which must hold (names compare case-insensitively with display name and slug):
  working        status is active or latest          slug          the slug is one of these
  model_type     one of these types                  provider      the provider's slug is one of these
  open_source    is_open_source is this              name_all      every word is in the name
  name_any       some word is in the name            name_none     no word is in the name
  size_b         parameter count within 15% of N billion, or "<N>b" in the name
  min_params_b, max_params_b   a known parameter count at least / at most N billion
  min_input_context            input_context_window at least N
  capabilities   {name: value}: a flag equal to value, or a modality list holding value
  newest         no other working model that satisfies the rest of `want` was released later
  any_of         a list of predicates, one of which holds

    python3 scripts/eval_intent.py [--db PATH] [--verbose]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import shipped_registry  # noqa: E402

from registry.fields import WORKING  # noqa: E402

DEV = shipped_registry.ROOT / "tests" / "data" / "intent_dev.jsonl"
TODAY = "2026-11-22"     # statuses are derived from dates: pin the day


def read_cases(path: Path = DEV) -> list[dict]:
    """The intent queries, one dict per line."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_models(db_path: str) -> dict:
    """slug -> what the predicates read of a model."""
    from registry.db import connect_ro
    conn = connect_ro(db_path)
    try:
        return {r["slug"]: {**dict(r), "capabilities": json.loads(r["capabilities"] or "{}")} for r in conn.execute(
            "SELECT m.slug, m.display_name, m.status, m.model_type, m.release_date, m.parameter_count,"
            " m.input_context_window, m.capabilities, f.is_open_source, p.slug AS provider"
            " FROM models m JOIN families f ON f.id = m.family_id JOIN providers p ON p.id = f.provider_id")}
    finally:
        conn.close()


def _name(model: dict) -> str:
    return f"{model['display_name']} {model['slug']}".lower()


def _capability(model: dict, name: str, value) -> bool:
    known = model["capabilities"].get(name)
    return value in known if isinstance(known, list) else known is value


def _size(model: dict, billions: float) -> bool:
    count = model["parameter_count"]
    if count and abs(count - billions * 1e9) <= 0.15 * billions * 1e9:
        return True
    return f"{billions:g}b" in _name(model).replace(" ", "-")


CHECKS = {
    "working": lambda m, v, _: (m["status"] in WORKING) is v,
    "slug": lambda m, v, _: m["slug"] in v,
    "model_type": lambda m, v, _: m["model_type"] in v,
    "provider": lambda m, v, _: m["provider"] in v,
    "open_source": lambda m, v, _: bool(m["is_open_source"]) is v,
    "name_all": lambda m, v, _: all(w.lower() in _name(m) for w in v),
    "name_any": lambda m, v, _: any(w.lower() in _name(m) for w in v),
    "name_none": lambda m, v, _: not any(w.lower() in _name(m) for w in v),
    "size_b": lambda m, v, _: _size(m, v),
    "min_params_b": lambda m, v, _: bool(m["parameter_count"]) and m["parameter_count"] >= v * 1e9,
    "max_params_b": lambda m, v, _: bool(m["parameter_count"]) and m["parameter_count"] <= v * 1e9,
    "min_input_context": lambda m, v, _: (m["input_context_window"] or 0) >= v,
    "capabilities": lambda m, v, _: all(_capability(m, k, x) for k, x in v.items()),
    "any_of": lambda m, v, models: any(holds(m, p, models) for p in v),
}


def holds(model: dict, want: dict, models: dict) -> bool:
    """Does model satisfy every key of want?"""
    rest = {k: v for k, v in want.items() if k != "newest"}
    if not all(CHECKS[key](model, value, models) for key, value in rest.items()):
        return False
    if want.get("newest"):
        rivals = [m for m in models.values() if m["status"] in WORKING and holds(m, rest, models)]
        return all((m["release_date"] or "") <= (model["release_date"] or "") for m in rivals)
    return True


def evaluate(client, models: dict, cases: list[dict]) -> dict:
    """success@1 and the working-first rate of cases, through client's GET /api/v1/search."""
    outcomes = []
    for case in cases:
        response = client.get("/api/v1/search", query_string={"q": case["q"], "limit": 10})
        got = [r["slug"] for r in response.get_json()["results"]] if response.status_code == 200 else []
        top = models.get(got[0]) if got else None
        base = {k: v for k, v in case["want"].items() if k not in ("working", "newest")}
        working_exists = any(m["status"] in WORKING and holds(m, base, models) for m in models.values())
        outcomes.append({**case, "got": got, "ok": top is not None and holds(top, case["want"], models),
                         "working_exists": working_exists,
                         "working_first": top is not None and top["status"] in WORKING})
    by_kind = defaultdict(list)
    for o in outcomes:
        by_kind[o["kind"]].append(o["ok"])
    judged = [o for o in outcomes if o["working_exists"]]
    return {"n": len(outcomes), "success_at_1": sum(o["ok"] for o in outcomes) / len(outcomes),
            "working_first": sum(o["working_first"] for o in judged) / len(judged), "working_n": len(judged),
            "by_kind": {k: sum(v) / len(v) for k, v in sorted(by_kind.items())}, "outcomes": outcomes}


def run(db: str | None = None, cases_path: Path = DEV) -> dict:
    """Build the shipped registry (or use db) and evaluate the cases on it."""
    os.environ["REGISTRY_TODAY"] = TODAY
    with shipped_registry.client(db) as client:
        path = client.application.config["DATABASE"]
        return evaluate(client, load_models(path), read_cases(cases_path))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="an already built registry (default: build the shipped one now)")
    ap.add_argument("--verbose", action="store_true", help="print the top 3 of every query")
    args = ap.parse_args()
    res = run(args.db)
    print(f"queries: {res['n']}")
    print(f"success@1: {res['success_at_1']:.3f}  (target >= 0.90)")
    print(f"working first: {res['working_first']:.3f}  (of {res['working_n']} queries a working model satisfies)")
    for kind, value in res["by_kind"].items():
        print(f"  {kind:<14} {value:.3f}")
    misses = [o for o in res["outcomes"] if not o["ok"]]
    print(f"misses: {len(misses)}")
    for o in misses:
        print(f"  {o['q']!r} [{o['kind']}] {o['judged']}; top 3 {o['got'][:3]}")
    if args.verbose:
        for o in res["outcomes"]:
            print(f"{'ok ' if o['ok'] else 'MISS'} {o['q']:<32} {o['got'][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
