"""The MCP server (the official `mcp` SDK's FastMCP): five tools over the registry database.

`registry mcp` serves it over stdio; registry/mcp/http.py serves the same tools over streamable
HTTP at /mcp. Each tool reads the connection the caller put in DATABASE (a context variable), so one
server object serves both transports (docs/api-decisions.md#mcp).
"""
from __future__ import annotations

import contextvars
import functools
import logging

from mcp.server.fastmcp import FastMCP
from importlib.metadata import version

from ..db import connect_ro
from . import tools

# (read-only connection, database path) for the tool call in progress.
DATABASE: contextvars.ContextVar = contextvars.ContextVar("registry_mcp_database")

INSTRUCTIONS = (
    "A registry of AI models: lifecycle status, shutdown dates and format-preserving upgrades. "
    "resolve or check any model id string (official, Bedrock, Vertex AI, OpenRouter) before using it; "
    "dates come with days_left (negative once passed).")


@functools.lru_cache(maxsize=1)
def server() -> FastMCP:
    """The FastMCP server with the registry's tools (built once per process)."""
    mcp = FastMCP("model-registry", instructions=INSTRUCTIONS, stateless_http=True, json_response=True,
                  log_level="WARNING")   # the SDK's INFO lines would fill a stdio client's stderr
    mcp._mcp_server.version = version("model-registry")   # serverInfo names the registry's version, not the SDK's

    @mcp.tool()
    def resolve(identifier: str) -> dict:
        """Resolve any model id string to its model: status, shutdown date and days left, and the
        recommended upgrade as an id in the same format (upgrade_alias)."""
        return tools.resolve(*DATABASE.get(), identifier)

    @mcp.tool()
    def check(identifiers: list[str]) -> dict:
        """Check up to 100 model ids at once: for each, status, shutdown date, days left and the upgrade
        in its own format."""
        return tools.check(*DATABASE.get(), identifiers)

    @mcp.tool()
    def upgrade(model: str) -> dict:
        """The recommended upgrade for a model (slug or any id), with both models' shutdown dates and days left."""
        return tools.upgrade(*DATABASE.get(), model)

    @mcp.tool()
    def search(query: str, limit: int = 10) -> dict:
        """Search models by name, slug, alias or family; most relevant first."""
        db, _path = DATABASE.get()
        return tools.search(db, query, limit)

    @mcp.tool()
    def upcoming_shutdowns(days: int, provider: str | None = None) -> dict:
        """Models that shut down within the next `days` days (optionally one provider's), soonest first."""
        db, _path = DATABASE.get()
        return tools.upcoming_shutdowns(db, days, provider)

    return mcp


def run_stdio(path: str) -> None:
    """Serve the tools over stdio until the client closes the stream."""
    conn = connect_ro(path)
    token = DATABASE.set((conn, path))
    logging.getLogger("mcp").setLevel(logging.WARNING)   # one INFO line per request would fill the client's log
    try:
        server().run("stdio")
    finally:
        DATABASE.reset(token)
        conn.close()
