"""The per-process alias index, rebuilt when the database's generation changes."""
from ..db import generation
from ..generations import GenerationCache
from .index import AliasIndex, AliasRow

_indexes = GenerationCache(max_cost=8)   # db path -> its AliasIndex (a process serves one database, tests several)


ROWS_SQL = ("SELECT a.alias, a.source, m.slug, a.position, m.release_date, m.status, m.parameter_count"
            " FROM aliases a JOIN models m ON m.id = a.model_id")
# a model's rows one after another: the index keeps its facts once (table.py _Models)
INDEX_SQL = ROWS_SQL + " ORDER BY a.model_id"


def load_rows(db) -> list:
    """Every alias with the facts resolve needs for tie-breaks (and the model's parameter count), as
    AliasRows (the audit and the benchmarks; the index itself reads the rows as tuples, one at a time).

    A model's slug, date, status and parameter count, and the four sources, repeat on every alias row:
    each distinct value is kept once (sqlite3 makes a new object per row).
    """
    shared = {}
    one = lambda value: shared.setdefault(value, value)   # noqa: E731
    return [AliasRow(alias=r[0], source=one(r[1]), model_slug=one(r[2]), position=r[3], release_date=one(r[4]),
                     status=one(r[5]), params=one(r[6]))
            for r in db.execute(ROWS_SQL)]


def alias_index(db, path: str, current: int | None = None) -> AliasIndex:
    """The index for this database, built once per data generation.

    current: the generation the caller already read (else read here: one tiny query).
    """
    current = generation(db) if current is None else current
    index = _indexes.get(path, current)
    if index is not None:
        return index
    with _indexes.building(path):
        index = _indexes.get(path, current)   # another thread built it while this one waited
        if index is not None:
            return index
        # Let the stale index go first: holding it while the new one is built would double the
        # worker's peak memory after every write run (threads already using it keep their reference).
        _indexes.discard(path)
        # Read rows and generation in one read transaction so they agree.
        db.execute("BEGIN")
        try:
            current = generation(db)
            index = AliasIndex(db.execute(INDEX_SQL))   # streamed: no list of every row
        finally:
            db.execute("COMMIT")
        _indexes.put(path, current, index)
        return index


def forget(path: str | None = None) -> None:
    """Let the index of one database go (all of them when None): a process done with it frees its memory."""
    if path is None:
        for kept in list(_indexes.entries):
            _indexes.discard(kept)
    else:
        _indexes.discard(path)
