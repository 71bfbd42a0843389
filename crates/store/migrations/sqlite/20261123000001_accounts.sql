-- Accounts and sessions. Keep in step with ../postgres/20261123000001_accounts.sql:
-- a test compares the two schemas column by column.
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
    CONSTRAINT users_username_key UNIQUE (username_key)
);

CREATE TABLE sessions (
    sid     TEXT PRIMARY KEY NOT NULL,
    sess    TEXT NOT NULL,
    expire  TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX sessions_expire_idx ON sessions (expire);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE login_failures (
    id        TEXT PRIMARY KEY NOT NULL,
    email     TEXT NOT NULL,
    ip        TEXT NOT NULL,
    failed_at TEXT NOT NULL
);
CREATE INDEX login_failures_email_idx ON login_failures (email, failed_at);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, failed_at);
