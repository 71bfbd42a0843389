-- Web Push (issue 30): the browsers users subscribed from Settings › Notifications, which
-- notifications each user wants pushed, and push (and SMS, 20261128000022) as outbox channels. Keep in step
-- with ../sqlite/20261128000021_web_push.sql: a test compares the two schemas.
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
    created_at        TIMESTAMPTZ NOT NULL,
    last_delivered_at TIMESTAMPTZ,
    CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint)
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, created_at);

-- The notification kinds pushed, comma-separated (every kind by default).
ALTER TABLE users ADD COLUMN push_events TEXT NOT NULL DEFAULT 'new_signals,position_closed,price_alert,billing,webhook';

ALTER TABLE outbox DROP CONSTRAINT outbox_channel_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_channel_check CHECK (channel IN ('webhook', 'email', 'push', 'sms'));
