-- The in-flight cap across instances (issue 7, defect 6). A claim round first reserves room under
-- freshet.scheduler.max-in-flight in a short transaction serialised by an advisory lock, counting
-- the committed leases plus every live reservation; its claim transaction then deletes the
-- reservation as it commits the leases, so claims not yet committed are always counted once.
-- A reservation left by a crashed round expires by itself.
CREATE TABLE claim_reservations (
    id          uuid PRIMARY KEY,
    sources     integer NOT NULL CHECK (sources > 0),
    expires_at  timestamptz NOT NULL
);
