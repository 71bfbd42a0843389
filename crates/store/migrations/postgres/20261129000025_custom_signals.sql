-- Live signals from custom strategies (issue 29): a Premium user switches a saved strategy on,
-- and the scheduler issues its signals to that user alone. Keep in step with
-- ../sqlite/20261129000025_custom_signals.sql: a test compares the two schemas.

-- Whether the owner has switched the strategy on (the scheduler still checks the plan), and
-- whether their automation opens paper positions from its signals (only while it is on).
ALTER TABLE custom_strategies ADD COLUMN active BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE custom_strategies ADD COLUMN automate BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX custom_strategies_active_idx ON custom_strategies (user_id) WHERE active;

-- A custom strategy's signal is named 'Custom', owned by the strategy's owner and points at the
-- strategy; it keeps its record (strategy 'Custom', no pointer) when the strategy is deleted.
ALTER TABLE signals DROP CONSTRAINT signals_strategy_check;
ALTER TABLE signals ADD CONSTRAINT signals_strategy_check
    CHECK (strategy IN ('Momentum', 'Mean Reversion', 'Breakout', 'Volatility', 'Custom'));
ALTER TABLE signals ADD COLUMN custom_strategy_id TEXT REFERENCES custom_strategies (id) ON DELETE SET NULL;
ALTER TABLE signals ADD CONSTRAINT signals_custom_strategy_check
    CHECK (custom_strategy_id IS NULL OR strategy = 'Custom');
ALTER TABLE signals ADD CONSTRAINT signals_custom_owner_check
    CHECK (strategy <> 'Custom' OR owner_id IS NOT NULL);
-- A rule that holds for at most `maxDays`: its signal closes at the first mark after the close
-- of this session (close reason 'time'), as the backtest closes it.
ALTER TABLE signals ADD COLUMN close_after DATE;
ALTER TABLE signals DROP CONSTRAINT signals_close_reason_check;
ALTER TABLE signals ADD CONSTRAINT signals_close_reason_check
    CHECK (close_reason IN ('target', 'stop', 'expiry', 'time'));
-- One active signal per strategy and symbol, as for the house rules.
CREATE UNIQUE INDEX signals_one_active_custom_idx ON signals (custom_strategy_id, symbol)
    WHERE status = 'active' AND custom_strategy_id IS NOT NULL;
