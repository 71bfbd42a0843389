-- What visitors send from the public site, and shared rate-limit counters.
-- Keep in step with the other engine's file of the same name.
CREATE TABLE contact_messages (
    id         TEXT PRIMARY KEY NOT NULL,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    company    TEXT,
    subject    TEXT,
    message    TEXT NOT NULL,
    source     TEXT NOT NULL,
    ip         TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX contact_messages_email_idx ON contact_messages (email, created_at);

CREATE TABLE newsletter_subscribers (
    email      TEXT PRIMARY KEY NOT NULL,
    ip         TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE rate_limit_hits (
    id     TEXT PRIMARY KEY NOT NULL,
    bucket TEXT NOT NULL,
    hit_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX rate_limit_hits_bucket_idx ON rate_limit_hits (bucket, hit_at);
