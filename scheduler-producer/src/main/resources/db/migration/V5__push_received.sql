-- The latest WebSub notification (PushReceived.received_at) the scheduler turned into a fetch-now
-- of the source. A PushReceived no later than this one changes nothing, so a redelivered or
-- replayed notification asks for no second fetch.
ALTER TABLE sources ADD COLUMN push_received_at timestamptz;
