"""Benchmark registries: synthetic ones of N models (direct SQL) and the real curated one (real pipeline).

Synthetic models come from scripts/bench_search.py's generator (24 providers, realistic names,
~4 aliases in the official / cloud-a Bedrock / cloud-b Vertex / gateway OpenRouter formats); this
module adds what the API serves beyond names: families per major version, parameter counts from
the size token, context windows, model types, lifecycle dates, successors and provenance metadata.
Rows go in with executemany; statuses come from registry.merge.lifecycle.recompute, alias keys from
registry.merge.recompute.model_key, the FTS documents from registry.documents.refresh and the
change history from registry.merge.changes, as a real run writes them. Built files are cached under
bench/.cache/, keyed by size, seed and the sources that shape them (this file, the generator, schema.sql).
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".cache"
for extra in (ROOT, ROOT / "scripts"):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))

import bench_search  # noqa: E402  (scripts/bench_search.py: the name generator)
from registry import lifecycle as rules  # noqa: E402
from registry.merge import changes, lifecycle  # noqa: E402
from registry import documents  # noqa: E402
from registry.curation.apply import apply_curation  # noqa: E402
from registry.curation.reader import read_curation  # noqa: E402
from registry.db import bump_generation, connect_rw, init_db, schema_sql, transaction  # noqa: E402
from registry.ingest.runner import run_source  # noqa: E402
from registry.merge.recompute import model_key  # noqa: E402
from registry.fields import AUTOMATED_SOURCES  # noqa: E402

GENERATOR_VERSION = 2   # 2: a share of the models priced on the gateway (issue 46)
STAMP = "2026-01-01T00:00:00Z"
SOURCE = "bench-synthetic"   # the source the synthetic build's history names
OPEN_PROVIDERS = {"meta", "qwen", "deepseek", "microsoft", "nvidia", "ibm", "allenai", "01-ai", "stability"}
OPEN_STEMS = {"gemma", "gpt-oss", "mixtral", "ministral", "olmo", "tulu", "molmo", "stablelm"}
TYPES = {"embed": "embedding", "rerank": "embedding", "whisper": "speech_to_text", "dall-e": "image",
         "imagen": "image", "stable-diffusion": "image", "veo": "video"}
WEBSITES = {slug: f"https://{slug.replace('-', '')}.example.com" for slug in bench_search.PROVIDERS}


def _fingerprint(*parts) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(str(part).encode())
    digest.update(Path(__file__).read_bytes())
    digest.update(Path(bench_search.__file__).read_bytes())
    digest.update(Path(documents.__file__).read_bytes())   # how the search documents are written
    digest.update(schema_sql().encode())
    return digest.hexdigest()[:12]


def _params(slug: str):
    """(parameter_count, label) from a size token of the slug: 70b, 8x7b, 235b-a22b; else None."""
    for token in slug.split("-"):
        experts, _, size = token.rpartition("x")
        if size.endswith("b") and size[:-1].isdigit() and (not experts or experts.isdigit()):
            count = int(size[:-1]) * 10**9 * int(experts or 1)
            return count, token.upper().replace("X", "x")
    return None


def _model_type(stem: str) -> str:
    return next((t for key, t in TYPES.items() if key in stem), "chat")


def _lifecycle_dates(rnd: random.Random, release: str | None, today: date):
    """(deprecation_date, sunset_date): about 15% sunset, 15% deprecated, 5% deprecated in the future."""
    if not release:
        return None, None
    released = date.fromisoformat(release)
    roll = rnd.random()
    if roll < 0.15 and released < today - timedelta(days=200):
        dep = released + timedelta(days=rnd.randint(60, max(61, (today - released).days - 90)))
        sunset = min(dep + timedelta(days=rnd.randint(30, 180)), today - timedelta(days=1))
        return dep.isoformat(), sunset.isoformat()
    if roll < 0.30 and released < today - timedelta(days=60):
        dep = released + timedelta(days=rnd.randint(30, max(31, (today - released).days - 1)))
        return dep.isoformat(), (today + timedelta(days=rnd.randint(30, 365))).isoformat()
    if roll < 0.35:
        return (today + timedelta(days=rnd.randint(10, 300))).isoformat(), None
    return None, None


def build_synthetic(path: Path, n: int, seed: int) -> dict:
    """Create a synthetic registry of n models at path; return build timings and counts."""
    timings = {}
    start = time.perf_counter()
    rnd = random.Random(seed)
    raw = list(bench_search.synthetic_models(n, rnd))
    today = date.fromisoformat(rules.today())
    providers = bench_search.PROVIDERS
    families, models, alias_rows, taken = {}, [], [], set()
    for i, (provider, stem, slug, display, version, release, _status, aliases) in enumerate(raw, 1):
        major = version.split(".")[0]
        fslug = f"{provider}-{stem}-{major}"
        if fslug not in families:
            title = " ".join(bench_search._title(w) for w in stem.split("-"))
            families[fslug] = (len(families) + 1, fslug, f"{title} {major}", provider,
                               provider in OPEN_PROVIDERS or stem in OPEN_STEMS)
        family = families[fslug]
        params = _params(slug) if family[4] or rnd.random() < 0.2 else None
        dep, sunset = _lifecycle_dates(rnd, release, today)
        provenance = {"display_name": "vendor-a-api", "release_date": "vendor-a-api"}
        metadata = {"capabilities": rnd.sample(["tools", "vision", "json_mode", "streaming", "batch"], 2)}
        if params:
            provenance["parameter_count"] = "model-hub"
            metadata["tags"] = ["transformers", "safetensors", stem, f"license:{provider}"]
        if dep:
            provenance["deprecation_date"] = "deprecation-feed"
        if rnd.random() < 0.6:   # priced on the gateway as OpenRouter's catalog prices (docs/api.md#prices)
            cost = rnd.choice([0.05, 0.15, 0.4, 1.0, 2.5, 3.0, 15.0])
            metadata["prices"] = {"gateway": {"currency": "USD", "input_per_mtok": cost, "output_per_mtok": cost * 4,
                                              "effective_from": release or "2026-01-01",
                                              "source": "openrouter-catalog"}}
        metadata["provenance"] = dict(sorted(provenance.items()))
        models.append({
            "id": i, "slug": slug, "family_id": family[0], "display_name": display, "version": version,
            "model_type": _model_type(stem), "release_date": release, "deprecation_date": dep,
            "sunset_date": sunset, "parameter_count": params[0] if params else None,
            "parameter_label": params[1] if params else None,
            "input_context_window": rnd.choice([8192, 32768, 128000, 131072, 200000, 1048576, None]),
            "output_context_window": rnd.choice([4096, 8192, 16384, 32768, 65536, None]),
            "canonical_url": f"https://huggingface.co/{providers[provider][2]}/{slug}" if family[4] else None,
            "successor_id": None, "metadata": json.dumps(metadata, sort_keys=True)})
        claims, positions = [], {}
        for alias, source in aliases:
            if alias in taken:
                continue
            taken.add(alias)
            claims.append((alias, source, positions.get(source, 0)))
            positions[source] = positions.get(source, 0) + 1
        key = model_key(claims, slug)
        alias_rows += [(alias, i, source, position, key) for alias, source, position in claims]
    # Successors: a retiring model points at the next newer release of its family (most of the time).
    by_family, successors = {}, {}
    for m in models:
        if m["release_date"]:
            by_family.setdefault(m["family_id"], []).append(m)
    for members in by_family.values():
        members.sort(key=lambda m: (m["release_date"], m["slug"]))
        for older, newer in zip(members, members[1:], strict=False):
            if older["deprecation_date"] and rnd.random() < 0.7:
                successors[older["id"]] = newer["id"]
    timings["generate_s"] = time.perf_counter() - start

    start = time.perf_counter()
    init_db(str(path))
    conn = connect_rw(str(path))
    try:
        with transaction(conn):
            conn.executemany(
                "INSERT INTO providers (id, slug, name, website_url, api_models_url, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(i, slug, p[0], WEBSITES[slug], WEBSITES[slug] + "/v1/models", STAMP, STAMP)
                 for i, (slug, p) in enumerate(providers.items(), 1)])
            pids = dict(conn.execute("SELECT slug, id FROM providers"))
            conn.executemany(
                "INSERT INTO families (id, slug, name, provider_id, description, is_open_source, match_globs,"
                " position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(fid, fslug, name, pids[provider], f"{name} models by {providers[provider][0]}.", int(open_),
                  json.dumps([fslug.split("-", 1)[1] + "*"]), fid, STAMP, STAMP)
                 for fid, fslug, name, provider, open_ in families.values()])
            columns = list(models[0]) + ["status", "created_at", "updated_at"]
            conn.executemany(
                f"INSERT INTO models ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                [(*m.values(), "active", STAMP, STAMP) for m in models if not m.update(successor_id=None)])
            # Successors afterwards: a forward reference inside the batch would need a deferred key,
            # and SQLite settles those by scanning models for each new row (no successor index).
            conn.executemany("UPDATE models SET successor_id = ? WHERE id = ?",
                             [(m, i) for i, m in successors.items()])
            conn.executemany(
                "INSERT INTO aliases (alias, model_id, source, position, normalized) VALUES (?, ?, ?, ?, ?)",
                alias_rows)
            timings["insert_s"] = time.perf_counter() - start
            start = time.perf_counter()
            lifecycle.recompute(conn)
            timings["lifecycle_s"] = time.perf_counter() - start
            start = time.perf_counter()
            documents.refresh(conn)
            timings["fts_s"] = time.perf_counter() - start
            # The history a first build records (docs/api-decisions.md#change-history): every model added.
            start = time.perf_counter()
            changes.record(conn, changes.diff(changes.State({}, {}), changes.snapshot(conn), SOURCE), None, SOURCE)
            timings["history_s"] = time.perf_counter() - start
            bump_generation(conn)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return {"models": len(models), "aliases": len(alias_rows), "families": len(families),
            "providers": len(providers), **timings}


def build_curated(path: Path, seeds_dir: Path = ROOT / "seeds", curation_dir: Path = ROOT / "curation") -> dict:
    """The shipped registry through the real pipeline: schema, curation, every source offline."""
    start = time.perf_counter()
    init_db(str(path))
    cur = read_curation(curation_dir)
    if cur.errors:
        raise SystemExit("curation has errors:\n" + "\n".join(cur.errors))
    conn = connect_rw(str(path))
    try:
        apply_curation(conn, cur)
    finally:
        conn.close()
    for source in AUTOMATED_SOURCES:
        result = run_source(str(path), source, offline=True, seeds_dir=str(seeds_dir))
        if result.status != "completed":
            raise SystemExit(f"curated build: {source} {result.status}: {result.error}")
    conn = connect_rw(str(path))
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("models", "aliases", "families", "providers")}
    finally:
        conn.close()
    return {**counts, "build_s": time.perf_counter() - start}


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    _remove_locks(path)


def _remove_locks(path: Path) -> None:
    for lock in path.parent.glob(path.name + ".*.lock"):   # run_source's per-source lock files
        lock.unlink()


def _build_into_cache(name: str, builder, log) -> tuple[Path, dict]:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}.db"
    info_path = CACHE / f"{name}.json"
    if path.exists() and info_path.exists():
        info = json.loads(info_path.read_text())
        info["cached"] = True
        return path, info
    for stale in CACHE.glob(name.rsplit("-", 1)[0] + "-*"):   # older builds of this size, crashed builds
        stale.unlink()
    tmp = CACHE / f"{name}.build-{os.getpid()}.db"
    log(f"building {name} ...")
    start = time.perf_counter()
    info = builder(tmp)
    info["total_s"] = time.perf_counter() - start
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    os.replace(tmp, path)
    info_path.write_text(json.dumps(info, indent=1))
    info["cached"] = False
    log(f"built {name} in {info['total_s']:.1f} s")
    return path, info


def synthetic_db(n: int, seed: int = 7, log=print) -> tuple[Path, dict]:
    """The cached synthetic registry of n models (built on first use)."""
    name = f"synthetic-{n}-{_fingerprint(GENERATOR_VERSION, n, seed)}"
    return _build_into_cache(name, lambda p: build_synthetic(p, n, seed), log)


def curated_db(log=print) -> tuple[Path, dict]:
    """The shipped curation + seeds registry, rebuilt every run (two seconds) so it is never stale."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / "curated.db"
    _remove(path)
    info = build_curated(path)
    _remove_locks(path)
    log(f"built curated registry ({info['models']} models) in {info['build_s']:.1f} s")
    return path, info
