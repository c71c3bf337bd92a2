"""The MCP server, spoken to by the official SDK's own client: over stdio (`registry mcp`) and over
streamable HTTP at /mcp of a real server (gunicorn), which shares the public rate limit."""
import json

import anyio
import requests
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from helpers import DATA, TODAY, build_db
from servers import Server, registry_command, server_env

TOOLS = {"resolve", "check", "upgrade", "search", "upcoming_shutdowns"}

# (tool, arguments, what the structured answer must hold); the fixture curation, today pinned to TODAY.
CASES = [
    ("resolve", {"identifier": "us.anthropic.claude-3-5-sonnet-20241022-v2:0"},
     {"found": True, "matched_model.status": "deprecated",
      "upgrade_alias.alias": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "shutdown.date": "2099-10-22", "shutdown.days_left": 26633}),
    ("resolve", {"identifier": "claude-3-sonnet-20240229"},
     {"matched_model.status": "sunset", "shutdown.date": "2025-07-21", "shutdown.days_left": -488,
      "upgrade_alias.alias": "claude-sonnet-4-5-20250929"}),
    ("resolve", {"identifier": "no-such-model-xyz"}, {"found": False}),
    ("check", {"identifiers": ["anthropic/claude-3-sonnet", "claude-sonnet-4-5", "nothing-here-at-all"]},
     {"results.0.status": "sunset", "results.0.upgrade_alias": "anthropic/claude-sonnet-4.5",
      "results.0.shutdown.days_left": -488, "results.1.status": "latest", "results.1.upgrade_alias": None,
      "results.2.found": False}),
    ("upgrade", {"model": "claude-3-5-sonnet-20241022"},
     {"current.status": "deprecated", "upgrade.slug": "claude-sonnet-4-5-20250929",
      "current.shutdown.date": "2099-10-22", "current.shutdown.days_left": 26633}),
    ("upgrade", {"model": "anthropic.claude-3-sonnet-20240229-v1:0"},
     {"current.slug": "claude-3-sonnet-20240229", "upgrade.slug": "claude-sonnet-4-5-20250929"}),
    ("search", {"query": "claude 3.5 sonnet"}, {"results.0.slug": "claude-3-5-sonnet-20241022"}),
    ("upcoming_shutdowns", {"days": 30000}, {"models.0.slug": "claude-3-5-sonnet-20241022",
                                                    "models.0.shutdown.days_left": 26633}),
    ("upcoming_shutdowns", {"days": 30, "provider": "anthropic"}, {"models": [], "until": "2026-12-21"}),
    ("upcoming_shutdowns", {"days": 3700, "provider": "meta"}, {"models": []}),
]
# Bad arguments: a tool error with a message, never a crash.
BAD = [
    ("upcoming_shutdowns", {"days": -1}, "'days'"),
    ("check", {"identifiers": []}, "'identifiers'"),
    ("resolve", {"identifier": "x" * 300}, "at most 200"),
    ("upgrade", {"model": "no-such-model-xyz"}, "No model matches"),
]


def dig(value, dotted: str):
    for part in dotted.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


@pytest.fixture(scope="module")
def db_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("mcp") / "registry.db"
    build_db(path, DATA / "curation")
    return path


async def exercise(session: ClientSession) -> dict:
    """Every case and bad case through one session: {index: structured answer or error text}."""
    hello = await session.initialize()
    listed = {t.name for t in (await session.list_tools()).tools}
    answers = {"tools": listed, "server": (hello.serverInfo.name, hello.serverInfo.version)}
    for i, (tool, args, _) in enumerate(CASES):
        result = await session.call_tool(tool, args)
        assert not result.isError, result.content
        answers[i] = result.structuredContent or json.loads(result.content[0].text)
    for i, (tool, args, _) in enumerate(BAD):
        result = await session.call_tool(tool, args)
        answers[f"bad{i}"] = (result.isError, result.content[0].text)
    return answers


def check_answers(answers: dict) -> None:
    from importlib.metadata import version
    assert answers["tools"] == TOOLS
    assert answers["server"] == ("model-registry", version("model-registry"))   # the registry's, not the SDK's
    for i, (tool, args, expected) in enumerate(CASES):
        for key, value in expected.items():
            assert dig(answers[i], key) == value, (tool, args, key, answers[i])
    for i, (_tool, _args, message) in enumerate(BAD):
        is_error, text = answers[f"bad{i}"]
        assert is_error and message in text, text


def test_stdio(db_path):
    params = StdioServerParameters(command=registry_command()[0], args=["mcp"],
                                   env=server_env(db_path, REGISTRY_TODAY=TODAY))

    async def run():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                return await exercise(session)

    check_answers(anyio.run(run))


def test_stdio_keeps_stderr_quiet(db_path):
    """The SDK's INFO lines (one per request) would fill a stdio client's log: warnings only."""
    import subprocess
    hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    ready = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listing = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    # stdin stays open until the listing is answered: at end of input the SDK may stop before answering.
    proc = subprocess.Popen([*registry_command(), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=server_env(db_path, REGISTRY_TODAY=TODAY))
    try:
        proc.stdin.write(f"{hello}\n{ready}\n{listing}\n")
        proc.stdin.flush()
        answers = [proc.stdout.readline(), proc.stdout.readline()]
    finally:
        proc.stdin.close()
        stderr = proc.stderr.read()
        proc.wait(timeout=60)
    assert '"resolve"' in answers[1], answers
    assert "INFO" not in stderr, stderr


@pytest.fixture(scope="module")
def server(db_path, tmp_path_factory):
    srv = Server(registry_command(), server_env(db_path, REGISTRY_TODAY=TODAY, RATELIMIT_PUBLIC="200/minute"),
                 tmp_path_factory.mktemp("mcp-log") / "server.log")
    try:
        srv.wait_ready()
        yield srv
    finally:
        srv.stop()


def test_streamable_http(server):
    async def run():
        async with streamable_http_client(server.url + "/mcp") as (read, write, _):
            async with ClientSession(read, write) as session:
                return await exercise(session)

    check_answers(anyio.run(run))


def test_http_shares_the_public_budget(server):
    """/mcp draws from the same per-IP budget as /api/v1 and says so in the same headers."""
    before = int(server.get("/api/v1/providers").headers["X-RateLimit-Remaining"])
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    answer = requests.post(server.url + "/mcp", json=body, timeout=30,
                                         headers={"Accept": "application/json, text/event-stream"})
    assert answer.status_code == 200 and answer.json()["result"]["tools"]
    assert int(answer.headers["X-RateLimit-Remaining"]) == before - 1
    after = server.get("/api/v1/providers")
    assert int(after.headers["X-RateLimit-Remaining"]) == before - 2


@pytest.mark.parametrize("identifiers, status, remaining", [
    (["claude-3-5-sonnet-20241022"] * 3, 200, 47),      # three resolves count three
    (["claude-3-5-sonnet-20241022"] * 60, 429, 0),      # past the budget: refused before the work is done
])
def test_a_check_counts_the_resolves_it_does(db_path, identifiers, status, remaining):
    """Issue 44: `check` ran up to 100 resolves for one count of the budget."""
    from registry import create_app
    app = create_app({"TESTING": True, "DATABASE": str(db_path), "RATELIMIT_PUBLIC": "50/minute"})
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "check", "arguments": {"identifiers": identifiers}}}
    answer = app.test_client().post("/mcp", json=body, headers={"Accept": "application/json, text/event-stream"})
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    assert int(answer.headers["X-RateLimit-Remaining"]) == remaining


def test_an_mcp_call_adds_no_info_lines_to_the_servers_log(server):
    """Issue 44: each MCP call logged four INFO lines of the SDK's."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "check", "arguments": {"identifiers": ["claude-3-5-sonnet-20241022"]}}}
    answer = requests.post(server.url + "/mcp", json=body, timeout=30,
                           headers={"Accept": "application/json, text/event-stream"})
    assert answer.status_code == 200
    assert [line for line in server.log().splitlines() if "INFO mcp" in line or "mcp.server" in line] == []


def test_the_apps_log_lines_carry_their_utc_time(db_path):
    import subprocess
    import sys
    code = ("import logging; from registry import create_app; create_app({'TESTING': True, 'DATABASE': %r});"
            " logging.getLogger('registry.example').info('hello')" % str(db_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=server_env(db_path))
    import re
    stamped = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ INFO registry\.example: hello"
    assert re.fullmatch(stamped, done.stderr.strip()), done.stderr
