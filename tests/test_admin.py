import time

import pytest

import fakes
from helpers import assert_error
from registry.merge.locks import SourceLock
from registry.ingest.runner import begin

KEY = "s3cret-key"
OLD_KEY = "old-key-being-rotated-out"


@pytest.fixture
def admin_app(app):
    app.config["ADMIN_API_KEYS"] = [KEY, OLD_KEY]
    app.config["INGEST_MEMORY_MB"] = 0   # runs in this process, where the tests install their fake sources
    return app


def test_a_triggered_run_is_done_in_a_process_of_its_own(app):
    """REGISTRY_INGEST_MEMORY_MB (on by default): the real source, offline, in a child process, lands as usual."""
    from pathlib import Path
    app.config.update(ADMIN_API_KEYS=[KEY], OFFLINE=True, INGEST_MEMORY_MB=1024,
                      SEEDS_DIR=str(Path(__file__).resolve().parent.parent / "seeds"))
    client = app.test_client()
    run_id = client.post("/api/v1/admin/ingest/vendor-f-api", headers=auth()).get_json()["ingestion_run"]["id"]
    run = wait_for_run(client, run_id)
    assert run["status"] == "completed" and run["details"]["records"] > 0, run


def auth(key=KEY):
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": ""},
    {"Authorization": "Bearer"},
    {"Authorization": "Bearer "},
    {"Authorization": f"Basic {KEY}"},
    {"Authorization": KEY},
    {"Authorization": "Bearer wrong"},
    {"Authorization": f"Bearer {KEY}x"},
    {"Authorization": f"Bearer {KEY} extra"},
    {"Authorization": f"Bearer {KEY[:-1]}"},
])
@pytest.mark.parametrize("method,url", [("post", "/api/v1/admin/ingest/model-hub"),
                                        ("get", "/api/v1/admin/ingestion-runs")])
def test_bad_or_missing_key_is_401(admin_app, method, url, headers):
    client = admin_app.test_client()
    response = getattr(client, method)(url, headers=headers)
    assert_error(response, 401, "unauthorized", "API key is invalid or missing")


def test_no_key_configured_keeps_admin_closed(client):
    response = client.get("/api/v1/admin/ingestion-runs", headers=auth(""))
    assert_error(response, 401, "unauthorized")
    response = client.get("/api/v1/admin/ingestion-runs", headers=auth("anything"))
    assert_error(response, 401, "unauthorized")


@pytest.mark.parametrize("key", [KEY, OLD_KEY])
def test_every_rotated_key_works(admin_app, key):
    response = admin_app.test_client().get("/api/v1/admin/ingestion-runs", headers=auth(key))
    assert response.status_code == 200


def test_scheme_is_case_insensitive(admin_app):
    response = admin_app.test_client().get("/api/v1/admin/ingestion-runs", headers={"Authorization": f"bearer {KEY}"})
    assert response.status_code == 200


def wait_for_run(client, run_id, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        runs = client.get("/api/v1/admin/ingestion-runs", headers=auth()).get_json()["ingestion_runs"]
        run = next(r for r in runs if r["id"] == run_id)
        if run["status"] != "running":
            return run
        time.sleep(0.05)
    raise AssertionError("run did not finish")


def test_trigger_runs_in_background(admin_app, monkeypatch):
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, fakes.HUB)})
    client = admin_app.test_client()
    response = client.post("/api/v1/admin/ingest/model-hub", headers=auth())
    assert response.status_code == 202
    body = response.get_json()["ingestion_run"]
    assert set(body) == {"id", "source", "status", "started_at"}
    assert (body["source"], body["status"]) == ("model-hub", "running")
    run = wait_for_run(client, body["id"])
    assert run["status"] == "completed" and run["models_added"] == 1
    assert run["provider"] is None and run["completed_at"]
    assert client.get("/api/v1/models/llama-3.1-1b-instruct").status_code == 200


def test_failed_run_is_listed_with_its_error(admin_app, monkeypatch):
    fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", error="HTTP 500")})
    client = admin_app.test_client()
    run_id = client.post("/api/v1/admin/ingest/vendor-b-api", headers=auth()).get_json()["ingestion_run"]["id"]
    run = wait_for_run(client, run_id)
    assert run == {**run, "status": "failed", "error_message": "HTTP 500", "models_added": 0,
                   "provider": {"slug": "anthropic", "name": "Anthropic"}}


def test_trigger_while_running_is_409(admin_app):
    started = begin(admin_app.config["DATABASE"], "model-hub")
    lock, run_id = started
    try:
        response = admin_app.test_client().post("/api/v1/admin/ingest/model-hub", headers=auth())
        assert_error(response, 409, "conflict", f"run {run_id}")
    finally:
        lock.release()


def test_lock_is_per_source(admin_app, monkeypatch):
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, [])})
    lock = SourceLock(admin_app.config["DATABASE"], "vendor-b-api")
    assert lock.acquire()
    try:
        client = admin_app.test_client()
        response = client.post("/api/v1/admin/ingest/model-hub", headers=auth())
        assert response.status_code == 202
        wait_for_run(client, response.get_json()["ingestion_run"]["id"])
    finally:
        lock.release()


@pytest.mark.parametrize("source", ["vendor-z-api", "curation", "MODEL-HUB", "model-hub-"])
def test_unknown_source_is_400(admin_app, source):
    response = admin_app.test_client().post(f"/api/v1/admin/ingest/{source}", headers=auth())
    assert_error(response, 400, "bad_request", "source")


@pytest.mark.parametrize("query,expected", [
    ("", ["curation"]),
    ("?source=curation", ["curation"]),
    ("?source=model-hub", []),
    ("?status=completed", ["curation"]),
    ("?status=failed", []),
    ("?limit=1", ["curation"]),
])
def test_list_runs_filters(admin_app, query, expected):
    body = admin_app.test_client().get("/api/v1/admin/ingestion-runs" + query, headers=auth()).get_json()
    assert [r["source"] for r in body["ingestion_runs"]] == expected
    for run in body["ingestion_runs"]:
        assert set(run) == {"id", "source", "provider", "status", "models_added", "models_updated",
                            "error_message", "started_at", "completed_at", "details"}


@pytest.mark.parametrize("query,name", [
    ("?limit=0", "limit"), ("?limit=201", "limit"), ("?limit=x", "limit"),
    ("?source=nope", "source"), ("?status=done", "status"),
])
def test_list_runs_bad_parameters(admin_app, query, name):
    response = admin_app.test_client().get("/api/v1/admin/ingestion-runs" + query, headers=auth())
    assert_error(response, 400, "bad_request", name)


def test_runs_most_recent_first(admin_app, monkeypatch):
    fakes.install(monkeypatch, {"model-hub": fakes.fake_module("model-hub", None, [])})
    from registry.ingest.runner import run_source
    run_source(admin_app.config["DATABASE"], "model-hub")
    runs = admin_app.test_client().get("/api/v1/admin/ingestion-runs", headers=auth()).get_json()["ingestion_runs"]
    assert [r["source"] for r in runs] == ["model-hub", "curation"]
    assert runs[0]["id"] > runs[1]["id"]
