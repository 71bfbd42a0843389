-- Portfolios: users' own positions, the paper positions opened from automated signals, and the
-- daily value snapshots their risk metrics come from.
-- Keep in step with ../sqlite/20261123000004_portfolio.sql: a test compares the schemas.

-- The volatility estimate the desk prices positions with (20-day historical, floored).
ALTER TABLE stock_prices ADD COLUMN volatility DOUBLE PRECISION;

CREATE TABLE manual_positions (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    symbol               TEXT NOT NULL,
    company_name         TEXT NOT NULL,
    position_type        TEXT NOT NULL,
    strike_cents         BIGINT NOT NULL,
    expiration_date      DATE NOT NULL,
    quantity             BIGINT NOT NULL,
    entry_cents          BIGINT NOT NULL,
    target_cents         BIGINT,
    stop_cents           BIGINT,
    reasoning            TEXT,
    status               TEXT NOT NULL,
    current_option_cents BIGINT,
    current_price_cents  BIGINT,
    pnl_cents            BIGINT NOT NULL,
    pnl_percent          DOUBLE PRECISION NOT NULL,
    closed_at            TIMESTAMPTZ,
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);
CREATE INDEX manual_positions_user_idx ON manual_positions (user_id, created_at);

CREATE TABLE portfolio_positions (
    id                TEXT PRIMARY KEY NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    signal_id         TEXT NOT NULL REFERENCES signals (id) ON DELETE CASCADE,
    quantity          BIGINT NOT NULL,
    entry_cents       BIGINT NOT NULL,
    commissions_cents BIGINT NOT NULL,
    status            TEXT NOT NULL,
    exit_cents        BIGINT,
    opened_at         TIMESTAMPTZ NOT NULL,
    closed_at         TIMESTAMPTZ,
    updated_at        TIMESTAMPTZ NOT NULL,
    CONSTRAINT portfolio_positions_signal_key UNIQUE (user_id, signal_id)
);
CREATE INDEX portfolio_positions_user_idx ON portfolio_positions (user_id, status);

CREATE TABLE portfolio_snapshots (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day         DATE NOT NULL,
    value_cents BIGINT NOT NULL,
    taken_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, day)
);
