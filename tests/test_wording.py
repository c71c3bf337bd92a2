"""A change's words come from one module (registry/wording.py), made when it is read: every writer that
shows a change (the API, Atom, JSON Feed, webhooks, the pages) and every calendar event says what it
says, and the calendar is rendered from what its caller passes, with no database."""
import json
from datetime import date

import feedparser
import icalendar
import pytest

from registry import wording
from registry.db import bump_generation, transaction
from registry.feeds import calendar
from registry.notify.events import Endpoint, change_events


def _reworded(change: dict) -> str:
    return f"REWORDED {change['kind']} of {change['model_slug']}"


def _api(client, rw) -> list:
    return [c["title"] for c in client.get("/api/v1/changes?limit=200").get_json()["changes"]]


def _atom(client, rw) -> list:
    return [e.title for e in feedparser.parse(client.get("/api/v1/feeds/changes.atom?limit=200").data).entries]


def _json_feed(client, rw) -> list:
    items = client.get("/api/v1/feeds/changes.json?limit=200").get_json()["items"]
    return [item["title"] for item in items] + [item["_registry"]["title"] for item in items]


def _webhooks(client, rw) -> list:
    endpoint = Endpoint({"id": 1, "change_cursor": 0, "models": "[]", "providers": "[]", "kinds": "[]",
                         "days_before": "[7]"})
    return [payload["data"]["title"] for _, _, payload in change_events(rw, endpoint)[0]]


def _page(client, rw) -> list:
    html = client.get("/").get_data(as_text=True)
    markdown = client.get("/index.md").get_data(as_text=True)
    return [line for line in (html + markdown).splitlines() if "REWORDED" in line or "added (listed by" in line]


@pytest.mark.parametrize("writer", [_api, _atom, _json_feed, _webhooks, _page])
def test_every_writer_words_a_change_with_the_one_module(app, client, rw, monkeypatch, writer):
    before = writer(client, rw)
    assert before and all(": added (listed by curation)" in title for title in before)
    monkeypatch.setattr(wording, "title", _reworded)
    with transaction(rw):   # a new data generation: no answer cached before the rewording is served again
        bump_generation(rw)
    after = writer(client, rw)
    assert len(after) == len(before) and all("REWORDED model_added of " in title for title in after)


def _entry(slug="gpt-old", days=None, upgrade="gpt-new", label=None) -> calendar.Entry:
    row = {"slug": slug, "display_name": "GPT Old", "provider_name": "OpenAI", "updated_at": "2026-11-20T10:00:00Z",
           "metadata": json.dumps({"provenance": {"sunset_date": "vendor-a-api"}})}
    days = days or {"deprecation_date": "2026-12-01", "sunset_date": "2027-01-14", "sources": None}
    return calendar.Entry(row, days, upgrade, label or slug)


@pytest.mark.parametrize("entry, kinds, summaries, description", [
    (_entry(), tuple(calendar.EVENTS), ["gpt-old deprecated; move to gpt-new", "gpt-old shuts down; move to gpt-new"],
     "GPT Old (OpenAI) shuts down on 2027-01-14.\nMove to: gpt-new.\nSource: vendor-a-api.\n"
     "https://registry.example/api/v1/models/gpt-old"),
    # The caller names the upgrade in the watched id's format and passes that platform's days and sources.
    (_entry(days={"deprecation_date": None, "sunset_date": "2027-02-01",
                  "sources": {"sunset_date": "deprecation-feed"}},
            upgrade="openai/gpt-new", label="openai/gpt-old"), ("shutdown_scheduled",),
     ["openai/gpt-old shuts down; move to openai/gpt-new"],
     "GPT Old (OpenAI) shuts down on 2027-02-01.\nMove to: openai/gpt-new.\nSource: deprecation-feed.\n"
     "https://registry.example/api/v1/models/gpt-old"),
    (_entry(upgrade=None), ("shutdown_scheduled",), ["gpt-old shuts down"],
     "GPT Old (OpenAI) shuts down on 2027-01-14.\nNo sound upgrade is known.\nSource: vendor-a-api.\n"
     "https://registry.example/api/v1/models/gpt-old"),
])
def test_the_calendar_renders_what_its_caller_passes(entry, kinds, summaries, description):
    ics = icalendar.Calendar.from_ical(calendar.render([entry], kinds, None, None, "https://registry.example/"))
    events = ics.walk("VEVENT")
    assert [str(e["SUMMARY"]) for e in events] == summaries
    shutdown = events[-1]
    assert shutdown.decoded("DTSTART") == date.fromisoformat(entry.lifecycle["sunset_date"])
    assert str(shutdown["DESCRIPTION"]) == description
    assert [str(a["DESCRIPTION"]) for a in shutdown.walk("VALARM")] == [
        f"{entry.label} shuts down in {days} days ({entry.lifecycle['sunset_date']})" for days in (90, 30, 7)]
