"""GET /changes, /models/{slug}/changes and the feeds, read back by real parsers: feedparser for
Atom, the JSON Feed 1.1 schema (tests/data) with jsonschema, icalendar for the calendar."""
import json
from datetime import date, timedelta

import feedparser
import icalendar
import jsonschema
import pytest

import fakes
from helpers import DATA, assert_error
from registry.fields import CHANGE_KINDS as KINDS

SONNET_4 = "claude-sonnet-4-20250514"
JSON_FEED_SCHEMA = json.loads((DATA / "jsonfeed-1.1.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def history(app, monkeypatch):
    fakes.vendor_b_history(monkeypatch, app.config["DATABASE"])
    return app


def pages(client, url: str, key: str) -> list:
    """Every item of a cursor-paged list, following next_cursor."""
    items, cursor = [], None
    while True:
        body = client.get(url + (f"&cursor={cursor}" if cursor else "")).get_json()
        items += body[key]
        cursor = body["next_cursor"]
        if cursor is None:
            return items


def test_changes_page_newest_first_and_the_cursor_walks_them_all(history, client):
    everything = client.get("/api/v1/changes?limit=200").get_json()["changes"]
    walked = pages(client, "/api/v1/changes?limit=7", "changes")
    assert [c["id"] for c in walked] == [c["id"] for c in everything] == sorted((c["id"] for c in walked), reverse=True)


@pytest.mark.parametrize("query, check", [
    # model= takes any identifier: a cloud id, a gateway id, the slug
    ("model=us.anthropic.claude-sonnet-4-20250514-v1:0", lambda c: c["model_slug"] == SONNET_4),
    ("model=anthropic/claude-sonnet-4", lambda c: c["model_slug"] == SONNET_4),
    ("models=claude-fable-1,anthropic/claude-sonnet-4", lambda c: c["model_slug"] in ("claude-fable-1", SONNET_4)),
    ("family=claude-sonnet", lambda c: c["family_slug"] == "claude-sonnet"),
    ("provider=meta", lambda c: c["provider_slug"] == "meta"),
    ("kind=shutdown_scheduled,model_removed", lambda c: c["kind"] in ("shutdown_scheduled", "model_removed")),
    ("since=2000-01-01&until=2999-01-01T00:00:00%2B02:00", lambda c: True),
])
def test_filters(history, client, query, check):
    found = client.get(f"/api/v1/changes?{query}&limit=200").get_json()["changes"]
    assert found and all(check(c) for c in found)


def test_a_removed_model_keeps_its_history(history, client):
    # a tombstone: it keeps answering, marked with the time it was last listed
    assert client.get("/api/v1/models/claude-fable-1").get_json()["metadata"]["removed_at"]
    body = client.get("/api/v1/models/claude-fable-1/changes").get_json()
    assert [c["kind"] for c in body["changes"]] == ["model_removed", "model_added"]


@pytest.mark.parametrize("url, status, code, contains", [
    ("/api/v1/changes?model=no-such-model-anywhere", 404, "not_found", "no-such-model-anywhere"),
    ("/api/v1/changes?kind=model_exploded", 400, "bad_request", "kind"),
    ("/api/v1/changes?since=2026-02-30", 400, "bad_request", "since"),
    ("/api/v1/changes?until=yesterday", 400, "bad_request", "until"),
    ("/api/v1/changes?cursor=abc", 400, "bad_request", "cursor"),
    ("/api/v1/changes?limit=0", 400, "bad_request", "limit"),
    ("/api/v1/changes?models=a,,b", 400, "bad_request", "models"),
    ("/api/v1/models/no-such-model/changes", 404, "not_found", "no-such-model"),
    ("/api/v1/feeds/changes.atom?model=no-such-model-anywhere", 404, "not_found", "no-such-model"),
    ("/api/v1/feeds/lifecycle.ics?kind=model_added", 400, "bad_request", "kind"),
])
def test_bad_input_is_the_error_shape(history, client, url, status, code, contains):
    response = client.get(url)
    assert_error(response, status, code, contains)
    assert "X-RateLimit-Limit" in response.headers


def test_atom_read_by_feedparser(history, client):
    url = "/api/v1/feeds/changes.atom?models=anthropic/claude-sonnet-4,claude-sonnet-5-20260901&limit=3"
    first = feedparser.parse(client.get(url).data)
    assert not first.bozo, first.bozo_exception
    assert first.feed.title and first.feed.id.startswith("http://localhost/api/v1/feeds/changes.atom?models=")
    assert len(first.entries) == 3
    titles = [e.title for e in first.entries]
    assert any(t.startswith(f"{SONNET_4}: shutdown scheduled for 2027-01-14; move to ") for t in
               [e.title for e in feedparser.parse(client.get(url.replace("limit=3", "limit=50")).data).entries])
    assert all([link.href for link in e.links if link.rel == "alternate"][0].startswith(
        "http://localhost/api/v1/models/") for e in first.entries)
    # Entry ids are stable: the same on the next request, and a page's ids continue on the next page.
    again = feedparser.parse(client.get(url).data)
    assert [e.id for e in again.entries] == [e.id for e in first.entries] and [e.title for e in again.entries] == titles
    following = next(link.href for link in first.feed.links if link.rel == "next")
    second = feedparser.parse(client.get(following).data)
    assert not {e.id for e in second.entries} & {e.id for e in first.entries}


def test_json_feed_matches_the_json_feed_schema(history, client):
    body = client.get("/api/v1/feeds/changes.json?limit=5&kind=shutdown_scheduled,model_added").get_json()
    jsonschema.validate(body, JSON_FEED_SCHEMA)
    assert body["items"] and all(item["tags"][0] in ("shutdown_scheduled", "model_added") for item in body["items"])
    assert all(item["_registry"]["title"] == item["title"] for item in body["items"])
    if "next_url" in body:
        nxt = client.get(body["next_url"].removeprefix("http://localhost")).get_json()
        jsonschema.validate(nxt, JSON_FEED_SCHEMA)
        assert not {i["id"] for i in nxt["items"]} & {i["id"] for i in body["items"]}


def calendar(client, query: str = "") -> icalendar.Calendar:
    response = client.get(f"/api/v1/feeds/lifecycle.ics{query}")
    assert response.status_code == 200 and response.mimetype == "text/calendar"
    return icalendar.Calendar.from_ical(response.data)


def test_calendar_read_by_icalendar(history, client, rw):
    watched = "anthropic/claude-sonnet-4"
    events = {str(e["UID"]): e for e in calendar(client, f"?models={watched}").walk("VEVENT")}
    shutdown = events[f"{SONNET_4}.shutdown_scheduled@model-registry"]
    assert shutdown.decoded("DTSTART") == date(2027, 1, 14)
    assert shutdown.decoded("DTEND") - shutdown.decoded("DTSTART") == timedelta(days=1)   # all-day
    # The upgrade in the watched id's own format: the gateway alias of Claude Sonnet 4.5.
    assert str(shutdown["SUMMARY"]) == f"{watched} shuts down; move to anthropic/claude-sonnet-4.5"
    assert str(shutdown["URL"]).endswith(f"/api/v1/models/{SONNET_4}")
    assert sorted(a.decoded("TRIGGER") for a in shutdown.walk("VALARM")) == [
        timedelta(days=-90), timedelta(days=-30), timedelta(days=-7)]
    deprecation = events[f"{SONNET_4}.deprecation_announced@model-registry"]
    assert deprecation.decoded("DTSTART") == date(2026, 6, 1) and not deprecation.walk("VALARM")


def test_calendar_uids_stay_when_dates_move(history, client, monkeypatch, app):
    before = {str(e["UID"]): e.decoded("DTSTART") for e in calendar(client).walk("VEVENT")}
    moved = [fakes.VENDOR_B_NEXT[0], fakes.VENDOR_B_NEXT[1], fakes.VENDOR_B_NEXT[3],
             fakes.dataclasses.replace(fakes.VENDOR_B_NEXT[2], fields={**fakes.VENDOR_B_NEXT[2].fields,
                                                                       "sunset_date": "2027-03-01"})]
    fakes.install(monkeypatch, {"vendor-b-api": fakes.fake_module("vendor-b-api", "anthropic", moved)})
    from registry.ingest.runner import run_source
    run_source(app.config["DATABASE"], "vendor-b-api")
    after = {str(e["UID"]): e.decoded("DTSTART") for e in calendar(client).walk("VEVENT")}
    assert set(after) == set(before)   # one event per (model, kind): clients update, never duplicate
    uid = f"{SONNET_4}.shutdown_scheduled@model-registry"
    assert (before[uid], after[uid]) == (date(2027, 1, 14), date(2027, 3, 1))


@pytest.mark.parametrize("query, kinds", [
    ("?kind=shutdown_scheduled", {"shutdown_scheduled"}),
    ("?kind=deprecation_announced&provider=anthropic", {"deprecation_announced"}),
    ("?since=2027-01-01&until=2027-02-01", {"shutdown_scheduled"}),
])
def test_calendar_filters(history, client, query, kinds):
    events = calendar(client, query).walk("VEVENT")
    assert events and {str(c) for e in events for c in e["CATEGORIES"].cats} == kinds


def test_calendar_etag(history, client):
    first = client.get("/api/v1/feeds/lifecycle.ics")
    assert first.headers["Cache-Control"] == "public, max-age=60"
    again = client.get("/api/v1/feeds/lifecycle.ics", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("url", ["/api/v1/changes", "/api/v1/feeds/changes.atom", "/api/v1/feeds/changes.json",
                                 f"/api/v1/models/{SONNET_4}/changes"])
def test_etag_and_a_new_change_changes_it(history, client, url, monkeypatch, app):
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # The daily recompute on a later day records Sonnet 4's shutdown: the answers change with it.
    monkeypatch.setenv("REGISTRY_TODAY", "2027-01-14")
    from registry.merge import runs
    from registry.db import connect_rw
    conn = connect_rw(app.config["DATABASE"])
    runs.refresh_if_stale(conn)
    conn.close()
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 200


def test_every_kind_is_documented():
    from registry.notify.events import EVENT_KINDS
    from registry.web.openapi import load_document
    schemas = load_document()["components"]["schemas"]
    assert schemas["ChangeKind"]["enum"] == list(KINDS)
    assert schemas["EventKind"]["enum"] == list(EVENT_KINDS)


@pytest.mark.parametrize("summary", [
    "plain", "a, b; c\\d", "line one\nline two", "é" * 80, "x" * 74 + "€" * 3, "🙂" * 40 + "tail",
])
def test_calendar_text_survives_escaping_and_folding(summary):
    from registry.feeds import ics
    event = ics.component("VEVENT", [("UID", "u@x"), ("DTSTAMP", "20260101T000000Z"), ("SUMMARY", ics.text(summary))])
    body = ics.component("VCALENDAR", [("VERSION", "2.0"), ("PRODID", "-//t//t//EN")], [event])
    assert all(len(line) <= 75 for line in body.split(b"\r\n"))
    assert str(icalendar.Calendar.from_ical(body).walk("VEVENT")[0]["SUMMARY"]) == summary
