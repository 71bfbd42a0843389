-- Fees a real broker charged an account (Alpaca's FEE activities: regulatory and clearing
-- fees), each booked into the account's cash once (issue 29; docs/execution.md). Keep in step
-- with the other engine's file of the same name: a test compares the two schemas.
CREATE TABLE broker_fees (
    account_id   TEXT NOT NULL REFERENCES trading_accounts (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The broker's id for the activity: a fee read twice is booked once.
    activity_id  TEXT NOT NULL,
    -- What the broker calls it (Alpaca's activity_sub_type: ORF, OCC, TAF, ...), if it says.
    kind         TEXT,
    -- Cents charged: positive takes from cash, negative (a fee refunded) gives back.
    amount_cents BIGINT NOT NULL,
    charged_on   DATE,
    booked_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, activity_id)
);
CREATE INDEX broker_fees_user_idx ON broker_fees (user_id);
