-- What asked for a source's fetch, so that its new items can be counted by how they were found
-- (freshet_scheduler_items_new_total{trigger}: pushed or polled).
-- push_requested: a WebSub notification set the fetch-now still pending (manual_requested is set
--   with it); the next claim takes it and clears it, as it does manual_requested.
-- claim_trigger: what asked for the claim in flight or last made: 'push' (a notification),
--   'manual' (the API's fetch-now, no notification), 'poll' (the cadence, a safety-net poll, a run).
--   The outcome of that claim counts its new items under it.
ALTER TABLE sources ADD COLUMN push_requested boolean NOT NULL DEFAULT false;
ALTER TABLE sources ADD COLUMN claim_trigger text NOT NULL DEFAULT 'poll';
