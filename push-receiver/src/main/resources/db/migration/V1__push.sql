-- The push-receiver's own schema: what the fetches said about each push-capable source, and the
-- WebSub subscriptions the receiver holds for them.

-- One row per source whose fetch announced a WebSub hub (rows are written by the listeners of
-- FetchCompleted, which brings hub_url and self_url, and of FetchRequested, which brings the
-- URL fetched and whether the source sends credentials).
CREATE TABLE sources (
    source_id     text PRIMARY KEY,
    tenant_id     text NOT NULL DEFAULT '',
    url           text,                              -- the URL the scheduler last asked to fetch
    private       boolean NOT NULL DEFAULT false,    -- the source sends credentials: a public hub cannot read it, never subscribed
    hub_url       text,                              -- the hub the last successful fetch announced; null: none
    self_url      text,                              -- the feed's rel=self when it differs from url
    announced_at  timestamptz,                       -- when a fetch last announced hub_url
    requested_at  timestamptz,                       -- when the scheduler last asked for a fetch
    updated_at    timestamptz NOT NULL
);

CREATE TABLE subscriptions (
    id                     uuid PRIMARY KEY,
    source_id              text NOT NULL,
    tenant_id              text NOT NULL DEFAULT '',
    topic_url              text NOT NULL,            -- hub.topic: the feed's self URL, else its URL
    hub_url                text NOT NULL,
    callback_token_hash    bytea NOT NULL UNIQUE,    -- SHA-256 of the callback path token: the look-up key
    callback_token_encrypted bytea NOT NULL,         -- the token itself (renewals use the same callback), AES-GCM (CredentialCipher)
    secret_encrypted       bytea NOT NULL,           -- hub.secret, AES-GCM (CredentialCipher); never logged, never in an API
    state                  text NOT NULL CHECK (state IN
        ('REQUESTED', 'ACTIVE', 'EXPIRING', 'EXPIRED', 'DENIED', 'UNSUBSCRIBING', 'UNSUBSCRIBED')),
    pending_since          timestamptz,              -- when the pending intent was sent
    lease_started_at       timestamptz,
    lease_expires_at       timestamptz,
    last_notification_at   timestamptz,
    reason                 text,                     -- the hub's hub.reason of a denial
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    UNIQUE (source_id, hub_url, topic_url)
);

CREATE INDEX subscriptions_source ON subscriptions (source_id);
CREATE INDEX subscriptions_open ON subscriptions (updated_at)
    WHERE state NOT IN ('DENIED', 'UNSUBSCRIBED');
