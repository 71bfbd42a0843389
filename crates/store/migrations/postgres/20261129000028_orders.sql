-- Orders of a trading account (issue 29; docs/execution.md): what was sent to the broker (the
-- paper broker by default), the states it moved through and its fills. Keep in step with the
-- other engine's file of the same name: a test compares the two schemas.
CREATE TABLE orders (
    id              TEXT PRIMARY KEY NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id      TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    -- The sender's id for it, unique per account: a restart or a second instance sending the
    -- same order again places nothing (the automation's is one per signal and account).
    client_order_id TEXT NOT NULL,
    -- The signal it executes, if any (kept when the signal is deleted).
    signal_id       TEXT REFERENCES signals (id) ON DELETE SET NULL,
    underlying      TEXT NOT NULL,
    quantity        BIGINT NOT NULL,
    order_type      TEXT NOT NULL,
    -- Dollars per share per unit, net of the legs: positive paid, negative received.
    limit_price     DOUBLE PRECISION,
    time_in_force   TEXT NOT NULL,
    status          TEXT NOT NULL,
    filled_units    BIGINT NOT NULL DEFAULT 0,
    -- Why it was rejected or cancelled, in words.
    reason          TEXT,
    placed_on       DATE NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    CONSTRAINT orders_client_order_key UNIQUE (account_id, client_order_id),
    CONSTRAINT orders_quantity_check CHECK (quantity >= 1),
    CONSTRAINT orders_order_type_check CHECK (order_type IN ('market', 'limit')),
    CONSTRAINT orders_limit_check CHECK ((order_type = 'market' AND limit_price IS NULL) OR (order_type = 'limit' AND limit_price IS NOT NULL)),
    CONSTRAINT orders_time_in_force_check CHECK (time_in_force IN ('day', 'gtc')),
    CONSTRAINT orders_status_check CHECK (status IN ('new', 'accepted', 'partially_filled', 'filled', 'cancelled', 'rejected')),
    CONSTRAINT orders_filled_check CHECK (filled_units >= 0 AND filled_units <= quantity)
);
CREATE INDEX orders_account_idx ON orders (account_id, created_at);
CREATE INDEX orders_user_idx ON orders (user_id);
-- What the order books and the deadline job read: the orders still standing.
CREATE INDEX orders_open_idx ON orders (status) WHERE status IN ('new', 'accepted', 'partially_filled');

-- One row per leg; the owner is on each (the data export finds a person's rows by user_id).
CREATE TABLE order_legs (
    order_id        TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    leg_index       BIGINT NOT NULL,
    option_right    TEXT NOT NULL,
    strike_cents    BIGINT NOT NULL,
    expiration_date DATE NOT NULL,
    side            TEXT NOT NULL,
    ratio           BIGINT NOT NULL,
    PRIMARY KEY (order_id, leg_index),
    CONSTRAINT order_legs_right_check CHECK (option_right IN ('call', 'put')),
    CONSTRAINT order_legs_side_check CHECK (side IN ('buy', 'sell')),
    CONSTRAINT order_legs_ratio_check CHECK (ratio >= 1),
    CONSTRAINT order_legs_strike_check CHECK (strike_cents > 0)
);

-- Each fill: units of the order at a net price, the cash it moved and its commissions.
CREATE TABLE order_fills (
    id               TEXT PRIMARY KEY NOT NULL,
    order_id         TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    units            BIGINT NOT NULL,
    net_price        DOUBLE PRECISION NOT NULL,
    -- Dollars taken from cash (negative: brought in), commissions included.
    cash_out         DOUBLE PRECISION NOT NULL,
    commission_cents BIGINT NOT NULL,
    filled_at        TIMESTAMPTZ NOT NULL,
    CONSTRAINT order_fills_units_check CHECK (units >= 1),
    CONSTRAINT order_fills_commission_check CHECK (commission_cents >= 0)
);
CREATE INDEX order_fills_order_idx ON order_fills (order_id, filled_at);
