-- Your account: display settings, API keys and the audit log. Keep in step with
-- ../postgres/20261125000008_account.sql: a test compares the two schemas column by column.

-- Settings saved on each change (theme, currency, the Trading tab's toggles). The
-- notification toggles already exist (`portfolio_updates` is the portfolio summary).
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT 'system'
    CONSTRAINT users_theme_check CHECK (theme IN ('light', 'dark', 'system'));
ALTER TABLE users ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD'
    CONSTRAINT users_currency_check CHECK (currency IN ('USD', 'EUR', 'GBP'));
ALTER TABLE users ADD COLUMN auto_update_signals BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE users ADD COLUMN high_risk_alerts BOOLEAN NOT NULL DEFAULT FALSE;

-- Public API keys. Only the SHA-256 of a key is kept (`key_hash`); `key_prefix` is the part
-- shown again. Deleted with their user.
CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    key_hash     TEXT NOT NULL,
    key_prefix   TEXT NOT NULL,
    permissions  TEXT NOT NULL DEFAULT 'read',
    is_active    BOOLEAN NOT NULL DEFAULT TRUE,
    last_used_at TEXT,
    expires_at   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash),
    CONSTRAINT api_keys_permissions_check CHECK (permissions IN ('read', 'write', 'admin'))
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at);

-- Security-relevant events. `user_id` is the account concerned (absent for a failed sign-in
-- to an unknown email, and for the record of a deleted account); `actor_id` the
-- administrator who acted, for admin actions.
CREATE TABLE audit_events (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    actor_id   TEXT,
    action     TEXT NOT NULL,
    detail     TEXT,
    ip         TEXT,
    user_agent TEXT,
    at         TEXT NOT NULL,
    CONSTRAINT audit_events_action_check CHECK (action IN (
        'sign_in', 'sign_in_failed', 'sign_out', 'password_changed', 'session_revoked',
        'api_key_created', 'api_key_toggled', 'api_key_deleted', 'plan_changed',
        'account_deleted', 'admin_action'))
);
CREATE INDEX audit_events_user_idx ON audit_events (user_id, at);
CREATE INDEX audit_events_at_idx ON audit_events (at);
