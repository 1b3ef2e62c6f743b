-- The audit log: one row per change made through the API (issue 22, item 5), written in the same
-- transaction as the change, so a change is never without its record and a record never without
-- its change.
--
-- key_id      the API key that made the change (a bootstrap key's id for a configured key)
-- tenant_id   the tenant the change belongs to; null for a change an admin made for every tenant
--             (a run without tenant_id, an admin key's creation or revocation)
-- action      source.create | source.update | source.delete | source.enable | source.disable |
--             source.fetch_now | import | run | tenant.create | tenant.update | tenant.delete |
--             key.create | key.revoke
-- target_id   what was changed: a source's id, a tenant's id, a key's id, a run's id; null for an
--             import (its sources are listed in changes)
-- changes     what changed, as JSON, secrets redacted: never a key's text, a credential (only
--             whether there are some) or a secret query or config value (shown as ***)
--
-- No foreign keys: the record of a deleted source or tenant must stay.
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
