"""`registry scan` on the fixture repository (tests/data/scan/repo): what it reports, in every format,
what --fix leaves (tests/data/scan/fixed), exit codes for CI, and the remote lookup's manners."""
import json
import os
import shutil
from pathlib import Path

import jsonschema
import pytest
import responses

from registry import create_app
from registry.web.connection import close_thread_connections
from registry.scan.lookup import RegistryUnavailable
from registry.scan.remote import RemoteLookup

from helpers import DATA, build_db
from servers import Server, registry_command, server_env

SCAN = DATA / "scan"
# Names git or this project's tree would not keep as they are: the test gives them their real names.
RENAMED = {"gitignore": ".gitignore", "config/dot-env": "config/.env"}

# Every deprecated and sunset id of the fixture repository, with the upgrade in its own format
# (None: reported, not fixable: no id of that format, no working upgrade, or none at all).
EXPECTED = [
    ("app/client.py", 5, 18, "claude-3-sonnet-20240229", "sunset", "claude-sonnet-4-5-20250929"),
    ("app/client.py", 6, 15, "claude-3-haiku-20240307", "sunset", None),
    ("app/client.py", 8, 11, "bedrock/anthropic.claude-3-sonnet-20240229-v1:0", "sunset",
     "bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("config/.env", 2, 17, "claude-3-5-sonnet-20241022", "deprecated", "claude-sonnet-4-5-20250929"),
    ("config/models.yaml", 3, 10, "claude-3-5-sonnet-20241022", "deprecated", "claude-sonnet-4-5-20250929"),
    ("config/models.yaml", 4, 14, "anthropic/claude-3-sonnet", "sunset", "anthropic/claude-sonnet-4.5"),
    ("config/models.yaml", 7, 8, "claude-instant-1.2", "sunset", None),
    ("config/pyproject.toml", 2, 10, "claude-3-sonnet-20240229", "sunset", "claude-sonnet-4-5-20250929"),
    ("config/settings.json", 2, 13, "anthropic.claude-3-5-sonnet-20241022-v2:0", "deprecated",
     "anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("docs/usage.md", 5, 15, "claude-3-haiku-20240307", "sunset", None),
    ("docs/usage.md", 8, 31, "claude-3-5-sonnet-20241022", "deprecated", "claude-sonnet-4-5-20250929"),
    ("infra/main.tf", 4, 18, "anthropic.claude-3-sonnet-20240229-v1:0", "sunset",
     "anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("infra/main.tf", 9, 14, "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "deprecated",
     "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("java/src/com/example/Models.java", 4, 45, "eu.anthropic.claude-3-5-sonnet-20241022-v2:0", "deprecated",
     "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("java/src/com/example/Models.java", 5, 44, "anthropic.claude-3-sonnet-20240229-v1:0", "sunset",
     "anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("svc/cmd/main.go", 5, 23, "us.anthropic.claude-3-5-sonnet-20241022-v2:0", "deprecated",
     "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("svc/cmd/main.go", 6, 22, "claude-3-5-sonnet-v2@20241022", "deprecated", "claude-sonnet-4@20250514"),
    ("web/chat.ts", 2, 23, "claude-3-5-sonnet-latest", "deprecated", "claude-sonnet-4-5"),
    ("web/chat.ts", 3, 39, "anthropic/claude-3.5-sonnet", "deprecated", "anthropic/claude-sonnet-4.5"),
    ("web/chat.ts", 4, 16, "Claude-3-Sonnet-20240229", "sunset", "claude-sonnet-4-5-20250929"),
    ("web/legacy.js", 2, 13, "claude-instant-1.2", "sunset", None),
    ("web/legacy.js", 3, 11, "claude-3-haiku-20240307", "sunset", None),
]
UNFIXABLE = [e for e in EXPECTED if e[5] is None]


def tree(root: Path) -> dict:
    """relative path -> bytes of every file under root."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def materialize(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for stored, real in RENAMED.items():
        (target / stored).rename(target / real)
    return target


@pytest.fixture(scope="module")
def db_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("scan-db") / "registry.db"
    build_db(path, DATA / "curation", listed=True)
    return path


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A copy of the fixture repository, plus what cannot be committed here: a binary holding an id."""
    root = materialize(SCAN / "repo", tmp_path / "repo")
    (root / "app" / "blob.bin").write_bytes(b"claude-3-sonnet-20240229\0\x01\x02")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def scan(db_path):
    """Run `registry scan ARGS` in-process; (exit code, output)."""
    app = create_app({"TESTING": True, "DATABASE": str(db_path)})

    def run(*args):
        result = app.test_cli_runner().invoke(args=["scan", *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        return result.exit_code, result.output

    yield run
    close_thread_connections()


def found(output: str) -> list:
    return [(f["path"], f["line"], f["col"], f["text"], f["status"], f["upgrade_alias"] if f["fixable"] else None)
            for f in json.loads(output)["findings"]]


def test_reports_every_retiring_id_and_nothing_else(repo, scan):
    code, out = scan("--format", "json")
    assert code == 0
    assert found(out) == EXPECTED
    body = json.loads(out)
    assert body["files_scanned"] == 12   # not the binary, the lock file, node_modules/ or generated/
    sonnet = next(f for f in body["findings"] if f["text"] == "claude-3-sonnet-20240229")
    assert (sonnet["shutdown"], sonnet["days_left"]) == ("2025-07-21", -488)
    assert sonnet["model"] == "claude-3-sonnet-20240229"


def test_fix_leaves_the_expected_tree_and_a_second_fix_changes_nothing(repo, scan, tmp_path):
    expected = tree(materialize(SCAN / "fixed", tmp_path / "expected"))
    code, _ = scan("--fix")
    assert code == 0
    after = tree(repo)
    after.pop("app/blob.bin")
    assert after == expected
    assert not list(repo.rglob(".registry-fix-*"))   # no temporary file left behind
    code, out = scan("--fix", "--format", "json")
    assert tree(repo) == {**expected, "app/blob.bin": (repo / "app/blob.bin").read_bytes()}
    assert found(out) == UNFIXABLE   # what is left has no working upgrade in its format


def test_diff_writes_nothing(repo, scan):
    before = tree(repo)
    code, out = scan("--diff")
    assert code == 0 and tree(repo) == before
    assert out.count("\n+++ b/") + out.startswith("+++ b/") == 10   # the ten files --fix changes
    assert '-ROUTED = "bedrock/anthropic.claude-3-sonnet-20240229-v1:0"' in out
    assert '+ROUTED = "bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0"' in out


def test_sarif_is_valid_2_1_0(repo, scan):
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    code, out = scan("--format", "sarif")
    log = json.loads(out)
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert [(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"],
             r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in results] \
        == [e[:3] for e in EXPECTED]
    assert {r["ruleId"] for r in results} == {"sunset-model-id", "deprecated-model-id"}
    assert sum("fixes" in r for r in results) == len(EXPECTED) - len(UNFIXABLE)


def test_github_annotations(repo, scan):
    _, out = scan("--format", "github")
    lines = out.splitlines()
    assert len(lines) == len(EXPECTED) + 1
    assert lines[0].startswith("::error file=app/client.py,line=5,col=18,endColumn=42,title=sunset model id::")
    assert lines[3].startswith("::warning file=config/.env,line=2,col=17,")


@pytest.mark.parametrize("args, code", [
    ((), 0),
    (("--fail-on", "deprecated"), 1),
    (("--fail-on", "sunset"), 1),
    (("--fail-within", "30"), 1),
    (("--include", "config/settings.json", "--fail-on", "deprecated"), 1),
    (("--include", "config/settings.json", "--fail-on", "sunset"), 0),        # deprecated only
    (("--include", "config/settings.json", "--fail-within", "30"), 0),        # shuts down in 2099
    (("--include", "config/settings.json", "--fail-within", "30000"), 1),
    (("--exclude", "*", "--fail-on", "deprecated"), 0),
    # after --fix nothing deprecated is left: the Vertex id moved to the newest Sonnet Vertex AI serves
    (("--fix", "--include", "svc/", "--fail-on", "deprecated"), 0),
    (("--fix", "--include", "infra/", "--fail-on", "deprecated"), 0),
    (("--diff", "--include", "infra/", "--fail-on", "deprecated"), 1),
])
def test_exit_codes(repo, scan, args, code):
    assert scan(*args)[0] == code


@pytest.mark.parametrize("args, expected", [
    (("--include", "web/", "--format", "json"), [e for e in EXPECTED if e[0].startswith("web/")]),
    (("--exclude", "*.md", "--exclude", "config/", "--format", "json"),
     [e for e in EXPECTED if not e[0].startswith(("docs/", "config/"))]),
    # exact matches only: the case variant, the bedrock/ route and the eu. profile the registry does
    # not list (normalized, 0.8) are left out
    (("--min-confidence", "1", "--format", "json"),
     [e for e in EXPECTED if e[3] not in ("Claude-3-Sonnet-20240229", "eu.anthropic.claude-3-5-sonnet-20241022-v2:0",
                                          "bedrock/anthropic.claude-3-sonnet-20240229-v1:0")]),
    (("web/legacy.js", "config/models.yaml", "--format", "json"),
     [e for e in EXPECTED if e[0] in ("web/legacy.js", "config/models.yaml")]),
])
def test_choosing_what_is_scanned(repo, scan, args, expected):
    code, out = scan(*args)
    assert code == 0 and sorted(found(out)) == sorted(expected)


def test_vendored_folders_on_request(repo, scan):
    _, out = scan("--vendored", "--format", "json")
    assert ("node_modules/some-sdk/index.js", 1, 28, "claude-3-sonnet-20240229", "sunset",
            "claude-sonnet-4-5-20250929") in found(out)


def test_remote_registry_gives_the_same_findings(repo, scan, db_path, tmp_path):
    srv = Server(registry_command(), server_env(db_path), tmp_path / "server.log")
    try:
        srv.wait_ready()
        code, out = scan("--registry", srv.url, "--format", "json")
    finally:
        srv.stop()
    assert code == 0, out
    assert found(out) == EXPECTED


@responses.activate
def test_remote_waits_out_429():
    """A 429 is waited on for Retry-After seconds, then the same question is asked again, once."""
    base = "http://registry.test/api/v1"
    responses.get(f"{base}/models", json={"models": [{"slug": "m-1", "sunset_date": "2030-01-01"}],
                                          "pagination": {"total_pages": 1}})
    responses.get(f"{base}/resolve", status=429, headers={"Retry-After": "7"},
                  json={"error": {"code": "rate_limited", "message": "Rate limit exceeded; retry in 7 seconds."}})
    answer = {"matched_model": {"slug": "m-1", "status": "deprecated"}, "confidence": 1.0}
    responses.get(f"{base}/resolve", json=answer)
    slept = []
    lookup = RemoteLookup("http://registry.test", sleep=slept.append)
    got = lookup.resolve_many(["m-1"])
    assert slept == [7]
    assert got["m-1"]["lifecycle"]["sunset_date"] == "2030-01-01"
    assert [c.request.url.split("?")[0].rsplit("/", 1)[-1] for c in responses.calls] == ["models", "resolve", "resolve"]


@responses.activate
@pytest.mark.parametrize("status, headers", [(500, {}), (429, {"Retry-After": "3600"})])
def test_remote_that_cannot_answer_stops_the_scan(status, headers):
    responses.get("http://registry.test/api/v1/models", status=status, headers=headers, json={})
    with pytest.raises(RegistryUnavailable):
        RemoteLookup("http://registry.test", sleep=lambda s: None).aliases()


def test_unreachable_registry_exits_2(repo, scan):
    code, out = scan("--registry", "http://127.0.0.1:9")
    assert code == 2 and "cannot answer" in out


def test_missing_database_exits_2(repo, tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "absent.db")})
    result = app.test_cli_runner().invoke(args=["scan"])
    assert result.exit_code == 2 and "cannot answer" in result.output
    assert not (tmp_path / "absent.db").exists()   # a scan never creates a database


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed (.ci/run installs it)")
@pytest.mark.parametrize("copies", [300])
@pytest.mark.parametrize("git", [False, True])   # in a repository, ripgrep applies the .gitignore files too
def test_ripgrep_prefilter_finds_what_reading_every_file_finds(repo, scan, monkeypatch, copies, git):
    """A tree large enough for the prefilter: the same findings with ripgrep choosing the files as without."""
    if git:
        (repo / ".git").mkdir()
    filler = "def handler(event):\n    return {'status': 'ok', 'version': '1.2.3'}\n"
    for i in range(copies):
        (repo / "pkg" / f"m{i:03d}").mkdir(parents=True)
        (repo / "pkg" / f"m{i:03d}" / "mod.py").write_text(filler)
    with_rg = found(scan("--format", "json")[1])
    monkeypatch.setenv("PATH", "/nonexistent")   # no ripgrep on PATH: every file is read
    without = found(scan("--format", "json")[1])
    assert with_rg == without and sorted(with_rg) == sorted(EXPECTED)
    # and ripgrep did choose: of a filler module and a file naming a model, only the latter is read
    from registry.scan import prefilter
    search = prefilter.start(shutil.which("rg", path=os.defpath + ":/usr/bin"), [str(repo)], ["claude-3"], False)
    picked = prefilter.keep([str(repo / "pkg/m000/mod.py"), str(repo / "web/chat.ts")], search)
    assert picked == [str(repo / "web/chat.ts")]


@pytest.mark.parametrize("keys, kept", [
    (["claude-3", "claude-3-haiku", "claude-3-opus"], ["claude-3"]),   # every longer key holds claude-3
    (["gpt-4o", "gpt-4", "o3-mini"], ["gpt-4", "o3-mini"]),
    (["gemini-1.5-pro", "gemini-1.5-pro"], ["gemini-1.5-pro"]),
])
def test_ripgrep_is_given_the_keys_no_shorter_key_covers(keys, kept):
    from registry.scan.prefilter import covering
    assert covering(keys) == kept


@pytest.mark.parametrize("line, found", [
    ('model = "command-r"', ["command-r"]),                 # a known id with a separator
    ('model = "claude-3-haiku-20240307"', ["claude-3-haiku-20240307"]),
    ('run("command")', []),                                  # letters only: a word, though Cohere has a model so named
    ('title = "Claude"', []),
    ('TOOL = "COMMAND"', []),
    ('tier = "sonar-pro"', ["sonar-pro"]),
    ('tier = "sonar"', []),
])
def test_plain_words_are_not_model_ids(line, found):
    from registry.scan.candidates import Matcher
    matcher = Matcher(["command", "command-r", "claude-3-haiku-20240307", "Claude", "sonar", "sonar-pro"])
    assert [occ.text for occ in matcher.find("app.py", line + "\n")] == found
    assert not any(key.isalpha() for key in matcher.keys)   # so ripgrep is never asked for a word either


@pytest.mark.parametrize("git, root, expected", [
    (True, ".", ["keep.py", "src/a.py"]),                      # the repository's .gitignore applies
    (True, "src", ["a.py"]),                                   # ... to a folder below it too (as git and rg do)
    (True, "build", ["x.py"]),                                 # an ignored folder named on the command line is
                                                               # scanned, its *.pyc still skipped
    (False, "src", ["a.py", "a.pyc"]),                         # no repository: the folder above says nothing
])
def test_gitignore_files_above_the_scanned_folder(tmp_path, git, root, expected):
    from registry.scan import walk
    if git:
        (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("build/\n*.pyc\n")
    for name in ("keep.py", "src/a.py", "src/a.pyc", "build/x.py", "build/x.pyc"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    top = tmp_path / root
    walked = [rel for _path, rel in walk.files([str(top)])]
    assert [r for r in walked if r != ".gitignore"] == expected


@pytest.mark.parametrize("written, fixed", [
    # the upgrade has an eu. profile: the caller's prefix is kept, and the id is fixed
    ("eu.anthropic.claude-3-5-sonnet-20241022-v2:0", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    # no apac. profile of the upgrade: never an id the caller's platform may not serve; reported with why
    ("apac.anthropic.claude-3-5-sonnet-20241022-v2:0", None),
])
def test_fix_keeps_the_callers_platform_or_leaves_the_id(tmp_path, monkeypatch, scan, written, fixed):
    (tmp_path / "main.tf").write_text(f'model_id = "{written}"\n')
    monkeypatch.chdir(tmp_path)
    code, out = scan("--format", "json")
    finding = json.loads(out)["findings"][0]
    assert finding["fixable"] is (fixed is not None)
    if fixed is None:
        assert "no apac. cross-region inference profile on Amazon Bedrock" in finding["upgrade_note"]
    scan("--fix")
    assert (tmp_path / "main.tf").read_text() == f'model_id = "{fixed or written}"\n'


@responses.activate
def test_remote_reads_the_aliases_of_the_export_like_the_local_database():
    """A remote scan looks for the same strings as a local one: every alias, from the one-file export."""
    base = "http://registry.test/api/v1"
    responses.get(f"{base}/models", json={"models": [{"slug": "llama-3.1-70b-instruct"}],
                                          "pagination": {"total_pages": 1}})
    lines = [{"export": {"export_version": 1}},
             {"model": {"slug": "llama-3.1-70b-instruct", "aliases": [{"alias": "Llama-3.1-70B-Instruct"},
                                                                      {"alias": "meta.llama3-1-70b-instruct-v1:0"}]}}]
    responses.get(f"{base}/export", body="\n".join(json.dumps(line) for line in lines) + "\n")
    got = RemoteLookup("http://registry.test", sleep=lambda s: None).aliases()
    assert set(got) == {"llama-3.1-70b-instruct", "Llama-3.1-70B-Instruct", "meta.llama3-1-70b-instruct-v1:0"}


@responses.activate
def test_remote_without_an_export_works_from_slugs():
    base = "http://registry.test/api/v1"
    responses.get(f"{base}/models", json={"models": [{"slug": "m-1"}], "pagination": {"total_pages": 1}})
    responses.get(f"{base}/export", status=404, json={"error": {"code": "not_found", "message": "x"}})
    assert RemoteLookup("http://registry.test", sleep=lambda s: None).aliases() == ["m-1"]


# -- a hostile registry (issue 44 holes 2 and 3) ----------------------------------------------------------------

HOSTILE = "http://hostile.test/api/v1"


def _hostile_registry(answer: dict):
    """A registry that knows gpt-4o (deprecated) and answers it with `answer` merged in."""
    responses.get(f"{HOSTILE}/models", json={"models": [{"slug": "gpt-4o", "sunset_date": "2026-12-20"}],
                                             "pagination": {"total_pages": 1}})
    responses.get(f"{HOSTILE}/export", status=404, json={})
    base = {"matched_model": {"slug": "gpt-4o", "display_name": "GPT-4o", "status": "deprecated"},
            "confidence": 1.0, "upgrade": {"slug": "gpt-5", "display_name": "GPT-5", "status": "latest"},
            "upgrade_alias": {"alias": "gpt-5", "source": "official"}}
    responses.get(f"{HOSTILE}/resolve", json={**base, **answer})


@responses.activate
@pytest.mark.parametrize("answer", [
    # an upgrade id holding a quote and a newline: written verbatim, the file would still parse and run it
    {"upgrade_alias": {"alias": 'gpt-5"\nimport os; os.system("id")\nX = "', "source": "official"}},
    {"upgrade_alias": {"alias": "gpt-5", "written": "gpt-5'); rm -rf ~; ('", "source": "official"}},
    {"matched_model": {"slug": "gpt-4o", "display_name": "GPT-4o", "status": "shredded"}},
    {"confidence": float("inf")},
])
def test_a_hostile_registrys_ids_are_refused_before_they_are_reported_or_written(tmp_path, monkeypatch, scan,
                                                                                 answer):
    _hostile_registry(answer)
    source = tmp_path / "app.py"
    source.write_text('MODEL = "gpt-4o"\n')
    monkeypatch.chdir(tmp_path)
    code, out = scan("--registry", "http://hostile.test", "--fix")
    assert source.read_text() == 'MODEL = "gpt-4o"\n'
    assert "import os" not in out and "rm -rf" not in out and code in (0, 1), out


@responses.activate
def test_a_hostile_registrys_names_reach_the_terminal_cleaned(tmp_path, monkeypatch, scan):
    _hostile_registry({"matched_model": {"slug": "gpt-4o", "display_name": "GPT-4o\x1b]0;pwned\x07\x1b[2J",
                                         "status": "deprecated"}})
    (tmp_path / "app.py").write_text('MODEL = "gpt-4o"\n')
    monkeypatch.chdir(tmp_path)
    code, out = scan("--registry", "http://hostile.test")
    assert "gpt-4o" in out and "\x1b" not in out and "\x07" not in out


@responses.activate
@pytest.mark.parametrize("respond, says", [
    (lambda: responses.get(f"{HOSTILE}/models", status=429, headers={"Retry-After": "1"}, json={}), "429"),
    (lambda: responses.get(f"{HOSTILE}/models", json={"models": [{"slug": "m"}],
                                                     "pagination": {"total_pages": 10**9}}), "pages"),
    (lambda: responses.get(f"{HOSTILE}/models", json={"models": "all", "pagination": {"total_pages": 1}}), "pages"),
])
def test_a_hostile_registry_cannot_hold_the_scan(respond, says):
    respond()
    slept = []
    with pytest.raises(RegistryUnavailable, match=says):
        RemoteLookup("http://hostile.test", sleep=slept.append).aliases()
    assert sum(slept) <= 10 and len(responses.calls) <= 10


@responses.activate
def test_a_registry_that_never_stops_waiting_runs_out_of_the_scans_time():
    responses.get(f"{HOSTILE}/models", json={"models": [{"slug": "m"}], "pagination": {"total_pages": 3}})
    now = [0.0]

    def clock():
        now[0] += 1000   # each question takes a thousand seconds
        return now[0]
    with pytest.raises(RegistryUnavailable, match="within"):
        RemoteLookup("http://hostile.test", sleep=lambda s: None, clock=clock).aliases()


@responses.activate
def test_an_endless_export_is_cut_off(monkeypatch):
    from registry.scan import remote
    monkeypatch.setattr(remote, "MAX_EXPORT_BYTES", 1 << 16)
    responses.get(f"{HOSTILE}/models", json={"models": [{"slug": "m"}], "pagination": {"total_pages": 1}})
    line = json.dumps({"model": {"slug": "m", "aliases": [{"alias": "m-1"}]}}) + "\n"
    responses.get(f"{HOSTILE}/export", body=line * 5000)
    with pytest.raises(RegistryUnavailable, match="bytes"):
        RemoteLookup("http://hostile.test", sleep=lambda s: None).aliases()


def test_fix_through_a_symlink_named_on_the_command_line_keeps_the_link(tmp_path, monkeypatch, scan):
    """Issue 44: --fix on a link replaced the link with a file; the file it points at is what is rewritten."""
    real = tmp_path / "shared" / "models.py"
    real.parent.mkdir()
    real.write_text('MODEL = "claude-3-5-sonnet-20241022"\n')
    link = tmp_path / "app" / "models.py"
    link.parent.mkdir()
    link.symlink_to(real)
    monkeypatch.chdir(tmp_path)
    code, out = scan("--fix", str(link))
    assert link.is_symlink() and os.readlink(link) == str(real), out
    assert real.read_text() == 'MODEL = "claude-sonnet-4-5-20250929"\n'


def _disk_full_for(name):
    real = os.replace

    def replace(src, dst):
        if os.path.basename(dst) == name:
            raise OSError(28, "No space left on device", src)
        return real(src, dst)
    return replace


def _changed_after_the_scan(name):
    from registry.scan import fix
    real = fix.read_text

    def read_text(path):
        text = real(path)
        return text.replace("claude", "CLAUDE") if os.path.basename(path) == name else text
    return "registry.scan.fix.read_text", read_text


@pytest.mark.parametrize("refuse, why", [
    (lambda: ("os.replace", _disk_full_for("b.py")), "disk full writing ./b.py"),
    (lambda: _changed_after_the_scan("b.py"), "it changed after the scan read it"),
])
def test_fix_names_a_file_it_could_not_rewrite_fixes_the_rest_and_exits_2(tmp_path, monkeypatch, scan, refuse, why):
    """A file --fix cannot rewrite was a traceback, the files after it left unfixed; it stays as it was."""
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text('MODEL = "claude-3-5-sonnet-20241022"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(*refuse())
    code, out = scan("--fix", ".")
    assert code == 2
    assert f"scan: not fixed b.py: {why}" in out
    assert "3 deprecated or sunset model id(s) in 3 file(s) scanned; 2 fixed." in out
    assert (tmp_path / "b.py").read_text() == 'MODEL = "claude-3-5-sonnet-20241022"\n'
    for name in ("a.py", "c.py"):
        assert (tmp_path / name).read_text() == 'MODEL = "claude-sonnet-4-5-20250929"\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py", "c.py"]   # no temporary left
