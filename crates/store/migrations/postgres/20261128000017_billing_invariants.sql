-- Billing invariants (docs/billing.md, "Invariants"). Keep in step with
-- ../sqlite/20261128000017_billing_invariants.sql: the schema test compares the two.
--
-- 1. At most one open checkout per account: a checkout can be `voided` (a newer one replaced
--    it), and a partial unique index allows one `pending` checkout per user. Of the pending
--    checkouts an account already has, all but the newest are voided first.
-- 2. Invoices outlive the account they were billed to, detached from the person: `user_id`
--    becomes NULL when the account is deleted (ON DELETE SET NULL) instead of deleting them.
-- 3. An invoice's period never ends before it starts. The only rows that could break this are
--    the $0 invoices a change of plan from past due wrote (issue 25, row 4); their period is
--    closed at its start, so they cover no time.

ALTER TABLE checkouts DROP CONSTRAINT checkouts_status_check;
ALTER TABLE checkouts ADD CONSTRAINT checkouts_status_check
    CHECK (status IN ('pending', 'succeeded', 'failed', 'voided'));
UPDATE checkouts SET status = 'voided'
WHERE status = 'pending' AND EXISTS (
    SELECT 1 FROM checkouts newer
    WHERE newer.user_id = checkouts.user_id AND newer.status = 'pending'
      AND (newer.created_at > checkouts.created_at OR (newer.created_at = checkouts.created_at AND newer.id > checkouts.id))
);
CREATE UNIQUE INDEX checkouts_one_open_idx ON checkouts (user_id) WHERE status = 'pending';

ALTER TABLE invoices ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE invoices DROP CONSTRAINT invoices_user_id_fkey;
ALTER TABLE invoices ADD CONSTRAINT invoices_user_id_fkey
    FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
UPDATE invoices SET period_end = period_start WHERE period_end < period_start;
ALTER TABLE invoices ADD CONSTRAINT invoices_period_check CHECK (period_end >= period_start);
