-- Issue 9, second part: the activity log fed from both topics, TTL that runs from the last listing,
-- and the read API's keyset orders.

-- How long a version is kept after the source last listed it (the event's retention or the
-- default). V1 rows were stored with expires_at = fetched_at + retention.
ALTER TABLE platform_content ADD COLUMN retention_ms bigint;
UPDATE platform_content
   SET retention_ms = (extract(epoch FROM expires_at - fetched_at) * 1000)::bigint;
ALTER TABLE platform_content ALTER COLUMN retention_ms SET NOT NULL;

-- Cleanup walks expired rows oldest first; the V1 index serves it.
-- Read API: versions of an item in the order they appeared.
CREATE INDEX platform_content_item_versions ON platform_content (source_id, item_id, first_seen_at, id);

-- One row per (request, stored version) that arrived as ContentFetched: the record that makes the
-- activity log's counts idempotent. A redelivered record finds its arrival and counts nothing. It
-- lives as long as the version it points at (cascade), so it never outgrows the content.
CREATE TABLE content_arrival (
    request_id  text NOT NULL,
    content_id  bigint NOT NULL REFERENCES platform_content (id) ON DELETE CASCADE,
    -- what the upsert found for this request: new (first version), changed (new version), duplicate
    novelty     text NOT NULL CHECK (novelty IN ('new', 'changed', 'duplicate')),
    arrived_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (request_id, content_id)
);
CREATE INDEX content_arrival_content ON content_arrival (content_id);

ALTER TABLE activity_log
    ADD COLUMN epoch          bigint,
    ADD COLUMN http_status    integer,
    ADD COLUMN error_kind     text,
    ADD COLUMN attempts       integer,
    -- items the fetch emitted as ContentFetched (FetchCompleted.item_count)
    ADD COLUMN items_emitted  integer,
    -- items the fetch listed as already seen (not emitted again)
    ADD COLUMN items_unchanged integer,
    -- ContentFetched records of this request stored so far (new + changed + duplicate)
    ADD COLUMN items_arrived  integer NOT NULL DEFAULT 0,
    ADD COLUMN bytes          bigint,
    -- the cursor the fetch handed back for the next fetch (FetchCompleted.cursor)
    ADD COLUMN cursor_after   jsonb,
    -- when the sink first heard of this request (from either topic): the activity list's order
    ADD COLUMN logged_at      timestamptz NOT NULL DEFAULT now();
DROP INDEX activity_log_source_time;
CREATE INDEX activity_log_source_logged ON activity_log (source_id, logged_at DESC, request_id DESC);
-- cleanup prunes the log after freshet.cleanup.activity-retention
CREATE INDEX activity_log_logged ON activity_log (logged_at);
