-- The content layer (ADR-073): one row per distinct (source, item, content hash), versions linked.

CREATE TABLE platform_content (
    id             bigserial PRIMARY KEY,
    tenant_id      text NOT NULL,
    source_id      text NOT NULL,
    connector      text NOT NULL,
    item_id        text NOT NULL,
    content_hash   text NOT NULL,
    -- the item's previous version (same source and item id, another hash); null for the first
    version_of     bigint REFERENCES platform_content (id) ON DELETE SET NULL,
    request_id     text NOT NULL,
    url            text,
    title          text,
    body           text,
    truncated      boolean NOT NULL DEFAULT false,
    content_type   text,
    published_at   timestamptz,
    fetched_at     timestamptz NOT NULL,
    first_seen_at  timestamptz NOT NULL,
    -- moved by every redelivery or re-fetch of the same version; nothing else changes
    last_seen_at   timestamptz NOT NULL,
    signal_type    text NOT NULL,
    event_at       timestamptz,
    expires_at     timestamptz NOT NULL,
    metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
    CONSTRAINT platform_content_version UNIQUE (source_id, item_id, content_hash)
);

-- read API: a source's content by time; the latest version of an item
CREATE INDEX platform_content_source_time ON platform_content (source_id, fetched_at, id);
CREATE INDEX platform_content_item_latest ON platform_content (source_id, item_id, last_seen_at DESC, id DESC);
CREATE INDEX platform_content_tenant_signal ON platform_content (tenant_id, signal_type, fetched_at, id);
CREATE INDEX platform_content_version_of ON platform_content (version_of) WHERE version_of IS NOT NULL;
-- cleanup
CREATE INDEX platform_content_expires ON platform_content (expires_at);

CREATE TABLE content_retention (
    content_id  bigint NOT NULL REFERENCES platform_content (id) ON DELETE CASCADE,
    reason      text NOT NULL,
    ref         text NOT NULL DEFAULT '',
    marked_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (content_id, reason, ref)
);

CREATE TABLE activity_log (
    request_id      text PRIMARY KEY,
    source_id       text NOT NULL,
    tenant_id       text NOT NULL DEFAULT '',
    status          text,
    items_fetched   integer,
    items_new       integer NOT NULL DEFAULT 0,
    items_changed   integer NOT NULL DEFAULT 0,
    items_duplicate integer NOT NULL DEFAULT 0,
    errors          text,
    cursor_used     jsonb,
    started_at      timestamptz,
    finished_at     timestamptz,
    -- true once the fetch's FetchCompleted is in (its items may arrive before or after it)
    completed       boolean NOT NULL DEFAULT false
);
CREATE INDEX activity_log_source_time ON activity_log (source_id, finished_at DESC);
