-- News: articles from configured feeds, the bundled samples and the market notes computed
-- from stored prices, each with its sentiment and analysis; and the feeds' conditional-request
-- state. Keep in step with ../sqlite/20261125000013_news.sql: a test compares the two schemas.
CREATE TABLE news_items (
    id              TEXT PRIMARY KEY NOT NULL,
    dedupe_key      TEXT NOT NULL,
    origin          TEXT NOT NULL,
    source          TEXT NOT NULL,
    title           TEXT NOT NULL,
    summary         TEXT NOT NULL,
    article_url     TEXT,
    image_url       TEXT,
    symbols         TEXT NOT NULL DEFAULT '',
    published_at    TIMESTAMPTZ NOT NULL,
    sentiment       TEXT NOT NULL,
    sentiment_score DOUBLE PRECISION NOT NULL,
    analysis        TEXT NOT NULL,
    analyzer        TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    CONSTRAINT news_items_origin_check CHECK (origin IN ('feed', 'sample', 'market_note')),
    CONSTRAINT news_items_sentiment_check CHECK (sentiment IN ('bullish', 'bearish', 'neutral')),
    CONSTRAINT news_items_analyzer_check CHECK (analyzer IN ('builtin', 'openai'))
);
CREATE UNIQUE INDEX news_items_dedupe_key_idx ON news_items (dedupe_key);
CREATE INDEX news_items_published_idx ON news_items (published_at);

CREATE TABLE news_feeds (
    url            TEXT PRIMARY KEY NOT NULL,
    etag           TEXT,
    last_modified  TEXT,
    last_polled_at TIMESTAMPTZ,
    last_status    INTEGER,
    last_error     TEXT
);
