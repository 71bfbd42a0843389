-- CHECK constraints on the enumerated and bounded columns, with exactly the values the
-- application writes (or documents). Keep in step with ../postgres/20261124000006_enum_checks.sql:
-- the schema test compares the constraints by table, name and condition.
--
-- SQLite cannot add a CHECK to an existing table, so users, signals, manual_positions and
-- portfolio_positions are rebuilt with the same columns, in the same order, plus the checks,
-- and their indexes are recreated under the same names.
--
-- sqlx runs this file inside a transaction, where `PRAGMA foreign_keys = OFF` is a no-op
-- (step 1 of SQLite's ALTER TABLE procedure cannot be done). With foreign keys on, dropping a
-- table first deletes its rows, and that runs the children's ON DELETE actions: dropping
-- `users` would delete every session, signal, position and snapshot and set
-- stock_prices.added_by to NULL. So every row that points at users or signals is first copied
-- to a temporary table (no constraints), the tables are dropped children first (nothing left
-- to cascade into), created again under their own names, and filled parents first. Foreign
-- keys stay enforced throughout: a row that no longer fits fails the migration, and the
-- transaction leaves the database as it was.

-- 1. Hold every row that references users or signals, and the rebuilt tables' own rows.
CREATE TEMP TABLE hold_users AS SELECT * FROM users;
CREATE TEMP TABLE hold_signals AS SELECT * FROM signals;
CREATE TEMP TABLE hold_manual_positions AS SELECT * FROM manual_positions;
CREATE TEMP TABLE hold_portfolio_positions AS SELECT * FROM portfolio_positions;
CREATE TEMP TABLE hold_sessions AS SELECT * FROM sessions;
CREATE TEMP TABLE hold_portfolio_snapshots AS SELECT * FROM portfolio_snapshots;
CREATE TEMP TABLE hold_stock_added_by AS SELECT id, added_by FROM stock_prices WHERE added_by IS NOT NULL;

-- 2. Drop, children first; empty the children that are not rebuilt.
DROP TABLE portfolio_positions;
DROP TABLE manual_positions;
DROP TABLE signals;
DELETE FROM sessions;
DELETE FROM portfolio_snapshots;
DROP TABLE users;

-- 3. The same tables with their checks.
CREATE TABLE users (
    id                       TEXT PRIMARY KEY NOT NULL,
    email                    TEXT NOT NULL,
    username                 TEXT NOT NULL,
    username_key             TEXT NOT NULL,
    password_hash            TEXT NOT NULL,
    first_name               TEXT,
    last_name                TEXT,
    profile_image_url        TEXT,
    role                     TEXT NOT NULL DEFAULT 'user',
    subscription_plan        TEXT NOT NULL DEFAULT 'free',
    subscription_status      TEXT NOT NULL DEFAULT 'active',
    subscription_expires_at  TEXT,
    payment_customer_id      TEXT,
    payment_subscription_id  TEXT,
    investment_capital_cents BIGINT NOT NULL DEFAULT 100000,
    risk_tolerance           TEXT NOT NULL DEFAULT 'medium',
    max_position_size_cents  BIGINT NOT NULL DEFAULT 10000,
    preferred_strategies     TEXT NOT NULL DEFAULT 'Momentum,Breakout',
    email_notifications      BOOLEAN NOT NULL DEFAULT TRUE,
    signal_alerts            BOOLEAN NOT NULL DEFAULT TRUE,
    portfolio_updates        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    CONSTRAINT users_email_key UNIQUE (email),
    CONSTRAINT users_username_key UNIQUE (username_key),
    CONSTRAINT users_subscription_plan_check CHECK (subscription_plan IN ('free', 'pro', 'premium')),
    CONSTRAINT users_subscription_status_check CHECK (subscription_status IN ('active', 'trialing', 'canceled', 'past_due')),
    CONSTRAINT users_risk_tolerance_check CHECK (risk_tolerance IN ('low', 'medium', 'high')),
    CONSTRAINT users_investment_capital_cents_check CHECK (investment_capital_cents >= 0),
    CONSTRAINT users_max_position_size_cents_check CHECK (max_position_size_cents >= 0)
);

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
    CONSTRAINT signals_signal_type_check CHECK (signal_type IN ('CALL', 'PUT', 'STRADDLE')),
    CONSTRAINT signals_strategy_check CHECK (strategy IN ('Momentum', 'Mean Reversion', 'Breakout', 'Volatility')),
    CONSTRAINT signals_status_check CHECK (status IN ('active', 'closed', 'expired')),
    -- NULL (still active) passes: a CHECK only refuses what is false.
    CONSTRAINT signals_close_reason_check CHECK (close_reason IN ('target', 'stop', 'expiry')),
    CONSTRAINT signals_confidence_check CHECK (confidence BETWEEN 0 AND 100)
);

CREATE TABLE manual_positions (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    symbol               TEXT NOT NULL,
    company_name         TEXT NOT NULL,
    position_type        TEXT NOT NULL,
    strike_cents         BIGINT NOT NULL,
    expiration_date      TEXT NOT NULL,
    quantity             BIGINT NOT NULL,
    entry_cents          BIGINT NOT NULL,
    target_cents         BIGINT,
    stop_cents           BIGINT,
    reasoning            TEXT,
    status               TEXT NOT NULL,
    current_option_cents BIGINT,
    current_price_cents  BIGINT,
    pnl_cents            BIGINT NOT NULL,
    pnl_percent          REAL NOT NULL,
    closed_at            TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    CONSTRAINT manual_positions_position_type_check CHECK (position_type IN ('CALL', 'PUT', 'STRADDLE')),
    CONSTRAINT manual_positions_status_check CHECK (status IN ('open', 'closed', 'expired')),
    CONSTRAINT manual_positions_quantity_check CHECK (quantity >= 1)
);

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

-- 4. Fill, parents first (column lists spelled out: the held copies' order is the old one).
INSERT INTO users (id, email, username, username_key, password_hash, first_name, last_name, profile_image_url, role,
    subscription_plan, subscription_status, subscription_expires_at, payment_customer_id, payment_subscription_id,
    investment_capital_cents, risk_tolerance, max_position_size_cents, preferred_strategies, email_notifications,
    signal_alerts, portfolio_updates, created_at, updated_at)
SELECT id, email, username, username_key, password_hash, first_name, last_name, profile_image_url, role,
    subscription_plan, subscription_status, subscription_expires_at, payment_customer_id, payment_subscription_id,
    investment_capital_cents, risk_tolerance, max_position_size_cents, preferred_strategies, email_notifications,
    signal_alerts, portfolio_updates, created_at, updated_at
FROM hold_users;

INSERT INTO signals (id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents,
    target_cents, stop_cents, underlying_entry_cents, volatility, confidence, rsi, volume, reasoning,
    current_option_cents, current_price_cents, previous_close_cents, pnl_cents, pnl_percent, status, close_reason,
    closed_at, owner_id, issued_on, created_at, updated_at)
SELECT id, symbol, company_name, signal_type, strategy, strike_cents, expiration_date, entry_cents,
    target_cents, stop_cents, underlying_entry_cents, volatility, confidence, rsi, volume, reasoning,
    current_option_cents, current_price_cents, previous_close_cents, pnl_cents, pnl_percent, status, close_reason,
    closed_at, owner_id, issued_on, created_at, updated_at
FROM hold_signals;

INSERT INTO manual_positions (id, user_id, symbol, company_name, position_type, strike_cents, expiration_date, quantity,
    entry_cents, target_cents, stop_cents, reasoning, status, current_option_cents, current_price_cents, pnl_cents,
    pnl_percent, closed_at, created_at, updated_at)
SELECT id, user_id, symbol, company_name, position_type, strike_cents, expiration_date, quantity,
    entry_cents, target_cents, stop_cents, reasoning, status, current_option_cents, current_price_cents, pnl_cents,
    pnl_percent, closed_at, created_at, updated_at
FROM hold_manual_positions;

INSERT INTO portfolio_positions (id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents,
    opened_at, closed_at, updated_at)
SELECT id, user_id, signal_id, quantity, entry_cents, commissions_cents, status, exit_cents,
    opened_at, closed_at, updated_at
FROM hold_portfolio_positions;

INSERT INTO sessions (sid, sess, expire, user_id) SELECT sid, sess, expire, user_id FROM hold_sessions;

INSERT INTO portfolio_snapshots (user_id, day, value_cents, taken_at)
SELECT user_id, day, value_cents, taken_at FROM hold_portfolio_snapshots;

UPDATE stock_prices SET added_by = (SELECT h.added_by FROM hold_stock_added_by h WHERE h.id = stock_prices.id)
WHERE id IN (SELECT id FROM hold_stock_added_by);

-- 5. The rebuilt tables' indexes, under the names they had.
CREATE INDEX signals_status_idx ON signals (status, created_at);
CREATE INDEX signals_issued_idx ON signals (issued_on, confidence);
CREATE INDEX signals_owner_idx ON signals (owner_id, issued_on);
-- One active automated signal per symbol and strategy: a refresh never issues a duplicate.
CREATE UNIQUE INDEX signals_one_active_setup_idx ON signals (symbol, strategy) WHERE status = 'active' AND owner_id IS NULL;
CREATE INDEX manual_positions_user_idx ON manual_positions (user_id, created_at);
CREATE INDEX portfolio_positions_user_idx ON portfolio_positions (user_id, status);

DROP TABLE hold_users;
DROP TABLE hold_signals;
DROP TABLE hold_manual_positions;
DROP TABLE hold_portfolio_positions;
DROP TABLE hold_sessions;
DROP TABLE hold_portfolio_snapshots;
DROP TABLE hold_stock_added_by;
