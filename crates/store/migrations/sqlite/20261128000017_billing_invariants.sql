-- Billing invariants (docs/billing.md, "Invariants"). Keep in step with
-- ../postgres/20261128000017_billing_invariants.sql: the schema test compares the two.
--
-- 1. At most one open checkout per account: a checkout can be `voided` (a newer one replaced
--    it), and a partial unique index allows one `pending` checkout per user. Of the pending
--    checkouts an account already has, all but the newest are voided first.
-- 2. Invoices outlive the account they were billed to, detached from the person: `user_id`
--    becomes NULL when the account is deleted (ON DELETE SET NULL) instead of deleting them.
-- 3. An invoice's period never ends before it starts. The only rows that could break this are
--    the $0 invoices a change of plan from past due wrote (issue 25, row 4); their period is
--    closed at its start, so they cover no time.
--
-- SQLite cannot change a CHECK or a foreign key in place, so both tables are rebuilt with the
-- same columns in the same order. Nothing references them, so dropping them cascades nowhere.

CREATE TEMP TABLE hold_checkouts AS SELECT * FROM checkouts;
CREATE TEMP TABLE hold_invoices AS SELECT * FROM invoices;
DROP TABLE checkouts;
DROP TABLE invoices;

CREATE TABLE checkouts (
    id               TEXT PRIMARY KEY NOT NULL,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider         TEXT NOT NULL,
    provider_ref     TEXT,
    client_secret    TEXT NOT NULL,
    plan             TEXT NOT NULL,
    billing_interval TEXT NOT NULL,
    amount_cents     BIGINT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending',
    failure_message  TEXT,
    created_at       TEXT NOT NULL,
    completed_at     TEXT,
    CONSTRAINT checkouts_client_secret_key UNIQUE (client_secret),
    CONSTRAINT checkouts_plan_check CHECK (plan IN ('pro', 'premium')),
    CONSTRAINT checkouts_billing_interval_check CHECK (billing_interval IN ('monthly', 'yearly')),
    CONSTRAINT checkouts_status_check CHECK (status IN ('pending', 'succeeded', 'failed', 'voided')),
    CONSTRAINT checkouts_amount_cents_check CHECK (amount_cents >= 0)
);

CREATE TABLE invoices (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT REFERENCES users (id) ON DELETE SET NULL,
    number               TEXT NOT NULL,
    provider             TEXT NOT NULL,
    provider_ref         TEXT,
    description          TEXT NOT NULL,
    plan                 TEXT NOT NULL,
    billing_interval     TEXT NOT NULL,
    amount_cents         BIGINT NOT NULL,
    credit_applied_cents BIGINT NOT NULL DEFAULT 0,
    currency             TEXT NOT NULL DEFAULT 'usd',
    status               TEXT NOT NULL,
    failure_message      TEXT,
    period_start         TEXT NOT NULL,
    period_end           TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    CONSTRAINT invoices_number_key UNIQUE (number),
    CONSTRAINT invoices_plan_check CHECK (plan IN ('pro', 'premium')),
    CONSTRAINT invoices_billing_interval_check CHECK (billing_interval IN ('monthly', 'yearly')),
    CONSTRAINT invoices_status_check CHECK (status IN ('paid', 'failed')),
    CONSTRAINT invoices_amount_cents_check CHECK (amount_cents >= 0),
    CONSTRAINT invoices_period_check CHECK (period_end >= period_start)
);

INSERT INTO checkouts SELECT * FROM hold_checkouts;
UPDATE hold_invoices SET period_end = period_start WHERE period_end < period_start;
INSERT INTO invoices SELECT * FROM hold_invoices;
DROP TABLE hold_checkouts;
DROP TABLE hold_invoices;

UPDATE checkouts SET status = 'voided'
WHERE status = 'pending' AND EXISTS (
    SELECT 1 FROM checkouts newer
    WHERE newer.user_id = checkouts.user_id AND newer.status = 'pending'
      AND (newer.created_at > checkouts.created_at OR (newer.created_at = checkouts.created_at AND newer.id > checkouts.id))
);

CREATE INDEX checkouts_user_idx ON checkouts (user_id, created_at);
CREATE UNIQUE INDEX checkouts_one_open_idx ON checkouts (user_id) WHERE status = 'pending';
CREATE INDEX invoices_user_idx ON invoices (user_id, created_at);
CREATE UNIQUE INDEX invoices_provider_ref_idx ON invoices (provider, provider_ref);
