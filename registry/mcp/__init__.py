"""The MCP server: tools.py answers, server.py serves them over stdio, http.py at /mcp of the web app."""
