"""Facts -> the visible registry, shared by curation and ingestion: priority, facts, recompute, lifecycle, runs."""
