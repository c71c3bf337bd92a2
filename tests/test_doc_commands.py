"""Every command the README and docs/ show is run, so the docs and the behaviour cannot drift apart.

The commands are read from the `sh` (and `cron`) fenced blocks of README.md, docs/*.md and the READMEs of
curation/ and seeds/. Each one is run with bash against a registry built as `make db` builds it
(curation, then every source from seeds/), in a directory holding a copy of that database and a small
project with dying model ids; a `curl` line asks a server started on that registry. RUN is the table of
what each command must do: its exit status and a line of its output. A block marked
`<!-- not run: why -->` on the line above its fence (network, root, a long run) is checked without
running: every option a registry command or script uses must be one its `--help` lists, a `make`
target must exist, a `curl` URL must be a route of the app, and any other program must be one of
HOST_PROGRAMS (docs/contributing.md#commands-in-the-docs-are-tested).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from helpers import shipped_ingested_app
from servers import Server, registry_command, server_env

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "curation" / "README.md",
        ROOT / "seeds" / "README.md"]
TODAY = "2026-11-26"            # the day the scan example in docs/scan.md was written for
ADMIN_KEY = "doc-admin-key"
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(.+?)\s*-->\s*$")
TRAILING_COMMENT = re.compile(r"\s{2,}#\s.*$")     # a comment after a command is set off by two spaces
BIN = Path(sys.executable).parent

# A small project with ids a scan finds: a Bedrock id (the line docs/scan.md shows), an OpenAI id in code,
# and a deprecated id in a config file.
PROJECT = {
    "infra/main.tf": 'resource "aws_bedrockagent_agent" "helper" {\n'
                     '  model_id = "us.anthropic.claude-3-5-sonnet-20241022-v2:0"\n}\n',
    "src/app.py": 'from openai import OpenAI\n\nreply = OpenAI().chat.completions.create(model="gpt-4-0613", '
                  'messages=[])\n',
    "config/models.yaml": "summarizer:\n  model: claude-3-haiku-20240307\n",
}
SCAN_LINE = ("infra/main.tf:2:15: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0' is Claude Sonnet 3.5 v2 "
             "(claude-3-5-sonnet-20241022), sunset; shutdown 2026-07-30 (119 days ago); upgrade to "
             "'us.anthropic.claude-sonnet-5-5'")


@dataclass(frozen=True)
class Expect:
    """What a command must do: its exit status, and a line (or part of one) of its output (or of `file`)."""

    status: int
    line: str
    file: str | None = None


MODELS = "MODELS='gpt-4o,us.anthropic.claude-3-5-sonnet-20241022-v2:0,gemini-2.0-flash'; "
RUN = {
    # README.md
    "curl -s 'http://127.0.0.1:8000/api/v1/resolve?q=us.anthropic.claude-3-5-sonnet-20241022-v2:0'":
        Expect(0, '"upgrade_alias":{"alias":"us.anthropic.claude-sonnet-5-5","source":"cloud-a",'
                  '"written":"us.anthropic.claude-sonnet-5-5","listed":true}'),
    "curl -s 'http://127.0.0.1:8000/api/v1/models?provider=anthropic&status=latest'":
        Expect(0, '"status":"latest"'),
    "curl -s 'http://127.0.0.1:8000/api/v1/models/claude-3-5-sonnet-20241022/upgrade'":
        Expect(0, '"upgrade":{"slug":"claude-sonnet-5-5"'),
    "registry scan --fail-on deprecated": Expect(1, SCAN_LINE),
    "curl -s 'http://127.0.0.1:8000/models/gpt-4o.md' | head -n 1": Expect(0, "# GPT-4o"),
    # docs/running.md
    "registry init-db": Expect(0, "Initialized the database at "),
    "registry curate": Expect(0, "Curation applied: "),
    "registry ingest --offline": Expect(0, "model-hub: completed: "),
    "registry ingest --offline --source vendor-b-api": Expect(0, "vendor-b-api: completed: "),
    "registry audit": Expect(0, "(a) retiring with no upgrade though a working fit exists (0):"),
    "registry export --format ndjson -o registry.ndjson": Expect(0, '{"export":{"export_version":1',
                                                                 file="registry.ndjson"),
    "mkdir -p /var/backups/registry && sqlite3 /srv/registry/registry.db "
    "\".backup '/var/backups/registry/registry-$(date +%F).db'\"": Expect(0, "SQLite format 3",
                                                                          file="backups/registry-*.db"),
    "mkdir -p /var/backups/registry && python3 -c \"import sqlite3, sys; "
    "sqlite3.connect(sys.argv[1]).execute('VACUUM INTO ?', (sys.argv[2],))\" "
    "/srv/registry/registry.db /var/backups/registry/compact-$(date +%F).db":
        Expect(0, "SQLite format 3", file="backups/compact-*.db"),
    # docs/api.md
    "curl -s 'http://127.0.0.1:8000/api/v1/providers'": Expect(0, '"slug":"anthropic"'),
    "curl -s 'http://127.0.0.1:8000/api/v1/models?provider=anthropic&status=active,latest&sort=release_date"
    "&per_page=5'": Expect(0, '"per_page":5'),
    "curl -s 'http://127.0.0.1:8000/api/v1/resolve?q=openai:gpt-4o'": Expect(0, '"confidence":0.8'),
    "curl -s 'http://127.0.0.1:8000/api/v1/search?q=open+weights+70b&limit=3'": Expect(0, '"results":'),
    "curl -s 'http://127.0.0.1:8000/api/v1/export?format=ndjson' | head -n 1":
        Expect(0, '{"export":{"export_version":1'),
    "curl -sI 'http://127.0.0.1:8000/api/v1/resolve?q=gpt-4-0613' | grep -iE 'deprecation|sunset|link'":
        Expect(0, 'rel="successor-version"'),
    "curl -s 'http://127.0.0.1:8000/api/v1/models/no-such-model'":
        Expect(0, '{"error":{"code":"not_found","message":"Model \'no-such-model\' not found."}}'),
    "curl -s -X POST -H \"Authorization: Bearer $ADMIN_API_KEY\" "
    "http://127.0.0.1:8000/api/v1/admin/ingest/vendor-f-api": Expect(0, '"source":"vendor-f-api"'),
    "curl -s -H \"Authorization: Bearer $ADMIN_API_KEY\" 'http://127.0.0.1:8000/api/v1/admin/ingestion-runs?limit=1'":
        Expect(0, '"ingestion_runs":[{'),
    MODELS + 'curl -s "http://127.0.0.1:8000/api/v1/changes?models=$MODELS&limit=5"': Expect(0, '"changes":['),
    MODELS + 'curl -s "http://127.0.0.1:8000/api/v1/feeds/lifecycle.ics?models=$MODELS"':
        Expect(0, "SUMMARY:us.anthropic.claude-3-5-sonnet-20241022-v2:0 shuts down"),
    "curl -sI 'http://127.0.0.1:8000/api/v1/providers' | grep -iE '^(etag|cache-control|x-ratelimit-limit):'":
        Expect(0, "Cache-Control: public, max-age=60"),
    # docs/curating.md
    "registry curate --check": Expect(0, " aliases: valid."),
    "registry curate --report": Expect(0, "Models without a release date ("),
    "registry curate --drift": Expect(0, "Kept on purpose"),
    # curation/README.md
    "flask --app registry curate --check": Expect(0, " aliases: valid."),
    "flask --app registry curate": Expect(0, "Curation applied: "),
    "flask --app registry curate --report": Expect(0, "Models without a release date ("),
    # docs/scan.md
    "registry scan": Expect(0, SCAN_LINE),
    "registry scan src/ config/ --format json": Expect(0, '"files_scanned": 2'),
    "registry scan --diff": Expect(0, '+  model_id = "us.anthropic.claude-sonnet-5-5"'),
    "registry scan --fix": Expect(0, "fixed infra/main.tf"),
    "registry scan --registry https://registry.example.com --fail-on deprecated": Expect(1, SCAN_LINE),
    "registry scan --registry https://registry.example.com --format github --fail-within 30":
        Expect(1, "::error file=infra/main.tf,line=2"),
    "registry scan --registry https://registry.example.com --format sarif > model-ids.sarif":
        Expect(0, '"ruleId": "sunset-model-id"', file="model-ids.sarif"),
    # docs/contributing.md
    ".venv/bin/python -m pytest -q -p no:cacheprovider tests/test_docs_links.py": Expect(0, " passed"),
    ('.venv/bin/python -m pytest -q -p no:cacheprovider'
     ' "tests/test_ingest.py::test_rerun_with_unchanged_data_changes_nothing"'): Expect(0, "1 passed"),
    ".venv/bin/python scripts/eval_resolve.py": Expect(0, "right model:      100.0%"),
    ".venv/bin/python scripts/eval_wild.py": Expect(0, "right model: "),
    ".venv/bin/python scripts/eval_lifecycle.py --verbose": Expect(0, "upgrade "),
    '.venv/bin/python scripts/eval_missing.py --db "$REGISTRY_DB"': Expect(0, "resolved (confidence >= 0.8): 99/100"),
}

# Programs a not-run block may call besides the registry, make, the scripts and curl: the host's own tools.
HOST_PROGRAMS = {"systemctl", "rm", "install", "sudo", "mv", "sqlite3", "for", "mkdir", "pip", "cd", "python3"}
REGISTRY_COMMANDS = {"audit", "curate", "export", "init-db", "ingest", "mcp", "notify", "scan", "serve"}
REGISTRY_CALL = re.compile(r"(?:^|[\s/])(?:registry(?:\.pyz)?|flask --app registry)\s+(%s)\b([^|;&>]*)"
                           % "|".join(sorted(REGISTRY_COMMANDS)))
SCRIPT_CALL = re.compile(r"(?:\.venv/bin/)?python3? ((?:scripts|bench)/[\w/]+\.py)([^|;&>]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


@dataclass(frozen=True)
class Shown:
    """A command as a doc shows it."""

    doc: str
    line: int
    command: str
    not_run: str | None


def commands_of(doc: Path, root: Path = ROOT) -> list:
    """Every command of the doc's sh and cron blocks, continuation lines joined, comments dropped."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        marker = NOT_RUN.match(lines[i - 1]) if i else None
        lang, i = fence.group(1), i + 1
        start, body = i, []
        while not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if lang not in ("sh", "cron"):
            continue
        joined, first = "", None
        for number, text in enumerate(body, start + 1):
            first = first or number
            if text.endswith("\\"):
                joined += text[:-1].rstrip() + " "
                continue
            command = TRAILING_COMMENT.sub("", joined + (text.lstrip() if joined else text)).strip()
            joined = ""
            if command and not command.startswith("#"):
                if lang == "cron":
                    command = command.split(None, 5)[5]
                reason = marker.group(1) if marker else ("a cron line" if lang == "cron" else None)
                found.append(Shown(doc.relative_to(root).as_posix(), first, command, reason))
            first = None
    return found


SHOWN = [shown for doc in DOCS for shown in commands_of(doc)]
TO_RUN = [s for s in SHOWN if s.not_run is None]
NOT_RUN_SHOWN = [s for s in SHOWN if s.not_run is not None]


def test_every_command_shown_has_a_row_and_every_row_is_shown():
    shown = {s.command for s in TO_RUN}
    assert sorted(shown - set(RUN)) == [], "add a row to RUN for each new command a doc shows"
    assert sorted(set(RUN) - shown) == [], "a row of RUN no doc shows any longer"


def test_the_docs_show_commands_run_and_not_run():
    docs = {s.doc for s in TO_RUN}
    assert {"README.md", "docs/running.md", "docs/api.md", "docs/scan.md", "docs/curating.md",
            "docs/contributing.md"} <= docs
    assert len(TO_RUN) >= 30 and NOT_RUN_SHOWN


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The shipped registry as `make db` builds it (the run's one copy: helpers.shipped_ingested_app), never opened
    again (each command gets a copy). The commands `make db` runs are run as the docs show them, below."""
    db = tmp_path_factory.mktemp("built") / "registry.db"
    shipped_ingested_app(db, TODAY)
    return db


@pytest.fixture(scope="module")
def server(built, tmp_path_factory):
    """A server on its own copy of the registry, with an admin key and offline sources."""
    home = tmp_path_factory.mktemp("served")
    shutil.copy(built, home / "registry.db")
    env = server_env(home / "registry.db", ADMIN_API_KEY=ADMIN_KEY, REGISTRY_OFFLINE="1",
                     REGISTRY_SEEDS_DIR=ROOT / "seeds", REGISTRY_CURATION_DIR=ROOT / "curation",
                     REGISTRY_TODAY=TODAY)
    running = Server(registry_command(), env, home / "serve.log")
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def command_env(db) -> dict:
    """The environment a reader has after `make install`: the venv first on PATH, the registry's files."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REGISTRY_", "RATELIMIT_"))}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", REGISTRY_DB=str(db), REGISTRY_TODAY=TODAY,
               REGISTRY_CURATION_DIR=str(ROOT / "curation"), REGISTRY_SEEDS_DIR=str(ROOT / "seeds"),
               ADMIN_API_KEY=ADMIN_KEY)
    return env


def localize(command: str, server_url: str, home: Path) -> str:
    """The command pointed at the test's server and directory instead of a host's."""
    for host, here in (("http://127.0.0.1:8000", server_url), ("https://registry.example.com", server_url),
                       ("/srv/registry", str(home)), ("/var/backups/registry", str(home / "backups"))):
        command = command.replace(host, here)
    return command


@pytest.mark.parametrize("shown", TO_RUN, ids=[f"{s.doc}:{s.line}" for s in TO_RUN])
def test_a_shown_command_does_what_the_docs_say(shown, built, server, tmp_path):
    expect = RUN.get(shown.command)
    assert expect is not None, f"{shown.doc}:{shown.line}: no row in RUN for {shown.command!r}"
    shutil.copy(built, tmp_path / "registry.db")
    for name, text in PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    # A command of the repository's own (make, the venv's scripts) runs where the reader runs it: its root.
    cwd = ROOT if shown.command.startswith(("make ", ".venv/")) else tmp_path
    done = subprocess.run(["bash", "-c", localize(shown.command, server.url, tmp_path)], cwd=cwd,
                          env=command_env(tmp_path / "registry.db"), capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == expect.status, f"{shown.doc}:{shown.line} exited {done.returncode}:\n{output}"
    if expect.file:   # a glob: the file the command wrote (named by today's date, say)
        written = sorted(tmp_path.glob(expect.file))
        assert written, f"{shown.doc}:{shown.line} wrote no {expect.file}:\n{output}"
        output = written[0].read_bytes().decode("latin-1")
    assert expect.line in output, f"{shown.doc}:{shown.line}: no {expect.line!r} in:\n{output[:3000]}"


def help_of(argv: list) -> str:
    done = subprocess.run([*argv, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def url_adapter():
    """The app's URL map, to match a URL a doc shows against the routes."""
    from registry import create_app
    app = create_app({"TESTING": True, "DATABASE": "unused-url-map-only.db"})
    return app.url_map.bind("localhost")


@pytest.mark.parametrize("shown", NOT_RUN_SHOWN, ids=[f"{s.doc}:{s.line}" for s in NOT_RUN_SHOWN])
def test_a_command_not_run_takes_the_options_it_shows(shown):
    command, checked = shown.command, False
    for match in REGISTRY_CALL.finditer(command):
        if match.group(1) in REGISTRY_COMMANDS:
            text = help_of([str(BIN / "registry"), match.group(1)])
            assert [o for o in OPTION.findall(match.group(2)) if o not in text] == [], (shown, text)
            checked = True
    for match in SCRIPT_CALL.finditer(command):
        text = help_of([sys.executable, str(ROOT / match.group(1))])
        assert [o for o in OPTION.findall(match.group(2)) if o not in text] == [], (shown, text)
        checked = True
    if command.startswith("make "):
        for target in command.split()[1:]:
            done = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, f"{shown.doc}:{shown.line}: no make target {target}: {done.stderr}"
        checked = True
    if command.startswith("curl "):
        words = shlex.split(command)
        url = next(w for w in words if w.startswith("http"))
        method = words[words.index("-X") + 1] if "-X" in words else "GET"
        url_adapter().match(urlsplit(url).path, method=method)   # raises NotFound / MethodNotAllowed
        checked = True
    first = command.lstrip("(").split()[0]
    assert checked or first in HOST_PROGRAMS, f"{shown.doc}:{shown.line}: nothing checks {command!r}"


@pytest.mark.parametrize("text, expected", [
    ("```sh\nregistry audit   # why\n```\n", [("registry audit", None)]),
    ("<!-- not run: network -->\n```sh\ncurl -s \\\n  'http://x/api/v1/providers'\n```\n",
     [("curl -s 'http://x/api/v1/providers'", "network")]),
    ("```cron\n0 2 * * * cd /srv && registry ingest\n```\n", [("cd /srv && registry ingest", "a cron line")]),
    ("```\nregistry audit\n```\n```yaml\nrun: registry scan\n```\n", []),
])
def test_commands_are_read_from_sh_and_cron_blocks(tmp_path, text, expected):
    doc = tmp_path / "README.md"
    doc.write_text(text)
    assert [(s.command, s.not_run) for s in commands_of(doc, tmp_path)] == expected
