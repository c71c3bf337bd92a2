#!/usr/bin/env python3
"""Lifecycle truth on the shipped registry: known, right status, right sunset_date, right upgrade.

Builds the registry as `make run` does (schema, curation, every source from seeds/) into a
temporary file, unless --db names one, pins REGISTRY_TODAY (default 2026-11-22), and asks the
app, through its own HTTP interface, about every row of tests/data/lifecycle_dev.jsonl:

- known: /resolve finds a model at confidence >= 0.8;
- status: the status /resolve gives the row's identifier (active and latest count as
  `not-deprecated`): the model's, or, for a cloud's id with a schedule of its own (a Bedrock or
  Vertex AI row), that cloud's; rows whose status is `unknown` are not counted;
- sunset_date: the model's sunset_date, or that cloud's for its id, equals the row's (both absent
  counts as right);
- upgrade: for rows naming replacements, the upgrade /resolve gives the row's identifier (its
  platform's) is a replacement, a model
  that the replacement's successor chain leads to, or where the registry moves on from one of
  them (its own upgrade: decisions 10, the answer is final).

    python3 scripts/eval_lifecycle.py [--db PATH] [--today DATE] [--verbose]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import shipped_registry

from registry.fields import WORKING

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "lifecycle_dev.jsonl"


def chain(client, slug: str) -> list[str]:
    """slug and every model its successor chain leads to."""
    seen = [slug]
    while True:
        body = client.get(f"/api/v1/models/{seen[-1]}").get_json() or {}
        nxt = (body.get("successor") or {}).get("slug") if isinstance(body.get("successor"), dict) else None
        if not nxt or nxt in seen:
            return seen
        seen.append(nxt)


def evaluate(client, rows: list[dict]) -> dict:
    """Score every row; return the four shares and the misses."""
    score = {k: [0, 0] for k in ("known", "status", "sunset_date", "upgrade")}
    misses = []
    for row in rows:
        r = client.get("/api/v1/resolve", query_string={"q": row["model"]})
        body = r.get_json() if r.status_code == 200 else None
        known = body is not None and body["confidence"] >= 0.8
        score["known"][1] += 1
        score["known"][0] += known
        model = client.get(f"/api/v1/models/{body['matched_model']['slug']}").get_json() if known else None
        platform = body.get("platform_lifecycle") if known else None
        want_status = row["status_on_2026-11-22"]
        if want_status != "unknown":
            status = body["matched_model"]["status"] if known else None
            got = status and ("not-deprecated" if status in WORKING else status)
            score["status"][1] += 1
            score["status"][0] += got == want_status
            if got != want_status:
                misses.append(("status", row["model"], want_status, got))
        got_sunset = (platform or model)["sunset_date"] if model else "?"
        score["sunset_date"][1] += 1
        score["sunset_date"][0] += got_sunset == row["sunset_date"]
        if got_sunset != row["sunset_date"]:
            misses.append(("sunset_date", row["model"], row["sunset_date"], got_sunset))
        if row["replacements"]:
            score["upgrade"][1] += 1
            # the upgrade /resolve answers for the row's identifier: its platform's (docs/lifecycle.md#platforms)
            up = body.get("upgrade") if known else None
            good = set()
            for rep in row["replacements"]:
                rr = client.get("/api/v1/resolve", query_string={"q": rep})
                if rr.status_code == 200 and rr.get_json()["confidence"] >= 0.8:
                    links = chain(client, rr.get_json()["matched_model"]["slug"])
                    good.update(links)
                    # where the registry moves on from one of them (docs/lifecycle.md#the-upgrade: final)
                    for link in links:
                        onward = (client.get(f"/api/v1/models/{link}/upgrade").get_json() or {}).get("upgrade")
                        if onward:
                            good.add(onward["slug"])
            ok = up is not None and up["slug"] in good
            score["upgrade"][0] += ok
            if not ok:
                misses.append(("upgrade", row["model"], row["replacements"], up and up["slug"]))
        if not known:
            misses.append(("known", row["model"], "-", body and body["matched_model"]["slug"]))
    return {"score": score, "misses": misses}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="an existing registry database (default: build one from seeds)")
    ap.add_argument("--today", default="2026-11-22")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--verbose", action="store_true", help="list every miss")
    ap.add_argument("--platform", help="only rows of this platform (first-party, amazon-bedrock, google-vertex)")
    args = ap.parse_args()
    os.environ["REGISTRY_TODAY"] = args.today
    rows = [json.loads(line) for line in open(args.data, encoding="utf-8") if line.strip()]
    if args.platform:
        rows = [r for r in rows if r.get("platform") == args.platform]
    with shipped_registry.client(args.db) as client:
        res = evaluate(client, rows)
    print(f"rows: {len(rows)} (today {args.today})")
    for name, (ok, n) in res["score"].items():
        print(f"{name:<12} {ok:>4}/{n:<4} {ok / n if n else 0:.1%}")
    if args.verbose:
        for kind, model, want, got in sorted(res["misses"], key=lambda m: (m[0], m[1])):
            print(f"  {kind:<12} {model:<45} want {want}  got {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
