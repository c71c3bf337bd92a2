"""A page of the model list: the filters as SQL, the page walked on the sort indexes, and each row as the Model
object of a list, built in Python (model_summaries) or written by SQLite as JSON text (list_models_json)."""
import json

from ..db import FROM_MODELS, GENERATION, JOINS, PROVIDER_JOIN  # noqa: F401  (FROM_MODELS: the readers')
from . import packed
from .capabilities import filter_conditions
from .where import Where
from ..fields import LIST_DATES_AND_SIZES



def from_ids(ids: str) -> str:
    """FROM_MODELS for the models whose ids the query `ids` yields (its column `id`), read in its order: the ids are
    stepped from a co-routine (CROSS JOIN keeps them the outer loop), where `m.id IN (ids)` would first write them
    into a temporary b-tree, which costs SQLite a page cache of its own (~90 KB, mapped and unmapped by the C
    allocator: docs/running.md#memory) per statement. A model the query yields twice is read twice."""
    return f" FROM ({ids}) AS c CROSS JOIN models m ON m.id = c.id" + JOINS


# The Model object of a list, described once: each key with the column it is read from, in the order it is
# written; a nested object as its own (key, column) pairs; a flag as 0/1 written true/false. MODEL_LIST_COLUMNS
# (the row Python reads) and _SUMMARY_JSON (the object SQLite writes) are both made from it. A list's rows hold
# only these: the wide columns (metadata, capabilities) stay on disk.
SUMMARY = (
    *((name, f"m.{name}") for name in ("slug", "display_name", "version", "status", "model_type")),
    ("family", (("slug", "f.slug"), ("name", "f.name"))),
    ("provider", (("slug", "p.slug"), ("name", "p.name"))),
    *((name, f"m.{name}") for name in LIST_DATES_AND_SIZES),
    ("is_open_source", "f.is_open_source"),
)
FLAGS = ("is_open_source",)


def _columns() -> list:
    """(key path, column) of every value SUMMARY reads, in its order."""
    return [((key, sub), column) for key, value in SUMMARY
            for sub, column in (value if isinstance(value, tuple) else ((None, value),))]


MODEL_LIST_COLUMNS = "\nSELECT " + ", ".join(f"{column} AS {'_'.join(filter(None, path))}"
                                             for path, column in _columns()) + "\n"
_SUMMARY_COLUMNS = tuple("_".join(filter(None, path)) for path, _ in _columns())
_BY_NAME = {name: name for name in _SUMMARY_COLUMNS}


def _json_value(key: str, value) -> str:
    if isinstance(value, tuple):
        return "json_object(" + ", ".join(f"'{sub}', {column}" for sub, column in value) + ")"
    if key in FLAGS:
        return f"json(CASE WHEN {value} THEN 'true' ELSE 'false' END)"
    return value


# The same Model object written by SQLite, key for key (a 50-model page's dicts and their JSON encoding were two
# thirds of its cost in Python), a page as one text (queries/packed.py). SQLite writes strings as Python's json
# does with ensure_ascii off, but a REAL as %!.15g, not as the shortest repr: a page holding one is built in Python.
_SUMMARY_JSON = "json_object(" + ", ".join(f"'{key}', {_json_value(key, value)}" for key, value in SUMMARY) + ")"
_INEXACT = packed.inexact_sql("m." + c for c in LIST_DATES_AND_SIZES)


def model_summary(row) -> dict:
    """A Model object as in lists (spec: Model without the single-model-only fields)."""
    return _summary(row, _BY_NAME)


def model_summaries(cursor) -> list:
    """The Model object of every row of a cursor over MODEL_LIST_COLUMNS (or MODEL_SELECT)."""
    # Read by position: a sqlite3.Row finds a name by comparing it with each column's, per field and row,
    # which was half of a 50-model page's Python.
    at = {d[0]: i for i, d in enumerate(cursor.description)}
    places = {name: at[name] for name in _SUMMARY_COLUMNS}
    return [_summary(row, places) for row in cursor]


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


def run_count(db):
    """count(sql, args): (the count, the data generation it was counted at) of a count query on db (list_models'
    default; the app keeps them per generation)."""
    return lambda sql, args: tuple(db.execute(sql, args).fetchone())


def list_models(db, filters: dict, sort: str, page: int, per_page: int, count=None) -> tuple[list, int]:
    """One page of models matching filters, and the total count (by count(sql, args), default run_count(db))."""
    for ids, args, total in _pages(db, filters, sort, page, per_page, count):
        if ids is None:
            return [], total
        rows = model_summaries(db.execute(MODEL_LIST_COLUMNS + from_ids(ids) + f" ORDER BY {_SORTS[sort]}", args))
        if rows:
            return rows, total
    return [], total


def list_models_json(db, filters: dict, sort: str, page: int, per_page: int, count=None) -> tuple[str, int]:
    """list_models' page as the JSON text of its array (what json.dumps writes of list_models' list, compact and
    with ensure_ascii off), and the total count."""
    for ids, args, total in _pages(db, filters, sort, page, per_page, count):
        if ids is None:
            return "[]", total
        text = packed.rows_text(db, _SUMMARY_JSON, _INEXACT,
                                f"{from_ids(ids)} ORDER BY {_SORTS[sort]}", args)
        if text is None:
            return json.dumps(list_models(db, filters, sort, page, per_page, count)[0], ensure_ascii=False,
                              separators=(",", ":")), total
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


def _page(db, filters: dict, sort: str, page: int, per_page: int, count) -> tuple[str | None, list, int, int]:
    """(the SQL selecting the ids of the list's models, unordered, its arguments, the total count, the data
    generation it was counted at); None for the SQL when the page is past the end."""
    where = Where().equal("p.slug", filters.get("provider")).equal("f.slug", filters.get("family"))
    where.equal("f.is_open_source", filters.get("open_source"))
    joined = len(where)      # every condition so far reads the family or the provider (one argument each)
    status_at = None
    statuses = filters.get("status") or []
    if len(statuses) > 1:      # "working": active,latest (docs/api-decisions.md#parameters)
        where.one_of("m.status", statuses)
    elif statuses:
        status_at = len(where)
        # With a provider or family, the plan starts from its models (+ keeps SQLite off models_status,
        # which would visit every model of that status); alone, the status index counts without row reads.
        where.add("+m.status = ?" if joined else "m.status = ?", statuses[0])
    if filters.get("min_params") is not None:
        where.add("m.parameter_count >= ?", filters["min_params"])
    if filters.get("max_params") is not None:
        where.add("m.parameter_count <= ?", filters["max_params"])
    where.extend(filter_conditions(filters))   # model_type and the capabilities; the rest above
    # Every model has a family and a provider (NOT NULL foreign keys): join them only to filter on them.
    source = " FROM models m" + (JOINS if joined else "")
    clause = where.sql()
    count = count or run_count(db)
    total, counted_at = count(f"SELECT (SELECT count(*){source}{clause}), {GENERATION}", where.args)
    offset = (page - 1) * per_page
    if offset >= total:
        return None, [], total, counted_at
    if status_at is not None and not joined and sort == "release_date":
        pass   # models_status_release holds this page in order: walk it
    elif status_at is not None and not joined and not _few(count, total, offset + per_page):
        # A common status: walk the sort index and skip the other statuses (+ keeps SQLite off
        # models_status, whose plan reads and sorts every matching row to return one page).
        where.conditions[status_at] = "+m.status = ?"
        clause = where.sql()
    elif joined and not _few(count, total, offset + per_page):
        # A big provider's first pages: walk the sort index, whose entries hold the family, and keep its families'
        # models (+ keeps SQLite off models_family), rather than read and sort every one of them.
        families = f"SELECT f.id FROM families f{PROVIDER_JOIN} WHERE {' AND '.join(where.conditions[:joined])}"
        source = " FROM models m"
        clause = Where([f"+m.family_id IN ({families})", *where.conditions[joined:]]).sql()
    # The page's ids first, from the narrow rows of the indexes; then the full rows of those ids only.
    return f"SELECT m.id{source}{clause}", where.args, total, counted_at


def _few(count, matching: int, needed: int) -> bool:
    """Is reading and sorting every matching row cheaper than walking the sort index to this page?

    Walking visits about needed * models / matching rows; sorting reads `matching` rows. The number of models is
    the rowid bound (O(log n)), read by count: the app keeps it for the data generation, as the lists' counts.
    """
    models = count(f"SELECT max(id), {GENERATION} FROM models", [])[0] or 0
    return matching * matching <= needed * models
