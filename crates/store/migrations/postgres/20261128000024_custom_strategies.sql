-- Custom strategies (issue 29): a Premium user's own rule, what it opens and how it closes, as
-- the versioned JSON document of docs/strategies.md §11 (checked by the server before it is
-- stored). Keep in step with ../sqlite/20261128000024_custom_strategies.sql: a test compares
-- the two schemas.
CREATE TABLE custom_strategies (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    document   TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT custom_strategies_user_id_name_key UNIQUE (user_id, name),
    CONSTRAINT custom_strategies_name_check CHECK (length(name) >= 1 AND length(name) <= 60)
);
