//! Valuing portfolios: each position through the engine's model at its current price and
//! volatility, a user's whole book, and the daily value snapshot.

use chrono::{DateTime, NaiveDate, Utc};
use strikeline_engine::portfolio::{
    self as model, ClosedTrade, OpenMark, PositionInput, PositionValuation, RiskPosition, StructureValuation,
};
use strikeline_store::positions::{self, AutomatedRow, HeldSignal, ManualRow};
use strikeline_store::structures::{self, HeldStructure};
use strikeline_store::users::UserRecord;

use super::portfolio_settlement::Pricing;
use crate::foundation::error::{AppError, Result};
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{PositionStatus, SignalKind, stored};

/// What is needed to value one position.
pub struct Holding {
    pub input: PositionInput,
    pub spot: f64,
}

/// A stored manual position as the engine's input, with its current underlying price; `None`
/// when the symbol has no price or volatility yet.
pub async fn manual_holding(
    state: &AppState,
    pricing: &mut Pricing,
    row: &ManualRow,
    sector: &str,
    now: DateTime<Utc>,
) -> Result<Option<Holding>> {
    let Some(&spot) = pricing.spot.get(&row.symbol) else { return Ok(None) };
    let Some(volatility) = pricing.volatility_of(state, &row.symbol, now).await? else { return Ok(None) };
    let kind: SignalKind = stored(&row.position_type, format_args!("manual position {}", row.id))?;
    Ok(Some(Holding {
        input: PositionInput {
            symbol: row.symbol.clone(),
            sector: sector.to_owned(),
            kind: kind.into(),
            strike: dollars(row.strike_cents),
            expiration: row.expiration_date,
            quantity: u32::try_from(row.quantity).unwrap_or(1),
            entry_price: dollars(row.entry_cents),
            volatility,
            opened_on: state.market.today(row.created_at),
            target_price: row.target_cents.map(dollars),
            stop_loss: row.stop_cents.map(dollars),
        },
        spot,
    }))
}

/// An automated position as the engine's input: its signal's contract, volatility and mark.
pub fn automated_holding(state: &AppState, row: &AutomatedRow, signal: &HeldSignal, sector: &str) -> Result<Holding> {
    let kind: SignalKind = stored(&signal.signal_type, format_args!("signal {}", signal.id))?;
    Ok(Holding {
        input: PositionInput {
            symbol: signal.symbol.clone(),
            sector: sector.to_owned(),
            kind: kind.into(),
            strike: dollars(signal.strike_cents),
            expiration: signal.expiration_date,
            quantity: u32::try_from(row.quantity).unwrap_or(1),
            entry_price: dollars(row.entry_cents),
            volatility: signal.volatility,
            opened_on: state.market.today(row.opened_at),
            target_price: Some(dollars(signal.target_cents)),
            stop_loss: Some(dollars(signal.stop_cents)),
        },
        spot: dollars(signal.current_price_cents),
    })
}

/// Values a holding now.
pub fn value(state: &AppState, holding: &Holding, capital: f64, now: DateTime<Utc>) -> Result<PositionValuation> {
    holding
        .input
        .value(holding.spot, state.market.today(now), state.market.assumptions, capital)
        .map_err(|e| AppError::Internal(anyhow::anyhow!("valuing {}: {e}", holding.input.symbol)))
}

/// Every position of `user` valued now: open valuations (with their risk view), closed trades,
/// and the commissions paid on open positions.
pub struct Book {
    /// The open single-leg positions (manual and automated).
    pub open: Vec<PositionValuation>,
    /// The open multi-leg positions.
    pub structures: Vec<HeldValuation>,
    /// Every open position's value and P&L, single-leg and multi-leg.
    pub marks: Vec<OpenMark>,
    pub risk: Vec<RiskPosition>,
    pub closed: Vec<ClosedTrade>,
    pub open_commissions: f64,
    /// The symbol of each of `open`, in the same order.
    pub open_symbols: Vec<String>,
    /// The symbol of each of `closed`, in the same order.
    pub closed_symbols: Vec<String>,
    /// The confidence of the signal behind each open automated position.
    pub open_confidences: Vec<i64>,
}

/// An open multi-leg position valued now.
pub struct HeldValuation {
    pub symbol: String,
    pub valuation: StructureValuation,
}

/// `user_id`'s automated positions (open first, then newest), each with its signal: one
/// query however many positions there are.
pub async fn automated_with_signals(state: &AppState, user_id: &str) -> Result<Vec<(AutomatedRow, HeldSignal)>> {
    Ok(positions::automated_with_signals(&state.db, user_id).await?)
}

/// `user`'s book.
pub async fn book(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Book> {
    Ok(book_and_history(state, user, now).await?.0)
}

/// `user`'s book and their stored daily values (oldest first), from one read of the database.
pub async fn book_and_history(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<(Book, Vec<(NaiveDate, i64)>)> {
    let (mut pricing, stored, held) =
        tokio::try_join!(Pricing::cached(state), async { Ok(positions::account_book(&state.db, &user.account_id).await?) }, async {
            Ok(structures::for_account(&state.db, &user.account_id).await?)
        })?;
    let book = book_of(
        state,
        &mut pricing,
        user.investment_capital_cents,
        Positions { manual: stored.manual, automated: stored.automated, structures: held },
        now,
    )
    .await?;
    Ok((book, stored.history))
}
/// One user's positions as read.
struct Positions {
    manual: Vec<ManualRow>,
    automated: Vec<(AutomatedRow, HeldSignal)>,
    structures: Vec<HeldStructure>,
}

/// The book of an account with `capital_cents` from its positions as read.
async fn book_of(state: &AppState, pricing: &mut Pricing, capital_cents: i64, held: Positions, now: DateTime<Utc>) -> Result<Book> {
    let Positions { manual, automated, structures } = held;
    let capital = dollars(capital_cents);
    let mut book = Book {
        open: Vec::new(),
        structures: Vec::new(),
        marks: Vec::new(),
        risk: Vec::new(),
        closed: Vec::new(),
        open_commissions: 0.0,
        open_symbols: Vec::new(),
        closed_symbols: Vec::new(),
        open_confidences: Vec::new(),
    };
    for row in manual {
        let sector = pricing.sector_of(&row.symbol);
        if row.status == PositionStatus::Open.as_str() {
            let Some(holding) = manual_holding(state, pricing, &row, &sector, now).await? else { continue };
            let v = value(state, &holding, capital, now)?;
            book.risk.push(RiskPosition::from_valuation(&holding.input, &v, holding.spot));
            book.marks.push(OpenMark::from(&v));
            book.open.push(v);
            book.open_symbols.push(row.symbol.clone());
        } else {
            book.closed_symbols.push(row.symbol.clone());
            book.closed.push(ClosedTrade {
                pnl: dollars(row.pnl_cents),
                commissions: 0.0,
                opened_on: state.market.today(row.created_at),
                closed_on: state.market.today(row.closed_at.unwrap_or(row.updated_at)),
            });
        }
    }
    for (row, signal) in automated {
        if row.status == PositionStatus::Open.as_str() {
            let sector = pricing.sector_of(&signal.symbol);
            let holding = automated_holding(state, &row, &signal, &sector)?;
            let v = value(state, &holding, capital, now)?;
            book.risk.push(RiskPosition::from_valuation(&holding.input, &v, holding.spot));
            book.marks.push(OpenMark::from(&v));
            book.open.push(v);
            book.open_symbols.push(signal.symbol.clone());
            book.open_confidences.push(signal.confidence);
            book.open_commissions += dollars(row.commissions_cents);
        } else {
            book.closed_symbols.push(signal.symbol.clone());
            let exit = row.exit_cents.unwrap_or(signal.current_option_cents);
            let gross = dollars((exit - row.entry_cents) * 100 * row.quantity);
            let commissions = dollars(row.commissions_cents);
            book.closed.push(ClosedTrade {
                pnl: gross - commissions,
                commissions,
                opened_on: state.market.today(row.opened_at),
                closed_on: state.market.today(row.closed_at.unwrap_or(row.updated_at)),
            });
        }
    }
    for held in structures {
        let row = &held.row;
        if row.status == PositionStatus::Open.as_str() {
            let Some(valued) = value_structure(state, pricing, &held, now).await? else { continue };
            book.risk.push(valued.risk);
            book.marks.push(OpenMark::from(&valued.valuation));
            book.structures.push(HeldValuation { symbol: row.symbol.clone(), valuation: valued.valuation });
        } else {
            book.closed_symbols.push(row.symbol.clone());
            book.closed.push(ClosedTrade {
                pnl: dollars(row.pnl_cents.unwrap_or(0)),
                commissions: 0.0,
                opened_on: state.market.today(row.created_at),
                closed_on: state.market.today(row.closed_at.unwrap_or(row.updated_at)),
            });
        }
    }
    Ok(book)
}

/// A multi-leg position valued now, with its view in the risk assessment.
pub struct ValuedStructure {
    pub valuation: StructureValuation,
    pub risk: RiskPosition,
}

/// Values a stored multi-leg position now (at its first expiration once that has passed);
/// `None` when its symbol has no price yet. Legs without their own volatility take the
/// stock's estimate, as the strategy builder that priced them did.
pub async fn value_structure(
    state: &AppState,
    pricing: &mut Pricing,
    held: &HeldStructure,
    now: DateTime<Utc>,
) -> Result<Option<ValuedStructure>> {
    let symbol = &held.row.symbol;
    let Some(&spot) = pricing.spot.get(symbol) else { return Ok(None) };
    let volatility = pricing.structure_volatility(state, symbol, now).await?;
    let (holding, valuation) =
        crate::services::structuring::valued(state, held, &pricing.sector_of(symbol), spot, state.market.today(now), volatility)?;
    let risk = holding.risk_position(&valuation, spot);
    Ok(Some(ValuedStructure { valuation, risk }))
}

/// The total value of a book for a user with `capital_cents`, in dollars.
fn total_value(book: &Book, capital_cents: i64) -> f64 {
    model::summary(&book.closed, &book.marks, book.open_commissions, dollars(capital_cents)).total_value
}

/// The user's portfolio value now (capital plus net P&L), in dollars, and their stored daily
/// values (oldest first).
pub async fn value_and_history(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<(f64, Vec<(NaiveDate, i64)>)> {
    let (book, history) = book_and_history(state, user, now).await?;
    Ok((total_value(&book, user.investment_capital_cents), history))
}

/// Stores today's value of every trading account (the base of Sharpe, drawdown and the chart):
/// every position read in three queries for all accounts, the values written in one transaction.
/// Returns how many accounts were valued.
pub async fn snapshot_all(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    use std::collections::HashMap;
    let day = state.market.today(now);
    let accounts = strikeline_store::trading_accounts::all(&state.db).await?;
    let mut pricing = Pricing::load(state).await?;
    let mut manual: HashMap<String, Vec<ManualRow>> = HashMap::new();
    for row in positions::all_manual(&state.db).await? {
        manual.entry(row.account_id.clone()).or_default().push(row);
    }
    let mut automated: HashMap<String, Vec<(AutomatedRow, HeldSignal)>> = HashMap::new();
    for held in positions::all_automated_with_signals(&state.db).await? {
        automated.entry(held.0.account_id.clone()).or_default().push(held);
    }
    let mut held: HashMap<String, Vec<HeldStructure>> = HashMap::new();
    for structure in structures::all(&state.db).await? {
        held.entry(structure.row.account_id.clone()).or_default().push(structure);
    }
    let mut values = Vec::with_capacity(accounts.len());
    for account in &accounts {
        let positions = Positions {
            manual: manual.remove(&account.id).unwrap_or_default(),
            automated: automated.remove(&account.id).unwrap_or_default(),
            structures: held.remove(&account.id).unwrap_or_default(),
        };
        let book = book_of(state, &mut pricing, account.investment_capital_cents, positions, now).await?;
        values.push((account.id.clone(), to_cents(total_value(&book, account.investment_capital_cents))));
    }
    positions::snapshot_values(&state.db, day, &values, now).await?;
    Ok(accounts.len())
}
