-- Each tracked symbol's 30-day constant-maturity at-the-money implied volatility, one reading
-- per session (issue 28: IV rank and IV percentile are taken over it). Recorded after the
-- close from the market-data provider's option chain, back-filled where the provider can
-- answer for past sessions; a session without a reading stays without one (never
-- interpolated). Keep in step with ../sqlite/20261128000019_iv_history.sql: a test compares
-- the two schemas column by column.
CREATE TABLE iv_history (
    symbol          TEXT NOT NULL,
    day             DATE NOT NULL,
    atm_iv          DOUBLE PRECISION NOT NULL,
    -- The expirations it was read from (the far one absent when one alone was used).
    near_expiration DATE NOT NULL,
    far_expiration  DATE,
    provider        TEXT NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (symbol, day),
    CONSTRAINT iv_history_atm_iv_check CHECK (atm_iv > 0)
);
