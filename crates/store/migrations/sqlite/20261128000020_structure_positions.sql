-- Multi-leg positions held in the portfolio (issue 28): what a user saved from the strategy
-- builder, one row per position and one per leg. Open until the first expiration; then settled
-- with the P&L at that day's close (status 'expired'). Keep in step with
-- ../postgres/20261128000020_structure_positions.sql: a test compares the two schemas column by column.
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
    CONSTRAINT structure_positions_exercise_check CHECK (exercise IN ('american', 'european')),
    CONSTRAINT structure_positions_status_check CHECK (status IN ('open', 'expired', 'closed'))
);
CREATE INDEX structure_positions_user_idx ON structure_positions (user_id, created_at);

-- The owner is on every leg too: the data export finds a person's rows by their user_id.
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
