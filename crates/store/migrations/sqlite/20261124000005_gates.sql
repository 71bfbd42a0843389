-- One limiter for every limited route: a row per bucket (`policy:key`), updated by one
-- conditional upsert per request, so N + k concurrent requests let exactly N through on
-- either engine and across instances. `tat_ms` is the generic cell rate algorithm's
-- theoretical arrival time (epoch milliseconds) or, for sign-in back-off, the earliest time
-- of the next attempt; `n` counts back-off attempts; `allowed` is the last verdict.
CREATE TABLE rate_limit_buckets (
    bucket  TEXT PRIMARY KEY NOT NULL,
    tat_ms  BIGINT NOT NULL,
    n       BIGINT NOT NULL DEFAULT 0,
    allowed BOOLEAN NOT NULL
);
CREATE INDEX rate_limit_buckets_tat_idx ON rate_limit_buckets (tat_ms);

-- Replaced by the buckets above.
DROP TABLE rate_limit_hits;
DROP TABLE login_failures;
