"""Ingestion at scale: a 50k-model Hugging Face snapshot through the model-hub source, on the curated db.

The snapshot is written in the seeds format (model-hub/page-NNN.json + page-NNN.headers.json with
the Link header, 500 items a page as the hub serves them): the real seed items first, then
synthetic repos of the well-known orgs with realistic names, tasks, tags, configs and safetensors
sizes. Each run is a child process (`python bench/ingestbench.py child DB SEEDS`) calling
registry.ingest.runner.run_source(db, "model-hub", offline=True, seeds_dir=SEEDS), so its peak RSS
is its own (os.wait4). The re-run must report 0 added, 0 updated and leave models, aliases and
search documents byte-for-byte as they were.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from registry.fields import AUTOMATED_SOURCES  # noqa: E402  (the daily cycle: every source, in `flask ingest`'s order)

SOURCE = "model-hub"
PAGE_SIZE = 500
GENERATOR_VERSION = 1
LINK = ('<https://huggingface.co/api/models?author={org}&expand%5B%5D=safetensors&expand%5B%5D=createdAt'
        '&expand%5B%5D=tags&expand%5B%5D=pipeline_tag&expand%5B%5D=config&expand%5B%5D=private'
        '&expand%5B%5D=disabled&expand%5B%5D=gated&limit=500&cursor={cursor}>; rel="next"')
# org -> (name stems, architecture, config model_type, languages)
ORGS = {
    "meta-llama": (["Llama-{v}", "Meta-Llama-{v}", "Llama-Guard-{v}", "CodeLlama-{v}", "Llama-{v}-Vision"],
                   "LlamaForCausalLM", "llama"),
    "google": (["gemma-{v}", "codegemma-{v}", "paligemma-{v}", "recurrentgemma-{v}", "medgemma-{v}",
                "shieldgemma-{v}", "t5gemma-{v}"], "Gemma3ForCausalLM", "gemma3"),
    "Qwen": (["Qwen{v}", "Qwen{v}-Coder", "Qwen{v}-VL", "Qwen{v}-Math", "Qwen{v}-Audio", "QwQ-{v}"],
             "Qwen2ForCausalLM", "qwen2"),
    "deepseek-ai": (["DeepSeek-V{v}", "DeepSeek-R{v}", "deepseek-coder-{v}", "DeepSeek-Prover-V{v}",
                     "deepseek-vl{v}", "DeepSeek-R1-Distill-Qwen-{v}"], "DeepseekV3ForCausalLM", "deepseek_v3"),
    "mistralai": (["Mistral-{v}", "Mixtral-{v}", "Ministral-{v}", "Devstral-{v}", "Magistral-{v}",
                   "Pixtral-{v}", "Codestral-{v}", "Voxtral-{v}"], "MistralForCausalLM", "mistral"),
    "openai": (["gpt-oss-{v}", "whisper-{v}", "gpt-oss-safeguard-{v}"], "GptOssForCausalLM", "gpt_oss"),
    "CohereLabs": (["c4ai-command-r{v}", "c4ai-command-a-{v}", "aya-expanse-{v}", "aya-vision-{v}"],
                   "CohereForCausalLM", "cohere"),
}
SIZES = ["", "0.5B", "1B", "1.5B", "3B", "4B", "7B", "8B", "9B", "12B", "14B", "24B", "27B", "32B", "70B",
         "72B", "110B", "235B-A22B", "30B-A3B", "8x7B", "8x22B", "405B"]
VARIANTS = ["", "", "Instruct", "Base", "it", "Chat", "Thinking", "Vision-Instruct", "Reasoning", "Preview",
            "hf", "Long", "Math", "Guard"]
TASKS = ["text-generation"] * 14 + ["image-text-to-text"] * 3 + ["feature-extraction", "sentence-similarity",
                                                                 "automatic-speech-recognition", "text-ranking"]
LANGS = ["en", "de", "fr", "it", "pt", "hi", "es", "th", "zh", "ja", "ko", "ar"]


def _name(rnd: random.Random, stems: list) -> str:
    version = f"{rnd.randint(1, 9)}.{rnd.randint(0, 9)}" if rnd.random() < 0.6 else str(rnd.randint(1, 40))
    parts = [rnd.choice(stems).format(v=version)]
    parts += [p for p in (rnd.choice(SIZES), rnd.choice(VARIANTS)) if p]
    if rnd.random() < 0.5:   # a re-release tag as the orgs write them: -2507, -v0.3, -0528
        parts.append(rnd.choice([f"{rnd.randint(23, 26)}{rnd.randint(1, 12):02d}",
                                 f"v0.{rnd.randint(1, 9)}", f"{rnd.randint(1, 12):02d}{rnd.randint(1, 28):02d}"]))
    return "-".join(parts)


def synthetic_items(n: int, seed: int, taken: set) -> dict:
    """org -> items: n unique repos in the hub's listing format, none a quantized re-upload."""
    from registry.ingest.sources.huggingface import _DERIVED
    rnd = random.Random(seed)
    out = {org: [] for org in ORGS}
    made = 0
    while made < n:
        org = rnd.choice(list(ORGS))
        stems, arch, model_type = ORGS[org]
        name = _name(rnd, stems)
        hub_id = f"{org}/{name}"
        if hub_id.lower() in taken or _DERIVED.search(name):
            continue
        taken.add(hub_id.lower())
        made += 1
        task = rnd.choice(TASKS)
        created = f"{rnd.randint(2022, 2026)}-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}T" \
                  f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:00.000Z"
        tags = ["transformers", "safetensors", model_type, task, "conversational"] * (task != "feature-extraction") \
            + rnd.sample(LANGS, rnd.randint(1, 6)) \
            + [f"license:{org.lower()}", "text-generation-inference", "endpoints_compatible", "region:us"]
        if rnd.random() < 0.4:
            tags.append(f"base_model:finetune:{hub_id.rsplit('-', 1)[0]}")
        item = {"_id": "%024x" % rnd.getrandbits(96), "id": hub_id, "createdAt": created, "pipeline_tag": task,
                "downloads": rnd.randint(0, 5_000_000), "likes": rnd.randint(0, 8000),
                "gated": rnd.choice([False, False, "manual", "auto"]), "tags": tags,
                "config": {"architectures": [arch], "model_type": model_type},
                "private": False, "disabled": False}
        if rnd.random() < 0.75:
            total = rnd.choice([494032768, 1543714304, 3212749824, 7615616512, 8030261248, 12187325040,
                                27009002240, 70553706496, 235093634560])
            item["safetensors"] = {"parameters": {"BF16": total}, "total": total}
        out[org].append(item)
    return out


def write_snapshot(directory: Path, n: int, seed: int = 5) -> dict:
    """Write seeds-format model-hub pages for the real seed items plus n synthetic repos."""
    from registry.ingest.snapshots import load_pages
    real = [item for page in load_pages(ROOT / "seeds", SOURCE) for item in page.body]
    by_org = synthetic_items(n, seed, {item["id"].lower() for item in real})
    for item in real:
        org = item["id"].split("/", 1)[0]
        by_org.setdefault(org, []).insert(0, item)
    target = directory / SOURCE
    target.mkdir(parents=True, exist_ok=True)
    page_no = 0
    for org, items in by_org.items():
        chunks = [items[i:i + PAGE_SIZE] for i in range(0, len(items), PAGE_SIZE)] or [[]]
        for k, chunk in enumerate(chunks):
            page_no += 1
            (target / f"page-{page_no:03d}.json").write_text(json.dumps(chunk), encoding="utf-8")
            if k + 1 < len(chunks):
                cursor = hashlib.sha1(f"{org}{k}".encode()).hexdigest()
                (target / f"page-{page_no:03d}.headers.json").write_text(
                    json.dumps({"Link": LINK.format(org=org, cursor=cursor)}), encoding="utf-8")
    return {"pages": page_no, "items": sum(len(v) for v in by_org.values()), "real": len(real)}


def snapshot(n: int, cache: Path, log=print) -> tuple[Path, dict]:
    """The cached seeds directory holding a model-hub snapshot of n synthetic repos (+ the real ones)."""
    # Keyed by the seed pages too: the snapshot holds their repos, so a change to them makes it anew.
    digest_ = hashlib.sha256(Path(__file__).read_bytes() + str((GENERATOR_VERSION, n)).encode())
    for page in sorted((ROOT / "seeds" / SOURCE).rglob("*")):
        if page.is_file():
            digest_.update(page.relative_to(ROOT).as_posix().encode() + page.read_bytes())
    fingerprint = digest_.hexdigest()[:12]
    directory = cache / f"hub-{n}-{fingerprint}"
    info_path = directory / "snapshot.json"
    if info_path.exists():
        return directory, json.loads(info_path.read_text())
    for stale in cache.glob(f"hub-{n}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    start = time.perf_counter()
    tmp = cache / f"hub-{n}-build-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    info = write_snapshot(tmp, n)
    info["build_s"] = time.perf_counter() - start
    (tmp / "snapshot.json").write_text(json.dumps(info))
    os.replace(tmp, directory)
    log(f"wrote a model-hub snapshot of {info['items']} repos in {info['pages']} pages ({info['build_s']:.1f} s)")
    return directory, info


def digest(db_path: Path) -> str:
    """A hash of everything a reader sees: models, aliases and search documents."""
    from registry.db import connect_ro
    conn = connect_ro(str(db_path))
    try:
        h = hashlib.sha256()
        for table, order in (("models", "id"), ("aliases", "id"), ("search_docs", "model_id")):
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY {order}"):
                h.update(repr(tuple(row)).encode())
        return h.hexdigest()
    finally:
        conn.close()


def run_child(db_path: Path, seeds_dir: Path, source: str = SOURCE) -> dict:
    """Run one source's ingest in a child process: its result, wall time and peak RSS (MB)."""
    start = time.perf_counter()
    with open(db_path.with_suffix(".child-log"), "w+b") as errors:
        proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "child", str(db_path),
                                 str(seeds_dir), source], stdout=subprocess.PIPE, stderr=errors, cwd=ROOT)
        out = proc.stdout.read()
        proc.stdout.close()
        # wait4, not wait: the child's own rusage (peak RSS), whatever other children this process had.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        errors.seek(0)
        err = errors.read()
    try:
        result = json.loads(out.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise SystemExit(f"ingest child failed ({proc.returncode}):\n{out.decode()}\n{err.decode()[-4000:]}") from None
    result.update(wall_s=wall, peak_rss_mb=usage.ru_maxrss / 1024)
    return result


def _drop_one(body) -> bool:
    """Drop the last record of the longest list of records in a page body (in place); False when it has none."""
    if isinstance(body, list) and body and isinstance(body[-1], dict):
        body.pop()
        return True
    if isinstance(body, dict):
        lists = sorted((v for v in body.values() if isinstance(v, (list, dict))), key=len, reverse=True)
        return any(_drop_one(v) for v in lists)
    return False


def cycle_seeds(hub_seeds: Path, directory: Path, changed: bool) -> Path:
    """A seeds directory for one daily cycle: every source's snapshot (the hub's n-repo one, the others from seeds/),
    each with its last record dropped when changed (an upstream that moved since the last cycle)."""
    from registry.ingest.snapshots import load_pages, save_pages
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    for source in AUTOMATED_SOURCES:
        origin = hub_seeds if source == SOURCE else ROOT / "seeds"
        if not changed:
            (directory / source).symlink_to(origin / source, target_is_directory=True)
            continue
        pages = load_pages(origin, source)
        for page in reversed(pages):   # the last page that holds a record loses its last one
            if _drop_one(page.body):
                break
        save_pages(directory, source, pages)
    return directory


def run_cycle(db_path: Path, seeds_dir: Path, log=print) -> list:
    """Every source once, in the cron's order, each in a child process: their results."""
    results = []
    for source in AUTOMATED_SOURCES:
        result = run_child(db_path, seeds_dir, source)
        results.append({"source": source, **result})
        log(f"    {source}: {result['status']}, {result['added']} added, {result['updated']} updated in "
            f"{result['seconds']:.1f} s")
    return results


def measure(curated_db: Path, n: int, cache: Path, log=print) -> dict:
    """First ingest and idempotent re-run of an n-repo hub snapshot on a copy of the curated db, then the daily
    cycle of every source over the registry it made: once with every upstream as it was (nothing may be written),
    once with every upstream one record short (each run merges the 50k-model registry again)."""
    seeds, info = snapshot(n, cache, log)
    work = cache / f"ingest-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db_path = work / "registry.db"
    try:
        shutil.copyfile(curated_db, db_path)
        first = run_child(db_path, seeds)
        log(f"  first ingest: {first['status']}, {first['added']} added, {first['updated']} updated in "
            f"{first['seconds']:.1f} s (peak RSS {first['peak_rss_mb']:.0f} MB)")
        before = digest(db_path)
        again = run_child(db_path, seeds)
        unchanged = digest(db_path) == before
        log(f"  re-run: {again['status']}, {again['added']} added, {again['updated']} updated in "
            f"{again['seconds']:.1f} s; models/aliases/search unchanged: {unchanged}")
        log("  daily cycle, every upstream unchanged:")
        quiet = run_cycle(db_path, cycle_seeds(seeds, work / "cycle-same", changed=False), log)
        quiet_unchanged = digest(db_path) == before
        log("  daily cycle, every upstream one record short:")
        moved = run_cycle(db_path, cycle_seeds(seeds, work / "cycle-moved", changed=True), log)
        from registry.db import connect_ro
        conn = connect_ro(str(db_path))
        try:
            models = conn.execute("SELECT count(*) FROM models").fetchone()[0]
        finally:
            conn.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"snapshot": info, "first": first, "rerun": again, "rerun_unchanged": unchanged, "models_after": models,
            "cycle": {"unchanged": quiet, "unchanged_rows": quiet_unchanged, "changed": moved}}


def _child(db_path: str, seeds_dir: str, source: str) -> None:
    from registry.ingest.runner import run_source
    start = time.perf_counter()
    result = run_source(db_path, source, offline=True, seeds_dir=seeds_dir)
    seconds = time.perf_counter() - start
    print(json.dumps({"status": result.status, "added": result.added, "updated": result.updated,
                      "error": result.error, "seconds": seconds}))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "child":
        _child(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: ingestbench.py child DB SEEDS_DIR SOURCE")
