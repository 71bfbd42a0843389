-- Automated execution (issue 29; docs/execution.md). Keep in step with the other engine's file
-- of the same name: a test compares the two schemas.

-- The account's kill switch: while set, the automation sends it no new order (standing ones
-- are cancelled when it is set).
ALTER TABLE trading_accounts ADD COLUMN orders_halted BOOLEAN NOT NULL DEFAULT FALSE;

-- Which broker holds the order ('paper', the built-in default) and its id there, once known.
ALTER TABLE orders ADD COLUMN broker TEXT NOT NULL DEFAULT 'paper';
ALTER TABLE orders ADD COLUMN broker_order_id TEXT;
-- When an order still standing is cancelled (NULL: never by the clock).
ALTER TABLE orders ADD COLUMN expires_at TEXT;

-- The order whose fill opened an automated position (NULL for positions opened before orders).
ALTER TABLE portfolio_positions ADD COLUMN order_id TEXT REFERENCES orders (id) ON DELETE SET NULL;

-- Fills, rejections and cancellations of a user's orders are notifications of their own kind.
-- SQLite cannot change a CHECK in place: the table (nothing points at it) is rebuilt with its
-- rows.
CREATE TEMP TABLE hold_notifications AS SELECT * FROM notifications;
DROP TABLE notifications;
CREATE TABLE notifications (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    link       TEXT,
    read_at    TEXT,
    created_at TEXT NOT NULL,
    CONSTRAINT notifications_kind_check CHECK (kind IN ('new_signals', 'position_closed', 'price_alert', 'billing', 'webhook', 'order'))
);
INSERT INTO notifications SELECT * FROM hold_notifications;
DROP TABLE hold_notifications;
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at);
