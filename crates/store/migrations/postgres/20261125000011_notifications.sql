-- In-app notifications, read or unread. Keep in step with
-- ../sqlite/20261125000011_notifications.sql: a test compares the two schemas.
CREATE TABLE notifications (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    link       TEXT,
    read_at    TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT notifications_kind_check CHECK (kind IN ('new_signals', 'position_closed', 'price_alert', 'billing'))
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
