-- Automated execution (issue 29; docs/execution.md). Keep in step with the other engine's file
-- of the same name: a test compares the two schemas.

-- The account's kill switch: while set, the automation sends it no new order (standing ones
-- are cancelled when it is set).
ALTER TABLE trading_accounts ADD COLUMN orders_halted BOOLEAN NOT NULL DEFAULT FALSE;

-- Which broker holds the order ('paper', the built-in default) and its id there, once known.
ALTER TABLE orders ADD COLUMN broker TEXT NOT NULL DEFAULT 'paper';
ALTER TABLE orders ADD COLUMN broker_order_id TEXT;
-- When an order still standing is cancelled (NULL: never by the clock).
ALTER TABLE orders ADD COLUMN expires_at TIMESTAMPTZ;

-- The order whose fill opened an automated position (NULL for positions opened before orders).
ALTER TABLE portfolio_positions ADD COLUMN order_id TEXT REFERENCES orders (id) ON DELETE SET NULL;

-- Fills, rejections and cancellations of a user's orders are notifications of their own kind.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('new_signals', 'position_closed', 'price_alert', 'billing', 'webhook', 'order'));

-- Webhook endpoints can listen for fills and refusals of their owner's orders.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_event_type_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_event_type_check
    CHECK (event_type IN ('new_signal', 'price_alert', 'signal_closed', 'position_closed', 'order_filled', 'order_rejected'));

-- Every order placed, filled, refused or cancelled, and every kill switch turned, is in the
-- owner's audit log.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_action_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_action_check CHECK (action IN (
    'sign_in', 'sign_in_failed', 'sign_out', 'password_changed', 'session_revoked',
    'api_key_created', 'api_key_toggled', 'api_key_deleted', 'plan_changed',
    'account_deleted', 'admin_action',
    'order_placed', 'order_filled', 'order_rejected', 'order_cancelled', 'orders_halted',
    'broker_connected', 'broker_disconnected'));

-- A trading account connected to a real broker (Alpaca): its endpoint, its key id and its
-- secret sealed with the operator's key (docs/execution.md). No row: the paper broker.
CREATE TABLE broker_connections (
    account_id    TEXT PRIMARY KEY NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    broker        TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    key_id        TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    CONSTRAINT broker_connections_broker_check CHECK (broker = 'alpaca'),
    CONSTRAINT broker_connections_endpoint_check CHECK (endpoint IN ('paper', 'live'))
);
CREATE INDEX broker_connections_user_idx ON broker_connections (user_id);
