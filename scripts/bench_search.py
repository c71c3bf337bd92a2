#!/usr/bin/env python3
"""Search latency on a 50,000-model synthetic registry: p50/p95/p99 of registry.search.ranking.search.

Builds (or reuses, with --db) a registry of realistic model names: 24 providers, their
families, versions, sizes, variants and date pins, ~4 aliases per model in the four alias
formats; rows are inserted with SQL, then registry.documents.refresh writes the FTS
documents as every write run does. Then times in-process search calls (one read-only
connection, as a web worker has) over a mix of query kinds. Target: p95 <= 5 ms.

    python3 scripts/bench_search.py [--models 50000] [--queries 3000] [--db PATH] [--seed 7]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from registry import documents  # noqa: E402
from registry.db import connect_ro, connect_rw, init_db, transaction  # noqa: E402
from registry.search.ranking import search  # noqa: E402

STAMP = "2026-01-01T00:00:00Z"
# provider slug -> (display name, family stems, gateway org)
PROVIDERS = {
    "openai": ("OpenAI", ["gpt", "o", "gpt-oss", "text-embedding", "whisper", "dall-e"], "openai"),
    "anthropic": ("Anthropic", ["claude-sonnet", "claude-opus", "claude-haiku", "claude-instant"], "anthropic"),
    "google": ("Google", ["gemini", "gemma", "gemini-embedding", "imagen", "veo"], "google"),
    "meta": ("Meta", ["llama", "llama-guard", "code-llama"], "meta-llama"),
    "mistral": ("Mistral AI", ["mistral-large", "mistral-small", "mistral-medium", "codestral", "devstral",
                               "mixtral", "pixtral", "ministral", "magistral"], "mistralai"),
    "qwen": ("Qwen", ["qwen", "qwen-coder", "qwen-vl", "qwq", "qwen-math"], "qwen"),
    "deepseek": ("DeepSeek", ["deepseek-v", "deepseek-r", "deepseek-coder"], "deepseek"),
    "xai": ("xAI", ["grok", "grok-code", "grok-vision"], "x-ai"),
    "cohere": ("Cohere", ["command", "command-r", "embed-english", "rerank"], "cohere"),
    "amazon": ("Amazon", ["nova", "titan-text", "titan-embed"], "amazon"),
    "microsoft": ("Microsoft", ["phi", "phi-mini", "wizardlm"], "microsoft"),
    "nvidia": ("NVIDIA", ["nemotron", "llama-nemotron"], "nvidia"),
    "ibm": ("IBM", ["granite", "granite-code"], "ibm-granite"),
    "ai21": ("AI21 Labs", ["jamba", "jurassic"], "ai21"),
    "zhipu": ("Zhipu AI", ["glm", "glm-z"], "z-ai"),
    "moonshot": ("Moonshot AI", ["kimi", "moonlight"], "moonshotai"),
    "baidu": ("Baidu", ["ernie"], "baidu"),
    "tencent": ("Tencent", ["hunyuan"], "tencent"),
    "01-ai": ("01.AI", ["yi", "yi-coder"], "01-ai"),
    "stability": ("Stability AI", ["stable-diffusion", "stablelm"], "stabilityai"),
    "perplexity": ("Perplexity", ["sonar", "sonar-reasoning"], "perplexity"),
    "minimax": ("MiniMax", ["minimax-m", "abab"], "minimax"),
    "bytedance": ("ByteDance", ["seed", "doubao"], "bytedance"),
    "allenai": ("Ai2", ["olmo", "tulu", "molmo"], "allenai"),
}
SIZES = ["", "", "", "1b", "3b", "7b", "8b", "9b", "12b", "14b", "27b", "32b", "70b", "72b", "110b", "235b-a22b",
         "30b-a3b", "8x7b", "8x22b", "405b", "480b-a35b", "e4b", "16e", "128e"]
VARIANTS = ["", "", "", "instruct", "chat", "coder", "vision", "mini", "nano", "pro", "flash", "lite", "turbo",
            "preview", "thinking", "exp", "max", "plus", "fast", "audio", "realtime", "search", "base", "it",
            "fp8", "deep-research", "customtools", "tts", "image"]
STATUSES = ["latest", "active", "active", "active", "deprecated", "sunset"]


def _title(part: str) -> str:
    return part.upper() if part in ("gpt", "glm", "tts", "it", "fp8") or part[:1].isdigit() else part.capitalize()


def synthetic_models(n: int, rnd: random.Random):
    """Yield n unique (provider, family stem, slug, display name, version, release, status, aliases)."""
    seen = set()
    providers = list(PROVIDERS)
    while len(seen) < n:
        provider = rnd.choice(providers)
        name, stems, org = PROVIDERS[provider]
        stem = rnd.choice(stems)
        major = rnd.randint(1, 9)
        version = f"{major}.{rnd.randint(0, 9)}" if rnd.random() < 0.5 else str(major)
        parts = [stem + version if rnd.random() < 0.3 else f"{stem}-{version}"]
        parts += [p for p in (rnd.choice(SIZES), rnd.choice(VARIANTS), rnd.choice(VARIANTS)) if p]
        year, month, day = rnd.randint(2022, 2026), rnd.randint(1, 12), rnd.randint(1, 28)
        pin = rnd.choice(["", "", f"{year}{month:02d}{day:02d}", f"{month:02d}-{day:02d}", f"{year % 100}{month:02d}"])
        slug = "-".join(parts + ([pin] if pin else [])).lower()
        if slug in seen:
            continue
        seen.add(slug)
        words = " ".join(_title(w) for w in "-".join(parts).replace("-", " ").split())
        display = words + (f" ({year}-{month:02d}-{day:02d})" if pin and rnd.random() < 0.5 else "")
        if rnd.random() < 0.15:
            display = f"{name}: {display}" + (" (free)" if rnd.random() < 0.3 else "")
        official = slug if rnd.random() < 0.8 else "-".join(p.capitalize() for p in slug.split("-"))
        aliases = [(official, "official"), (f"{org}/{slug}", "gateway")]
        if rnd.random() < 0.6:
            aliases.append((f"{provider}.{slug}-v{rnd.randint(1, 2)}:0", "cloud-a"))
            if rnd.random() < 0.5:
                aliases.append((f"us.{provider}.{slug}-v1:0", "cloud-a"))
        if rnd.random() < 0.5:
            aliases.append((f"{slug}@{year}{month:02d}{day:02d}" if pin else f"{slug}@default", "cloud-b"))
        if rnd.random() < 0.3:
            aliases.append((f"{slug}-latest", "official"))
        release = f"{year}-{month:02d}-{day:02d}" if rnd.random() < 0.9 else None
        yield provider, stem, slug, display, version, release, rnd.choice(STATUSES), aliases


def build(db_path: Path, n: int, seed: int) -> list[tuple]:
    """Create the synthetic registry at db_path; return the model tuples."""
    rnd = random.Random(seed)
    models = list(synthetic_models(n, rnd))
    init_db(str(db_path))
    conn = connect_rw(str(db_path))
    try:
        with transaction(conn):
            conn.executemany(
                "INSERT INTO providers (slug, name, website_url, created_at, updated_at) VALUES (?, ?, '', ?, ?)",
                [(slug, p[0], STAMP, STAMP) for slug, p in PROVIDERS.items()])
            pids = dict(conn.execute("SELECT slug, id FROM providers"))
            families = sorted({(m[0], m[1]) for m in models})
            conn.executemany(
                "INSERT INTO families (slug, name, provider_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                [(f"{p}-{stem}", " ".join(_title(w) for w in stem.split("-")), pids[p], STAMP, STAMP)
                 for p, stem in families])
            fids = dict(conn.execute("SELECT slug, id FROM families"))
            conn.executemany(
                "INSERT INTO models (slug, family_id, display_name, version, status, release_date, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(m[2], fids[f"{m[0]}-{m[1]}"], m[3], m[4], m[6], m[5], STAMP, STAMP) for m in models])
            mids = dict(conn.execute("SELECT slug, id FROM models"))
            rows, taken = [], set()
            for m in models:
                positions = {}
                for alias, source in m[7]:
                    if alias in taken:
                        continue
                    taken.add(alias)
                    rows.append((alias, mids[m[2]], source, positions.get(source, 0), alias.lower()))
                    positions[source] = positions.get(source, 0) + 1
            conn.executemany(
                "INSERT INTO aliases (alias, model_id, source, position, normalized) VALUES (?, ?, ?, ?, ?)", rows)
            documents.refresh(conn)
        conn.execute("PRAGMA optimize")
    finally:
        conn.close()
    return models


def query_mix(models: list[tuple], count: int, rnd: random.Random) -> list[tuple[str, str]]:
    """(kind, q) pairs: exact ids, display names, squashed names, prefixes while typing, broad words, misses."""
    broad = ["gpt", "claude", "llama", "gemini", "qwen", "instruct", "mini", "coder", "flash", "ge", "l", "7b",
             "3", "pro", "preview", "llama 3", "gemini 2.5", "qwen3 coder"]
    misses = ["zzyzx", "nothing here", "gpt-99 ultra", "克劳德", '"NOT" OR *', "col:x (y)"]
    out = []
    for _ in range(count):
        m = rnd.choice(models)
        kind = rnd.choice(["exact", "exact", "display", "squashed", "prefix", "prefix", "broad", "miss"])
        if kind == "exact":
            q = rnd.choice([m[2]] + [a for a, _ in m[7]])
        elif kind == "display":
            q = m[3].lower()
        elif kind == "squashed":
            q = documents.squash(rnd.choice([m[2], m[3]]))
        elif kind == "prefix":
            name = rnd.choice([m[2], m[3].lower()])
            q = name[:rnd.randint(max(2, len(name) // 3), max(2, len(name) - 1))]
        elif kind == "broad":
            q = rnd.choice(broad)
        else:
            q = rnd.choice(misses)
        out.append((kind, q))
    return out


def percentile(sorted_values: list[float], p: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))]


def measure(db_path: Path, queries: list[tuple[str, str]]) -> dict:
    """Milliseconds per search call, overall and by kind."""
    conn = connect_ro(str(db_path))
    try:
        for _, q in queries[:200]:
            search(conn, q)                                   # warm the page cache
        timings: dict[str, list] = {}
        for kind, q in queries:
            start = time.perf_counter()
            search(conn, q)
            timings.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
    finally:
        conn.close()
    timings["all"] = [t for values in timings.values() for t in values]
    return {kind: sorted(values) for kind, values in timings.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=50_000)
    ap.add_argument("--queries", type=int, default=3000)
    ap.add_argument("--db", type=Path, help="build here (reused if it already holds models)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:
        db_path = args.db or Path(tmp) / "registry.db"
        start = time.perf_counter()
        models = build(db_path, args.models, args.seed) if not db_path.exists() else \
            list(synthetic_models(args.models, random.Random(args.seed)))
        print(f"registry: {len(models)} models, {sum(len(m[7]) for m in models)} aliases "
              f"(ready in {time.perf_counter() - start:.1f} s)")
        timings = measure(db_path, query_mix(models, args.queries, random.Random(args.seed + 1)))
    print(f"{'kind':<10}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in sorted(timings, key=lambda k: (k == "all", k)):
        v = timings[kind]
        print(f"{kind:<10}{len(v):>6}{statistics.median(v):>9.2f}{percentile(v, 95):>9.2f}"
              f"{percentile(v, 99):>9.2f}{v[-1]:>9.2f}")
    p95 = percentile(timings["all"], 95)
    print(f"p95 {p95:.2f} ms: {'within' if p95 <= 5 else 'OVER'} the 5 ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
