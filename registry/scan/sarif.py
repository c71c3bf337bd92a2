"""Findings as SARIF 2.1.0 (OASIS), for code scanning: one rule per status, a fix per fixable finding."""
from __future__ import annotations

import json

from . import Finding
from .report import message

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULES = {
    "sunset": ("sunset-model-id", "error", "The model id no longer works: its provider shut it down."),
    "deprecated": ("deprecated-model-id", "warning", "The model id is deprecated: its provider will shut it down."),
}
INFO_URI = "https://github.com/oasis-tcs/sarif-spec"


def _result(f: Finding) -> dict:
    rule, level, _ = RULES[f.status]
    region = {"startLine": f.line, "startColumn": f.col, "endLine": f.line, "endColumn": f.end_col}
    location = {"artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"}, "region": region}
    result = {
        "ruleId": rule, "ruleIndex": list(RULES).index(f.status), "level": level,
        "message": {"text": message(f)},
        "locations": [{"physicalLocation": location}],
        "partialFingerprints": {"modelId/v1": f"{f.path}:{f.text}:{f.line}"},
        "properties": {"model": f.model, "status": f.status, "shutdown": f.shutdown, "daysLeft": f.days_left,
                       "upgrade": f.upgrade, "upgradeAlias": f.upgrade_alias, "confidence": f.confidence},
    }
    if f.fixable:
        result["fixes"] = [{
            "description": {"text": f"Replace '{f.text}' with '{f.upgrade_alias}'."},
            "artifactChanges": [{"artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                                 "replacements": [{"deletedRegion": region,
                                                   "insertedContent": {"text": f.upgrade_alias}}]}],
        }]
    return result


def sarif(findings: list[Finding], files: int, version: str = "0.1.0") -> str:
    """The SARIF log of one run of `registry scan` (columns counted in Unicode code points)."""
    rules = [{"id": rule, "name": rule.replace("-", " ").title().replace(" ", ""),
              "shortDescription": {"text": text}, "defaultConfiguration": {"level": level}}
             for rule, level, text in RULES.values()]
    log = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "registry scan", "version": version, "informationUri": INFO_URI,
                                "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": "./"}},
            "results": [_result(f) for f in findings],
            "properties": {"filesScanned": files},
        }],
    }
    return json.dumps(log, indent=2)
