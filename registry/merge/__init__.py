"""Facts -> the visible registry, shared by curation and ingestion: priority, facts, recompute (families,
capabilities), lifecycle, changes; runs is the one write path and locks its locks (docs/data-flow.md#one-write-path)."""
