-- SMS (issue 30): each user's phone number for text messages, verified by a code sent to it,
-- opted out by the carrier's STOP, with the kinds texted and the user's quiet hours. One row per
-- user. Keep in step with ../sqlite/20261128000022_sms.sql: a test compares the two schemas.
CREATE TABLE sms_phones (
    user_id            TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- E.164, e.g. +12025550143.
    phone              TEXT NOT NULL,
    verified_at        TIMESTAMPTZ,
    -- The number answered STOP (or the provider says it opted out); START clears it.
    opted_out_at       TIMESTAMPTZ,
    -- The pending verification code's SHA-256 (hex), when it runs out, and wrong tries so far.
    code_hash          TEXT,
    code_expires_at    TIMESTAMPTZ,
    code_attempts      INTEGER NOT NULL DEFAULT 0,
    -- The notification kinds texted, comma-separated.
    events             TEXT NOT NULL DEFAULT 'price_alert,position_closed',
    -- Quiet hours in New York time, minutes after midnight: nothing is sent from start to end
    -- (wrapping past midnight when end < start); both NULL: none.
    quiet_start_minute INTEGER,
    quiet_end_minute   INTEGER,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL,
    CONSTRAINT sms_phones_quiet_check CHECK ((quiet_start_minute IS NULL AND quiet_end_minute IS NULL) OR (quiet_start_minute BETWEEN 0 AND 1439 AND quiet_end_minute BETWEEN 0 AND 1439)),
    CONSTRAINT sms_phones_code_attempts_check CHECK (code_attempts >= 0)
);
CREATE INDEX sms_phones_phone_idx ON sms_phones (phone);
