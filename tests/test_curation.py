import textwrap

import pytest

from registry.curation.reader import read_curation
from helpers import build_db


def write(directory, name, text):
    (directory / name).write_text(textwrap.dedent(text))


MODEL = """\
provider: meta
families:
  - slug: llama-3-1-instruct
    name: Llama 3.1 Instruct
    models:
      - slug: llama-3.1-8b-instruct
        {field}
"""

# field line (placed on line 6 of meta.yaml) -> expected message
BAD_FIELDS = [
    ("release_date: 2024-13-01", "meta.yaml:7: model 'llama-3.1-8b-instruct': release_date is not a real date"),
    ("release_date: 2025-04", "release_date must be an ISO date"),
    ("parameter_count: -5", "parameter_count must be a non-negative integer"),
    ("parameter_count: 8.5", "parameter_count must be a non-negative integer"),
    ("input_context_window: lots", "input_context_window must be a non-negative integer"),
    ("model_type: chatbot", "model_type must be one of"),
    ("status: retired", "status must be one of"),
    ("version: 3.1", "version must be a string"),
    ("display_name: null", "display_name may not be null"),
    ("canonical_url: ftp://x", "canonical_url must be an http(s) URL"),
    ("successor: Not A Slug", "successor must be a model slug"),
    ("colour: blue", "meta.yaml:7: unknown key 'colour' in model"),
    ("aliases: {sdk: [x]}", "unknown alias source 'sdk'"),
    ("aliases: {official: x}", "aliases.official must be a list"),
    ("aliases: {official: [' x']}", "without surrounding spaces"),
    ("aliases: {official: [Llama-3.1-70B-Instruct]}", "is claimed by"),
    ("successor: llama-3.1-8b-instruct", "names itself as successor"),
    ("points_to: llama-3.1-8b-instruct", "points to itself"),
    ("points_to: Not A Slug", "points_to must be a model slug"),
    ("platforms: {official: {sunset_date: 2026-01-01}}", "names 'official', which is not a platform"),
    ("platforms: {cloud-a: {shutdown: 2026-01-01}}", "cloud-a: must hold some of"),
    ("platforms: {cloud-a: {sunset_date: 2026-13-01}}", "cloud-a.sunset_date is not a real date"),
    ("platforms: {hub: {status: latest}}", "hub.status must be one of deprecated, sunset"),
    ("platforms: {cloud-b: {successor: Not A Slug}}", "cloud-b.successor must be a model slug"),
    ("reasoning_efforts: [high, turbo]", "reasoning_efforts must be a list of distinct reasoning efforts"),
    ("reasoning_efforts: high", "reasoning_efforts must be a list of distinct reasoning efforts"),
    ("knowledge_cutoff: 2025", "knowledge_cutoff must be a month YYYY-MM"),
    ("knowledge_cutoff: '2025-02-30'", "knowledge_cutoff is not a real date"),
    ("structured_output: sometimes", "structured_output must be true or false"),
    ("prices: {official: {input_per_mtok: 3, currency: USD, tiers: [{input_per_mtok: 6}]}}",
     "official: each tier's above_input_tokens must be"),
]


@pytest.mark.parametrize("field,message", BAD_FIELDS)
def test_invalid_model_fields_are_reported_with_file_and_line(curation_dir, field, message):
    original = (curation_dir / "meta.yaml").read_text()
    rest = original.split("      - slug: llama-3.1-70b-instruct", 1)[1]
    write(curation_dir, "meta.yaml", MODEL.format(field=field) + "      - slug: llama-3.1-70b-instruct" + rest)
    errors = read_curation(curation_dir).errors
    assert any(message in e for e in errors), errors
    assert all(e.split(":")[1].isdigit() for e in errors), errors


@pytest.mark.parametrize("name,text,message", [
    ("typo.yaml", "x: 1\n", "typo.yaml:1: unexpected file"),
    ("providers.yaml", "- slug: Bad Slug\n  name: X\n", "providers.yaml:1: provider slug is required"),
    ("providers.yaml", "- slug: meta\n", "name is required"),
    ("providers.yaml", "not: a list\n", "must be a list of providers"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - name: No slug\n", "meta.yaml:3: family slug is required"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - slug: claude-sonnet\n    name: Dup\n",
     "family 'claude-sonnet' is already defined"),
    ("meta.yaml", "provider: meta\nfamilies: [\n", "meta.yaml:3: invalid YAML"),
    ("meta.yaml", "provider: meta\nprovider: meta\n", "invalid YAML"),
    ("meta.yaml", "provider: anthropic\nfamilies: []\n", "provider must be 'meta'"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - slug: f\n    name: F\n    is_open_source: yes please\n",
     "is_open_source must be true or false"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - slug: f\n    name: F\n    models:\n"
                  "      - slug: claude-3-haiku-20240307\n", "model 'claude-3-haiku-20240307' is already defined at"),
    ("corrections.yaml", "models:\n  claude-3-haiku-20240307:\n    release_date: 2024-03-08\n",
     "is curated at anthropic.yaml"),
    ("corrections.yaml", "models:\n  some-model:\n    family: no-such-family\n",
     "family 'no-such-family' is not a curated family"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - slug: f\n    name: F\n    successor: no-such-family\n",
     "meta.yaml:5: family 'f': successor family 'no-such-family' is not a curated family"),
    ("meta.yaml", "provider: meta\nfamilies:\n  - slug: f\n    name: F\n    successor: f\n",
     "family 'f': successor must name another family's slug"),
])
def test_invalid_files_are_reported(curation_dir, name, text, message):
    write(curation_dir, name, text)
    errors = read_curation(curation_dir).errors
    assert any(message in e for e in errors), errors


def test_every_problem_is_reported_at_once(curation_dir):
    write(curation_dir, "typo.yaml", "x: 1\n")
    write(curation_dir, "typo2.yaml", "x: 1\n")
    assert len(read_curation(curation_dir).errors) == 2


def test_check_reports_and_exits_nonzero(runner, curation_dir):
    write(curation_dir, "typo.yaml", "x: 1\n")
    result = runner.invoke(args=["curate", "--check"])
    assert result.exit_code == 1
    assert "typo.yaml:1: unexpected file" in result.output
    assert "nothing applied" in result.output


def test_check_on_valid_curation(runner):
    result = runner.invoke(args=["curate", "--check"])
    assert result.exit_code == 0, result.output
    assert "2 providers, 4 families, 9 models" in result.output


def test_invalid_curation_applies_nothing(runner, rw, curation_dir):
    text = (curation_dir / "meta.yaml").read_text().replace("parameter_label: 8B", "parameter_label: 9B")
    write(curation_dir, "meta.yaml", text + "\n# and a broken sibling\n")
    write(curation_dir, "typo.yaml", "x: 1\n")
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 1
    label = rw.execute("SELECT parameter_label FROM models WHERE slug = 'llama-3.1-8b-instruct'").fetchone()[0]
    assert label == "8B"


def test_unknown_successor_fails_and_applies_nothing(runner, rw, curation_dir):
    text = (curation_dir / "meta.yaml").read_text().replace(
        "        status: active\n", "        status: active\n        successor: no-such-model\n")
    write(curation_dir, "meta.yaml", text)
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 1
    assert "successor 'no-such-model' does not exist" in result.output
    runs = rw.execute("SELECT status, error_message FROM ingestion_runs WHERE source = 'curation'"
                      " ORDER BY id DESC").fetchone()
    assert runs["status"] == "failed" and "no-such-model" in runs["error_message"]


def test_successor_cycle_is_rejected(runner, curation_dir):
    text = (curation_dir / "anthropic.yaml").read_text().replace(
        "        release_date: \"2025-09-29\"\n",
        "        release_date: \"2025-09-29\"\n        successor: claude-3-sonnet-20240229\n")
    write(curation_dir, "anthropic.yaml", text)
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 1
    assert "successor chain cycles" in result.output


def test_apply_is_idempotent(runner, rw):
    stamps = rw.execute("SELECT slug, updated_at FROM models ORDER BY slug").fetchall()
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 0, result.output
    assert "0 model(s) added, 0 updated" in result.output
    assert rw.execute("SELECT slug, updated_at FROM models ORDER BY slug").fetchall() == stamps
    run = rw.execute("SELECT * FROM ingestion_runs ORDER BY id DESC").fetchone()
    assert (run["source"], run["status"], run["models_added"], run["models_updated"]) == \
        ("curation", "completed", 0, 0)
    assert run["completed_at"] is not None


def test_changed_value_updates_one_model(runner, rw, curation_dir):
    text = (curation_dir / "meta.yaml").read_text().replace("parameter_label: 70B", "parameter_label: 70.6B")
    write(curation_dir, "meta.yaml", text)
    result = runner.invoke(args=["curate"])
    assert result.exit_code == 0, result.output
    assert "0 model(s) added, 1 updated" in result.output


def test_removed_model_stays_as_a_tombstone_that_keeps_resolving(runner, rw, curation_dir, client):
    """No source lists it any longer: its id keeps answering, marked removed, and it is no family's latest."""
    text = (curation_dir / "meta.yaml").read_text()
    write(curation_dir, "meta.yaml", text.split("      - slug: llama-3.1-405b-instruct")[0])
    assert runner.invoke(args=["curate"]).exit_code == 0
    body = client.get("/api/v1/resolve", query_string={"q": "Llama-3.1-405B-Instruct"}).get_json()
    assert body["matched_model"]["slug"] == "llama-3.1-405b-instruct"
    model = client.get("/api/v1/models/llama-3.1-405b-instruct").get_json()
    assert model["metadata"]["removed_at"] and model["status"] != "latest"
    kinds = [c["kind"] for c in client.get("/api/v1/models/llama-3.1-405b-instruct/changes").get_json()["changes"]]
    assert kinds[0] == "model_removed"
    # listed again: no longer a tombstone, and a re-run records nothing more
    write(curation_dir, "meta.yaml", text)
    assert runner.invoke(args=["curate"]).exit_code == 0
    assert "removed_at" not in client.get("/api/v1/models/llama-3.1-405b-instruct").get_json()["metadata"]
    kinds = [c["kind"] for c in client.get("/api/v1/models/llama-3.1-405b-instruct/changes").get_json()["changes"]]
    assert kinds[0] == "model_added"


def test_curated_values_become_facts_with_provenance(client):
    model = client.get("/api/v1/models/llama-3.1-8b-instruct").get_json()
    assert model["metadata"]["provenance"]["parameter_count"] == "curation"
    assert model["metadata"]["provenance"]["release_date"] == "curation"


def test_same_curation_builds_same_registry(tmp_path, curation_dir, rw):
    build_db(tmp_path / "again.db", curation_dir)
    import sqlite3
    other = sqlite3.connect(tmp_path / "again.db")
    query = "SELECT slug, display_name, status, release_date, parameter_count FROM models ORDER BY slug"
    assert [tuple(r) for r in rw.execute(query)] == other.execute(query).fetchall()


def _block_nest(depth):
    return "\n".join("  " * (i + 3) + "a:" for i in range(depth)) + "\n" + "  " * (depth + 3) + "b: 1\n"


# Issue 15, item 9: nesting 1,000 levels deep is a file:line error, not a RecursionError.
@pytest.mark.parametrize("name,text,message", [
    ("meta.yaml", "provider: meta\nfamilies: " + "[" * 1000 + "]" * 1000 + "\n",
     "meta.yaml:2: invalid YAML: nested more than 64 levels deep"),
    ("meta.yaml", "provider: meta\nnotes: " + "{a: " * 1000 + "1" + "}" * 1000 + "\n",
     "meta.yaml:2: invalid YAML: nested more than 64 levels deep"),
    ("meta.yaml", "provider: meta\nnotes:\n" + _block_nest(1000), "invalid YAML: nested more than 64 levels deep"),
    ("providers.yaml", "- slug: x\n  name: " + "[" * 100 + "]" * 100 + "\n",
     "providers.yaml:2: invalid YAML: nested more than 64 levels deep"),
])
def test_deep_nesting_is_a_file_line_error(runner, curation_dir, name, text, message):
    (curation_dir / name).write_text(text)
    assert any(message in e for e in read_curation(curation_dir).errors)
    result = runner.invoke(args=["curate", "--check"])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
