-- Outbound webhooks and email: the endpoints users register, one durable outbox both channels
-- are delivered from (retried with backoff, so a restart loses nothing), each webhook
-- attempt's log, and the one-click unsubscribe tokens. Keep in step with
-- ../sqlite/20261125000012_outbound.sql: a test compares the two schemas.
CREATE TABLE webhook_endpoints (
    id            TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url           TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    secret        TEXT NOT NULL,
    is_active     BOOLEAN NOT NULL DEFAULT TRUE,
    failing_since TIMESTAMPTZ,
    disabled_at   TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL,
    CONSTRAINT webhook_endpoints_event_type_check CHECK (event_type IN ('new_signal', 'price_alert', 'signal_closed', 'position_closed'))
);
CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at);
CREATE INDEX webhook_endpoints_event_idx ON webhook_endpoints (event_type, is_active);

CREATE TABLE outbox (
    id              TEXT PRIMARY KEY NOT NULL,
    channel         TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint_id     TEXT REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    topic           TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    last_error      TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    delivered_at    TIMESTAMPTZ,
    CONSTRAINT outbox_channel_check CHECK (channel IN ('webhook', 'email')),
    CONSTRAINT outbox_status_check CHECK (status IN ('pending', 'delivered', 'failed'))
);
CREATE INDEX outbox_due_idx ON outbox (status, next_attempt_at);
CREATE INDEX outbox_channel_idx ON outbox (channel, created_at);
CREATE INDEX outbox_endpoint_idx ON outbox (endpoint_id);

CREATE TABLE webhook_attempts (
    id           TEXT PRIMARY KEY NOT NULL,
    message_id   TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    endpoint_id  TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    attempted_at TIMESTAMPTZ NOT NULL,
    status_code  INTEGER,
    latency_ms   BIGINT NOT NULL,
    succeeded    BOOLEAN NOT NULL,
    error        TEXT
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, attempted_at);
CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id);

CREATE TABLE email_unsubscribes (
    token      TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    list       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT email_unsubscribes_list_check CHECK (list IN ('all', 'portfolio_summary'))
);
CREATE UNIQUE INDEX email_unsubscribes_user_list_idx ON email_unsubscribes (user_id, list);

-- A disabled webhook endpoint is a notification of its own kind.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('new_signals', 'position_closed', 'price_alert', 'billing', 'webhook'));
