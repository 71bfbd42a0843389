-- Trading accounts (issue 29): a user holds several ("Taxable", "IRA", "Paper"), each with its
-- own capital and preferences, automation switch, positions and daily values; one is current.
-- Every existing user's preferences and positions become their first account, "Main", rows
-- kept. Keep in step with ../sqlite/20261129000026_trading_accounts.sql: a test compares the
-- two schemas.
--
-- The preference columns on `users` (investment_capital_cents, risk_tolerance,
-- max_position_size_cents, preferred_strategies) are no longer read or written: each account
-- has its own. They stay because SQLite cannot drop a column its CHECK constraints name
-- without rebuilding `users` and every table that points at it.
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
    created_at               TIMESTAMPTZ NOT NULL,
    updated_at               TIMESTAMPTZ NOT NULL,
    CONSTRAINT trading_accounts_name_key UNIQUE (user_id, name_key),
    CONSTRAINT trading_accounts_risk_tolerance_check CHECK (risk_tolerance IN ('low', 'medium', 'high')),
    CONSTRAINT trading_accounts_capital_check CHECK (investment_capital_cents > 0),
    CONSTRAINT trading_accounts_position_size_check
        CHECK (max_position_size_cents > 0 AND max_position_size_cents <= investment_capital_cents)
);
CREATE UNIQUE INDEX trading_accounts_current_idx ON trading_accounts (user_id) WHERE is_current;

-- Each user's first account, from the preferences they had (values the old checks allowed but
-- the new ones do not are brought within them: a capital of at least one cent, a position size
-- of at least one cent and at most the capital).
INSERT INTO trading_accounts (id, user_id, name, name_key, investment_capital_cents, risk_tolerance,
                              max_position_size_cents, preferred_strategies, automate, is_current, created_at, updated_at)
SELECT gen_random_uuid()::text, id, 'Main', 'main', GREATEST(investment_capital_cents, 1), risk_tolerance,
       LEAST(GREATEST(max_position_size_cents, 1), GREATEST(investment_capital_cents, 1)), preferred_strategies,
       TRUE, TRUE, created_at, updated_at
FROM users;

-- Positions, multi-leg positions and daily values belong to an account (the owner stays on each
-- row: the data export and the account deletion find a person's rows by it).
ALTER TABLE manual_positions ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
UPDATE manual_positions SET account_id = (SELECT a.id FROM trading_accounts a WHERE a.user_id = manual_positions.user_id);
ALTER TABLE manual_positions ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX manual_positions_account_idx ON manual_positions (account_id, created_at);

-- One automated position per signal in each account.
ALTER TABLE portfolio_positions ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
UPDATE portfolio_positions SET account_id = (SELECT a.id FROM trading_accounts a WHERE a.user_id = portfolio_positions.user_id);
ALTER TABLE portfolio_positions ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE portfolio_positions DROP CONSTRAINT portfolio_positions_signal_key;
ALTER TABLE portfolio_positions ADD CONSTRAINT portfolio_positions_signal_key UNIQUE (account_id, signal_id);
CREATE INDEX portfolio_positions_account_idx ON portfolio_positions (account_id, status);

ALTER TABLE structure_positions ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
UPDATE structure_positions SET account_id = (SELECT a.id FROM trading_accounts a WHERE a.user_id = structure_positions.user_id);
ALTER TABLE structure_positions ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX structure_positions_account_idx ON structure_positions (account_id, created_at);

-- One value per account and day.
ALTER TABLE portfolio_snapshots ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
UPDATE portfolio_snapshots SET account_id = (SELECT a.id FROM trading_accounts a WHERE a.user_id = portfolio_snapshots.user_id);
ALTER TABLE portfolio_snapshots ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE portfolio_snapshots DROP CONSTRAINT portfolio_snapshots_pkey;
ALTER TABLE portfolio_snapshots ADD PRIMARY KEY (account_id, day);
CREATE INDEX portfolio_snapshots_user_idx ON portfolio_snapshots (user_id);
