"""A page of the model list: the filters as SQL, the page walked on the sort indexes, and each row as the Model
object of a list, written by SQLite as JSON text (list_models_json; list_models reads it). A single model's
answer starts from the same object built in Python from the same table (model_summary)."""
import json

from ..db import FROM_MODELS, GENERATION, JOINS, PROVIDER_JOIN  # noqa: F401  (FROM_MODELS: the readers')
from . import packed, prices
from .capabilities import filter_conditions
from .where import Where
from ..fields import FIELDS, LIST_DATES_AND_SIZES



def from_ids(ids: str) -> str:
    """FROM_MODELS for the models whose ids the query `ids` yields (its column `id`), read in its order: the ids are
    stepped from a co-routine (CROSS JOIN keeps them the outer loop), where `m.id IN (ids)` would first write them
    into a temporary b-tree of their own per statement, with a page cache of its own (docs/running.md#memory). A
    model the query yields twice is read twice."""
    return f" FROM ({ids}) AS c CROSS JOIN models m ON m.id = c.id" + JOINS


# The Model object of a list, described once: each key with the column it is read from, in the order it is
# written; a nested object as its own (key, column) pairs; a flag as 0/1 written true/false. _SUMMARY_JSON (the
# object SQLite writes for a list) and model_summary (a single model's, from its full row) are both made from it.
# A list's rows hold only these: the wide columns (metadata, capabilities) stay on disk.
SUMMARY = (
    *((name, f"m.{name}") for name in ("slug", "display_name", "version", "status", "model_type")),
    ("family", (("slug", "f.slug"), ("name", "f.name"))),
    ("provider", (("slug", "p.slug"), ("name", "p.name"))),
    *((name, f"m.{name}") for name in LIST_DATES_AND_SIZES),
    ("is_open_source", "f.is_open_source"),
)
FLAGS = ("is_open_source",)
COUNTS = tuple(f.name for f in FIELDS if f.kind == "count")


def _columns() -> list:
    """(key path, column) of every value SUMMARY reads, in its order."""
    return [((key, sub), column) for key, value in SUMMARY
            for sub, column in (value if isinstance(value, tuple) else ((None, value),))]


_SUMMARY_COLUMNS = tuple("_".join(filter(None, path)) for path, _ in _columns())
_BY_NAME = {name: name for name in _SUMMARY_COLUMNS}


def _json_value(key: str, value) -> str:
    if isinstance(value, tuple):
        return "json_object(" + ", ".join(f"'{sub}', {column}" for sub, column in value) + ")"
    if key in FLAGS:
        return f"json(CASE WHEN {value} THEN 'true' ELSE 'false' END)"
    if key in COUNTS:
        # A count is an integer as every write stores it; a REAL a hand left there is written with the 17 digits
        # that read back as the same number (json_object's own 15 do not), an infinite one as null.
        return (f"CASE WHEN typeof({value}) = 'real' THEN CASE WHEN abs({value}) <= 1.7976931348623157e308"
                f" THEN json(printf('%!.17g', {value})) END ELSE {value} END")
    return value


# The Model object of a list as SQLite writes it, key for key (a 50-model page's dicts and their JSON encoding were
# two thirds of its cost in Python), a page as one text (queries/packed.py): strings and integers as Python's json
# writes them with ensure_ascii off, and a count that is a REAL as the same number (_json_value).
_SUMMARY_JSON = "json_object(" + ", ".join(f"'{key}', {_json_value(key, value)}" for key, value in SUMMARY) + ")"


def model_summary(row) -> dict:
    """A Model object as in lists (spec: Model without the single-model-only fields)."""
    return _summary(row, _BY_NAME)


def _summary(row, at: dict) -> dict:
    model = {}
    for key, value in SUMMARY:
        if isinstance(value, tuple):
            model[key] = {sub: row[at[f"{key}_{sub}"]] for sub, _ in value}
        else:
            model[key] = bool(row[at[key]]) if key in FLAGS else row[at[key]]
    return model


# SQLite puts NULLs last in a DESC order, so these are "nulls last, ties by slug" and match the
# models_release / models_params indexes column for column: a page walks the index, no sort of all rows.
# Each reversed (NULLs first in an ASC order) is the same index walked from its other end.
_SORTS = {
    "release_date": "m.release_date DESC, m.slug",
    "parameter_count": "m.parameter_count DESC, m.slug",
}
_FROM_END = {
    "release_date": "m.release_date ASC, m.slug DESC",
    "parameter_count": "m.parameter_count ASC, m.slug DESC",
}
# By price, cheapest first (the model's lowest on any platform, docs/api.md#prices); unpriced last, ties by slug.
# No index holds a price: SQLite reads and sorts the matching rows.
for _sort, _name in (("input_price", "input_per_mtok"), ("output_price", "output_per_mtok")):
    _SORTS[_sort] = f"{prices.lowest_sql(_name)} IS NULL, {prices.lowest_sql(_name)}, m.slug"
    _FROM_END[_sort] = f"{prices.lowest_sql(_name)} IS NULL DESC, {prices.lowest_sql(_name)} DESC, m.slug DESC"
SORTS = tuple(_SORTS)


def run_count(db):
    """count(sql, args): (the count, the data generation it was counted at) of a count query on db (list_models'
    default; the app keeps them per generation)."""
    return lambda sql, args: tuple(db.execute(sql, args).fetchone())


def list_models(db, filters: dict, sort: str, page: int, per_page: int, count=None) -> tuple[list, int]:
    """One page of models matching filters as Model objects, and the total count (list_models_json's, read)."""
    text, total = list_models_json(db, filters, sort, page, per_page, count)
    return json.loads(text), total


def list_models_json(db, filters: dict, sort: str, page: int, per_page: int, count=None) -> tuple[str, int]:
    """One page of models matching filters as the JSON text of its array of Model objects (compact, ensure_ascii
    off), and the total count (by count(sql, args), default run_count(db))."""
    for ids, args, total in _pages(db, filters, sort, page, per_page, count):
        if ids is None:
            return "[]", total
        text = packed.rows_text(db, _SUMMARY_JSON, "0", f"{from_ids(ids)} ORDER BY {_SORTS[sort]}", args)
        if text != "[]":
            return text, total
    return "[]", total


def _pages(db, filters: dict, sort: str, page: int, per_page: int, count):
    """The ways to read a page's ids, each (SQL, arguments, total count), to try in order; None for the SQL when the
    page is past the end. A page in the far half of its list is read first from the list's end."""
    ids, args, total, counted_at = _page(db, filters, sort, page, per_page, count)
    offset = (page - 1) * per_page
    if ids is None:
        yield None, [], total
        return
    from_end = max(0, total - offset - per_page)   # the rows after the page
    if from_end < offset:
        # Walking an index (or keeping a sort's top rows) costs the rows skipped: from the end, fewer. The position
        # comes from a count read at counted_at: where the data is newer the walk reads no row (LIMIT 0), and the
        # page is walked from the start, as any other.
        yield (f"{ids} ORDER BY {_FROM_END[sort]} LIMIT CASE WHEN {GENERATION} = ? THEN ? ELSE 0 END OFFSET ?",
               args + [counted_at, min(per_page, total - offset), from_end], total)
    yield f"{ids} ORDER BY {_SORTS[sort]} LIMIT ? OFFSET ?", args + [per_page, offset], total


# The index each sort's page is walked on (schema.sql): entries in the list's order, each holding the family.
SORT_INDEX = {"release_date": "models_release", "parameter_count": "models_params"}


def _page(db, filters: dict, sort: str, page: int, per_page: int, count) -> tuple[str | None, list, int, int]:
    """(the SQL selecting the ids of the list's models, unordered, its arguments, the total count, the data
    generation it was counted at); None for the SQL when the page is past the end."""
    where = Where().equal("p.slug", filters.get("provider")).equal("f.slug", filters.get("family"))
    where.equal("f.is_open_source", filters.get("open_source"))
    joined = len(where)      # every condition so far reads the family or the provider (one argument each)
    statuses = filters.get("status") or []
    if len(statuses) > 1:      # "working": active,latest (docs/api-decisions.md#parameters)
        where.one_of("m.status", statuses)
    elif statuses:
        where.equal("m.status", statuses[0])
    if filters.get("min_params") is not None:
        where.add("m.parameter_count >= ?", filters["min_params"])
    if filters.get("max_params") is not None:
        where.add("m.parameter_count <= ?", filters["max_params"])
    where.extend(filter_conditions(filters))   # model_type and the capabilities; the rest above
    # Every model has a family and a provider (NOT NULL foreign keys): join them only to filter on them. A
    # provider's or family's models of one status are found by models_family_status_release, never by visiting
    # every model of that status.
    models = " FROM models m INDEXED BY models_family_status_release" if joined and len(statuses) == 1 \
        else " FROM models m"
    source, clause = models + (JOINS if joined else ""), where.sql()
    count = count or run_count(db)
    total, counted_at = count(f"SELECT (SELECT count(*){source}{clause}), {GENERATION}", where.args)
    offset = (page - 1) * per_page
    if offset >= total:
        return None, [], total, counted_at
    # The page's ids first, from the narrow rows of the indexes; then the full rows of those ids only.
    if _walk_the_sort_index(count, total, offset + per_page, joined, statuses, sort):
        walked = f" FROM models m INDEXED BY {SORT_INDEX[sort]}"
        if joined:   # the sort index's entries hold the family: keep the provider's or family's
            families = f"SELECT f.id FROM families f{PROVIDER_JOIN} WHERE {' AND '.join(where.conditions[:joined])}"
            return (f"SELECT m.id{walked}{Where([f'm.family_id IN ({families})', *where.conditions[joined:]]).sql()}",
                    where.args, total, counted_at)
        return f"SELECT m.id{walked}{clause}", where.args, total, counted_at
    return f"SELECT m.id{source}{clause}", where.args, total, counted_at


def _walk_the_sort_index(count, matching: int, needed: int, joined: int, statuses: list, sort: str) -> bool:
    """Is a page read best by walking its sort's index and skipping the rows that do not match (docs/running.md#
    the-model-list), rather than by reading every matching row and sorting them?

    Only where a filter leaves the sort's order to find: one status alone (by release, models_status_release
    holds the page in order already), or a provider or family. Walking visits about needed * models / matching
    rows; sorting reads `matching` rows. The number of models is the rowid bound (O(log n)), read by count: the
    app keeps it for the data generation, as the lists' counts.
    """
    if sort not in SORT_INDEX or not (joined or (len(statuses) == 1 and sort != "release_date")):
        return False
    models = count(f"SELECT max(id), {GENERATION} FROM models", [])[0] or 0
    return matching * matching > needed * models
