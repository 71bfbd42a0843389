-- Billing: the subscription's billing state on the user, checkouts, invoices and the
-- payment provider's events (each applied once). Keep in step with
-- ../postgres/20261125000009_billing.sql: a test compares the two schemas column by column.

-- `subscription_expires_at` is the end of the trial or of the paid period.
ALTER TABLE users ADD COLUMN billing_interval TEXT
    CONSTRAINT users_billing_interval_check CHECK (billing_interval IN ('monthly', 'yearly'));
ALTER TABLE users ADD COLUMN period_started_at TEXT;
ALTER TABLE users ADD COLUMN cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN grace_ends_at TEXT;
ALTER TABLE users ADD COLUMN credit_cents BIGINT NOT NULL DEFAULT 0
    CONSTRAINT users_credit_cents_check CHECK (credit_cents >= 0);
ALTER TABLE users ADD COLUMN payment_provider TEXT
    CONSTRAINT users_payment_provider_check CHECK (payment_provider IN ('test', 'stripe'));
ALTER TABLE users ADD COLUMN card_brand TEXT;
ALTER TABLE users ADD COLUMN card_last4 TEXT;

-- A subscription being bought: the client secret the payment form confirms.
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
    CONSTRAINT checkouts_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
    CONSTRAINT checkouts_amount_cents_check CHECK (amount_cents >= 0)
);
CREATE INDEX checkouts_user_idx ON checkouts (user_id, created_at);

-- What was billed: every payment and every failed attempt.
CREATE TABLE invoices (
    id                   TEXT PRIMARY KEY NOT NULL,
    user_id              TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
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
    CONSTRAINT invoices_amount_cents_check CHECK (amount_cents >= 0)
);
CREATE INDEX invoices_user_idx ON invoices (user_id, created_at);
-- A provider's invoice is recorded once, however often its event is delivered.
CREATE UNIQUE INDEX invoices_provider_ref_idx ON invoices (provider, provider_ref);

-- Provider events (webhooks) already applied: a repeated delivery changes nothing twice.
CREATE TABLE payment_events (
    provider    TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (provider, event_id)
);

-- Webhooks name the provider's customer.
CREATE INDEX users_payment_customer_idx ON users (payment_customer_id);

-- Paid subscriptions due for renewal, found without scanning every account.
CREATE INDEX users_renewal_idx ON users (subscription_expires_at) WHERE billing_interval IS NOT NULL;
