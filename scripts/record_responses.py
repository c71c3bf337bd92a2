#!/usr/bin/env python3
"""Record the API's answers on the shipped registry, or compare them with a recording.

For a refactor that must not change behaviour: every public URL of the shipped registry (each
provider, family and model with its upgrade and history, a resolve of every alias, searches,
list filters, errors) is requested through the app, and its status, headers that clients read
and a hash of its body are written as JSON. `--compare FILE` prints every URL that answers
differently and exits 1 when any does.

    python3 scripts/record_responses.py --out before.json
    python3 scripts/record_responses.py --compare before.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
import shipped_registry  # noqa: E402  (scripts/: the registry built as the Makefile builds it)

# Run timestamps differ between two builds; the ETag follows the body, so neither is compared.
STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
HEADERS = ("Content-Type", "Cache-Control", "Allow", "Deprecation", "Sunset", "Link")


def urls(client) -> list[str]:
    """Every URL worth comparing, derived from the data itself."""
    out = ["/api/v1/providers", "/api/v1/families", "/api/v1/openapi.json", "/api/v1/nope",
           "/api/v1/models?per_page=200", "/api/v1/models?sort=parameter_count&per_page=200",
           "/api/v1/models?status=deprecated&per_page=200", "/api/v1/models?status=sunset",
           "/api/v1/models?open_source=true&min_params=1000000000", "/api/v1/models?per_page=0",
           "/api/v1/resolve", "/api/v1/resolve?q=definitely-not-a-model", "/api/v1/search?q=",
           "/api/v1/families?open_source=false", "/api/v1/models/nope/upgrade"]
    for p in client.get("/api/v1/providers").get_json()["providers"]:
        out += [f"/api/v1/providers/{p['slug']}", f"/api/v1/families?provider={p['slug']}",
                f"/api/v1/models?provider={p['slug']}&per_page=200"]
    for f in client.get("/api/v1/families").get_json()["families"]:
        out += [f"/api/v1/families/{f['slug']}", f"/api/v1/models?family={f['slug']}"]
    page, slugs = 1, []
    while True:
        body = client.get(f"/api/v1/models?per_page=200&page={page}").get_json()
        slugs += [m["slug"] for m in body["models"]]
        if page >= body["pagination"]["total_pages"]:
            break
        page += 1
    for slug in slugs:
        detail = client.get(f"/api/v1/models/{slug}").get_json()
        out += [f"/api/v1/models/{slug}", f"/api/v1/models/{slug}/upgrade", f"/api/v1/models/{slug}/history"]
        for alias in detail.get("aliases") or []:
            out.append("/api/v1/resolve?q=" + alias["alias"])
            out.append("/api/v1/search?q=" + alias["alias"])
        out.append("/api/v1/search?q=" + detail["display_name"])
    return sorted(set(out))


def record(client) -> dict:
    """url -> [status, headers, hash of the body with its timestamps masked]."""
    answers = {}
    for url in urls(client):
        r = client.get(url)
        answers[url] = [r.status_code, {h: r.headers.get(h) for h in HEADERS if h in r.headers},
                        hashlib.sha256(STAMP.sub(b"<time>", r.get_data())).hexdigest()]
    return answers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out")
    ap.add_argument("--compare")
    args = ap.parse_args()
    os.environ["REGISTRY_TODAY"] = "2026-11-22"
    with shipped_registry.client() as client:
        answers = record(client)
    print(f"{len(answers)} URLs")
    if args.out:
        Path(args.out).write_text(json.dumps(answers, indent=0, sort_keys=True))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        differ = [u for u in sorted(set(before) | set(answers)) if before.get(u) != answers.get(u)]
        for u in differ:
            print(f"differs: {u}\n  before {before.get(u)}\n  after  {answers.get(u)}")
        print(f"{len(differ)} of {len(answers)} differ")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
