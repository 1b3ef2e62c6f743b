-- The scheduler's own schema: tenants and the sources it schedules.

CREATE TABLE tenants (
    id            text PRIMARY KEY,
    tier          text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'starter', 'pro')),
    -- null: the tier's default source limit
    max_sources   integer CHECK (max_sources IS NULL OR max_sources >= 0),
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
    id                     uuid PRIMARY KEY,
    tenant_id              text NOT NULL REFERENCES tenants (id),
    name                   text NOT NULL,
    connector              text NOT NULL CHECK (connector IN ('feed', 'ical', 'json', 'html')),
    url                    text NOT NULL,
    -- partition key of FetchRequested: one host's requests meet in one worker
    host                   text NOT NULL,
    category               text,
    -- cadence, connector options, retention
    config_json            jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- last_fetch_at (ADR 0009), etag, last_modified, sync tokens
    cursor_json            jsonb NOT NULL DEFAULT '{}'::jsonb,
    credentials_encrypted  bytea,
    enabled                boolean NOT NULL DEFAULT true,
    priority               integer NOT NULL DEFAULT 0,

    -- schedule
    next_due_at            timestamptz NOT NULL DEFAULT now(),
    -- when a claim's lease ends; null when no fetch is in flight
    lease_until            timestamptz,
    -- bumped by every claim; an outcome counts only for the current epoch
    epoch                  bigint NOT NULL DEFAULT 0,
    -- the due time the current claim was made for (FetchRequested.due_at)
    claimed_due_at         timestamptz,
    -- a user asked for a fetch now (adaptive spec's manual override)
    manual_requested       boolean NOT NULL DEFAULT false,
    last_status            text,
    last_error             text,
    last_outcome_at        timestamptz,
    retry_after            timestamptz,
    consecutive_misses     integer NOT NULL DEFAULT 0,
    consecutive_empty      integer NOT NULL DEFAULT 0,

    -- denormalised SourceStats (signal-adaptive note): cadence reads only this row
    window_fetches         integer NOT NULL DEFAULT 0,
    avg_signal_yield       double precision,
    dominant_signal_type   text,
    type_counts            jsonb NOT NULL DEFAULT '{}'::jsonb,
    median_days_to_event   double precision,
    publish_interval_avg_ms bigint,
    recent_published_at    timestamptz[] NOT NULL DEFAULT '{}',
    change_rate            double precision,
    stats_updated_at       timestamptz,

    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

-- The due scan reads only enabled rows whose due time has come: its cost follows the due set,
-- not the table (Decision 008: due selection in SQL, never after a LIMIT).
CREATE INDEX sources_due_idx ON sources (next_due_at) WHERE enabled;

-- In-flight count for the cap on outstanding requests.
CREATE INDEX sources_leased_idx ON sources (lease_until) WHERE lease_until IS NOT NULL;

CREATE INDEX sources_tenant_idx ON sources (tenant_id, created_at, id);
