-- Live signals from custom strategies (issue 29): a Premium user switches a saved strategy on,
-- and the scheduler issues its signals to that user alone. Keep in step with
-- ../postgres/20261129000025_custom_signals.sql: a test compares the two schemas.
--
-- SQLite cannot change a CHECK in place, so `signals` is rebuilt, as the enum-checks migration
-- rebuilt it. sqlx runs this file inside a transaction, where `PRAGMA foreign_keys = OFF` is a
-- no-op, and with foreign keys on, dropping `signals` would first delete its rows and cascade
-- into `portfolio_positions`. So the positions (the only rows that point at signals) are held
-- in a temporary table and their table dropped first, `signals` is rebuilt under its own name
-- with its rows, and the positions' table is made again as it was and filled. Foreign keys stay
-- enforced throughout: a row that no longer fits fails the migration, and the transaction
-- leaves the database as it was.

-- Whether the owner has switched the strategy on (the scheduler still checks the plan), and
-- whether their automation opens paper positions from its signals (only while it is on).
ALTER TABLE custom_strategies ADD COLUMN active BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE custom_strategies ADD COLUMN automate BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX custom_strategies_active_idx ON custom_strategies (user_id) WHERE active;

-- 1. Hold the positions and the signals; drop the child first.
CREATE TEMP TABLE hold_portfolio_positions AS SELECT * FROM portfolio_positions;
CREATE TEMP TABLE hold_signals AS SELECT * FROM signals;
DROP TABLE portfolio_positions;
DROP TABLE signals;

-- 2. The signals again, as they were plus the pointer at the custom strategy and its time
-- limit. A custom strategy's signal is named 'Custom' and owned by the strategy's owner; it
-- keeps its record (strategy 'Custom', no pointer) when the strategy is deleted. One whose rule
-- holds for at most `maxDays` closes at the first mark after the close of `close_after`
-- (close reason 'time'), as the backtest closes it.
CREATE TABLE signals (
    id                     TEXT PRIMARY KEY NOT NULL,
    symbol                 TEXT NOT NULL,
    company_name           TEXT NOT NULL,
    signal_type            TEXT NOT NULL,
    strategy               TEXT NOT NULL,
    strike_cents           BIGINT NOT NULL,
    expiration_date        TEXT NOT NULL,
    entry_cents            BIGINT NOT NULL,
    target_cents           BIGINT NOT NULL,
    stop_cents             BIGINT NOT NULL,
    underlying_entry_cents BIGINT NOT NULL,
    volatility             REAL NOT NULL,
    confidence             BIGINT NOT NULL,
    rsi                    REAL,
    volume                 BIGINT,
    reasoning              TEXT NOT NULL,
    current_option_cents   BIGINT NOT NULL,
    current_price_cents    BIGINT NOT NULL,
    previous_close_cents   BIGINT NOT NULL,
    pnl_cents              BIGINT NOT NULL,
    pnl_percent            REAL NOT NULL,
    status                 TEXT NOT NULL,
    close_reason           TEXT,
    closed_at              TEXT,
    owner_id               TEXT REFERENCES users (id) ON DELETE CASCADE,
    issued_on              TEXT NOT NULL,
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL,
    day_rank               BIGINT NOT NULL DEFAULT 0,
    provenance             TEXT NOT NULL DEFAULT 'unrecorded'
        CONSTRAINT signals_provenance_check CHECK (provenance IN ('live', 'replayed', 'unrecorded')),
    slippage_bp            BIGINT NOT NULL DEFAULT 100
        CONSTRAINT signals_slippage_bp_check CHECK (slippage_bp >= 0 AND slippage_bp <= 5000),
    commission_cents       BIGINT NOT NULL DEFAULT 65
        CONSTRAINT signals_commission_cents_check CHECK (commission_cents >= 0),
    issue_probability      REAL,
    net_pnl_cents          BIGINT,
    model_probability      REAL,
    model_version          TEXT,
    model_why              TEXT,
    custom_strategy_id     TEXT REFERENCES custom_strategies (id) ON DELETE SET NULL,
    close_after            TEXT,
    CONSTRAINT signals_signal_type_check CHECK (signal_type IN ('CALL', 'PUT', 'STRADDLE')),
    CONSTRAINT signals_strategy_check CHECK (strategy IN ('Momentum', 'Mean Reversion', 'Breakout', 'Volatility', 'Custom')),
    CONSTRAINT signals_status_check CHECK (status IN ('active', 'closed', 'expired')),
    -- NULL (still active) passes: a CHECK only refuses what is false.
    CONSTRAINT signals_close_reason_check CHECK (close_reason IN ('target', 'stop', 'expiry', 'time')),
    CONSTRAINT signals_confidence_check CHECK (confidence BETWEEN 0 AND 100),
    CONSTRAINT signals_custom_strategy_check CHECK (custom_strategy_id IS NULL OR strategy = 'Custom'),
    CONSTRAINT signals_custom_owner_check CHECK (strategy <> 'Custom' OR owner_id IS NOT NULL)
);
INSERT INTO signals (
    id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents,
    target_cents, stop_cents, underlying_entry_cents, volatility, confidence, rsi, volume,
    reasoning, current_option_cents, current_price_cents, previous_close_cents, pnl_cents,
    pnl_percent, status, close_reason, closed_at, owner_id, issued_on, created_at, updated_at,
    day_rank, provenance, slippage_bp, commission_cents, issue_probability, net_pnl_cents,
    model_probability, model_version, model_why)
SELECT
    id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents,
    target_cents, stop_cents, underlying_entry_cents, volatility, confidence, rsi, volume,
    reasoning, current_option_cents, current_price_cents, previous_close_cents, pnl_cents,
    pnl_percent, status, close_reason, closed_at, owner_id, issued_on, created_at, updated_at,
    day_rank, provenance, slippage_bp, commission_cents, issue_probability, net_pnl_cents,
    model_probability, model_version, model_why
FROM hold_signals;

CREATE INDEX signals_status_idx ON signals (status, created_at);
CREATE INDEX signals_issued_idx ON signals (issued_on, confidence);
CREATE UNIQUE INDEX signals_one_active_setup_idx ON signals (symbol, strategy) WHERE status = 'active' AND owner_id IS NULL;
CREATE INDEX signals_owner_idx ON signals (owner_id, issued_on) WHERE owner_id IS NOT NULL;
CREATE INDEX signals_automated_recent_idx ON signals (created_at DESC, id DESC) WHERE owner_id IS NULL;
CREATE INDEX signals_owned_recent_idx ON signals (owner_id, created_at DESC, id DESC) WHERE owner_id IS NOT NULL;
CREATE INDEX signals_automated_closed_idx ON signals (closed_at) WHERE owner_id IS NULL;
CREATE INDEX signals_resolved_idx ON signals (provenance, closed_at);
-- One active signal per custom strategy and symbol, as for the house rules.
CREATE UNIQUE INDEX signals_one_active_custom_idx ON signals (custom_strategy_id, symbol)
    WHERE status = 'active' AND custom_strategy_id IS NOT NULL;

-- 3. The positions' table as it was, and its rows.
CREATE TABLE portfolio_positions (
    id                TEXT PRIMARY KEY NOT NULL,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    signal_id         TEXT NOT NULL REFERENCES signals (id) ON DELETE CASCADE,
    quantity          BIGINT NOT NULL,
    entry_cents       BIGINT NOT NULL,
    commissions_cents BIGINT NOT NULL,
    status            TEXT NOT NULL,
    exit_cents        BIGINT,
    opened_at         TEXT NOT NULL,
    closed_at         TEXT,
    updated_at        TEXT NOT NULL,
    CONSTRAINT portfolio_positions_signal_key UNIQUE (user_id, signal_id),
    CONSTRAINT portfolio_positions_status_check CHECK (status IN ('open', 'closed', 'expired')),
    CONSTRAINT portfolio_positions_quantity_check CHECK (quantity >= 1),
    CONSTRAINT portfolio_positions_commissions_cents_check CHECK (commissions_cents >= 0)
);
CREATE INDEX portfolio_positions_user_idx ON portfolio_positions (user_id, status);
INSERT INTO portfolio_positions SELECT * FROM hold_portfolio_positions;

DROP TABLE hold_portfolio_positions;
DROP TABLE hold_signals;
