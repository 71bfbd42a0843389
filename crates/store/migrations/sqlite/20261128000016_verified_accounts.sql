-- Verified accounts (issue 25 item 1). Keep in step with ../postgres/20261128000016_verified_accounts.sql:
-- a test compares the two schemas column by column.
--
-- When the address was confirmed through the emailed link. Accounts made before verification
-- existed count as confirmed (they were let in under the old rule; docs/security.md says so).
ALTER TABLE users ADD COLUMN email_verified_at TEXT;
UPDATE users SET email_verified_at = created_at;

-- Single-use links sent by email: only the SHA-256 of the token is stored.
CREATE TABLE account_tokens (
    token_hash  TEXT PRIMARY KEY NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- verify_email | reset_password
    purpose     TEXT NOT NULL,
    -- The address the link was sent to: a verification confirms that address only.
    email       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    used_at     TEXT,
    CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('verify_email', 'reset_password'))
);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, purpose);

-- Addresses that have had their trial, as a keyed hash (HMAC-SHA256 under the instance's
-- key): kept after the account is deleted, so a trial is granted once per address.
CREATE TABLE trial_grants (
    email_key   TEXT PRIMARY KEY NOT NULL,
    granted_at  TEXT NOT NULL
);
