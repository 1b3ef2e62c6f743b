-- Whether a source has a live WebSub subscription (ADR 0015, "Polling relaxes while push is live").
-- The push receiver says so on freshet.push.received.v1 (kind subscription_live / subscription_ended);
-- while push_live_until is ahead, a successful poll schedules the next one only as a safety net.
-- push_live_until: the end of the lease the hub granted (null: no live subscription). Past it, the
--   source is back on its cadence even if no event says so (the receiver may be down).
-- push_state_at: PushReceived.received_at of the last subscription event applied; an event no
--   later than it changes nothing (redelivery, replays, reordering across restarts).
ALTER TABLE sources ADD COLUMN push_live_until timestamptz;
ALTER TABLE sources ADD COLUMN push_state_at timestamptz;
