#!/usr/bin/env python3
"""Resolver accuracy on the development set (tests/data/resolve_dev.jsonl).

Builds an AliasIndex from tests/data/models_truth.jsonl with exactly its aliases
(model_slug = the truth `canonical`, position = order within source), resolves every q,
and prints the share resolved to the right model, the share with the right confidence
class (1.0 for "exact", 0.8 for "normalized"), and the failures.

    python3 scripts/eval_resolve.py [--collisions] [--sources] [--verbose]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT))
from registry.resolve.index import AliasIndex, AliasRow  # noqa: E402
from registry.normalize import guess_source, loose_key, normalize  # noqa: E402
EXPECTED_CONFIDENCE = {"exact": 1.0, "normalized": 0.8}


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def truth_rows(truth: list[dict]) -> list:
    rows = []
    for m in truth:
        counters: dict[str, int] = defaultdict(int)
        for a in m["aliases"]:
            rows.append(AliasRow(
                alias=a["alias"], source=a["source"], model_slug=m["canonical"],
                position=counters[a["source"]], release_date=m.get("release_date"),
                status=m.get("status") or "active"))
            counters[a["source"]] += 1
    return rows


def evaluate(data_dir: Path = DATA) -> dict:
    truth = read_jsonl(data_dir / "models_truth.jsonl")
    dev = read_jsonl(data_dir / "resolve_dev.jsonl")
    index = AliasIndex(truth_rows(truth))
    model_ok = conf_ok = source_ok = 0
    failures = []
    for case in dev:
        m = index.match(case["q"])
        got_model = m.row.model_slug if m else None
        got_conf = m.confidence if m else None
        right_model = got_model == case["canonical"]
        right_conf = got_conf == EXPECTED_CONFIDENCE[case["confidence_expected"]]
        model_ok += right_model
        conf_ok += right_conf
        source_ok += guess_source(case["q"]) == case["source"]
        if not (right_model and right_conf):
            failures.append({
                "q": case["q"], "variant": case["variant"], "want": case["canonical"],
                "want_conf": case["confidence_expected"], "got": got_model,
                "got_conf": got_conf, "alias": m.row.alias if m else None})
    n = len(dev)
    return {"n": n, "model_accuracy": model_ok / n, "confidence_accuracy": conf_ok / n,
            "guess_source_accuracy": source_ok / n, "failures": failures, "index": index,
            "truth": truth, "dev": dev}


def collisions(truth: list[dict]) -> tuple[dict, dict]:
    """Normalized (strict) and loose keys shared by aliases of different models."""
    strict: dict[str, set] = defaultdict(set)
    loose: dict[str, set] = defaultdict(set)
    for m in truth:
        for a in m["aliases"]:
            n = normalize(a["alias"])
            strict[n].add((m["canonical"], a["alias"]))
            loose[loose_key(n)].add((m["canonical"], a["alias"]))
    def pick(d):
        return {k: sorted(v) for k, v in d.items() if len({s for s, _ in v}) > 1}
    return pick(strict), pick(loose)


REGIONS = ("us", "eu", "apac", "global", "jp", "au", "us-gov", "ca")
LITELLM_REGIONS = ("us-east-1", "us-west-2", "eu-central-1", "ap-northeast-1", "us-gov-west-1")
VARIANTS = ("free", "beta", "thinking", "extended", "nitro", "online", "floor", "exacto")
DIRECT = {"google": "gemini", "mistral": "mistral", "xai": "xai", "qwen": "dashscope",
          "meta": "meta_llama", "anthropic": "anthropic", "openai": "openai",
          "cohere": "cohere", "deepseek": "deepseek", "amazon": "amazon"}


def decorated(truth: list[dict]):
    """Decorations of every truth alias (other regions, prefixes, suffixes than the dev set):
    (q, canonical) pairs that should resolve to the alias's model at confidence 0.8."""
    for m in truth:
        for a in m["aliases"]:
            al, src = a["alias"], a["source"]
            if src == "cloud-a":
                for r in REGIONS:
                    yield f"{r}.{al}", m["canonical"]
                for r in LITELLM_REGIONS:
                    yield f"bedrock/{r}/{al}", m["canonical"]
                yield f"bedrock/{al}", m["canonical"]
                yield f"bedrock/converse/{al}", m["canonical"]
            elif src == "cloud-b":
                yield f"vertex_ai/{al}", m["canonical"]
                yield f"publishers/x/models/{al}".replace("/x/", "/" + m["provider"] + "/"), \
                    m["canonical"]
            elif src == "gateway":
                yield f"openrouter/{al}", m["canonical"]
                for v in VARIANTS:
                    yield f"{al}:{v}", m["canonical"]
                yield f"openrouter/{al}:free", m["canonical"]
            else:
                yield f"{DIRECT.get(m['provider'], m['provider'])}/{al}", m["canonical"]
                if al != al.lower():
                    yield al.lower(), m["canonical"]
                yield f"models/{al}", m["canonical"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--collisions", action="store_true", help="list key collisions")
    ap.add_argument("--sources", action="store_true", help="list guess_source mismatches")
    ap.add_argument("--verbose", action="store_true", help="print every case")
    ap.add_argument("--decorations", action="store_true",
                    help="also resolve synthetic decorations of every truth alias")
    args = ap.parse_args()
    res = evaluate()
    if args.verbose:
        for case in res["dev"]:
            m = res["index"].match(case["q"])
            print(f"{case['q']:<60} -> {m.row.model_slug if m else None} "
                  f"({m.stage if m else '-'}) via {m.row.alias if m else '-'}")
    print(f"cases: {res['n']}")
    print(f"right model:      {res['model_accuracy']:.1%}  (target >= 97%)")
    print(f"right confidence: {res['confidence_accuracy']:.1%}  (target >= 95%)")
    print(f"guess_source agrees with the case's source: {res['guess_source_accuracy']:.1%}")
    print(f"failures: {len(res['failures'])}")
    for f in res["failures"]:
        print(f"  {f['q']!r} [{f['variant']}] want {f['want']} ({f['want_conf']}) "
              f"got {f['got']} ({f['got_conf']}) via {f['alias']!r}")
    if args.sources:
        for case in res["dev"]:
            g = guess_source(case["q"])
            if g != case["source"]:
                print(f"  source: {case['q']!r} guessed {g}, case says {case['source']}")
    if args.decorations:
        cases = [(q, c) for q, c in decorated(res["truth"]) if q not in res["index"].exact]
        bad = []
        for q, c in cases:
            m = res["index"].match(q)
            if not m or m.row.model_slug != c or m.confidence != 0.8:
                bad.append((q, c, m and m.row.model_slug, m and m.confidence))
        print(f"synthetic decorations: {len(cases)}, right model at 0.8: "
              f"{1 - len(bad) / len(cases):.1%}")
        for b in bad:
            print("  decoration miss: %r want %s got %s (%s)" % b)
    if args.collisions:
        strict, loose = collisions(res["truth"])
        print(f"strict normalized keys shared by different models: {len(strict)}")
        for k, v in sorted(strict.items()):
            print(f"  {k!r}: {v}")
        print(f"loose keys shared by different models: {len(loose)}")
        for k, v in sorted(loose.items()):
            print(f"  {k!r}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
