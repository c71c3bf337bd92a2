"""Calls the model API."""
import os

# claude-3-sonnet-20240229 was our first model (a comment: not a string, left alone)
DEFAULT_MODEL = "claude-sonnet-4-5-20250929"
FAST_MODEL = 'claude-3-haiku-20240307'
CURRENT = "claude-sonnet-4-5-20250929"
ROUTED = "bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0"
PINNED_ON_PURPOSE = "claude-3-5-sonnet-20241022"  # registry: ignore
DOCS = "https://docs.anthropic.com/claude-3-sonnet-20240229"
VERSION = "claude-cli@3.5.0"


def model() -> str:
    return os.environ.get("MODEL", f"{DEFAULT_MODEL}")
