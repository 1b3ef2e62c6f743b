-- ADR 0003: a fetch requested by a batch run takes the run's window_end as its logical time
-- (last_fetch_at), so that a run every N minutes fetches an every-N-minutes source in every run.
-- Set by a batch run's claim, cleared by every other claim.
ALTER TABLE sources ADD COLUMN claimed_window_end timestamptz;
