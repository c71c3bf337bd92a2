"""The capability set in SQL and in answers (docs/api-decisions.md#capabilities): the filters of /models and
/search over model_capabilities, and the object the single-model answer and the export show."""
import json

from ..fields import CAPABILITIES


def capability_condition(name: str, value: str) -> tuple[str, list]:
    """A model whose stated capability `name` holds `value` (a flag's 'true'/'false', or a modality)."""
    return "m.id IN (SELECT model_id FROM model_capabilities WHERE capability = ? AND value = ?)", [name, value]


def filter_conditions(filters: dict | None) -> tuple[list, list]:
    """SQL conditions and arguments of the API's filters: model_type (any of), capabilities (every one)."""
    where, args = [], []
    for name, value in (filters or {}).items():
        if value is None:
            continue
        if name == "model_type":
            where.append(f"m.model_type IN ({', '.join('?' * len(value))})")
            args += list(value)
        elif name in CAPABILITIES:
            for item in (value if isinstance(value, (list, tuple)) else [value]):
                cond, cond_args = capability_condition(
                    name, item if isinstance(item, str) else ("true" if item else "false"))
                where.append(cond)
                args += cond_args
    return where, args


def capability_set(row) -> dict:
    """The normalized capabilities (docs/api-decisions.md#capabilities): each name's value, null when no source
    states it; metadata.provenance names the source of each known one."""
    known = json.loads(row["capabilities"]) if row["capabilities"] else {}
    return {name: known.get(name) for name in CAPABILITIES}
