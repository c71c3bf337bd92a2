-- The one place the data shape lives. Applied by `init-db`; every statement is
-- idempotent (IF NOT EXISTS) so re-running never drops data.

CREATE TABLE IF NOT EXISTS providers (
    id              INTEGER PRIMARY KEY,
    slug            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    website_url     TEXT NOT NULL DEFAULT '',
    api_models_url  TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS families (
    id              INTEGER PRIMARY KEY,
    slug            TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    provider_id     INTEGER NOT NULL REFERENCES providers(id),
    description     TEXT,
    is_open_source  INTEGER NOT NULL DEFAULT 0,
    match_globs     TEXT NOT NULL DEFAULT '[]',   -- JSON list of fnmatch globs, tried in position order
    position        INTEGER NOT NULL DEFAULT 0,   -- order in the curation file
    is_uncategorized INTEGER NOT NULL DEFAULT 0,  -- made by ingestion for ids no glob matched
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    -- The line the provider names as this one's successor (curation, with its source): where an
    -- upgrade goes when this line has no working fit (docs/lifecycle.md#the-upgrade).
    successor_id    INTEGER REFERENCES families(id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS families_provider ON families(provider_id);

-- Facts: what each source said, one row per (source, model, field). The visible
-- models/aliases rows are computed from these by registry.merge.
CREATE TABLE IF NOT EXISTS facts (
    source      TEXT NOT NULL,
    model_slug  TEXT NOT NULL,
    field       TEXT NOT NULL,
    value       TEXT,                 -- JSON
    PRIMARY KEY (source, model_slug, field)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS facts_model ON facts(model_slug);

CREATE TABLE IF NOT EXISTS alias_facts (
    source        TEXT NOT NULL,      -- who said it (curation, vendor-d-api, bedrock-catalog, ...)
    alias         TEXT NOT NULL,
    model_slug    TEXT NOT NULL,
    alias_source  TEXT NOT NULL,      -- official, cloud-a, cloud-b, gateway
    position      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (source, alias, alias_source)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS alias_facts_model ON alias_facts(model_slug);

CREATE TABLE IF NOT EXISTS models (
    id                    INTEGER PRIMARY KEY,
    slug                  TEXT NOT NULL UNIQUE,
    family_id             INTEGER NOT NULL REFERENCES families(id),
    display_name          TEXT NOT NULL,
    version               TEXT NOT NULL DEFAULT '',
    status                TEXT NOT NULL DEFAULT 'active'
                          CHECK (status IN ('active', 'latest', 'deprecated', 'sunset')),
    model_type            TEXT,
    release_date          TEXT,
    deprecation_date      TEXT,
    sunset_date           TEXT,
    parameter_count       INTEGER,
    parameter_label       TEXT,
    input_context_window  INTEGER,
    output_context_window INTEGER,
    canonical_url         TEXT,
    successor_id          INTEGER REFERENCES models(id) ON DELETE SET NULL,
    metadata              TEXT,       -- JSON: provenance and what sources said beyond the spec's fields
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    capabilities          TEXT        -- JSON: the normalized capabilities some source states (merge/capabilities.py)
);
CREATE INDEX IF NOT EXISTS models_family ON models(family_id);
-- A family's models of one status (its latest: the provider page) without reading every model of the family,
-- newest first: a page of /models?provider=...&status=... sorts these index entries, not the models' wide rows
-- (queries.list_models).
CREATE INDEX IF NOT EXISTS models_family_status_release ON models(family_id, status, release_date DESC, slug);
-- A family's models by release without a sort (the family page and timeline, queries.family_models).
CREATE INDEX IF NOT EXISTS models_family_release ON models(family_id, release_date, slug);
-- The list's two orders. Each entry holds its family too: the first pages of a big provider's models walk these
-- and check the family in the entry, reading no model row (queries.list_models).
CREATE INDEX IF NOT EXISTS models_release ON models(release_date DESC, slug, family_id);
CREATE INDEX IF NOT EXISTS models_params ON models(parameter_count DESC, slug, family_id);
CREATE INDEX IF NOT EXISTS models_status ON models(status);
-- A status's models newest first: a page of /models?status=sunset walks it, no sort (queries.list_models).
CREATE INDEX IF NOT EXISTS models_status_release ON models(status, release_date DESC, slug);
-- A type's models newest first: search reads "embedding", "speech to text" from it (registry/search/candidates.py).
CREATE INDEX IF NOT EXISTS models_type_release ON models(model_type, release_date DESC);

-- The capability set as rows, what GET /models and /search filter on (registry/merge/capabilities.py): one row
-- per stated flag (value 'true' or 'false') and per listed modality; a capability no source states has none.
CREATE TABLE IF NOT EXISTS model_capabilities (
    capability  TEXT NOT NULL,
    value       TEXT NOT NULL,
    model_id    INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    PRIMARY KEY (capability, value, model_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS model_capabilities_model ON model_capabilities(model_id);

-- An alias is an identifier string on one platform: the same string may be served on two (a Gemini id on the
-- Gemini API and on Vertex AI), each its own row with its own platform; one string names one model
-- (docs/lifecycle.md#platforms).
CREATE TABLE IF NOT EXISTS aliases (
    id          INTEGER PRIMARY KEY,
    alias       TEXT NOT NULL,
    model_id    INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    source      TEXT NOT NULL CHECK (source IN ('official', 'cloud-a', 'cloud-b', 'gateway')),
    position    INTEGER NOT NULL DEFAULT 0,   -- 0: the primary alias of that source
    normalized  TEXT NOT NULL,
    listed      INTEGER NOT NULL DEFAULT 0,   -- 1: the platform's own listing names it (not curation alone)
    UNIQUE (alias, source)
);
CREATE INDEX IF NOT EXISTS aliases_model ON aliases(model_id, source, position);

-- Lifecycle per platform (registry/lifecycle.py, docs/lifecycle.md): for each model, the provider's
-- own API (official: the model's own fields) and every other platform serving its ids (Bedrock,
-- Vertex AI, the gateway, the hub for open weights), with the status today, the days, the
-- replacement that platform names and the upgrade the rules decide there. Derived from models and
-- facts after every run and on each new UTC day; an identifier's answers read its platform's row.
CREATE TABLE IF NOT EXISTS platform_lifecycles (
    model_id          INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
    platform          TEXT NOT NULL CHECK (platform IN ('official', 'cloud-a', 'cloud-b', 'gateway', 'hub')),
    status            TEXT NOT NULL CHECK (status IN ('active', 'latest', 'deprecated', 'sunset')),
    deprecation_date  TEXT,
    sunset_date       TEXT,
    successor_id      INTEGER REFERENCES models(id) ON DELETE SET NULL,
    upgrade_id        INTEGER REFERENCES models(id) ON DELETE SET NULL,
    own_schedule      INTEGER NOT NULL DEFAULT 0,   -- 1: the days are the platform's own, not the model's
    sources           TEXT,                         -- JSON {field: source}: whose fact each value is
    -- why the upgrade (registry/lifecycle/upgrade.py BASES): the provider named it, the line's newest fit, the
    -- newest fit of the line the provider moved to, or the platform's own best fit (last: added by step 17)
    upgrade_basis     TEXT CHECK (upgrade_basis IN ('replacement', 'line', 'successor-line', 'platform')),
    PRIMARY KEY (model_id, platform)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS platform_lifecycles_upgrade ON platform_lifecycles(upgrade_id);

CREATE TABLE IF NOT EXISTS ingestion_runs (
    id              INTEGER PRIMARY KEY,
    source          TEXT NOT NULL,
    provider_id     INTEGER REFERENCES providers(id),
    status          TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
    models_added    INTEGER NOT NULL DEFAULT 0,
    models_updated  INTEGER NOT NULL DEFAULT 0,
    error_message   TEXT,
    pid             INTEGER,                      -- who runs it: a dead pid means interrupted
    started_at      TEXT NOT NULL,
    completed_at    TEXT,
    details         TEXT                          -- JSON: what the run did with each upstream record
);
CREATE INDEX IF NOT EXISTS ingestion_runs_source ON ingestion_runs(source, id DESC);

-- Bumped by every write run, so readers (the resolve index cache) know when to rebuild.
CREATE TABLE IF NOT EXISTS registry_state (
    key    TEXT PRIMARY KEY,
    value  INTEGER NOT NULL
);
INSERT OR IGNORE INTO registry_state (key, value) VALUES ('generation', 0);

-- Search: one document per model (names, slug, aliases, family, squashed forms),
-- external content kept in step by triggers (sqlite-utils style). The default unicode61
-- tokenizer splits "gpt-4.1" into gpt 4 1; a quoted query word becomes the same phrase.
-- Prefix indexes (one to eight characters) keep the while-typing last word fast: without
-- them a prefix such as "claude" is merged from every squashed name that starts with it.
CREATE TABLE IF NOT EXISTS search_docs (
    model_id      INTEGER PRIMARY KEY REFERENCES models(id) ON DELETE CASCADE,
    display_name  TEXT NOT NULL,
    slug          TEXT NOT NULL,
    aliases       TEXT NOT NULL,
    family        TEXT NOT NULL,
    squashed      TEXT NOT NULL,
    -- The tokens of the five columns as FTS5 reads them, columns apart (documents.words_text): a
    -- candidate's names are checked for a word with LIKE, not by matching the whole index again.
    words         TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(
    display_name, slug, aliases, family, squashed,
    content='search_docs', content_rowid='model_id',
    tokenize='unicode61', prefix='1 2 3 4 5 6 7 8'
);
-- The squashed names alone, for the names a query may start or be (candidates.name_rows): a squashed
-- name's own posting list, without the other columns' words that start the same ("3", "coder"). FTS5
-- reads a prefix from its index only at a length it keeps; past that it merges every name that starts
-- with it ("perplexitysonar": thousands), so names keep sixteen (2.9 s and 16 MB at 50k models, against
-- 1.4 s and 8.5 MB for eight; a typed name 0.1 ms against 1.1-1.3 ms).
CREATE VIRTUAL TABLE IF NOT EXISTS search_names USING fts5(
    squashed,
    content='search_docs', content_rowid='model_id',
    tokenize='unicode61', prefix='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'
);
CREATE TRIGGER IF NOT EXISTS search_docs_ai AFTER INSERT ON search_docs BEGIN
    INSERT INTO search_fts(rowid, display_name, slug, aliases, family, squashed)
    VALUES (new.model_id, new.display_name, new.slug, new.aliases, new.family, new.squashed);
    INSERT INTO search_names(rowid, squashed) VALUES (new.model_id, new.squashed);
END;
CREATE TRIGGER IF NOT EXISTS search_docs_ad AFTER DELETE ON search_docs BEGIN
    INSERT INTO search_fts(search_fts, rowid, display_name, slug, aliases, family, squashed)
    VALUES ('delete', old.model_id, old.display_name, old.slug, old.aliases, old.family, old.squashed);
    INSERT INTO search_names(search_names, rowid, squashed) VALUES ('delete', old.model_id, old.squashed);
END;
CREATE TRIGGER IF NOT EXISTS search_docs_au AFTER UPDATE ON search_docs BEGIN
    INSERT INTO search_fts(search_fts, rowid, display_name, slug, aliases, family, squashed)
    VALUES ('delete', old.model_id, old.display_name, old.slug, old.aliases, old.family, old.squashed);
    INSERT INTO search_fts(rowid, display_name, slug, aliases, family, squashed)
    VALUES (new.model_id, new.display_name, new.slug, new.aliases, new.family, new.squashed);
    INSERT INTO search_names(search_names, rowid, squashed) VALUES ('delete', old.model_id, old.squashed);
    INSERT INTO search_names(rowid, squashed) VALUES (new.model_id, new.squashed);
END;

-- Change history (registry/merge/changes.py): every visible change a run or the daily lifecycle
-- recompute made, newest last. Slugs, not ids: a removed model's history outlives its row.
CREATE TABLE IF NOT EXISTS changes (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER REFERENCES ingestion_runs(id),   -- NULL: the daily lifecycle recompute
    occurred_at   TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('model_added', 'model_removed', 'field_changed',
                      'status_changed', 'deprecation_announced', 'shutdown_scheduled',
                      'alias_added', 'alias_removed', 'latest_changed')),
    model_slug    TEXT NOT NULL,
    family_slug   TEXT NOT NULL,
    provider_slug TEXT NOT NULL,
    field         TEXT,
    old           TEXT,                                    -- JSON
    new           TEXT,                                    -- JSON
    source        TEXT NOT NULL,                           -- whose value won, or the run's source
    upgrade_slug  TEXT,                                    -- the recommended upgrade when it was recorded
    title         TEXT     -- words stored before version 11; since, NULL: registry/wording.py words each change
);
CREATE INDEX IF NOT EXISTS changes_model ON changes(model_slug, id);
CREATE INDEX IF NOT EXISTS changes_family ON changes(family_slug, id);
CREATE INDEX IF NOT EXISTS changes_provider ON changes(provider_slug, id);
CREATE INDEX IF NOT EXISTS changes_kind ON changes(kind, id);

-- Webhooks (registry/notify/): endpoints the admin registered, and every event delivered to them.
CREATE TABLE IF NOT EXISTS webhooks (
    id             INTEGER PRIMARY KEY,
    url            TEXT NOT NULL,
    secret         TEXT NOT NULL,                  -- whsec_...: signs every delivery; shown once
    models         TEXT NOT NULL DEFAULT '[]',     -- JSON [{identifier, slug, alias, alias_source}]
    providers      TEXT NOT NULL DEFAULT '[]',     -- JSON provider slugs; empty: every provider
    kinds          TEXT NOT NULL DEFAULT '[]',     -- JSON change kinds and shutdown_upcoming; empty: all
    days_before    TEXT NOT NULL DEFAULT '[90, 30, 7]',
    change_cursor  INTEGER NOT NULL DEFAULT 0,     -- changes up to this id are already queued
    created_at     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id               INTEGER PRIMARY KEY,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_id         TEXT NOT NULL,                -- change-<id>, shutdown-<slug>-<date>-<days>
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,                -- the JSON body, byte for byte what is signed
    status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    tries            INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    created_at       TEXT NOT NULL,
    completed_at     TEXT,
    UNIQUE (webhook_id, event_id)                  -- never one event twice to one endpoint
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
    id            INTEGER PRIMARY KEY,
    delivery_id   INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at  TEXT NOT NULL,
    status_code   INTEGER,
    error         TEXT,
    duration_ms   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts(delivery_id);
