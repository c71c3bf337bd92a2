"""GET /api/v1/export and `registry export`: the whole registry in one file, JSON or NDJSON, with an ETag,
checked against the JSON Schema served beside the OpenAPI document (docs/api-decisions.md#export)."""
import errno
import json
import os

import pytest
from jsonschema import Draft202012Validator

from helpers import assert_error, build_db
from registry.web.openapi import load_document

SCHEMA_PATH = "/api/v1/export.schema.json"


@pytest.fixture
def schema(client):
    response = client.get(SCHEMA_PATH)
    assert response.status_code == 200 and response.mimetype == "application/schema+json"
    document = response.get_json()
    Draft202012Validator.check_schema(document)
    return document


def line_validator(schema):
    return Draft202012Validator({**schema, "$ref": "#/$defs/ExportLine"})


def test_the_json_file_holds_every_provider_family_and_model_and_meets_its_schema(client, schema):
    response = client.get("/api/v1/export")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = json.loads(response.get_data())
    assert sorted(Draft202012Validator(schema).iter_errors(body), key=str) == []
    assert body["counts"] == {"providers": 2, "families": len(body["families"]), "models": len(body["models"])}
    assert len(body["models"]) == 9
    assert [p["slug"] for p in body["providers"]] == [p["slug"] for p in client.get("/api/v1/providers").get_json()
                                                        ["providers"]]
    assert body["families"] == client.get("/api/v1/families").get_json()["families"]
    assert [m["slug"] for m in body["models"]] == sorted(m["slug"] for m in body["models"])
    for model in body["models"]:     # every model exactly as GET /models/{slug} answers it
        assert model == client.get(f"/api/v1/models/{model['slug']}").get_json()


def test_a_model_carries_its_aliases_platform_lifecycles_and_provenance(client):
    body = json.loads(client.get("/api/v1/export").get_data())
    sonnet = next(m for m in body["models"] if m["slug"] == "claude-3-5-sonnet-20241022")
    assert {"alias": "anthropic.claude-3-5-sonnet-20241022-v2:0", "source": "cloud-a",
            "normalized": sonnet["aliases"][0]["normalized"], "listed": False} in sonnet["aliases"]
    assert [p["platform"] for p in sonnet["platforms"]] == ["official", "cloud-a", "cloud-b", "gateway"]
    assert sonnet["metadata"]["provenance"]["sunset_date"] == "curation"
    assert set(sonnet["capabilities"]) == {"input_modalities", "output_modalities", "tool_calling", "reasoning",
                                          "vision", "structured_output", "reasoning_efforts", "knowledge_cutoff"}


def test_every_ndjson_line_meets_its_schema_and_says_what_it_holds(client, schema):
    response = client.get("/api/v1/export?format=ndjson")
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    text = response.get_data(as_text=True)
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]
    validator = line_validator(schema)
    assert [e.message for line in lines for e in validator.iter_errors(line)] == []
    kinds = [next(iter(line)) for line in lines]
    assert kinds[0] == "export" and kinds.count("export") == 1
    assert kinds == sorted(kinds, key=["export", "provider", "family", "model"].index)
    whole = json.loads(client.get("/api/v1/export").get_data())
    assert [line["model"] for line in lines if "model" in line] == whole["models"]
    assert lines[0]["export"] == {k: whole[k] for k in ("export_version", "generation", "as_of", "counts")}


@pytest.mark.parametrize("query, accept, mimetype", [
    ("", None, "application/json"),
    ("", "*/*", "application/json"),
    ("", "application/x-ndjson", "application/x-ndjson"),
    ("", "application/json;q=0.5, application/x-ndjson", "application/x-ndjson"),
    ("?format=json", "application/x-ndjson", "application/json"),      # format wins
    ("?format=ndjson", None, "application/x-ndjson"),
])
def test_the_format_follows_the_parameter_then_accept(client, query, accept, mimetype):
    response = client.get("/api/v1/export" + query, headers={"Accept": accept} if accept else {})
    assert response.mimetype == mimetype and response.headers["Vary"] == "Accept"
    extension = mimetype.rsplit("/", 1)[1].removeprefix("x-")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="registry-')
    assert response.headers["Content-Disposition"].endswith(f'.{extension}"')


def test_the_etag_is_stable_answers_304_and_changes_with_the_data(app, client, curation_dir):
    # Each answer closed as a server closes it: the export's read snapshot ends with it (else the rebuild below
    # would wait for it as a writer waits for a reader).
    with client.get("/api/v1/export") as first, client.get("/api/v1/export") as again:
        assert first.headers["ETag"] == again.headers["ETag"] and first.get_data() == again.get_data()
    with client.get("/api/v1/export?format=ndjson") as streamed:
        assert streamed.headers["ETag"] != first.headers["ETag"]
    with client.get("/api/v1/export", headers={"If-None-Match": first.headers["ETag"]}) as unchanged:
        assert unchanged.status_code == 304 and unchanged.get_data() == b""
    text = (curation_dir / "meta.yaml").read_text()
    (curation_dir / "meta.yaml").write_text(text.replace("Llama 3.1 405B Instruct", "Llama Colossus"))
    build_db(app.config["DATABASE"], curation_dir)
    with client.get("/api/v1/export", headers={"If-None-Match": first.headers["ETag"]}) as changed:
        assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
        assert b"Llama Colossus" in changed.get_data()


@pytest.mark.parametrize("query, name", [
    ("format=xml", "format"), ("format=json&format=ndjson", "format"), ("limit=5", "limit"), ("page=2", "page"),
])
def test_bad_parameters_are_a_400_naming_them(client, query, name):
    assert_error(client.get(f"/api/v1/export?{query}"), 400, "bad_request", f"'{name}'")


def test_the_schema_is_made_from_the_openapi_documents_own_schemas(schema):
    components = load_document()["components"]["schemas"]
    text = json.dumps(schema)
    assert "#/components/" not in text
    for name, definition in schema["$defs"].items():
        assert json.dumps(definition) == json.dumps(components[name]).replace("#/components/schemas/", "#/$defs/")
    assert {"ExportDocument", "ExportLine", "ModelDetail", "Provider", "Family", "PlatformLifecycle"} <= \
        set(schema["$defs"])


@pytest.mark.parametrize("fmt", ["json", "ndjson"])
def test_the_command_writes_the_same_bytes_offline(app, client, runner, tmp_path, fmt):
    target = tmp_path / f"out.{fmt}"
    result = runner.invoke(args=["export", "--format", fmt, "--output", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == client.get(f"/api/v1/export?format={fmt}").get_data()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".registry-export-")] == []
    stdout = runner.invoke(args=["export", "--format", fmt])
    assert stdout.exit_code == 0 and stdout.output.encode() == target.read_bytes()


def test_a_refused_write_leaves_the_previous_file_and_nothing_else(app, runner, tmp_path, monkeypatch):
    (tmp_path / "registry.json").write_text("the previous export")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)       # the disk fills up as the file is finished
    result = runner.invoke(args=["export", "--output", str(tmp_path / "registry.json")])
    assert result.exit_code == 1 and "Export not written" in result.output
    assert f"disk full writing {tmp_path / 'registry.json'}" in result.output   # the file asked for, not a temporary
    assert (tmp_path / "registry.json").read_text() == "the previous export"
    assert [p.name for p in tmp_path.iterdir() if p.name != "registry.db" and not p.name.startswith(
        ("registry.db-", "curation"))] == ["registry.json"]


def test_a_missing_directory_or_registry_is_a_message_not_a_trace(app, runner, tmp_path, monkeypatch):
    result = runner.invoke(args=["export", "--output", str(tmp_path / "nowhere" / "x.json")])
    assert result.exit_code == 1 and "Export not written" in result.output and "Traceback" not in result.output
    assert "create it, or give --output another path" in result.output and "REGISTRY_DB" not in result.output
    app.config["DATABASE"] = str(tmp_path / "none.db")
    result = runner.invoke(args=["export"])
    assert result.exit_code == 1 and "No registry at" in result.output
