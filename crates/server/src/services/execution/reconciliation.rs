//! An account connected to Alpaca checked against Alpaca (docs/execution.md): the options
//! contracts our books say it holds (its open automated and manual positions) against the
//! positions Alpaca reports, contract by contract, with the cash Alpaca reports.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::broker::{Contract, reconcile};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use strikeline_store::broker_connections::ConnectionRow;
use strikeline_store::broker_fees::FeeRow;

use super::alpaca::{AlpacaActivity, AlpacaClient, AlpacaError, occ_symbol, parse_occ};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::limits::{self, RateLimit};
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{NotificationKind, OptionRight, SignalKind, Vocabulary};
use crate::services::notifying::{self, Note};

/// A contract the two books hold in different numbers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HoldingDifference {
    /// Its OCC symbol, as Alpaca names it.
    pub symbol: String,
    pub underlying: String,
    pub right: OptionRight,
    pub strike_price: f64,
    pub expiration_date: NaiveDate,
    /// Contracts our books hold (negative: written).
    pub ours: i64,
    /// Contracts Alpaca holds.
    pub theirs: i64,
}

/// `GET /api/accounts/{id}/broker/reconciliation`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reconciliation {
    pub account_id: String,
    pub checked_at: DateTime<Utc>,
    /// The account's cash at Alpaca, in dollars, as Alpaca reports it.
    pub broker_cash: f64,
    /// Its options buying power at Alpaca, when reported.
    pub broker_options_buying_power: Option<f64>,
    /// Dollars Alpaca charged in fees (regulatory and clearing: its `FEE` activities) since
    /// the account was connected. Each is booked into the account's cash once
    /// (`TradingAccount.cash`), at this check or the end of day's.
    pub broker_fees: f64,
    /// How many of those fees this check booked for the first time.
    pub fees_booked: u64,
    /// When the account was connected to Alpaca: the fees are counted from then.
    pub connected_at: DateTime<Utc>,
    /// Contracts held in the same number in both books.
    pub matched: usize,
    /// Contracts held in different numbers, in contract order; empty when the books agree.
    pub differences: Vec<HoldingDifference>,
    /// Alpaca positions that are not options contracts (stocks, crypto): not compared.
    pub other_holdings: usize,
}

/// The contracts of one position: a straddle holds its call and its put.
fn contracts_of(symbol: &str, kind: &str, strike_cents: i64, expiration: NaiveDate) -> Vec<Contract> {
    let rights = SignalKind::exact(kind).map_or(&[][..], SignalKind::rights);
    rights.iter().map(|&right| Contract { underlying: symbol.to_owned(), right, strike_cents, expiration }).collect()
}

/// What our books say `account_id` holds: each open position's contracts, summed.
async fn our_book(state: &AppState, account_id: &str) -> Result<BTreeMap<Contract, i64>> {
    let mut held = BTreeMap::new();
    for (position, signal) in strikeline_store::positions::automated_with_signals(&state.db, account_id).await? {
        if position.status == "open" {
            for c in contracts_of(&signal.symbol, &signal.signal_type, signal.strike_cents, signal.expiration_date) {
                *held.entry(c).or_insert(0) += position.quantity;
            }
        }
    }
    for position in strikeline_store::positions::open_manual_of(&state.db, account_id).await? {
        for c in contracts_of(&position.symbol, &position.position_type, position.strike_cents, position.expiration_date) {
            *held.entry(c).or_insert(0) += position.quantity;
        }
    }
    held.retain(|_, n| *n != 0);
    Ok(held)
}

fn amount(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A fee activity as our books keep it: the cents it took from cash (Alpaca writes a charge as
/// a negative `net_amount`). `None` for one without a readable amount (it is left out, and
/// read again at the next check).
fn fee_row(fee: &AlpacaActivity, connection: &ConnectionRow, now: DateTime<Utc>) -> Option<FeeRow> {
    let charged = -amount(fee.net_amount.as_deref()?)?;
    (fee.id.len() <= 128 && charged.abs() < 1e9).then(|| FeeRow {
        account_id: connection.account_id.clone(),
        user_id: connection.user_id.clone(),
        activity_id: fee.id.clone(),
        kind: fee.activity_sub_type.clone().filter(|k| k.len() <= 32),
        amount_cents: to_cents(charged),
        charged_on: fee.date,
        booked_at: now,
    })
}

/// The user's account `account_id` checked against Alpaca (Premium; the account must be
/// connected). Counts against the `broker_check` limit once the account is found connected.
///
/// # Errors
/// 403 without the plan, 404 for another user's account, 409 when it is not connected or its
/// keys no longer open or are refused, 503 when Alpaca cannot answer.
pub async fn check(state: &AppState, user: &UserRecord, account_id: &str, now: DateTime<Utc>) -> Result<(RateLimit, Reconciliation)> {
    Entitlements::of(user, now).require(Capability::BrokerExecution)?;
    let account = strikeline_store::trading_accounts::find(&state.db, &user.id, account_id).await?;
    let Some(connection) = strikeline_store::broker_connections::find(&state.db, &account.id).await? else {
        return Err(AppError::Conflict(FieldError::new(
            "broker",
            "This account trades with the paper broker: there is nothing to reconcile.",
        )));
    };
    let Some(alpaca) = super::remote::client_for(state, &account.id).await? else {
        return Err(AppError::Conflict(FieldError::new(
            "broker",
            "This server cannot open the account's Alpaca keys (its credentials key changed): connect it again.",
        )));
    };
    let limit = limits::hit(state, limits::BROKER_CHECK, &user.id, now).await?;
    Ok((limit, compare(state, &account.id, &connection, &alpaca, now).await?))
}

/// Our books for `account_id` against Alpaca's, read with the account's client.
async fn compare(
    state: &AppState,
    account_id: &str,
    connection: &ConnectionRow,
    alpaca: &AlpacaClient,
    now: DateTime<Utc>,
) -> Result<Reconciliation> {
    let refused = |e: AlpacaError| match e {
        AlpacaError::Unauthorized => {
            AppError::Conflict(FieldError::new("broker", "Alpaca refused the account's keys: connect it again with current keys."))
        }
        other => AppError::upstream("Alpaca", other),
    };
    let (at_alpaca, positions, fees) = tokio::join!(alpaca.account(), alpaca.positions(), alpaca.fees_after(connection.created_at));
    let (at_alpaca, positions, fees) = (at_alpaca.map_err(refused)?, positions.map_err(refused)?, fees.map_err(refused)?);
    let fees: Vec<FeeRow> = fees.iter().filter_map(|fee| fee_row(fee, connection, now)).collect();
    let fees_booked = strikeline_store::broker_fees::book(&state.db, &fees).await?;
    let charged = fees.iter().map(|f| f.amount_cents).sum::<i64>();
    let ours = our_book(state, account_id).await?;
    let mut theirs: BTreeMap<Contract, i64> = BTreeMap::new();
    let mut other_holdings = 0;
    for position in &positions {
        let option = position.asset_class.as_deref().is_none_or(|class| class == "us_option");
        match (option.then(|| parse_occ(&position.symbol)).flatten(), position.contracts()) {
            (Some(contract), Some(n)) => *theirs.entry(contract).or_insert(0) += n,
            _ => other_holdings += 1,
        }
    }
    theirs.retain(|_, n| *n != 0);
    let differences = reconcile(&ours, &theirs);
    let mut all: Vec<&Contract> = ours.keys().chain(theirs.keys()).collect();
    all.sort();
    all.dedup();
    let matched = all.len() - differences.len();
    let differences = differences
        .into_iter()
        .map(|d| HoldingDifference {
            symbol: occ_symbol(&d.contract),
            right: d.contract.right.into(),
            strike_price: dollars(d.contract.strike_cents),
            expiration_date: d.contract.expiration,
            underlying: d.contract.underlying,
            ours: d.ours,
            theirs: d.theirs,
        })
        .collect();
    Ok(Reconciliation {
        account_id: account_id.to_owned(),
        checked_at: now,
        broker_cash: amount(&at_alpaca.cash).unwrap_or(0.0),
        broker_options_buying_power: at_alpaca.options_buying_power.as_deref().and_then(amount),
        broker_fees: dollars(charged),
        fees_booked,
        connected_at: connection.created_at,
        matched,
        differences,
        other_holdings,
    })
}

/// Differences named in a note, at most.
const NOTED_DIFFERENCES: usize = 3;

/// The end of day's check of every account connected to Alpaca whose owner's plan still
/// includes it: the owner is told when the books differ, naming the first contracts. An account
/// Alpaca cannot answer for is logged and checked again the next day. Returns how many
/// accounts differed.
pub async fn daily(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let mut notes = Vec::new();
    for connection in strikeline_store::broker_connections::all(&state.db).await? {
        let Some(user) = strikeline_store::users::find_by_id(&state.db, &connection.user_id).await? else { continue };
        if !Entitlements::of(&user, now).allows(Capability::BrokerExecution) {
            continue;
        }
        let account = match strikeline_store::trading_accounts::find(&state.db, &user.id, &connection.account_id).await {
            Ok(account) => account,
            Err(strikeline_store::StoreError::NotFound) => continue,
            Err(other) => return Err(other.into()),
        };
        let Some(alpaca) = super::remote::client_for(state, &account.id).await? else { continue };
        let checked = match compare(state, &account.id, &connection, &alpaca, now).await {
            Ok(checked) => checked,
            Err(err) => {
                tracing::warn!(account = %account.id, error = %err, "the daily reconciliation with Alpaca failed");
                continue;
            }
        };
        if checked.differences.is_empty() {
            continue;
        }
        let n = checked.differences.len();
        let named: Vec<String> = checked
            .differences
            .iter()
            .take(NOTED_DIFFERENCES)
            .map(|d| format!("{}: ours {}, Alpaca {}", d.symbol, d.ours, d.theirs))
            .collect();
        let more = if n > NOTED_DIFFERENCES { format!("; and {} more", n - NOTED_DIFFERENCES) } else { String::new() };
        notes.push(Note {
            user_id: user.id.clone(),
            kind: NotificationKind::Order,
            title: format!("{}: our books and Alpaca's differ on {n} contract{}", account.name, if n == 1 { "" } else { "s" }),
            body: format!("{}{more}. Check against Alpaca under Settings › Trading accounts.", named.join("; ")),
            link: Some("/settings?tab=accounts"),
        });
    }
    let differed = notes.len();
    notifying::notify(state, notes, now).await?;
    Ok(differed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use strikeline_engine::broker::Right;

    #[test]
    fn a_straddle_holds_its_call_and_its_put_and_an_unknown_kind_nothing() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 18).expect("date");
        let rights = |kind: &str| contracts_of("MSFT", kind, 40_000, day).into_iter().map(|c| c.right).collect::<Vec<_>>();
        assert_eq!(rights("STRADDLE"), [Right::Call, Right::Put]);
        assert_eq!(rights("PUT"), [Right::Put]);
        assert!(rights("IRON_CONDOR").is_empty());
    }
}
