-- Trading accounts (issue 29): a user holds several ("Taxable", "IRA", "Paper"), each with its
-- own capital and preferences, automation switch, positions and daily values; one is current.
-- Every existing user's preferences and positions become their first account, "Main", rows
-- kept. Keep in step with ../postgres/20261129000026_trading_accounts.sql: a test compares the
-- two schemas.
--
-- The preference columns on `users` (investment_capital_cents, risk_tolerance,
-- max_position_size_cents, preferred_strategies) are no longer read or written: each account
-- has its own. They stay because SQLite cannot drop a column its CHECK constraints name
-- without rebuilding `users` and every table that points at it.
--
-- SQLite cannot add a NOT NULL column that points at another table, change a primary key or
-- replace a UNIQUE constraint in place, so the four position tables are rebuilt. sqlx runs this
-- file inside a transaction (where `PRAGMA foreign_keys = OFF` is a no-op), so, as in the
-- custom-signals migration, the rows are held in temporary tables, the tables dropped children
-- first, made again with `account_id` and filled. Foreign keys stay enforced throughout.
CREATE TABLE trading_accounts (
    id                       TEXT PRIMARY KEY NOT NULL,
    user_id                  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                     TEXT NOT NULL,
    -- The name folded to lower case: names are unique per user whatever their case.
    name_key                 TEXT NOT NULL,
    investment_capital_cents BIGINT NOT NULL,
    risk_tolerance           TEXT NOT NULL,
    max_position_size_cents  BIGINT NOT NULL,
    preferred_strategies     TEXT NOT NULL,
    -- Whether the automation opens paper positions in this account from the signals its
    -- preferences take.
    automate                 BOOLEAN NOT NULL DEFAULT TRUE,
    -- The account the app shows and works in; exactly one per user (the index below).
    is_current               BOOLEAN NOT NULL DEFAULT FALSE,
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    CONSTRAINT trading_accounts_name_key UNIQUE (user_id, name_key),
    CONSTRAINT trading_accounts_risk_tolerance_check CHECK (risk_tolerance IN ('low', 'medium', 'high')),
    CONSTRAINT trading_accounts_capital_check CHECK (investment_capital_cents > 0),
    CONSTRAINT trading_accounts_position_size_check
        CHECK (max_position_size_cents > 0 AND max_position_size_cents <= investment_capital_cents)
);
CREATE UNIQUE INDEX trading_accounts_current_idx ON trading_accounts (user_id) WHERE is_current;

-- Each user's first account, from the preferences they had (values the old checks allowed but
-- the new ones do not are brought within them: a capital of at least one cent, a position size
-- of at least one cent and at most the capital). The id is a random version-4 UUID.
INSERT INTO trading_accounts (id, user_id, name, name_key, investment_capital_cents, risk_tolerance,
                              max_position_size_cents, preferred_strategies, automate, is_current, created_at, updated_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
             || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       id, 'Main', 'main', max(investment_capital_cents, 1), risk_tolerance,
       min(max(max_position_size_cents, 1), max(investment_capital_cents, 1)), preferred_strategies,
       TRUE, TRUE, created_at, updated_at
FROM users;

-- 1. Hold the rows; drop the tables, children first.
CREATE TEMP TABLE hold_structure_legs AS SELECT * FROM structure_legs;
CREATE TEMP TABLE hold_structure_positions AS SELECT * FROM structure_positions;
CREATE TEMP TABLE hold_manual_positions AS SELECT * FROM manual_positions;
CREATE TEMP TABLE hold_portfolio_positions AS SELECT * FROM portfolio_positions;
CREATE TEMP TABLE hold_portfolio_snapshots AS SELECT * FROM portfolio_snapshots;
DROP TABLE structure_legs;
DROP TABLE structure_positions;
DROP TABLE manual_positions;
DROP TABLE portfolio_positions;
DROP TABLE portfolio_snapshots;

-- 2. The tables again, each with its account (the owner stays on each row: the data export and
-- the account deletion find a person's rows by it).
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
    account_id           TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    CONSTRAINT manual_positions_position_type_check CHECK (position_type IN ('CALL', 'PUT', 'STRADDLE')),
    CONSTRAINT manual_positions_status_check CHECK (status IN ('open', 'closed', 'expired')),
    CONSTRAINT manual_positions_quantity_check CHECK (quantity >= 1)
);
CREATE INDEX manual_positions_user_idx ON manual_positions (user_id, created_at);
CREATE INDEX manual_positions_account_idx ON manual_positions (account_id, created_at);
INSERT INTO manual_positions
SELECT h.*, (SELECT a.id FROM trading_accounts a WHERE a.user_id = h.user_id) FROM hold_manual_positions h;

-- One automated position per signal in each account.
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
    account_id        TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    CONSTRAINT portfolio_positions_signal_key UNIQUE (account_id, signal_id),
    CONSTRAINT portfolio_positions_status_check CHECK (status IN ('open', 'closed', 'expired')),
    CONSTRAINT portfolio_positions_quantity_check CHECK (quantity >= 1),
    CONSTRAINT portfolio_positions_commissions_cents_check CHECK (commissions_cents >= 0)
);
CREATE INDEX portfolio_positions_user_idx ON portfolio_positions (user_id, status);
CREATE INDEX portfolio_positions_account_idx ON portfolio_positions (account_id, status);
INSERT INTO portfolio_positions
SELECT h.*, (SELECT a.id FROM trading_accounts a WHERE a.user_id = h.user_id) FROM hold_portfolio_positions h;

CREATE TABLE structure_positions (
    id              TEXT PRIMARY KEY NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    symbol          TEXT NOT NULL,
    -- The user's label ("AAPL Dec iron condor") and the template it was built from, if any.
    name            TEXT NOT NULL,
    template        TEXT,
    exercise        TEXT NOT NULL,
    status          TEXT NOT NULL,
    -- Set when settled: the P&L at the first expiration's close, and the price used.
    pnl_cents       BIGINT,
    settled_price_cents BIGINT,
    closed_at       TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    account_id      TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    CONSTRAINT structure_positions_exercise_check CHECK (exercise IN ('american', 'european')),
    CONSTRAINT structure_positions_status_check CHECK (status IN ('open', 'expired', 'closed'))
);
CREATE INDEX structure_positions_user_idx ON structure_positions (user_id, created_at);
CREATE INDEX structure_positions_account_idx ON structure_positions (account_id, created_at);
INSERT INTO structure_positions
SELECT h.*, (SELECT a.id FROM trading_accounts a WHERE a.user_id = h.user_id) FROM hold_structure_positions h;

-- The legs as they were.
CREATE TABLE structure_legs (
    position_id     TEXT NOT NULL REFERENCES structure_positions (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    leg_index       BIGINT NOT NULL,
    instrument      TEXT NOT NULL,
    side            TEXT NOT NULL,
    quantity        BIGINT NOT NULL,
    strike_cents    BIGINT,
    expiration_date TEXT,
    volatility      REAL,
    entry_cents     BIGINT NOT NULL,
    PRIMARY KEY (position_id, leg_index),
    CONSTRAINT structure_legs_instrument_check CHECK (instrument IN ('call', 'put', 'stock')),
    CONSTRAINT structure_legs_side_check CHECK (side IN ('long', 'short')),
    CONSTRAINT structure_legs_quantity_check CHECK (quantity >= 1),
    CONSTRAINT structure_legs_entry_check CHECK (entry_cents >= 0),
    -- An option has a strike and an expiration; stock has neither.
    CONSTRAINT structure_legs_terms_check CHECK (
        (instrument = 'stock' AND strike_cents IS NULL AND expiration_date IS NULL AND volatility IS NULL)
        OR (instrument <> 'stock' AND strike_cents > 0 AND expiration_date IS NOT NULL))
);
INSERT INTO structure_legs SELECT * FROM hold_structure_legs;

-- One value per account and day.
CREATE TABLE portfolio_snapshots (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    value_cents BIGINT NOT NULL,
    taken_at    TEXT NOT NULL,
    account_id  TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, day)
);
CREATE INDEX portfolio_snapshots_user_idx ON portfolio_snapshots (user_id);
INSERT INTO portfolio_snapshots
SELECT h.*, (SELECT a.id FROM trading_accounts a WHERE a.user_id = h.user_id) FROM hold_portfolio_snapshots h;

DROP TABLE hold_structure_legs;
DROP TABLE hold_structure_positions;
DROP TABLE hold_manual_positions;
DROP TABLE hold_portfolio_positions;
DROP TABLE hold_portfolio_snapshots;
