//! Automated execution: each active signal an automated account's rules take becomes an order
//! for that account, sent to its broker (the paper broker by default); its fill opens the
//! account's automated position (docs/execution.md).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use strikeline_engine::portfolio::{Allocation, AllocationSignal, InvestmentPreferences, SizeLimit, automated_allocation};
use strikeline_engine::{OpenSignal, SignalType, Strategy, mark};
use strikeline_store::orders::{OrderLegRow, OrderRow, StoredOrder};
use strikeline_store::signals::SignalRow;
use strikeline_store::trading_accounts::{AccountRow, Automating};

use super::announce::Announcements;
use super::broker::Broker;
use super::{DEADLINE, Sent};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::Result;
use crate::foundation::money::{dollars, usd};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{OptionRight, OrderDuration, OrderKind, OrderSide, OrderState, SignalKind, StrategyName, Vocabulary};

/// An account's investment preferences as the automation reads them, from their stored
/// spelling (comma-separated strategy names, the risk tolerance, cents).
pub fn preferences(
    preferred_strategies: &str,
    risk_tolerance: &str,
    capital_cents: i64,
    max_position_size_cents: i64,
) -> strikeline_engine::portfolio::InvestmentPreferences {
    use strikeline_engine::Strategy;
    use strikeline_engine::portfolio::{InvestmentPreferences, RiskTolerance};
    InvestmentPreferences {
        preferred_strategies: preferred_strategies.split(',').filter_map(|s| s.parse::<StrategyName>().ok().map(Strategy::from)).collect(),
        risk_tolerance: RiskTolerance::parse(risk_tolerance).unwrap_or_default(),
        capital: dollars(capital_cents),
        max_position_size: dollars(max_position_size_cents),
    }
}

/// The preferences of `user`'s current account.
pub fn preferences_of(user: &strikeline_store::users::UserRecord) -> strikeline_engine::portfolio::InvestmentPreferences {
    preferences(&user.preferred_strategies, &user.risk_tolerance, user.investment_capital_cents, user.max_position_size_cents)
}

/// The client order id of the automation's order for `signal_id` (one per signal and account:
/// sending it again places nothing).
pub fn client_order_id(signal_id: &str) -> String {
    format!("signal-{signal_id}")
}

/// The legs that execute a signal: its call or its put bought, or both for a straddle.
fn legs_of(signal: &SignalRow, order_id: &str) -> Option<Vec<OrderLegRow>> {
    let rights = SignalKind::exact(&signal.signal_type).ok()?.rights();
    Some(
        rights
            .iter()
            .enumerate()
            .map(|(i, right)| OrderLegRow {
                order_id: order_id.to_owned(),
                user_id: String::new(),
                leg_index: i as i64,
                option_right: OptionRight::from(*right).as_str().to_owned(),
                strike_cents: signal.strike_cents,
                expiration_date: signal.expiration_date,
                side: OrderSide::Buy.as_str().to_owned(),
                ratio: 1,
            })
            .collect(),
    )
}

/// Each leg's mark (dollars per share) for the order executing `signal`: its current premium,
/// split between the call and the put of a straddle as the model values them (the straddle's
/// net price is its premium, so the split changes no price paid).
pub fn signal_marks(state: &AppState, signal: &SignalRow, now: DateTime<Utc>) -> Vec<Option<f64>> {
    let premium = dollars(signal.current_option_cents);
    if SignalKind::exact(&signal.signal_type) != Ok(SignalKind::Straddle) {
        return vec![Some(premium)];
    }
    let years = state.market.years_to_expiry(signal.expiration_date, now);
    let expired = state.market.has_expired(signal.expiration_date, now);
    let value = |signal_type: SignalType| {
        let open = OpenSignal {
            signal_type,
            strike: dollars(signal.strike_cents),
            expiration: signal.expiration_date,
            entry_price: premium,
            target_price: f64::MAX,
            stop_loss: 0.0,
            volatility: signal.volatility,
        };
        mark(&open, dollars(signal.current_price_cents), years, expired, state.market.assumptions).map(|m| m.option_price).unwrap_or(0.0)
    };
    let (call, put) = (value(SignalType::Call), value(SignalType::Put));
    let share = if call + put > 0.0 { call / (call + put) } else { 0.5 };
    vec![Some(premium * share), Some(premium * (1.0 - share))]
}

/// The reason in words an account's limit refuses a signal.
fn refusal(limit: SizeLimit, signal: &SignalRow, account: &AccountRow, open_cost: f64) -> String {
    let per_contract = Broker::paper().expected_contract_cents(signal.current_option_cents);
    match limit {
        SizeLimit::MaxPositionSize => format!(
            "One contract costs {}, more than {}'s maximum position size of {}.",
            usd(per_contract),
            account.name,
            usd(account.max_position_size_cents)
        ),
        SizeLimit::Capital => format!(
            "One contract costs {}, more than the {} left of {}'s capital.",
            usd(per_contract),
            usd((account.investment_capital_cents - crate::foundation::money::to_cents(open_cost)).max(0)),
            account.name
        ),
        SizeLimit::Premium => "The signal has no usable premium.".to_owned(),
    }
}

/// The order the automation places for `signal` in `account` with `broker` (the account's:
/// [`super::broker_of`]): `contracts` units at market, a day order with the deadline; or,
/// refused by a limit, a rejected order with the reason.
pub fn order_for(
    signal: &SignalRow,
    account: &AccountRow,
    broker: &str,
    decision: Result<u32, String>,
    now: DateTime<Utc>,
) -> Option<StoredOrder> {
    let id = uuid::Uuid::new_v4().to_string();
    let mut legs = legs_of(signal, &id)?;
    for leg in &mut legs {
        leg.user_id = account.user_id.clone();
    }
    let (quantity, status, reason) = match decision {
        Ok(contracts) => (i64::from(contracts), OrderState::New, None),
        Err(reason) => (1, OrderState::Rejected, Some(reason)),
    };
    let row = OrderRow {
        id,
        user_id: account.user_id.clone(),
        account_id: account.id.clone(),
        client_order_id: client_order_id(&signal.id),
        signal_id: Some(signal.id.clone()),
        underlying: signal.symbol.clone(),
        quantity,
        order_type: OrderKind::Market.as_str().to_owned(),
        limit_price: None,
        time_in_force: OrderDuration::Day.as_str().to_owned(),
        status: status.as_str().to_owned(),
        filled_units: 0,
        reason,
        placed_on: now.date_naive(),
        created_at: now,
        updated_at: now,
        broker: broker.to_owned(),
        broker_order_id: None,
        expires_at: Some(now + DEADLINE),
    };
    Some(StoredOrder { row, legs })
}

/// Sends the automation's orders: for every trading account whose automation is on (among the
/// first accounts its owner's plan holds) and whose kill switch is off, while the
/// administrator's is off too, one order per active signal the account's rules take (the
/// automated signals the owner's plan shows them in their preferred strategies, and the
/// signals of the owner's automated custom strategies while their plan includes them; a
/// confidence floor for the account's risk tolerance), sized within its maximum position size
/// and capital. A signal the rules take but a limit refuses is logged as a rejected order
/// with the reason. An order a restart or another instance left unsent is resumed. Each
/// fill opens the account's automated position; the owner is told of fills and refusals.
/// Returns how many orders filled.
pub async fn execute(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    super::cancel_overdue(state, now).await?;
    super::remote::poll_standing(state, now).await?;
    if super::halted(state).await? {
        return Ok(0);
    }
    let active = strikeline_store::signals::active_automated(&state.db).await?;
    let mut custom: HashMap<String, Vec<SignalRow>> = HashMap::new();
    for row in strikeline_store::signals::active_automated_custom(&state.db).await? {
        if let Some(owner) = row.owner_id.clone() {
            custom.entry(owner).or_default().push(row);
        }
    }
    let Some(first_day) = active.iter().map(|r| r.signal.issued_on).chain(custom.values().flatten().map(|s| s.issued_on)).min() else {
        return Ok(0);
    };
    let accounts = strikeline_store::trading_accounts::automating(&state.db).await?;
    let users: HashMap<String, strikeline_store::users::UserRecord> =
        strikeline_store::users::all(&state.db).await?.into_iter().map(|u| (u.id.clone(), u)).collect();
    let sent: HashMap<(String, String), StoredOrder> = strikeline_store::orders::on_active_signals(&state.db)
        .await?
        .into_iter()
        .filter_map(|o| Some(((o.row.account_id.clone(), o.row.signal_id.clone()?), o)))
        .collect();
    let held: std::collections::HashSet<(String, String)> =
        strikeline_store::positions::holders_of_active_signals(&state.db).await?.into_iter().collect();
    let open_cost_cents: HashMap<String, i64> = strikeline_store::positions::open_cost_by_account(&state.db).await?.into_iter().collect();
    let viewers = crate::services::visibility::Viewers::since(state, first_day).await?;
    let connected: std::collections::HashSet<String> =
        strikeline_store::broker_connections::all(&state.db).await?.into_iter().map(|c| c.account_id).collect();
    let mut announcements = Announcements::default();
    let mut filled = 0;
    for Automating { account, place } in &accounts {
        let Some(user) = users.get(&account.user_id) else { continue };
        let entitlements = Entitlements::of(user, now);
        if account.orders_halted || *place > i64::from(entitlements.trading_accounts) {
            continue;
        }
        // An account connected to Alpaca trades there only while the plan includes it (its
        // open positions still close there).
        if connected.contains(&account.id) && !entitlements.allows(Capability::BrokerExecution) {
            continue;
        }
        let prefs = preferences(
            &account.preferred_strategies,
            &account.risk_tolerance,
            account.investment_capital_cents,
            account.max_position_size_cents,
        );
        let own_rules: &[SignalRow] = match custom.get(&user.id) {
            Some(rows) if entitlements.allows(Capability::CustomStrategies) => rows,
            _ => &[],
        };
        if prefs.preferred_strategies.is_empty() && own_rules.is_empty() {
            continue;
        }
        let custom_prefs = InvestmentPreferences { preferred_strategies: vec![Strategy::Custom], ..prefs.clone() };
        let viewer = viewers.of(user, now);
        let mut open_cost = dollars(open_cost_cents.get(&account.id).copied().unwrap_or(0));
        let house = active.iter().filter(|r| viewer.unlocks(&r.signal, r.day_rank)).filter_map(|r| {
            let strategy = StrategyName::exact(&r.signal.strategy).ok()?;
            Some((&r.signal, Strategy::from(strategy), &prefs))
        });
        let candidates = house.chain(own_rules.iter().map(|s| (s, Strategy::Custom, &custom_prefs)));
        for (signal, strategy, prefs) in candidates {
            let key = (account.id.clone(), signal.id.clone());
            if held.contains(&key) {
                continue;
            }
            let order = match sent.get(&key) {
                // Sent before: resumed while it waits to be sent, else left as it ended.
                Some(order) => order.clone(),
                None => {
                    let candidate = AllocationSignal {
                        strategy,
                        confidence: u8::try_from(signal.confidence).unwrap_or(0),
                        // Sized at the expected fill, so the fill stays within the limits.
                        entry_price: Broker::paper().expected_entry(dollars(signal.current_option_cents)),
                    };
                    let decision = match automated_allocation(&candidate, prefs, open_cost) {
                        Allocation::NotTaken => continue,
                        Allocation::Refused(limit) => Err(refusal(limit, signal, account, open_cost)),
                        Allocation::Contracts(n) => Ok(n),
                    };
                    let broker = if connected.contains(&account.id) { super::remote::ALPACA } else { Broker::PAPER };
                    let Some(order) = order_for(signal, account, broker, decision, now) else { continue };
                    super::place(state, account, signal, &order, "by the automation", &mut announcements, now).await?.0
                }
            };
            if let Sent::Filled(fill) =
                super::dispatch(state, account, signal, &order, &super::Effect::Opens, &mut announcements, now).await?
            {
                filled += 1;
                open_cost += fill.net_price * 100.0 * f64::from(fill.units);
            }
        }
    }
    announcements.flush(state, now).await?;
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_client_order_id_per_signal_fits_the_brokers_limit() {
        let id = client_order_id("0b0e3a52-6b1e-4a4e-9d8e-2f1f3c4d5e6f");
        assert_eq!(id, "signal-0b0e3a52-6b1e-4a4e-9d8e-2f1f3c4d5e6f");
        assert!(id.len() <= 64);
    }
}
