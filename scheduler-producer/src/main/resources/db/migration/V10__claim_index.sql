-- The claim's order (priority first, then the longest overdue: ADR 0007) as an index, so that a
-- claim reads its batch in order instead of sorting every due source: after an outage the due set
-- is the whole table, and sorting all of it for every 500-source round made a backlog of N sources
-- cost N^2 (docs/benchmarks/scheduler-producer.md, "10 million sources"). sources_due_idx stays
-- for the due-backlog gauges. Not CONCURRENTLY: Flyway's transactional lock would make it wait for
-- itself; the build holds off writes to sources for its duration (about a minute at 10 million
-- rows on two cores). A large deployment builds it beforehand with CREATE INDEX CONCURRENTLY
-- (docs/operations.md, "Upgrading the database"), and this migration then finds it.
CREATE INDEX IF NOT EXISTS sources_claim_idx ON sources (priority DESC, next_due_at) WHERE enabled;
