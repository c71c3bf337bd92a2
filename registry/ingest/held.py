"""A context window a source shrinks is held for a curator (issue 46, docs/api.md#prices): the window it stated
before stays served, and the run's details (`held_windows`) and `registry curate --drift` list the new one, for a
curator to confirm in curation or to let the next run correct. A window that grows, or one the source states
for the first time, is taken as it comes."""
import json

WINDOWS = ("input_context_window", "output_context_window")


def shrinking_windows(conn, source: str, placed: dict) -> list:
    """Put back, in placed (slug -> fields), each window smaller than the one this source stated before; return
    them as lines for the run's details."""
    stated = {slug for slug, fields in placed.items() if any(fields.get(w) for w in WINDOWS)}
    if not stated:
        return []
    before = {}
    for slug, field, value in conn.execute(
            "SELECT model_slug, field, value FROM facts WHERE source = ? AND field IN (?, ?)", (source, *WINDOWS)):
        if slug in stated and value is not None:
            before[(slug, field)] = json.loads(value)
    held = []
    for slug in sorted(stated):
        fields = placed[slug]
        for field in WINDOWS:
            was, now = before.get((slug, field)), fields.get(field)
            if isinstance(was, int) and isinstance(now, int) and now < was:
                fields[field] = was
                held.append(f"{slug}: {field} shrinks from {was:,} to {now:,} (the window stated before is kept)")
    return held
