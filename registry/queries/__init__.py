"""Every read query of the API and the pages: catalog (providers, families, models), runs (ingestion runs),
changes (the change history), schedule (the lifecycle calendar), capabilities (the capability filters and
set); where.py builds their WHERE clauses."""
