-- Price alerts: a symbol crossing a price, triggered once by the price refresh. Keep in step
-- with ../sqlite/20261125000010_price_alerts.sql: a test compares the two schemas.
CREATE TABLE price_alerts (
    id                    TEXT PRIMARY KEY NOT NULL,
    user_id               TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    symbol                TEXT NOT NULL,
    direction             TEXT NOT NULL,
    target_cents          BIGINT NOT NULL,
    status                TEXT NOT NULL DEFAULT 'active',
    created_at            TIMESTAMPTZ NOT NULL,
    triggered_at          TIMESTAMPTZ,
    triggered_price_cents BIGINT,
    CONSTRAINT price_alerts_direction_check CHECK (direction IN ('above', 'below')),
    CONSTRAINT price_alerts_status_check CHECK (status IN ('active', 'triggered')),
    CONSTRAINT price_alerts_target_cents_check CHECK (target_cents > 0)
);
CREATE INDEX price_alerts_user_idx ON price_alerts (user_id, created_at);
CREATE INDEX price_alerts_symbol_idx ON price_alerts (symbol, status);
