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

-- Webhook endpoints can listen for fills and refusals of their owner's orders. SQLite cannot
-- change a CHECK in place, and dropping `webhook_endpoints` would delete (by cascade) the
-- outbox's messages and the attempts pointing at it: all three are held, rebuilt in the same
-- shape (`account_id` last, as 20261129000027 added it) and restored.
CREATE TEMP TABLE hold_webhook_endpoints AS SELECT * FROM webhook_endpoints;
CREATE TEMP TABLE hold_outbox AS SELECT * FROM outbox;
CREATE TEMP TABLE hold_webhook_attempts AS SELECT * FROM webhook_attempts;
DROP TABLE webhook_attempts;
DROP TABLE outbox;
DROP TABLE webhook_endpoints;

CREATE TABLE webhook_endpoints (
    id            TEXT PRIMARY KEY NOT NULL,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url           TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    secret        TEXT NOT NULL,
    is_active     BOOLEAN NOT NULL DEFAULT TRUE,
    failing_since TEXT,
    disabled_at   TEXT,
    created_at    TEXT NOT NULL,
    account_id    TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE,
    CONSTRAINT webhook_endpoints_event_type_check
        CHECK (event_type IN ('new_signal', 'price_alert', 'signal_closed', 'position_closed', 'order_filled', 'order_rejected'))
);

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

INSERT INTO webhook_endpoints SELECT * FROM hold_webhook_endpoints;
INSERT INTO outbox SELECT * FROM hold_outbox;
INSERT INTO webhook_attempts SELECT * FROM hold_webhook_attempts;
DROP TABLE hold_webhook_attempts;
DROP TABLE hold_outbox;
DROP TABLE hold_webhook_endpoints;

CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id, created_at);
CREATE INDEX webhook_endpoints_event_idx ON webhook_endpoints (event_type, is_active);
CREATE INDEX outbox_due_idx ON outbox (status, next_attempt_at);
CREATE INDEX outbox_channel_idx ON outbox (channel, created_at);
CREATE INDEX outbox_endpoint_idx ON outbox (endpoint_id);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, attempted_at);
CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id);

-- Every order placed, filled, refused or cancelled, and every kill switch turned, is in the
-- owner's audit log. Nothing points at `audit_events`: it is rebuilt with its rows.
CREATE TEMP TABLE hold_audit_events AS SELECT * FROM audit_events;
DROP TABLE audit_events;
CREATE TABLE audit_events (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    actor_id   TEXT,
    action     TEXT NOT NULL,
    detail     TEXT,
    ip         TEXT,
    user_agent TEXT,
    at         TEXT NOT NULL,
    CONSTRAINT audit_events_action_check CHECK (action IN (
        'sign_in', 'sign_in_failed', 'sign_out', 'password_changed', 'session_revoked',
        'api_key_created', 'api_key_toggled', 'api_key_deleted', 'plan_changed',
        'account_deleted', 'admin_action',
        'order_placed', 'order_filled', 'order_rejected', 'order_cancelled', 'orders_halted',
        'broker_connected', 'broker_disconnected'))
);
INSERT INTO audit_events SELECT * FROM hold_audit_events;
DROP TABLE hold_audit_events;
CREATE INDEX audit_events_user_idx ON audit_events (user_id, at);
CREATE INDEX audit_events_at_idx ON audit_events (at);

-- A trading account connected to a real broker (Alpaca): its endpoint, its key id and its
-- secret sealed with the operator's key (docs/execution.md). No row: the paper broker.
CREATE TABLE broker_connections (
    account_id    TEXT PRIMARY KEY NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    broker        TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    key_id        TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    CONSTRAINT broker_connections_broker_check CHECK (broker = 'alpaca'),
    CONSTRAINT broker_connections_endpoint_check CHECK (endpoint IN ('paper', 'live'))
);
CREATE INDEX broker_connections_user_idx ON broker_connections (user_id);
