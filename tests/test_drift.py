"""`registry curate --drift` and the ingest's details: a curated lifecycle value a source contradicts is
listed, with the source and where its value was read, until curation is fixed or says why it keeps its
value (docs/curating.md#drift)."""
import json

import pytest

from registry.ingest.records import Page
from registry.ingest.runner import run_source
from registry.ingest.snapshots import save_pages

# Anthropic's listing, saying Claude 3.5 Sonnet (curated: shutdown 2099-10-22) retires on 2026-10-22
RETIRING = {"data": [{"type": "model", "id": "claude-3-5-sonnet-20241022", "display_name": "Claude Sonnet 3.5",
                      "created_at": "2024-10-22T00:00:00Z", "lifecycle": "deprecated",
                      "deprecated_at": "2025-08-13T00:00:00Z", "retires_at": "2026-10-22T00:00:00Z"}],
            "has_more": False, "first_id": "claude-3-5-sonnet-20241022", "last_id": "claude-3-5-sonnet-20241022"}
LINE = "claude-3-5-sonnet-20241022.sunset_date: curation '2099-10-22', {where} '2026-10-22'"


@pytest.fixture
def seeds(tmp_path):
    save_pages(str(tmp_path / "seeds"), "vendor-b-api", [Page(RETIRING)])
    return tmp_path / "seeds"


def test_the_drift_report_names_the_source_that_knows_better(app, runner, seeds):
    app.config["SEEDS_DIR"] = str(seeds)
    result = runner.invoke(args=["curate", "--drift"])
    assert result.exit_code == 1, result.output
    assert "Curated values a source contradicts (1)" in result.output
    assert LINE.format(where="seeds/vendor-b-api") in result.output


def test_the_run_of_that_source_lists_it_in_its_details(app, seeds, runner):
    run = run_source(app.config["DATABASE"], "vendor-b-api", offline=True, seeds_dir=str(seeds))
    assert run.status == "completed"
    assert run.details["contradicts_curation"] == [LINE.format(where="vendor-b-api")]
    app.config["SEEDS_DIR"] = str(seeds)
    result = runner.invoke(args=["curate", "--drift"])   # the last run says so too
    assert LINE.format(where="vendor-b-api (last run ") .split(" (last run")[0] in result.output


def test_a_kept_value_is_listed_with_its_reason(app, runner, seeds, curation_dir):
    path = curation_dir / "anthropic.yaml"
    text = path.read_text()
    anchor = '        sunset_date: "2099-10-22"\n'
    assert text.count(anchor) == 1
    reason = "        # conflict: Anthropic's listing says 2026-10-22; the notice page wins\n"
    path.write_text(text.replace(anchor, reason + anchor))
    app.config["SEEDS_DIR"] = str(seeds)
    result = runner.invoke(args=["curate", "--drift"])
    assert result.exit_code == 0, result.output
    assert "Curated values a source contradicts (0)" in result.output
    assert "(kept: conflict: Anthropic's listing says 2026-10-22; the notice page wins)" in result.output


def test_agreeing_sources_are_not_drift(app, runner, tmp_path):
    same = json.loads(json.dumps(RETIRING))
    same["data"][0]["retires_at"] = "2099-10-22T00:00:00Z"
    save_pages(str(tmp_path / "same"), "vendor-b-api", [Page(same)])
    app.config["SEEDS_DIR"] = str(tmp_path / "same")
    result = runner.invoke(args=["curate", "--drift"])
    assert result.exit_code == 0 and "contradicts (0)" in result.output, result.output
