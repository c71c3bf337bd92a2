"""Ingestion: the runner (run records, locking, independence) and one module per upstream."""
