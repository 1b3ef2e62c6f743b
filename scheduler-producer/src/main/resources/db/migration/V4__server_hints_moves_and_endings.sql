-- What the server says of its source, as the last fetch reported it (FetchCompleted v4), and what
-- the scheduler made of it (docs/design.md, "The server's rules").

-- The last fetch's freshness hints as reported (null: none), and the due time they held the
-- source back to, when they did (shown in the API's schedule).
ALTER TABLE sources ADD COLUMN hints jsonb;
ALTER TABLE sources ADD COLUMN hint_not_before timestamptz;
-- A permanent redirect seen on the last fetch: the source moves there when the next fetch is
-- redirected there too.
ALTER TABLE sources ADD COLUMN moved_to text;
-- The document's own URL when it differs from the source's (reported, never followed), and the
-- WebSub hub it announces.
ALTER TABLE sources ADD COLUMN self_url text;
ALTER TABLE sources ADD COLUMN hub_url text;
-- Why the scheduler disabled a source by itself ('gone': it answered 410); null when enabled or
-- disabled by a user.
ALTER TABLE sources ADD COLUMN disabled_reason text;

-- Every URL a source had before a move, newest last.
CREATE TABLE source_url_history (
    id           bigserial PRIMARY KEY,
    source_id    uuid NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    url          text NOT NULL,
    replaced_by  text NOT NULL,
    reason       text NOT NULL,
    replaced_at  timestamptz NOT NULL
);

CREATE INDEX source_url_history_source_idx ON source_url_history (source_id, id);

-- The gauges of failing and gone sources read only these few rows.
CREATE INDEX sources_failing_idx ON sources (consecutive_misses) WHERE consecutive_misses > 0;
CREATE INDEX sources_disabled_reason_idx ON sources (disabled_reason) WHERE disabled_reason IS NOT NULL;
