-- Each FetchCompleted looks up two things of its source's history in the activity log: the cursor
-- its fetch used (the latest completed fetch with a cursor, begun before it) and, for a 304, when
-- the source was last read in full (the latest ok/partial fetch begun before it), whose listed
-- versions it keeps from expiring. Neither had an index in started_at order: each look-up read and
-- sorted every row of the source's log, so a fetch cost more the longer its source had been
-- fetched (hourly fetches kept 90 days: ~2,000 rows read per fetch). Each of these partial indexes
-- answers its look-up with one probe; the ok/partial one holds only full reads (a few per cent of a
-- mostly unchanged web's fetches). Not CONCURRENTLY (Flyway's transaction): the build holds off
-- writes to activity_log while it runs; a large deployment builds them beforehand with CREATE
-- INDEX CONCURRENTLY and this migration then finds them.
CREATE INDEX IF NOT EXISTS activity_log_source_cursor
    ON activity_log (source_id, started_at DESC) WHERE completed AND cursor_after IS NOT NULL;
CREATE INDEX IF NOT EXISTS activity_log_source_full_read
    ON activity_log (source_id, started_at DESC) WHERE completed AND status IN ('ok', 'partial');
