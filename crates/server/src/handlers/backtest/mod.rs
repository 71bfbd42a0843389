//! Backtests: the live strategy code run over stored history, overall and by strategy, within
//! the plan's limits (Free: overall over the last year; Pro: full history and by strategy;
//! Premium: also custom strategy parameters).

mod report;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::State;
use chrono::{Duration, NaiveDate};
use serde::{Deserialize, Serialize};
use strikeline_engine::backtest::{BacktestConfig, BacktestReport, Structuring, SymbolSeries, Withheld, try_run_until};
use strikeline_engine::{Strategy, StrategyParams};
use strikeline_store::market;
use strikeline_store::signals::SignalFilter;
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::Plan;
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::limits::{self, RateLimit};
use crate::foundation::session::CurrentUser;

/// Raised when a backtest's request has ended: the work stops at its next check.
pub type Cancel = std::sync::Arc<AtomicBool>;
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::extract::parse_json;
use crate::foundation::input::Symbol;
use crate::foundation::market::engine_bar;
use crate::foundation::money::round2;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{BacktestOutcome, SignalKind, StrategyName, TradedStrategy, Vocabulary, stored};
use crate::services::custom_rules::CustomStrategyDocument;
use crate::services::visibility::ranked_for;

/// Calendar days of history loaded before `startDate` to warm the indicators.
const WARM_UP_DAYS: i64 = 450;
/// Most symbols one backtest may take.
const MAX_SYMBOLS: usize = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(overall)).routes(routes!(by_strategy)).routes(routes!(overall_report))
}

/// Custom strategy parameters (Premium). Each omitted field keeps its default (docs/strategies.md).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParamsRequest {
    pub momentum_rsi_low: Option<f64>,
    pub momentum_rsi_high: Option<f64>,
    pub oversold_rsi: Option<f64>,
    pub overbought_rsi: Option<f64>,
    pub bollinger_multiplier: Option<f64>,
    pub breakout_lookback: Option<usize>,
    pub volume_multiple: Option<f64>,
    pub hv_rank_threshold: Option<f64>,
    pub hv_percentile_threshold: Option<f64>,
    pub target_atr: Option<f64>,
    pub stop_atr: Option<f64>,
    pub straddle_stop_fraction: Option<f64>,
    pub min_days_directional: Option<u32>,
    pub min_days_straddle: Option<u32>,
}

impl ParamsRequest {
    fn apply(&self, p: &mut StrategyParams) {
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { p.$f = v; } )* };
        }
        set!(
            momentum_rsi_low,
            momentum_rsi_high,
            oversold_rsi,
            overbought_rsi,
            bollinger_multiplier,
            breakout_lookback,
            volume_multiple,
            hv_rank_threshold,
            hv_percentile_threshold,
            target_atr,
            stop_atr,
            straddle_stop_fraction,
            min_days_directional,
            min_days_straddle
        );
    }
}

/// What to backtest. Everything is optional: the last year (Free) or the full stored history
/// (Pro, Premium), every tracked symbol, all four strategies, default parameters.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BacktestRequest {
    /// `YYYY-MM-DD`.
    pub start_date: Option<String>,
    /// `YYYY-MM-DD`; default the last stored session.
    pub end_date: Option<String>,
    /// Up to 100 tracked symbols.
    pub symbols: Option<Vec<String>>,
    /// Strategy names.
    pub strategies: Option<Vec<String>>,
    /// Premium only.
    pub params: Option<ParamsRequest>,
    /// Premium only (multi-leg positions): trade CALL and PUT proposals as vertical debit
    /// spreads, the short strike this fraction of the strike further out of the money, on the
    /// listed grid (0.01–0.5; 0.05 = 5%). Absent: every proposal as proposed. STRADDLE
    /// proposals are traded as proposed either way.
    #[schema(minimum = 0.01, maximum = 0.5)]
    pub spread_width: Option<f64>,
    /// Premium only: a custom strategy to trade (docs/strategies.md §11). Traded alone, or
    /// beside the four when `strategies` names some; its trades are named `Custom`.
    pub custom_strategy: Option<CustomStrategyDocument>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EquityPointView {
    pub date: NaiveDate,
    pub equity: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DrawdownPointView {
    pub date: NaiveDate,
    /// Fraction below the running peak (≤ 0).
    pub drawdown: f64,
}

/// One trade of a backtest. A trade of a signal the viewer's plan locks comes back `locked`,
/// with only its symbol, strategy and entry date, and no figure of the backtest counts it: a
/// backtest never reveals what a locked signal recommends or how it did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeView {
    pub symbol: String,
    pub strategy: TradedStrategy,
    pub entry_date: NaiveDate,
    pub signal_type: Option<SignalKind>,
    pub strike: Option<f64>,
    pub expiration: Option<NaiveDate>,
    pub exit_date: Option<NaiveDate>,
    pub entry_price: Option<f64>,
    pub exit_price: Option<f64>,
    pub contracts: Option<u32>,
    pub commissions: Option<f64>,
    /// Net of commissions and slippage, dollars.
    pub pnl: Option<f64>,
    pub outcome: Option<BacktestOutcome>,
    pub confidence: Option<u8>,
    /// Matches a signal beyond the viewer's daily quota.
    pub locked: bool,
    /// A vertical spread's short strike (`spreadWidth`); `strike` is then the long leg's, and
    /// the entry and exit prices are the spread's net premiums per share.
    pub short_strike: Option<f64>,
}

/// The answer to `POST /api/backtest`: the headline figures and advanced metrics, with the curves and trades.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverallBacktest {
    pub total_trades: usize,
    /// Percent.
    pub win_rate: f64,
    pub total_pnl: f64,
    /// Days.
    pub avg_holding_period: f64,
    pub profit_factor: Option<f64>,
    pub sharpe_ratio: Option<f64>,
    /// Largest fall from a peak of equity, a fraction ≤ 0 (−0.12 = 12 % below the peak).
    pub max_drawdown: f64,
    pub recovery_factor: Option<f64>,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub symbols: usize,
    pub initial_capital: f64,
    pub final_equity: f64,
    pub equity_curve: Vec<EquityPointView>,
    pub drawdown: Vec<DrawdownPointView>,
    /// Trades of signals the viewer's plan locks: listed `locked`, counted in no figure above.
    pub locked_trades: usize,
    pub trades: Vec<TradeView>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StrategySummary {
    pub total_trades: usize,
    pub win_rate: f64,
    pub total_pnl: f64,
    pub avg_pnl: f64,
    pub winning_trades: usize,
    pub losing_trades: usize,
    pub profit_factor: Option<f64>,
}

/// One strategy's result in `POST /api/backtest/strategy`: its summary and its own equity curve.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StrategyBacktest {
    pub strategy: TradedStrategy,
    pub summary: StrategySummary,
    pub equity_curve: Vec<EquityPointView>,
}

fn date(field: &str, raw: Option<&str>, errors: &mut Vec<FieldError>) -> Option<NaiveDate> {
    let raw = raw.map(str::trim).filter(|r| !r.is_empty())?;
    crate::foundation::input::date(field, raw).map_err(|e| errors.push(e)).ok()
}

/// Checks the request against the plan and the stored history; loads the series.
async fn prepare(
    state: &AppState,
    plan: Plan,
    request: &BacktestRequest,
    by_strategy: bool,
) -> Result<(BacktestConfig, Vec<SymbolSeries>)> {
    let rights = Entitlements::for_plan(plan);
    if by_strategy {
        rights.require(Capability::BacktestByStrategy)?;
    }
    if request.params.is_some() {
        rights.require(Capability::CustomStrategyParams)?;
    }
    if request.spread_width.is_some() {
        rights.require(Capability::StrategyBuilder)?;
    }
    if request.custom_strategy.is_some() {
        rights.require(Capability::CustomStrategies)?;
    }
    let mut errors = Vec::new();
    let start = date("startDate", request.start_date.as_deref(), &mut errors);
    let end = date("endDate", request.end_date.as_deref(), &mut errors);
    let stocks = market::list_stocks(&state.db).await?;
    let symbols: Vec<String> = match &request.symbols {
        None => stocks.iter().map(|s| s.symbol.clone()).collect(),
        Some(list) if list.len() > MAX_SYMBOLS => {
            errors.push(FieldError::new("symbols", format!("At most {MAX_SYMBOLS} symbols")));
            Vec::new()
        }
        Some(list) => {
            let mut chosen = Vec::new();
            for raw in list {
                let raw: String = raw.chars().take(12).collect();
                match Symbol::parse(&raw) {
                    Ok(s) if stocks.iter().any(|t| t.symbol == s.as_str()) => chosen.push(s.into_string()),
                    _ => errors.push(FieldError::new("symbols", format!("{raw:?} is not in the watchlist"))),
                }
            }
            chosen.sort();
            chosen.dedup();
            if chosen.is_empty() && errors.is_empty() {
                errors.push(FieldError::new("symbols", "Choose at least one symbol"));
            }
            chosen
        }
    };
    if symbols.len() > MAX_SYMBOLS {
        errors.push(FieldError::new("symbols", format!("At most {MAX_SYMBOLS} symbols")));
    }
    let custom = match request.custom_strategy.as_ref().map(|doc| doc.to_engine("customStrategy")) {
        Some(Err(AppError::Validation(mistakes))) => {
            errors.extend(mistakes);
            None
        }
        Some(other) => Some(other?),
        None => None,
    };
    let mut strategies: Vec<Strategy> = match &request.strategies {
        None if custom.is_some() => Vec::new(),
        None => Strategy::ALL.to_vec(),
        Some(list) => {
            let parsed: Vec<Strategy> = list.iter().filter_map(|s| s.parse::<StrategyName>().ok().map(Strategy::from)).collect();
            if parsed.len() != list.len() || parsed.is_empty() {
                errors.push(FieldError::new("strategies", format!("Use {}", StrategyName::NAMES.join(", "))));
            }
            // Each strategy once, however often it was named.
            Strategy::ALL.into_iter().filter(|s| parsed.contains(s)).collect()
        }
    };
    if custom.is_some() {
        strategies.push(Strategy::Custom);
    }
    let mut params = StrategyParams::DEFAULT;
    if let Some(custom) = &request.params {
        custom.apply(&mut params);
        if let Err(e) = params.validate() {
            errors.push(FieldError::new(format!("params.{}", camel(e.field)), format!("Must be between {} and {}", e.min, e.max)));
        }
    }
    let structuring = match request.spread_width {
        None => Structuring::Single,
        Some(width) if (0.01..=0.5).contains(&width) => Structuring::Vertical { width },
        Some(_) => {
            errors.push(FieldError::new("spreadWidth", "From 0.01 to 0.5 (1% to 50% of the strike)"));
            Structuring::Single
        }
    };
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let now = state.clock.now();
    let last = state.market.last_completed_day(now);
    // A plan without full history gets the year before the last session, whatever the
    // request's end date: the window is fixed by the data, not by what the request says.
    let window_start =
        if rights.allows(Capability::BacktestFullHistory) { crate::foundation::input::EARLIEST_DATE } else { last - Duration::days(365) };
    let end = end.unwrap_or(last).min(last);
    let start = start.unwrap_or(if rights.allows(Capability::BacktestFullHistory) { end - Duration::days(365 * 10) } else { window_start });
    if start < window_start || end < window_start {
        return Err(AppError::Forbidden(format!("Your plan backtests {window_start} to {last}; longer histories need Pro.")));
    }
    if start >= end {
        return Err(AppError::field("startDate", "Must be before the end date"));
    }
    let mut series = Vec::with_capacity(symbols.len());
    for symbol in &symbols {
        let bars = market::bars(&state.db, symbol, start - Duration::days(WARM_UP_DAYS), end).await?;
        series.push(SymbolSeries { symbol: symbol.clone(), bars: bars.iter().map(engine_bar).collect() });
    }
    let mut config = BacktestConfig::new(start, end);
    config.strategies = strategies;
    config.custom = custom;
    config.params = params;
    config.assumptions = state.market.assumptions;
    config.commission_per_contract = state.config.portfolio.commission_per_contract;
    config.slippage = state.config.portfolio.backtest_slippage;
    config.initial_capital = state.config.portfolio.backtest_initial_capital;
    config.structuring = structuring;
    Ok((config, series))
}

/// The request body, which may be left out entirely (as the web app's buttons do).
fn optional_body(bytes: &[u8]) -> Result<BacktestRequest> {
    if bytes.iter().all(u8::is_ascii_whitespace) { Ok(BacktestRequest::default()) } else { parse_json(bytes) }
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs the engine off the async runtime.
async fn run(state: &AppState, config: BacktestConfig, series: Vec<SymbolSeries>, cancel: &Cancel) -> Result<BacktestReport> {
    if cancel.load(Ordering::SeqCst) {
        return Err(AppError::Unavailable("The backtest was stopped.".into()));
    }
    let market = state.market.clone();
    let stop = cancel.clone();
    tokio::task::spawn_blocking(move || {
        let picker = |from: NaiveDate, min_days: u32| market.expiration(from, min_days);
        try_run_until(&config, &series, &picker, &|| stop.load(Ordering::Relaxed))
    })
    .await
    .map_err(|e| AppError::Internal(anyhow::anyhow!("backtest task: {e}")))?
    .map_err(|e| AppError::field(&format!("params.{}", camel(e.field)), &e.to_string()))?
    .ok_or_else(|| AppError::Unavailable("The backtest was stopped.".into()))
}

fn curve(report: &BacktestReport) -> Vec<EquityPointView> {
    report.equity_curve.iter().map(|p| EquityPointView { date: p.date, equity: round2(p.equity) }).collect()
}

/// Runs the four strategies (or those chosen) over stored history, as the live engine would
/// have: the overall result with the equity curve, drawdowns and every trade. Backtested,
/// model-priced options: not a promise of future results.
#[utoipa::path(
    post, path = "/api/backtest", tag = "backtest",
    request_body = BacktestRequest,
    responses(
        (status = 200, body = OverallBacktest),
        (status = 403, description = "Beyond the plan (range or parameters)", body = crate::foundation::error::Problem),
        (status = 422, description = "A field is not valid", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many backtests, or one of yours is still running; see Retry-After", body = crate::foundation::error::Problem),
        (status = 503, description = "The server is at capacity, or the backtest ran too long; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn overall(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: axum::body::Bytes,
) -> Result<(RateLimit, axum::Json<OverallBacktest>)> {
    let request = optional_body(&body)?;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::BACKTEST, &user.id, now).await?;
    let slot = state.capacity.heavy_slot(&user.id).await?;
    let locked = LockedSignals::for_viewer(&state, &user, now).await?;
    let work = overall_result(&state, Plan::of(&user, now), &request, &locked, &slot.cancel);
    Ok((limit, axum::Json(within_time(&state, work).await?)))
}

/// Stops `work` when it runs past the configured time (its slot's cancel flag is raised when
/// the slot is dropped, which the engine run checks).
async fn within_time<T>(state: &AppState, work: impl std::future::Future<Output = Result<T>>) -> Result<T> {
    let limit = state.capacity.heavy_job_time;
    tokio::time::timeout(limit, work).await.unwrap_or_else(|_| {
        Err(AppError::Unavailable(format!(
            "The backtest took longer than {} seconds and was stopped. Choose fewer symbols or a shorter range.",
            limit.as_secs()
        )))
    })
}

/// The signals a viewer's plan locks, as (symbol, strategy, day): their setups are withheld
/// from the viewer's backtests, so that no trade, total, curve or statistic reveals them.
#[derive(Debug, Default)]
pub struct LockedSignals(HashSet<(String, StrategyName, NaiveDate)>);

/// A trade entered this many days around a locked signal's day counts as that signal (the live
/// engine issues on the session in progress, the backtest on the completed bar; weekends lie
/// between).
const MATCH_DAYS: i64 = 4;

impl LockedSignals {
    /// Nothing locked (the command line, which shows everything).
    pub fn none() -> Self {
        LockedSignals::default()
    }

    pub async fn for_viewer(state: &AppState, user: &UserRecord, now: chrono::DateTime<chrono::Utc>) -> Result<Self> {
        if Entitlements::of(user, now).signals_per_day.is_none() {
            return Ok(LockedSignals::none());
        }
        let filter = SignalFilter { limit: i64::MAX, ..SignalFilter::default() };
        let rows = ranked_for(state, user, &filter, now).await?;
        let mut hidden = HashSet::new();
        for (row, _) in rows.into_iter().filter(|(_, locked)| *locked) {
            let strategy: StrategyName = stored(&row.strategy, format_args!("signal {}", row.id))?;
            hidden.insert((row.symbol, strategy, row.issued_on));
        }
        Ok(LockedSignals(hidden))
    }

    /// The setups to withhold: a proposal of a locked signal's symbol and strategy within
    /// [`MATCH_DAYS`] of its day.
    pub fn withheld(&self) -> Vec<Withheld> {
        let mut out: Vec<Withheld> = self
            .0
            .iter()
            .map(|(symbol, strategy, day)| Withheld {
                symbol: symbol.clone(),
                strategy: Strategy::from(*strategy),
                from: *day - Duration::days(MATCH_DAYS),
                to: *day + Duration::days(MATCH_DAYS),
            })
            .collect();
        out.sort_by(|a, b| (&a.symbol, a.from).cmp(&(&b.symbol, b.from)));
        out
    }
}

/// The overall backtest of `request` within `plan`'s limits (also `strikeline backtest`);
/// setups of signals in `locked` are withheld: listed as locked trades, in no figure.
pub async fn overall_result(
    state: &AppState,
    plan: Plan,
    request: &BacktestRequest,
    locked: &LockedSignals,
    cancel: &Cancel,
) -> Result<OverallBacktest> {
    let (mut config, series) = prepare(state, plan, request, false).await?;
    config.withheld = locked.withheld();
    let (start, end, symbols) = (config.start, config.end, series.len());
    let report = run(state, config, series, cancel).await?;
    let o = report.overall;
    Ok(OverallBacktest {
        total_trades: o.total_trades,
        win_rate: round2(o.win_rate),
        total_pnl: round2(o.total_pnl),
        avg_holding_period: (o.avg_holding_period * 10.0).round() / 10.0,
        profit_factor: o.profit_factor.map(round2),
        sharpe_ratio: o.sharpe_ratio.map(round2),
        max_drawdown: (o.max_drawdown * 10_000.0).round() / 10_000.0,
        recovery_factor: o.recovery_factor.map(round2),
        start_date: start,
        end_date: end,
        symbols,
        initial_capital: round2(report.initial_capital),
        final_equity: round2(report.final_equity),
        equity_curve: curve(&report),
        drawdown: report
            .drawdown
            .iter()
            .map(|p| DrawdownPointView { date: p.date, drawdown: (p.drawdown * 10_000.0).round() / 10_000.0 })
            .collect(),
        locked_trades: report.withheld.len(),
        trades: trade_views(&report),
    })
}

/// The trades as shown: every traded one, and each withheld one as `locked` with only its
/// symbol, strategy and entry date, all by exit date.
fn trade_views(report: &BacktestReport) -> Vec<TradeView> {
    let shown = report.trades.iter().map(|t| {
        let view = TradeView {
            symbol: t.symbol.clone(),
            strategy: t.strategy.into(),
            entry_date: t.entry_date,
            signal_type: Some(t.signal_type.into()),
            strike: Some(t.strike),
            expiration: Some(t.expiration),
            exit_date: Some(t.exit_date),
            entry_price: Some(round2(t.entry_price)),
            exit_price: Some(round2(t.exit_price)),
            contracts: Some(t.contracts),
            commissions: Some(round2(t.commissions)),
            pnl: Some(round2(t.pnl)),
            outcome: Some(t.outcome.into()),
            confidence: Some(t.confidence),
            locked: false,
            short_strike: t.short_strike,
        };
        (t.exit_date, view)
    });
    let withheld = report.withheld.iter().map(|w| {
        let view = TradeView {
            symbol: w.symbol.clone(),
            strategy: w.strategy.into(),
            entry_date: w.entry_date,
            signal_type: None,
            strike: None,
            expiration: None,
            exit_date: None,
            entry_price: None,
            exit_price: None,
            contracts: None,
            commissions: None,
            pnl: None,
            outcome: None,
            confidence: None,
            locked: true,
            short_strike: None,
        };
        (w.exit_date, view)
    });
    let mut all: Vec<(NaiveDate, TradeView)> = shown.chain(withheld).collect();
    // Stable: the engine's order within a day.
    all.sort_by_key(|(exit, _)| *exit);
    all.into_iter().map(|(_, view)| view).collect()
}

/// Runs each strategy on its own over the same history (Pro and Premium).
#[utoipa::path(
    post, path = "/api/backtest/strategy", tag = "backtest",
    request_body = BacktestRequest,
    responses(
        (status = 200, body = Vec<StrategyBacktest>),
        (status = 403, description = "Free plan, or parameters without Premium", body = crate::foundation::error::Problem),
        (status = 422, description = "A field is not valid", body = crate::foundation::error::Problem),
        (status = 429, description = "Too many backtests, or one of yours is still running; see Retry-After", body = crate::foundation::error::Problem),
        (status = 503, description = "The server is at capacity, or the backtest ran too long; see Retry-After", body = crate::foundation::error::Problem),
    )
)]
async fn by_strategy(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: axum::body::Bytes,
) -> Result<(RateLimit, axum::Json<Vec<StrategyBacktest>>)> {
    let now = state.clock.now();
    let plan = Plan::of(&user, now);
    // A plan without the feature hears so whatever it sent, before any field is judged.
    Entitlements::for_plan(plan).require(Capability::BacktestByStrategy)?;
    let request = optional_body(&body)?;
    let limit = limits::hit(&state, limits::BACKTEST, &user.id, now).await?;
    let slot = state.capacity.heavy_slot(&user.id).await?;
    let locked = LockedSignals::for_viewer(&state, &user, now).await?;
    let work = strategy_results(&state, plan, &request, &locked, &slot.cancel);
    Ok((limit, axum::Json(within_time(&state, work).await?)))
}

/// Each strategy of `request` backtested on its own, within `plan`'s limits; setups of signals
/// in `locked` are withheld (in no figure).
pub async fn strategy_results(
    state: &AppState,
    plan: Plan,
    request: &BacktestRequest,
    locked: &LockedSignals,
    cancel: &Cancel,
) -> Result<Vec<StrategyBacktest>> {
    let (mut config, series) = prepare(state, plan, request, true).await?;
    config.withheld = locked.withheld();
    let mut results = Vec::new();
    for strategy in config.strategies.clone() {
        let mut one = config.clone();
        one.strategies = vec![strategy];
        let report = run(state, one, series.clone(), cancel).await?;
        let s = report.by_strategy.iter().find(|r| r.strategy == strategy).copied();
        let summary = match s {
            Some(s) => StrategySummary {
                total_trades: s.total_trades,
                win_rate: round2(s.win_rate),
                total_pnl: round2(s.total_pnl),
                avg_pnl: round2(s.avg_pnl),
                winning_trades: s.winning_trades,
                losing_trades: s.losing_trades,
                profit_factor: s.profit_factor.map(round2),
            },
            None => StrategySummary {
                total_trades: 0,
                win_rate: 0.0,
                total_pnl: 0.0,
                avg_pnl: 0.0,
                winning_trades: 0,
                losing_trades: 0,
                profit_factor: None,
            },
        };
        results.push(StrategyBacktest { strategy: strategy.into(), summary, equity_curve: curve(&report) });
    }
    Ok(results)
}

/// The backtest `POST /api/backtest` runs for the same request, as a PDF report in the
/// account's brand: the headline figures, the equity and drawdown curves and every trade
/// (docs/reports.md). Counts against both the backtest and the report limits.
#[utoipa::path(
    post, path = "/api/backtest/report", tag = "reports",
    request_body = BacktestRequest,
    responses(
        (status = 200, description = "The report", content_type = "application/pdf", body = crate::foundation::views::FileBytes),
        (status = 403, description = "Beyond the plan (range or parameters)", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is not valid", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many backtests or reports, or one of yours is still running; see Retry-After", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
        (status = 503, description = "The server is at capacity, or the backtest ran too long; see Retry-After", body = crate::foundation::error::Problem, content_type = "application/problem+json"),
    )
)]
async fn overall_report(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: axum::body::Bytes,
) -> Result<impl axum::response::IntoResponse> {
    let request = optional_body(&body)?;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::REPORT, &user.id, now).await?;
    limits::hit(&state, limits::BACKTEST, &user.id, now).await?;
    let slot = state.capacity.heavy_slot(&user.id).await?;
    let locked = LockedSignals::for_viewer(&state, &user, now).await?;
    let work = overall_result(&state, Plan::of(&user, now), &request, &locked, &slot.cancel);
    let result = within_time(&state, work).await?;
    drop(slot);
    let brand = crate::services::reporting::brand_for(&state, &user, now).await?;
    let money = crate::foundation::money::display_money(&state, &user).await;
    let pdf = crate::services::reporting::render(report::backtest(&result, money, now), brand).await?;
    Ok((limit, crate::foundation::views::PdfDownload::new("backtest-report", now, pdf)))
}
