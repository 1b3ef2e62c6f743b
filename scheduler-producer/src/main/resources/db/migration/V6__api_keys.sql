-- API keys: each acts for one tenant (read or write) or for every tenant (admin). Only the SHA-256
-- of a key's secret is kept; the secret is shown once, when the key is made
-- (docs/adr/0014-api-keys-per-tenant-replicated-as-events.md).
--
-- The row is its own outbox: every change that every service must learn of (creation,
-- revocation) raises version; the key publisher sends the row's whole state to the compacted key
-- topic and then sets published_version, under a row lock, so the topic converges on the table
-- whatever fails in between. last_used_at is not replicated and does not raise version.
--
-- No foreign key to tenants: a tenant's deletion revokes its keys (and publishes the revocation)
-- instead of removing rows the topic still holds as valid.
CREATE TABLE api_keys (
    id                 text PRIMARY KEY,
    tenant_id          text,
    role               text NOT NULL CHECK (role IN ('admin', 'write', 'read')),
    secret_sha256      bytea NOT NULL CHECK (octet_length(secret_sha256) = 32),
    created_at         timestamptz NOT NULL,
    last_used_at       timestamptz,
    expires_at         timestamptz,
    revoked_at         timestamptz,
    version            bigint NOT NULL DEFAULT 1,
    published_version  bigint NOT NULL DEFAULT 0,
    CHECK ((role = 'admin') = (tenant_id IS NULL))
);

CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, created_at);
CREATE INDEX api_keys_unpublished_idx ON api_keys (id) WHERE published_version < version;
