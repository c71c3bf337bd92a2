"""Webhooks: receiver URLs checked (urls.py), endpoints kept (store.py), the events each one is due
(events.py), and deliveries signed the Standard Webhooks way with retries (deliver.py). Deliveries
run from the CLI only (`flask notify`, and at the end of `flask ingest`), never in a web worker
(docs/api-decisions.md#webhooks)."""
