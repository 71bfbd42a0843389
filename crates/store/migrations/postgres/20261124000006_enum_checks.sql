-- CHECK constraints on the enumerated and bounded columns, with exactly the values the
-- application writes (or documents). Keep in step with ../sqlite/20261124000006_enum_checks.sql:
-- the schema test compares the constraints by table, name and condition.
ALTER TABLE users ADD CONSTRAINT users_subscription_plan_check
    CHECK (subscription_plan IN ('free', 'pro', 'premium'));
ALTER TABLE users ADD CONSTRAINT users_subscription_status_check
    CHECK (subscription_status IN ('active', 'trialing', 'canceled', 'past_due'));
ALTER TABLE users ADD CONSTRAINT users_risk_tolerance_check
    CHECK (risk_tolerance IN ('low', 'medium', 'high'));
ALTER TABLE users ADD CONSTRAINT users_investment_capital_cents_check
    CHECK (investment_capital_cents >= 0);
ALTER TABLE users ADD CONSTRAINT users_max_position_size_cents_check
    CHECK (max_position_size_cents >= 0);

ALTER TABLE signals ADD CONSTRAINT signals_signal_type_check
    CHECK (signal_type IN ('CALL', 'PUT', 'STRADDLE'));
ALTER TABLE signals ADD CONSTRAINT signals_strategy_check
    CHECK (strategy IN ('Momentum', 'Mean Reversion', 'Breakout', 'Volatility'));
ALTER TABLE signals ADD CONSTRAINT signals_status_check
    CHECK (status IN ('active', 'closed', 'expired'));
-- NULL (still active) passes: a CHECK only refuses what is false.
ALTER TABLE signals ADD CONSTRAINT signals_close_reason_check
    CHECK (close_reason IN ('target', 'stop', 'expiry'));
ALTER TABLE signals ADD CONSTRAINT signals_confidence_check
    CHECK (confidence BETWEEN 0 AND 100);

ALTER TABLE manual_positions ADD CONSTRAINT manual_positions_position_type_check
    CHECK (position_type IN ('CALL', 'PUT', 'STRADDLE'));
ALTER TABLE manual_positions ADD CONSTRAINT manual_positions_status_check
    CHECK (status IN ('open', 'closed', 'expired'));
ALTER TABLE manual_positions ADD CONSTRAINT manual_positions_quantity_check
    CHECK (quantity >= 1);

ALTER TABLE portfolio_positions ADD CONSTRAINT portfolio_positions_status_check
    CHECK (status IN ('open', 'closed', 'expired'));
ALTER TABLE portfolio_positions ADD CONSTRAINT portfolio_positions_quantity_check
    CHECK (quantity >= 1);
ALTER TABLE portfolio_positions ADD CONSTRAINT portfolio_positions_commissions_cents_check
    CHECK (commissions_cents >= 0);
