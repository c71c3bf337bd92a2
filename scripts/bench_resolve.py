#!/usr/bin/env python3
"""In-process latency of AliasIndex.match() on a synthetic registry.

Builds 50,000 models with 200,000 aliases in the four formats (official, cloud-a =
Bedrock, cloud-b = Vertex AI, gateway = OpenRouter), then times match() for queries meant
for each stage (exact, normalized, substring, miss) and reports p50/p95/p99, grouped by the
stage each query actually reached.

    python3 scripts/bench_resolve.py [--models 50000] [--queries 3000] [--seed 7] [--cpu]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from registry.resolve.index import AliasIndex, AliasRow  # noqa: E402

# (provider, official org for Bedrock, OpenRouter org, Vertex publisher, name builder)
FAMILIES = {
    "anthropic": ["claude-opus", "claude-sonnet", "claude-haiku", "claude-fable", "claude-lyric"],
    "openai": ["gpt", "gpt-mini", "gpt-nano", "o", "gpt-oss", "gpt-codex", "gpt-pro"],
    "google": ["gemini-pro", "gemini-flash", "gemini-flash-lite", "gemma", "gemini-ultra"],
    "meta": ["Llama", "Llama-Guard", "Meta-Llama", "Llama-Vision", "Code-Llama"],
    "mistral": ["mistral-large", "mistral-small", "mistral-medium", "codestral", "devstral",
                "pixtral", "magistral", "ministral"],
    "qwen": ["Qwen", "Qwen-Coder", "Qwen-VL", "Qwen-Math", "QwQ"],
    "deepseek": ["DeepSeek-V", "DeepSeek-R", "DeepSeek-Coder", "DeepSeek-Prover"],
    "amazon": ["nova-pro", "nova-lite", "nova-micro", "titan-text", "titan-embed"],
    "cohere": ["command", "command-r", "command-a", "embed-english", "rerank"],
    "xai": ["grok", "grok-mini", "grok-code", "grok-vision"],
}
ORG = {"meta": "meta-llama", "mistral": "mistralai", "xai": "x-ai"}
VARIANTS = ["", "", "", "-instruct", "-chat", "-preview", "-exp", "-turbo", "-thinking",
            "-vision", "-audio", "-search", "-realtime", "-fast", "-plus", "-max", "-long"]
SIZES = ["", "", "", "-1b", "-3b", "-7b", "-8b", "-14b", "-32b", "-70b", "-72b", "-120b",
         "-235b-a22b", "-405b", "-17b-16e", "-30b-a3b"]


def make_model(rng: random.Random, provider: str) -> tuple[str, str, list[tuple[str, str]]]:
    fam = rng.choice(FAMILIES[provider])
    major, minor = rng.randint(1, 40), rng.randint(0, 9)
    ver = f"{major}.{minor}" if minor else str(major)
    size = rng.choice(SIZES)
    variant = rng.choice(VARIANTS)
    y, m, d = rng.randint(2022, 2027), rng.randint(1, 12), rng.randint(1, 28)
    date = f"{y}{m:02d}{d:02d}"
    base = f"{fam}-{ver}{size}{variant}"
    dashed = base.replace(".", "-")
    lower = base.lower()
    org = ORG.get(provider, provider)
    if provider == "anthropic":
        official = f"{dashed}-{date}"
        aliases = [(official, "official"), (dashed, "official"),
                   (f"anthropic.{official}-v1:0", "cloud-a"),
                   (f"{dashed}@{date}", "cloud-b"), (f"anthropic/{lower}", "gateway")]
    elif provider in ("openai", "xai", "cohere"):
        official = f"{lower}-{y}-{m:02d}-{d:02d}" if rng.random() < 0.5 else lower
        aliases = [(official, "official"), (f"{provider}.{lower}-v1:0", "cloud-a"),
                   (f"{provider}/{lower}-maas", "cloud-b"), (f"{org}/{official}", "gateway")]
    elif provider == "amazon":
        official = f"amazon.{dashed}-v1:0"
        aliases = [(official, "cloud-a"), (dashed, "official"),
                   (f"amazon/{dashed}", "gateway"), (f"amazon/{dashed}-maas", "cloud-b")]
    else:
        official = base if provider in ("meta", "qwen", "deepseek") else f"{lower}-{y % 100:02d}{m:02d}"
        bed = lower.replace("llama-", "llama").replace(".", "-")
        aliases = [(official, "official"), (f"{provider}.{bed}-v1:0", "cloud-a"),
                   (f"{provider}/{lower}-maas", "cloud-b"), (f"{org}/{lower}", "gateway")]
    release = f"{y}-{m:02d}-{d:02d}"
    return official, release, aliases


def build_rows(n_models: int, n_aliases: int, rng: random.Random):
    rows, seen_alias, seen_slug = [], set(), set()
    providers = list(FAMILIES)
    while len(seen_slug) < n_models:
        slug, release, aliases = make_model(rng, rng.choice(providers))
        if slug in seen_slug or any(a in seen_alias for a, _ in aliases):
            continue
        seen_slug.add(slug)
        status = rng.choice(["active", "active", "latest", "deprecated", "sunset"])
        pos: dict[str, int] = {}
        for a, src in aliases:
            seen_alias.add(a)
            rows.append(AliasRow(a, src, slug, pos.get(src, 0), release, status))
            pos[src] = pos.get(src, 0) + 1
    rng.shuffle(rows)
    return rows[:n_aliases]


def queries(rows, rng: random.Random, n: int) -> dict[str, list[str]]:
    by_src: dict[str, list] = {}
    for r in rows:
        by_src.setdefault(r.source, []).append(r.alias)
    def pick(src):
        return rng.choice(by_src[src])
    regions = ["us", "eu", "apac", "global", "jp", "au", "us-gov", "ca"]
    norm = [
        lambda: f"{rng.choice(regions)}.{pick('cloud-a')}",
        lambda: f"bedrock/{rng.choice(['us-east-1', 'eu-west-1', 'us-gov-west-1'])}/{pick('cloud-a')}",
        lambda: f"openrouter/{pick('gateway')}",
        lambda: f"{pick('gateway')}:{rng.choice(['free', 'beta', 'nitro', 'floor'])}",
        lambda: f"vertex_ai/{pick('cloud-b')}",
        lambda: pick("official").upper(),
    ]
    sub = [
        lambda: pick("official") + rng.choice(["-extended-edition", "-custom-tools", "-ft-acme"]),
        lambda: "acme-" + pick("official").lower() + "-turbo",
        lambda: "-".join(pick("official").lower().split("-")[:2]) + "-zz",
        lambda: "-".join(pick("official").lower().split("-")[1:-1]) or "no-match",  # forward
    ]
    words = ["nebula", "quartz", "falcon", "zephyr", "orca", "ultra", "gpt", "llama", "pro"]
    miss = [
        lambda: "".join(rng.choice("bcdfghjkmnpqrstvwxz") for _ in range(rng.randint(6, 14))),
        lambda: f"{rng.choice(words)}-{rng.randint(90, 99)}-{rng.choice(words)}x",
        lambda: f"totally/unknown-{rng.randint(0, 10**6)}-model",
    ]
    # only common tokens, in an order no alias has: every 4-gram is frequent (worst case)
    common = ["instruct", "chat", "preview", "70b", "pro", "flash", "turbo", "mini", "exp",
              "vision"]
    def miss_common():
        return "-".join(rng.sample(common, rng.randint(2, 4)))
    return {
        "exact": [rng.choice(rows).alias for _ in range(n)],
        "normalized": [rng.choice(norm)() for _ in range(n)],
        "substring": [rng.choice(sub)() for _ in range(n)],
        "miss": [rng.choice(miss)() for _ in range(n)],
        "miss-common": [miss_common() for _ in range(n)],
    }


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=50_000)
    ap.add_argument("--aliases", type=int, default=200_000)
    ap.add_argument("--queries", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cpu", action="store_true",
                    help="time each query's thread CPU time, not wall time (a machine shared with other work)")
    args = ap.parse_args()
    clock = time.thread_time_ns if args.cpu else time.perf_counter_ns
    rng = random.Random(args.seed)
    rows = build_rows(args.models, args.aliases, rng)
    print(f"registry: {len({r.model_slug for r in rows})} models, {len(rows)} aliases")
    t0 = time.perf_counter()
    index = AliasIndex(rows)
    build = time.perf_counter() - t0
    print(f"index build: {build:.2f} s ({len(index.table.keys)} normalized keys, "
          f"{len(index.loose)} loose keys, {len(index.forms)} form keys, "
          f"{len(index.substring.grams)} grams)")
    qs = queries(rows, rng, args.queries)
    for q in qs["exact"][:200]:      # warm-up
        index.match(q)
    timings: dict[str, list[float]] = {}
    print(f"{'intended':<12} {'reached':<11} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for intended, items in qs.items():
        by_stage: dict[str, list[float]] = {}
        for q in items:
            t = clock()
            m = index.match(q)
            dt = (clock() - t) / 1e6
            by_stage.setdefault(m.stage if m else "miss", []).append(dt)
            timings.setdefault(m.stage if m else "miss", []).append(dt)
        for stage, ts in sorted(by_stage.items(), key=lambda kv: -len(kv[1])):
            print(f"{intended:<12} {stage:<11} {len(ts):>6} {pct(ts, 50):>8.3f} "
                  f"{pct(ts, 95):>8.3f} {pct(ts, 99):>8.3f}")
    print("by stage reached:")
    for stage in ("exact", "normalized", "substring", "typo", "miss"):
        ts = timings.get(stage, [])
        if ts:
            print(f"  {stage:<11} n={len(ts):>6}  p50 {pct(ts, 50):.3f} ms  p95 "
                  f"{pct(ts, 95):.3f} ms  p99 {pct(ts, 99):.3f} ms  max {max(ts):.3f} ms  "
                  f"mean {statistics.mean(ts):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
