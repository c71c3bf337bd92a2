"""The capability set in SQL and in answers (docs/api-decisions.md#capabilities): the filters of /models and
/search over model_capabilities, and the object the single-model answer and the export show."""
import json

from ..fields import CAPABILITIES
from . import prices
from .where import Where


def capability_condition(name: str, value: str) -> tuple[str, list]:
    """A model whose stated capability `name` holds `value` (a flag's 'true'/'false', or a modality)."""
    return "m.id IN (SELECT model_id FROM model_capabilities WHERE capability = ? AND value = ?)", [name, value]


# A price filter (per 1M tokens, the model's lowest on any platform) -> the price it reads.
PRICE_FILTERS = {"max_input_price": "input_per_mtok", "max_output_price": "output_per_mtok"}


def filter_conditions(filters: dict | None) -> Where:
    """The SQL conditions of the API's filters: model_type (any of), capabilities (every one), the earliest
    knowledge cutoff, the highest price."""
    where = Where()
    for name, value in (filters or {}).items():
        if value is None:
            continue
        if name == "model_type":
            where.add(f"m.model_type IN ({', '.join('?' * len(value))})", *value)
        elif name == "min_knowledge_cutoff":   # stored as the source writes it: a month or a day, compared as text
            where.add("m.id IN (SELECT model_id FROM model_capabilities WHERE capability = 'knowledge_cutoff'"
                      " AND value >= ?)", value)
        elif name in PRICE_FILTERS:
            where.add(f"{prices.lowest_sql(PRICE_FILTERS[name])} <= ?", value)
        elif name in CAPABILITIES:
            for item in (value if isinstance(value, (list, tuple)) else [value]):
                cond, cond_args = capability_condition(
                    name, item if isinstance(item, str) else ("true" if item else "false"))
                where.add(cond, *cond_args)
    return where


def capability_set(row) -> dict:
    """The normalized capabilities (docs/api-decisions.md#capabilities): each name's value, null when no source
    states it; metadata.provenance names the source of each known one."""
    known = json.loads(row["capabilities"]) if row["capabilities"] else {}
    return {name: known.get(name) for name in CAPABILITIES}
