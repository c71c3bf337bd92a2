"""Full-text search: ranking.py answers queries, documents.py keeps the FTS rows current."""
