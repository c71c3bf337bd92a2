"""Findings as text, JSON or GitHub workflow annotations (SARIF is sarif.py)."""
from __future__ import annotations

import json

from ..fields import RETIRING
from . import Finding


def when(f: Finding) -> str:
    """'shutdown 2025-07-21 (123 days ago)', '... (12 days left)', or 'shutdown date unknown'."""
    if f.shutdown is None:
        return "shutdown date unknown"
    if f.days_left is None:
        return f"shutdown {f.shutdown}"
    if f.days_left < 0:
        return f"shutdown {f.shutdown} ({-f.days_left} days ago)"
    return f"shutdown {f.shutdown} ({f.days_left} days left)"


def message(f: Finding) -> str:
    """One sentence: the id, its model and status, when it stops working and what to use instead."""
    if f.upgrade is None:
        upgrade = "no recommended upgrade"
    elif f.upgrade_status in RETIRING:
        upgrade = f"its replacement {f.upgrade} is {f.upgrade_status} too: no working upgrade"
    elif f.upgrade_alias and not f.fixable and f.upgrade_note:
        upgrade = f"upgrade to '{f.upgrade_alias}', not written by --fix: {f.upgrade_note}"
    elif f.upgrade_alias:
        upgrade = f"upgrade to '{f.upgrade_alias}'"
    else:
        upgrade = f"upgrade to {f.upgrade} (no id in this format)"
    return f"'{f.text}' is {f.display_name} ({f.model}), {f.status}; {when(f)}; {upgrade}"


def text(findings: list[Finding], files: int, fixed: int | None = None) -> str:
    """path:line:col: message, one line per finding, and a summary line (fixed: how many --fix just rewrote)."""
    lines = [f"{f.path}:{f.line}:{f.col}: {message(f)}" for f in findings]
    done = f"{fixed} fixed" if fixed is not None else f"{sum(f.fixable for f in findings)} can be fixed with --fix"
    lines.append(f"{len(findings)} deprecated or sunset model id(s) in {files} file(s) scanned; {done}.")
    return "\n".join(lines)


def as_json(findings: list[Finding], files: int) -> str:
    """{"findings": [...], "files_scanned": n}."""
    return json.dumps({"findings": [f.as_dict() for f in findings], "files_scanned": files}, indent=2)


def _escape(value: str, property_: bool = False) -> str:
    # Workflow command escaping (actions/toolkit command.ts): %, CR, LF; also : and , in properties.
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if property_ else value


def github(findings: list[Finding], files: int) -> str:
    """GitHub Actions workflow commands: ::error for sunset ids, ::warning for deprecated ones."""
    lines = []
    for f in findings:
        level = "error" if f.status == "sunset" else "warning"
        props = ",".join(f"{k}={_escape(str(v), True)}" for k, v in (
            ("file", f.path), ("line", f.line), ("col", f.col), ("endColumn", f.end_col),
            ("title", f"{f.status} model id")))
        lines.append(f"::{level} {props}::{_escape(message(f))}")
    lines.append(f"{len(findings)} deprecated or sunset model id(s) in {files} file(s) scanned.")
    return "\n".join(lines)
