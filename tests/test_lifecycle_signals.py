"""Deprecation (RFC 9745), Sunset (RFC 8594) and successor-version Link on answers about retiring models."""
import pytest

from registry.api.signals import lifecycle_headers

# In the fixture curation (today pinned to 2026-11-21): claude-3-5-sonnet is deprecated (2025-08-13,
# shutdown 2099-10-22, upgrade claude-sonnet-4-5), claude-3-sonnet is sunset (2025-01-21 / 2025-07-21).
DEPRECATED = {"Deprecation": "@1755043200", "Sunset": "Thu, 22 Oct 2099 00:00:00 GMT",
              "Link": '</api/v1/models/claude-sonnet-4-5-20250929>; rel="successor-version"'}
SUNSET = {"Deprecation": "@1737417600", "Sunset": "Mon, 21 Jul 2025 00:00:00 GMT",
          "Link": '</api/v1/models/claude-sonnet-4-5-20250929>; rel="successor-version"'}


@pytest.mark.parametrize("url, expected", [
    ("/api/v1/models/claude-3-5-sonnet-20241022", DEPRECATED),
    ("/api/v1/models/claude-3-5-sonnet-20241022/upgrade", DEPRECATED),
    ("/api/v1/resolve?q=anthropic.claude-3-5-sonnet-20241022-v2:0", DEPRECATED),
    ("/api/v1/models/claude-3-sonnet-20240229", SUNSET),
    ("/api/v1/resolve?q=claude-3-sonnet-20240229", SUNSET),
    ("/api/v1/models/claude-sonnet-4-5-20250929", {}),                 # working: no signals
    ("/api/v1/resolve?q=claude-sonnet-4-5", {}),
])
def test_signals_on_model_upgrade_and_resolve(client, url, expected):
    for attempt in ("fresh", "cached"):      # the response cache keeps them with the body
        response = client.get(url)
        assert response.status_code == 200, attempt
        got = {name: response.headers.get(name) for name in ("Deprecation", "Sunset", "Link")}
        assert got == {name: expected.get(name) for name in got}, attempt


@pytest.mark.parametrize("model, upgrade, expected", [
    ({"status": "active", "deprecation_date": None, "sunset_date": "2027-01-01"}, None, {}),
    ({"status": "deprecated", "deprecation_date": None, "sunset_date": "2027-01-14"}, None,
     # deprecated by its shutdown day at the latest
     {"Deprecation": "@1799884800", "Sunset": "Thu, 14 Jan 2027 00:00:00 GMT"}),
    ({"status": "deprecated", "deprecation_date": None, "sunset_date": None}, {"slug": "x"},
     {"Link": '</api/v1/models/x>; rel="successor-version"'}),                    # no day known: no Deprecation
])
def test_lifecycle_headers(model, upgrade, expected):
    assert lifecycle_headers(model, upgrade) == expected


@pytest.mark.parametrize("value, problem", [
    ({"cloud-a": {"sunset_date": "2027-03-30"}}, None),
    ({"cloud-b": {"deprecation_date": "2026-01-01", "sunset_date": "2026-07-01"}}, None),
    ({"official": {"sunset_date": "2027-03-30"}}, "not a platform"),
    ({"azure": {"sunset_date": "2027-03-30"}}, "not a platform"),
    ({"cloud-a": {"sunset_date": "2027-03"}}, "ISO date"),
    ({"cloud-a": {"shutdown": "2027-03-30"}},
     "must hold some of deprecation_date, deprecation_url, status, successor, sunset_date"),
    # the page that states the schedule and names the replacement: a web page, nothing else
    ({"cloud-a": {"successor": "claude-sonnet-4-6", "deprecation_url": "https://docs.aws.amazon.com/bedrock/"}}, None),
    ({"cloud-a": {"successor": "claude-sonnet-4-6", "deprecation_url": "javascript:alert(1)"}}, "http"),
    ({"hub": {"status": "sunset"}}, None),
    ({"cloud-a": {"successor": "claude-sonnet-4-6", "sunset_date": "2027-03-30"}}, None),
    ({}, "must map"),
])
def test_curated_platform_schedules(value, problem):
    from registry.curation.rules import check_field
    got = check_field("platforms", value)
    assert (got is None) if problem is None else (problem in got)


@pytest.mark.parametrize("entry, own, status", [
    ({"sunset_date": "2027-03-30"}, "latest", "deprecated"),     # a shutdown scheduled on that cloud
    ({"sunset_date": "2026-07-30", "deprecation_date": "2026-01-30"}, "latest", "sunset"),
    ({"deprecation_date": "2027-01-01"}, "latest", "latest"),   # nothing yet: the model's own working status
    ({"deprecation_date": "2027-01-01"}, "sunset", "active"),   # the provider's API retired it; the cloud serves it
    ({"status": "sunset"}, "latest", "sunset"),                 # the cloud lists it retired without a day
    (None, "deprecated", "deprecated"),                         # no schedule of its own: the model's own
])
def test_a_clouds_schedule_gives_its_own_status(entry, own, status):
    from registry import lifecycle as rules
    member = rules.Member(id=1, slug="m", family_id=1, sunset_date="2027-01-01",
                          schedules={"cloud-a": {**entry, "source": "curation"}} if entry else {})
    got = rules.on_platform(member, "cloud-a", own, "2026-11-22")
    assert got.status == status and got.own_schedule is bool(entry)
    assert (got.sunset_date == "2027-01-01") is (entry is None)   # the model's own days only without a schedule
    assert rules.on_platform(member, "official", own, "2026-11-22").status == own
