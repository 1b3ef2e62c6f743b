-- sources_due_idx (V1) is read by one statement only, the due-backlog gauge, which now walks the
-- claim's index (V10, priority first, then due time) one priority at a time, as the claim does.
-- Every row version of a source that is not HOT — each claim and each outcome moves next_due_at,
-- so two or three per fetch — added an entry to it: one index of the table's five maintained per
-- fetch for a gauge (docs/adr/0018-fewer-bigger-broker-operations.md). Dropping it is a short
-- exclusive lock on sources, no rewrite.
DROP INDEX IF EXISTS sources_due_idx;
