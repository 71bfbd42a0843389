-- White-label reports (issue 30): a Premium account's own brand on its PDF reports (name,
-- colours, footer, PNG logo) and whether a report of the month goes out by email. One row per
-- user; none means the house brand. Keep in step with ../sqlite/20261128000023_report_brands.sql:
-- a test compares the two schemas.
CREATE TABLE report_brands (
    user_id       TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    -- '#rrggbb'.
    primary_color TEXT NOT NULL,
    accent_color  TEXT NOT NULL,
    footer        TEXT NOT NULL,
    -- The logo as a PNG, base64 (checked and size-bounded before it is stored).
    logo_png      TEXT,
    -- A report of the portfolio is emailed at the start of each month.
    monthly_email BOOLEAN NOT NULL DEFAULT FALSE,
    -- The month ('YYYY-MM') whose report was last queued, so a month is sent once.
    last_monthly  TEXT,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    CONSTRAINT report_brands_colors_check CHECK (length(primary_color) = 7 AND length(accent_color) = 7)
);

-- The monthly report has its own one-click unsubscribe.
ALTER TABLE email_unsubscribes DROP CONSTRAINT email_unsubscribes_list_check;
ALTER TABLE email_unsubscribes ADD CONSTRAINT email_unsubscribes_list_check CHECK (list IN ('all', 'portfolio_summary', 'monthly_report'));
