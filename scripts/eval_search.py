#!/usr/bin/env python3
"""Search quality on the development set (tests/data/search_dev.jsonl): MRR@10.

Builds a registry from tests/data/models_truth.jsonl (scripts/truth_registry.py), runs
every query through registry.search.ranking.search, and prints MRR@10 (reciprocal rank of the
first relevant model within the top 10, averaged), the figure per query kind, and the
misses (queries whose first relevant model is not ranked first).

    python3 scripts/eval_search.py [--verbose]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truth_registry  # noqa: E402

from registry.db import connect_ro  # noqa: E402
from registry.search.ranking import search  # noqa: E402

DEV = truth_registry.ROOT / "tests" / "data" / "search_dev.jsonl"
K = 10


def read_cases(path: Path = DEV) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def evaluate(db_path, slugs: dict[str, str], cases: list[dict]) -> dict:
    """MRR@10 over cases on the registry at db_path; slugs maps canonical ids to model slugs."""
    conn = connect_ro(str(db_path))
    try:
        outcomes = []
        for case in cases:
            relevant = {slugs[c] for c in case["relevant"]}
            got = [r["slug"] for r in search(conn, case["q"], limit=K)]
            rank = next((i + 1 for i, slug in enumerate(got) if slug in relevant), None)
            outcomes.append({**case, "rank": rank, "rr": 1 / rank if rank else 0.0, "got": got})
    finally:
        conn.close()
    by_kind = defaultdict(list)
    for o in outcomes:
        by_kind[o["kind"]].append(o["rr"])
    return {"n": len(outcomes), "mrr": sum(o["rr"] for o in outcomes) / len(outcomes),
            "by_kind": {k: sum(v) / len(v) for k, v in sorted(by_kind.items())}, "outcomes": outcomes}


def run(cases_path: Path = DEV) -> dict:
    """Build the truth registry in a temp dir and evaluate the cases on it."""
    with tempfile.TemporaryDirectory(prefix="eval-search-") as tmp:
        db_path = Path(tmp) / "registry.db"
        slugs = truth_registry.build_truth_registry(db_path)
        return evaluate(db_path, slugs, read_cases(cases_path))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verbose", action="store_true", help="print the top 3 of every query")
    args = ap.parse_args()
    res = run()
    print(f"queries: {res['n']}")
    print(f"MRR@{K}: {res['mrr']:.3f}  (target >= 0.90)")
    for kind, value in res["by_kind"].items():
        print(f"  {kind:<14} {value:.3f}")
    misses = [o for o in res["outcomes"] if o["rank"] != 1]
    print(f"misses (first relevant not ranked first): {len(misses)}")
    for o in misses:
        print(f"  {o['q']!r} [{o['kind']}] rank {o['rank'] or '>' + str(K)}; want {o['relevant']}; "
              f"top 3 {o['got'][:3]}")
    if args.verbose:
        for o in res["outcomes"]:
            print(f"{o['q']:<45} {o['rank']!s:>4}  {o['got'][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
