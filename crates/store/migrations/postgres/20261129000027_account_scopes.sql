-- API keys and webhook endpoints scoped to one trading account (issue 29; docs/accounts.md).
-- NULL (every row so far) follows the owner's current account: a key acts on it and an
-- endpoint hears about positions in any of the owner's accounts. A scoped key acts on its
-- account whatever is current, and a scoped endpoint hears only about that account's
-- positions. Deleting an account deletes what is scoped to it: a key never falls back to a
-- wider reach than it was given. Keep in step with the other engine's file of the same name.
ALTER TABLE api_keys ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
ALTER TABLE webhook_endpoints ADD COLUMN account_id TEXT REFERENCES trading_accounts (id) ON DELETE CASCADE;
