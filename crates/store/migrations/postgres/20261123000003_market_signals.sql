-- The market the engine reads and the signals it issues.
-- Keep in step with ../sqlite/20261123000003_market_signals.sql: a test compares the schemas.
-- Prices are whole cents; percentages and volatilities are DOUBLE PRECISION.

-- The tracked universe (the watchlist every user shares) with its latest quote.
CREATE TABLE stock_prices (
    id                     TEXT PRIMARY KEY NOT NULL,
    symbol                 TEXT NOT NULL,
    company_name           TEXT NOT NULL,
    sector                 TEXT NOT NULL,
    current_price_cents    BIGINT NOT NULL,
    previous_close_cents   BIGINT NOT NULL,
    volume                 BIGINT NOT NULL,
    high_52_week_cents     BIGINT NOT NULL,
    low_52_week_cents      BIGINT NOT NULL,
    market_cap             DOUBLE PRECISION,
    added_by               TEXT REFERENCES users (id) ON DELETE SET NULL,
    last_updated           TIMESTAMPTZ NOT NULL,
    created_at             TIMESTAMPTZ NOT NULL,
    CONSTRAINT stock_prices_symbol_key UNIQUE (symbol)
);

-- Daily history (simulated, imported from CSV or fetched from the vendor).
CREATE TABLE daily_bars (
    symbol      TEXT NOT NULL,
    day         DATE NOT NULL,
    open_cents  BIGINT NOT NULL,
    high_cents  BIGINT NOT NULL,
    low_cents   BIGINT NOT NULL,
    close_cents BIGINT NOT NULL,
    volume      BIGINT NOT NULL,
    PRIMARY KEY (symbol, day)
);

CREATE TABLE signals (
    id                     TEXT PRIMARY KEY NOT NULL,
    symbol                 TEXT NOT NULL,
    company_name           TEXT NOT NULL,
    signal_type            TEXT NOT NULL,
    strategy               TEXT NOT NULL,
    strike_cents           BIGINT NOT NULL,
    expiration_date        DATE NOT NULL,
    entry_cents            BIGINT NOT NULL,
    target_cents           BIGINT NOT NULL,
    stop_cents             BIGINT NOT NULL,
    underlying_entry_cents BIGINT NOT NULL,
    volatility             DOUBLE PRECISION NOT NULL,
    confidence             BIGINT NOT NULL,
    rsi                    DOUBLE PRECISION,
    volume                 BIGINT,
    reasoning              TEXT NOT NULL,
    current_option_cents   BIGINT NOT NULL,
    current_price_cents    BIGINT NOT NULL,
    previous_close_cents   BIGINT NOT NULL,
    pnl_cents              BIGINT NOT NULL,
    pnl_percent            DOUBLE PRECISION NOT NULL,
    status                 TEXT NOT NULL,
    close_reason           TEXT,
    closed_at              TIMESTAMPTZ,
    owner_id               TEXT REFERENCES users (id) ON DELETE CASCADE,
    issued_on              DATE NOT NULL,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL
);
CREATE INDEX signals_status_idx ON signals (status, created_at);
CREATE INDEX signals_issued_idx ON signals (issued_on, confidence);
CREATE INDEX signals_owner_idx ON signals (owner_id, issued_on);
-- One active automated signal per symbol and strategy: a refresh never issues a duplicate.
CREATE UNIQUE INDEX signals_one_active_setup_idx ON signals (symbol, strategy) WHERE status = 'active' AND owner_id IS NULL;

-- One row per day of the shared signal figures; the dashboard's change figures compare
-- against them. (Portfolio value is per user and comes with the portfolio.)
CREATE TABLE dashboard_snapshots (
    day                DATE PRIMARY KEY NOT NULL,
    active_signals     BIGINT NOT NULL,
    win_rate           DOUBLE PRECISION,
    avg_confidence     DOUBLE PRECISION,
    taken_at           TIMESTAMPTZ NOT NULL
);

-- Named scheduler settings and leases: automation running/stopped, leader lease, last runs.
CREATE TABLE automation_state (
    name        TEXT PRIMARY KEY NOT NULL,
    value       TEXT NOT NULL,
    holder      TEXT,
    expires_at  TIMESTAMPTZ,
    updated_at  TIMESTAMPTZ NOT NULL
);
