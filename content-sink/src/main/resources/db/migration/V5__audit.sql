-- The sink's audit log (issue 22, item 5), shaped like the scheduler's (scheduler.audit_log): one
-- row per change made through the sink's API, written in the same transaction as the change, so a
-- change is never without its record and a record never without its change.
--
-- key_id      the API key that made the change (a bootstrap key's id for a configured key)
-- tenant_id   the tenant the change belongs to; null for a cleanup (it acts for every tenant)
-- action      retention.mark | retention.release | cleanup
-- target_id   the mark's ref (with its reason it names the mark); null for a cleanup
-- changes     what changed, as JSON: a mark's or release's reason, ref, content_ids and counts
--             (marked and already_marked, released); a cleanup's counts (deleted, batches,
--             activity_deleted, exhausted) and cut-offs. Never a key's text or a secret.
--
-- A cleanup deletes in many short transactions: its record is written by the first and its
-- counts brought up to date by each later one, so it always says what has been deleted. Cleanups
-- run on the sink's own schedule have no key and are not recorded here (logs and metrics).
--
-- No foreign keys: the record of deleted content must stay.
CREATE TABLE audit_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at         timestamptz NOT NULL,
    key_id     text NOT NULL,
    tenant_id  text,
    action     text NOT NULL,
    target_id  text,
    changes    jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- GET /audit: newest first, per tenant or for all, paged by id.
CREATE INDEX audit_log_tenant_idx ON audit_log (tenant_id, id DESC);
