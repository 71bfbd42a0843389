-- Web Push (issue 30): the browsers users subscribed from Settings › Notifications, which
-- notifications each user wants pushed, and push (and SMS, 20261128000022) as outbox channels. Keep in step
-- with ../postgres/20261128000021_web_push.sql: a test compares the two schemas.
--
-- SQLite cannot change a CHECK in place, so the outbox is rebuilt with the same columns in the
-- same order. `webhook_attempts` references it (ON DELETE CASCADE), so its rows are held and the
-- table is dropped first and created again after (as 20261124000006_enum_checks.sql explains).
CREATE TABLE push_subscriptions (
    id                TEXT PRIMARY KEY NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The push service's URL for this browser (PushSubscription.endpoint): one browser profile,
    -- so one account at a time.
    endpoint          TEXT NOT NULL,
    -- The browser's P-256 public key (65 bytes) and authentication secret (16 bytes),
    -- base64url as PushSubscription.toJSON() gives them.
    p256dh            TEXT NOT NULL,
    auth_secret       TEXT NOT NULL,
    -- What the user sees in the list of devices ("Chrome on macOS").
    label             TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    last_delivered_at TEXT,
    CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint)
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, created_at);

-- The notification kinds pushed, comma-separated (every kind by default).
ALTER TABLE users ADD COLUMN push_events TEXT NOT NULL DEFAULT 'new_signals,position_closed,price_alert,billing,webhook';

CREATE TEMP TABLE hold_outbox AS SELECT * FROM outbox;
CREATE TEMP TABLE hold_webhook_attempts AS SELECT * FROM webhook_attempts;
DROP TABLE webhook_attempts;
DROP TABLE outbox;

CREATE TABLE outbox (
    id              TEXT PRIMARY KEY NOT NULL,
    channel         TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    endpoint_id     TEXT REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    topic           TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    delivered_at    TEXT,
    CONSTRAINT outbox_channel_check CHECK (channel IN ('webhook', 'email', 'push', 'sms')),
    CONSTRAINT outbox_status_check CHECK (status IN ('pending', 'delivered', 'failed'))
);

CREATE TABLE webhook_attempts (
    id           TEXT PRIMARY KEY NOT NULL,
    message_id   TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    endpoint_id  TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    attempted_at TEXT NOT NULL,
    status_code  INTEGER,
    latency_ms   BIGINT NOT NULL,
    succeeded    BOOLEAN NOT NULL,
    error        TEXT
);

INSERT INTO outbox SELECT * FROM hold_outbox;
INSERT INTO webhook_attempts SELECT * FROM hold_webhook_attempts;
DROP TABLE hold_outbox;
DROP TABLE hold_webhook_attempts;

CREATE INDEX outbox_due_idx ON outbox (status, next_attempt_at);
CREATE INDEX outbox_channel_idx ON outbox (channel, created_at);
CREATE INDEX outbox_endpoint_idx ON outbox (endpoint_id);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, attempted_at);
CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id);
