-- Idempotency keys (issue 26): a POST sent with an `Idempotency-Key` header is answered once;
-- a retry with the same key and the same request gets the first answer again. Keep in step
-- with ../postgres/20261128000018_idempotency.sql: a test compares the two schemas column by column.
CREATE TABLE idempotency_keys (
    -- Who sent it: SHA-256 of the session, of the API key, or of "anonymous".
    scope         TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    -- SHA-256 of the method, path, query and body: the same key with another request is refused.
    request_hash  TEXT NOT NULL,
    -- NULL while the first request is being answered.
    status        INTEGER,
    content_type  TEXT,
    location      TEXT,
    body          TEXT,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
