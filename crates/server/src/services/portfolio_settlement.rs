//! Portfolios on the desk: manual positions marked to market, automated paper positions
//! opened from signals and closed with them, and each user's daily portfolio value.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use strikeline_engine::{OpenSignal, Outcome, mark, pricing_volatility};
use strikeline_store::market;
use strikeline_store::positions::{self, ManualMark, ManualRow};

use crate::money::{dollars, to_cents};
use crate::error::Result;
use crate::state::AppState;
use crate::vocab::{PositionStatus, SignalKind, SignalStatus, StrategyName, Vocabulary};

/// Each tracked symbol's current price (dollars) and volatility estimate.
pub struct Pricing {
    pub spot: HashMap<String, f64>,
    pub volatility: HashMap<String, f64>,
}

impl Pricing {
    /// Prices and volatilities as stored by the last refresh.
    pub async fn load(state: &AppState) -> Result<Pricing> {
        let spot = market::list_stocks(&state.db)
            .await?
            .into_iter()
            .filter(|s| s.current_price_cents > 0)
            .map(|s| (s.symbol, dollars(s.current_price_cents)))
            .collect();
        let volatility = market::volatilities(&state.db).await?.into_iter().collect();
        Ok(Pricing { spot, volatility })
    }

    /// The volatility of `symbol`: the stored estimate, else one computed from its history.
    pub async fn volatility_of(&mut self, state: &AppState, symbol: &str, now: DateTime<Utc>) -> Result<Option<f64>> {
        if let Some(v) = self.volatility.get(symbol) {
            return Ok(Some(*v));
        }
        let estimate = state.market.warm_state(&state.db, symbol, state.market.last_completed_day(now))
            .await?
            .and_then(|s| s.latest().and_then(|l| l.hv20))
            .map(pricing_volatility);
        if let Some(v) = estimate {
            self.volatility.insert(symbol.to_owned(), v);
        }
        Ok(estimate)
    }
}

/// The engine's view of a manual position (no target or stop: the user closes it); `None` when
/// its stored type is none of the spellings.
pub fn manual_open_signal(row: &ManualRow, volatility: f64) -> Option<OpenSignal> {
    Some(OpenSignal {
        signal_type: SignalKind::exact(&row.position_type).ok()?.into(),
        strike: dollars(row.strike_cents),
        expiration: row.expiration_date,
        entry_price: dollars(row.entry_cents),
        target_price: f64::MAX,
        stop_loss: 0.0,
        volatility,
    })
}

/// Marks open manual positions (of `only_user`, or everyone's) with Black–Scholes at the current
/// price and volatility estimate; a position past its expiry expires at intrinsic value.
pub async fn mark_manual_positions(state: &AppState, only_user: Option<&str>, now: DateTime<Utc>) -> Result<usize> {
    let mut pricing = Pricing::load(state).await?;
    let open = positions::open_manual(&state.db).await?;
    let mut marks = Vec::new();
    for row in open.iter().filter(|r| only_user.is_none_or(|u| r.user_id == u)) {
        let Some(&spot) = pricing.spot.get(&row.symbol) else { continue };
        let Some(volatility) = pricing.volatility_of(state, &row.symbol, now).await? else { continue };
        let Some(open) = manual_open_signal(row, volatility) else { continue };
        let years = state.market.years_to_expiry(row.expiration_date, now);
        let expired = state.market.has_expired(row.expiration_date, now);
        let Ok(m) = mark(&open, spot, years, expired, state.market.assumptions) else { continue };
        marks.push(ManualMark {
            id: row.id.clone(),
            current_option_cents: to_cents(m.option_price),
            current_price_cents: to_cents(spot),
            pnl_cents: to_cents(m.pnl * row.quantity as f64),
            pnl_percent: m.pnl_percent,
            expired: m.outcome == Outcome::Expired,
            at: now,
        });
    }
    positions::mark_manual(&state.db, &marks).await?;
    Ok(marks.len())
}

/// Opens automated paper positions for every user from the active automated signals their
/// plan shows them and their preferences take (preferred strategies, a confidence floor for
/// their risk tolerance, contracts within their maximum position size and capital), at the
/// signal's current premium plus the opening commission. Returns how many opened.
pub async fn open_automated_positions(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    use strikeline_engine::Strategy;
    use strikeline_engine::portfolio::{AllocationSignal, InvestmentPreferences, RiskTolerance, automated_allocation};
    use strikeline_store::positions::AutomatedRow;
    use strikeline_store::signals::SignalFilter;

    let commission_cents = to_cents(state.config.portfolio.commission_per_contract);
    let filter = SignalFilter { status: Some(SignalStatus::Active.as_str().to_owned()), limit: i64::MAX, ..SignalFilter::default() };
    let mut opened = 0;
    for user in strikeline_store::users::all(&state.db).await? {
        let prefs = InvestmentPreferences {
            preferred_strategies: user.preferred_strategies.split(',').filter_map(|s| s.parse::<StrategyName>().ok().map(Strategy::from)).collect(),
            risk_tolerance: RiskTolerance::parse(&user.risk_tolerance).unwrap_or_default(),
            capital: dollars(user.investment_capital_cents),
            max_position_size: dollars(user.max_position_size_cents),
        };
        if prefs.preferred_strategies.is_empty() {
            continue;
        }
        let held = positions::automated_for(&state.db, &user.id).await?;
        let mut open_cost: f64 = held.iter().filter(|p| p.status == PositionStatus::Open.as_str()).map(|p| dollars(p.entry_cents * 100 * p.quantity)).sum();
        let visible = crate::services::visibility::visible_to(state, &user, &filter, now).await?;
        for signal in visible.into_iter().filter(|s| s.owner_id.is_none()) {
            if held.iter().any(|p| p.signal_id == signal.id) {
                continue;
            }
            let Ok(strategy) = StrategyName::exact(&signal.strategy).map(Strategy::from) else { continue };
            let candidate = AllocationSignal {
                strategy,
                confidence: u8::try_from(signal.confidence).unwrap_or(0),
                entry_price: dollars(signal.current_option_cents),
            };
            let Some(contracts) = automated_allocation(&candidate, &prefs, open_cost) else { continue };
            let position = AutomatedRow {
                id: uuid::Uuid::new_v4().to_string(),
                user_id: user.id.clone(),
                signal_id: signal.id.clone(),
                quantity: i64::from(contracts),
                entry_cents: signal.current_option_cents,
                commissions_cents: commission_cents * i64::from(contracts),
                status: PositionStatus::Open.as_str().to_owned(),
                exit_cents: None,
                opened_at: now,
                closed_at: None,
                updated_at: now,
            };
            if positions::open_automated(&state.db, &position).await? {
                open_cost += dollars(signal.current_option_cents * 100) * f64::from(contracts);
                opened += 1;
            }
        }
    }
    Ok(opened)
}

/// Marks manual positions and closes the automated positions whose signals ended (at the
/// signal's last mark, with the closing commission).
pub async fn settle_positions(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    mark_manual_positions(state, None, now).await?;
    positions::close_ended(&state.db, to_cents(state.config.portfolio.commission_per_contract), now).await?;
    Ok(())
}
