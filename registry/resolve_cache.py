"""The per-process alias index, rebuilt when the database's generation changes."""
import threading

from .db import generation
from .resolve import AliasIndex, AliasRow

_lock = threading.Lock()
_cache = {}   # db path -> (generation, AliasIndex)


def load_rows(db) -> list:
    """Every alias with the facts resolve needs for tie-breaks."""
    return [AliasRow(alias=r[0], source=r[1], model_slug=r[2], position=r[3], release_date=r[4], status=r[5])
            for r in db.execute(
                "SELECT a.alias, a.source, m.slug, a.position, m.release_date, m.status"
                " FROM aliases a JOIN models m ON m.id = a.model_id")]


def alias_index(db, path: str) -> AliasIndex:
    """The index for this database, built once per data generation (checked per call: one tiny query)."""
    current = generation(db)
    cached = _cache.get(path)
    if cached and cached[0] == current:
        return cached[1]
    with _lock:
        cached = _cache.get(path)
        if cached and cached[0] == current:
            return cached[1]
        # Read rows and generation in one read transaction so they agree.
        db.execute("BEGIN")
        try:
            current = generation(db)
            index = AliasIndex(load_rows(db))
        finally:
            db.execute("COMMIT")
        _cache[path] = (current, index)
        return index
