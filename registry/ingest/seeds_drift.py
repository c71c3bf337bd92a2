"""What each source's offline snapshot says against curation (`registry curate --drift`, docs/curating.md#drift):
parsed and matched as a run would, nothing written."""
from pathlib import Path

from ..curation.drift import Drift, by_model, compare
from ..fields import AUTOMATED_SOURCES
from . import sources
from .match import records_to_facts
from .snapshots import load_pages


def seeds(conn, curated: dict, seeds_dir: str, on: str) -> list[Drift]:
    """Drift against each source's offline snapshot in seeds/, parsed and matched now (nothing written)."""
    found = []
    for source in AUTOMATED_SOURCES:
        if not Path(seeds_dir, source).is_dir():   # no snapshot of that source here: nothing it says
            continue
        try:
            records = sources.load(source).parse(load_pages(seeds_dir, source))
        except Exception as exc:   # a broken snapshot is a finding of its own, not a crash of the report
            found.append(Drift("-", "snapshot", None, f"seeds/{source}", f"unreadable: {exc}"))
            continue
        facts, _, _ = records_to_facts(conn, source, records)
        found += compare(curated, by_model(facts), f"seeds/{source}", on)
    return found
