-- Issue 9, sink throughput (ADR 0005): each batch is one statement, and only the indexes the read
-- API, cleanup and the upsert itself use remain.

-- The upsert's lookup of an item's latest version and the read API's versions of an item both
-- filter on (source_id, item_id) and sort the item's few versions: the unique key
-- platform_content_version (source_id, item_id, content_hash) serves both, so these two indexes
-- only cost every insert (and every non-HOT update) two more index entries.
DROP INDEX platform_content_item_latest;
DROP INDEX platform_content_item_versions;

-- A version's row already records the request whose record inserted it (request_id, never
-- updated), so that arrival needs no row of its own: content_arrival now holds only the arrivals
-- of a version some other request stored first (duplicates). The rows that merely repeat what
-- platform_content.request_id says go.
DELETE FROM content_arrival a
 USING platform_content c
 WHERE c.id = a.content_id AND c.request_id = a.request_id;

-- One index serves both uses: the upsert's ON CONFLICT (request_id, content_id) (any column order)
-- and the cascade from platform_content, which looks arrivals up by content_id.
ALTER TABLE content_arrival DROP CONSTRAINT content_arrival_pkey;
ALTER TABLE content_arrival ADD PRIMARY KEY (content_id, request_id);
DROP INDEX content_arrival_content;
