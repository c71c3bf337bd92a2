#!/usr/bin/env python3
"""Platform ids on a built registry: right model, own-platform lifecycle, upgrade alias in-platform.

Asks the app, through its own HTTP interface (a test client over --db, as built by `make db`), about
every line of tests/data/platform_ids.jsonl: a real Bedrock (cloud-a), Vertex AI (cloud-b) or OpenRouter
(gateway) id from the models.dev catalogs and the first-party id (or Hugging Face repo) it serves. The
line's expected model is what /resolve answers for that `base` at confidence 1.0; a base it does not
resolve exactly is "base unknown to the registry", counted apart and not scored. Over the other lines:

1. right model: /resolve?q=<id> answers that model (any confidence);
2. own-platform lifecycle: `platform_lifecycle.platform` is the id's platform (docs/lifecycle.md#platforms);
3. upgrade in-platform: where `upgrade` is not null, `upgrade_alias` is not null and of the id's
   platform (docs/lifecycle.md#upgrade-alias); over lines with an upgrade only.

An id that is the same string as its provider's own id (a Gemini id on Vertex AI) answers for the provider's
API when asked bare, as the answer says (docs/lifecycle.md#how-an-id-is-written); such a line ("shared") is
scored on its answer behind the platform's LiteLLM route (`vertex_ai/gemini-2.5-pro`), as a team writing
LiteLLM ids asks it, and counted apart.

    python3 scripts/eval_platforms.py [--db PATH] [--today DATE] [--failures N] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "platform_ids.jsonl"
PLATFORMS = ("cloud-a", "cloud-b", "gateway")
ROUTES = {"cloud-a": "bedrock/", "cloud-b": "vertex_ai/", "gateway": "openrouter/"}   # LiteLLM's
MEASURES = ("model", "lifecycle", "upgrade_alias")


def resolve(client, q: str) -> dict | None:
    """The /resolve answer for q, or None when it is not a 200."""
    r = client.get("/api/v1/resolve", query_string={"q": q})
    return r.get_json() if r.status_code == 200 else None


def expected_slug(client, base: str) -> str | None:
    """The model the registry resolves base to exactly (confidence 1.0), else None."""
    body = resolve(client, base)
    return body["matched_model"]["slug"] if body and body["confidence"] == 1.0 else None


def score_line(client, line: dict) -> dict:
    """Ask about one line; return its outcome on each measure (None: not scored)."""
    want = expected_slug(client, line["base"])
    body = resolve(client, line["q"])
    shared = bool(body) and body["platform_lifecycle"]["platform"] == "official" != line["platform"] \
        and body["matched_alias"]["alias"] == line["q"]
    if shared:
        body = resolve(client, ROUTES[line["platform"]] + line["q"])
    got = body and {"slug": body["matched_model"]["slug"], "confidence": body["confidence"],
                    "alias": body["matched_alias"], "platform": (body.get("platform_lifecycle") or {}).get("platform"),
                    "upgrade": body["upgrade"] and body["upgrade"]["slug"], "upgrade_alias": body["upgrade_alias"],
                    "note": body.get("upgrade_alias_note")}
    out = {"line": line, "want": want, "got": got, "found": body is not None, "shared": shared,
           "model": None, "lifecycle": None, "upgrade_alias": None}
    if want is None:
        return out
    out["model"] = bool(got) and got["slug"] == want
    out["lifecycle"] = bool(got) and got["platform"] == line["platform"]
    if got and got["upgrade"]:
        ua = got["upgrade_alias"]
        out["upgrade_alias"] = ua is not None and ua.get("source") == line["platform"]
    return out


def figures(results: list[dict]) -> dict:
    """Counts and shares per platform and overall."""
    groups = defaultdict(list)
    for r in results:
        groups[r["line"]["platform"]].append(r)
        groups["all"].append(r)
    table = {}
    for name in [*PLATFORMS, "all"]:
        rs = groups.get(name, [])
        row = {"lines": len(rs), "base_known": sum(r["want"] is not None for r in rs),
               "not_found": sum(not r["found"] for r in rs), "shared": sum(r["shared"] for r in rs)}
        for m in MEASURES:
            scored = [r[m] for r in rs if r[m] is not None]
            row[m] = {"ok": sum(scored), "n": len(scored), "share": sum(scored) / len(scored) if scored else None}
        table[name] = row
    return table


def describe(r: dict, measure: str) -> str:
    """One failing line and what was answered, for --failures."""
    line, got = r["line"], r["got"]
    head = f"  {line['q']!r} [{line['platform']}] base {line['provider']}/{line['base']}"
    if measure == "base":
        return head
    if got is None:
        return f"{head}: 404 (want {r['want']})"
    if measure == "model":
        return (f"{head}: want {r['want']} got {got['slug']} ({got['confidence']}) "
                f"via {got['alias']['alias']!r} [{got['alias']['source']}]")
    if measure == "lifecycle":
        return f"{head}: platform_lifecycle {got['platform']} (matched alias source {got['alias']['source']})"
    ua = got["upgrade_alias"]
    return (f"{head}: upgrade {got['upgrade']} upgrade_alias "
            f"{ua and (ua['alias'], ua['source'])} note {got['note']!r}")


def main() -> int:
    """Run the evaluation and print the table, failures or JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.environ.get("REGISTRY_DB") or "./registry.db", help="a built registry")
    ap.add_argument("--today", default=os.environ.get("REGISTRY_TODAY") or "2026-12-06")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--failures", type=int, default=0, metavar="N", help="up to N failing lines per measure")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if not os.path.exists(args.db):
        ap.error(f"no registry at {args.db}: build one (make db) or pass --db")
    os.environ["REGISTRY_TODAY"] = args.today
    sys.path.insert(0, str(ROOT))
    from registry import create_app
    app = create_app({"TESTING": True, "DATABASE": args.db, "RATELIMIT_PUBLIC": "10000000/minute"})
    lines = [json.loads(s) for s in open(args.data, encoding="utf-8") if s.strip()]
    with app.test_client() as client:
        results = [score_line(client, line) for line in lines]
    table = figures(results)
    if args.json:
        print(json.dumps({"today": args.today, "db": args.db, "platforms": table}, indent=1))
        return 0
    print(f"lines: {len(lines)} (today {args.today}, db {args.db})")
    print(f"{'platform':<9}{'lines':>6}{'base known':>12}{'(1) model':>16}{'(2) lifecycle':>16}"
          f"{'(3) upgrade alias':>19}{'404':>5}{'shared':>8}")
    for name, row in table.items():
        cells = [f"{row[m]['ok']}/{row[m]['n']} {row[m]['share']:.0%}" if row[m]["n"] else "-" for m in MEASURES]
        print(f"{name:<9}{row['lines']:>6}{row['base_known']:>12}{cells[0]:>16}{cells[1]:>16}{cells[2]:>19}"
              f"{row['not_found']:>5}{row['shared']:>8}")
    if args.failures:
        kinds = [("base", "base unknown to the registry", lambda r: r["want"] is None)]
        kinds += [(m, f"({i}) {m} wrong", lambda r, m=m: r[m] is False) for i, m in enumerate(MEASURES, 1)]
        for measure, title, failed in kinds:
            bad = [r for r in results if failed(r)]
            print(f"\n{title}: {len(bad)}")
            for r in bad[:args.failures]:
                print(describe(r, measure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
