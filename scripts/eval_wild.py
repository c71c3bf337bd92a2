#!/usr/bin/env python3
"""Resolver accuracy on identifiers as written in the wild (tests/data/resolve_wild_dev.jsonl).

The strings come from public code and other platforms' catalogs (agent SDK 'provider:model'
forms, Groq, Ollama, Fireworks, Together, DeepInfra, Azure, HF repos, '-latest' aliases, typos).
Builds the same AliasIndex as scripts/eval_resolve.py (tests/data/models_truth.jsonl with
exactly its aliases), resolves every q and prints the share resolved to the right model
(any confidence), overall and by kind, and the misses.

    python3 scripts/eval_wild.py [--verbose]
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
_spec = importlib.util.spec_from_file_location("eval_resolve", ROOT / "scripts" / "eval_resolve.py")
eval_resolve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eval_resolve)
from registry.resolve.index import AliasIndex  # noqa: E402  (eval_resolve put ROOT on sys.path)


def evaluate(data_dir: Path = DATA) -> dict:
    """Resolve every wild string on the truth registry: share right, by kind, and the misses."""
    truth = eval_resolve.read_jsonl(data_dir / "models_truth.jsonl")
    cases = eval_resolve.read_jsonl(data_dir / "resolve_wild_dev.jsonl")
    index = AliasIndex(eval_resolve.truth_rows(truth))
    total: Counter = Counter()
    right: Counter = Counter()
    results = []
    for case in cases:
        m = index.match(case["q"])
        ok = m is not None and m.row.model_slug == case["canonical"]
        total[case["kind"]] += 1
        right[case["kind"]] += ok
        results.append({"q": case["q"], "kind": case["kind"], "want": case["canonical"], "ok": ok,
                        "got": m.row.model_slug if m else None,
                        "stage": m.stage if m else None, "alias": m.row.alias if m else None})
    return {"n": len(cases), "accuracy": sum(right.values()) / len(cases),
            "by_kind": {k: (right[k], total[k]) for k in sorted(total)}, "results": results}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verbose", action="store_true", help="print every case, not only misses")
    args = ap.parse_args()
    res = evaluate()
    print(f"cases: {res['n']}   right model: {res['accuracy']:.1%}  (target >= 95%)")
    print(f"{'kind':<18}{'right':>8}")
    for kind, (ok, n) in sorted(res["by_kind"].items(), key=lambda kv: -kv[1][1]):
        print(f"{kind:<18}{ok:>4}/{n:<4}")
    for r in res["results"]:
        if args.verbose or not r["ok"]:
            mark = "ok  " if r["ok"] else "MISS"
            print(f"  {mark} [{r['kind']}] {r['q']!r} want {r['want']} got {r['got']} "
                  f"({r['stage']}) via {r['alias']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
