//! `strikeline seed --scale year|small`: a year of generated data for load benchmarks (issue
//! 12): users on a mix of plans, automated signals issued over the last year and how each one
//! ended, signals generated on demand, automated and manual positions, daily portfolio values,
//! and a known benchmark account to sign in with.
//!
//! Prices come from the simulated market of `market.seed` (the server's offline default), and
//! the signals go through the server's own code where it matters: the watchlist is the one the
//! server tracks on first start ([`ensure_universe`]), history and quotes are loaded as a first
//! start loads them, every signal is marked at each session's close with the server's
//! [`mark_row`] until its target, stop or expiry ends it, and the open automated positions are
//! the ones the automation's allocation rule ([`automated_allocation`]) would have opened for
//! each user from the signals their plan shows. So `strikeline serve` on a seeded database finds
//! it as its own automation would have left it, and only brings prices, marks and signals up to
//! the minute.
//!
//! Generation is deterministic (a fixed seed; ids too) for a given last completed session;
//! the rows are written with the store's bulk loader ([`strikeline_store::seed`]) in one
//! transaction, then the automated signals are ranked per day.
//!
//! Password hashing is deliberately slow (argon2id), so one password is hashed once and the
//! same PHC string is stored for every generated account: they all sign in with
//! [`BENCH_PASSWORD`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use strikeline_engine::portfolio::{AllocationSignal, InvestmentPreferences, automated_allocation};
use strikeline_engine::{
    SignalType, Strategy, StrategyParams, StrikeChoice, mark, pick_strike, pricing_volatility, round_cents, strike_choice, years_between,
};
use strikeline_market::simulated::SimulatedMarket;
use strikeline_quant::{BlackScholes, OptionInputs};
use strikeline_store::market::{self as market_store, StockRow};
use strikeline_store::positions::{AutomatedRow, ManualRow};
use strikeline_store::seed::{self as store, PortfolioSnapshot, SeedBatch, SeedCounts, TableCounts};
use strikeline_store::signals::{self as signal_store, SignalRow};
use strikeline_store::users::{self as user_store, UserRecord};
use strikeline_store::{Db, StoreError};

use crate::foundation::config::Config;
use crate::foundation::entitlements::{Capability, Entitlements, Plan};
use crate::foundation::error::AppError;
use crate::foundation::market::Market;
use crate::foundation::money::{dollars, to_cents};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{PositionStatus, Provenance, SignalKind, SignalStatus, SubscriptionStatus};
use crate::handlers::auth::password;
use crate::services::market_refresh::{catch_up_history, ensure_universe, refresh_prices};
use crate::services::portfolio_settlement::manual_open_signal;
use crate::services::signal_issuing::mark_row;
use crate::services::signal_issuing::{STANDARD_COMMISSION_CENTS, STANDARD_SLIPPAGE_BP};

/// The benchmark account every seed creates (plan Pro, active, no end date).
pub const BENCH_EMAIL: &str = "bench@strikeline.test";
/// Its username.
pub const BENCH_USERNAME: &str = "bench";
/// The password of the benchmark account and of every generated account.
pub const BENCH_PASSWORD: &str = "bench-password-1";
/// Where generated accounts' emails live: `user00001@seed.strikeline.test`, ….
pub const USER_EMAIL_DOMAIN: &str = "seed.strikeline.test";

/// The generator's fixed seed (same seed and same last session, same rows and ids).
const RNG_SEED: u64 = 0x5EED_0000_0012;

/// How much to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scale {
    /// A year: 10,000 users, ~4,000 automated and 50,000 on-demand signals, 100,000 positions.
    Year,
    /// The same shapes scaled down, for tests: 50 users, 60 + 200 signals, 400 positions.
    Small,
}

impl Scale {
    /// The sizes of this scale.
    pub fn sizes(self) -> Sizes {
        match self {
            Scale::Year => Sizes {
                users: 10_000,
                trading_days: 250,
                automated_signals: 4_000,
                on_demand_signals: 50_000,
                automated_positions: 60_000,
                manual_positions: 40_000,
                snapshot_every: 100,
                snapshot_recent_days: 30,
            },
            Scale::Small => Sizes {
                users: 50,
                trading_days: 30,
                automated_signals: 60,
                on_demand_signals: 200,
                automated_positions: 240,
                manual_positions: 160,
                snapshot_every: 10,
                snapshot_recent_days: 10,
            },
        }
    }

    fn name(self) -> &'static str {
        match self {
            Scale::Year => "year",
            Scale::Small => "small",
        }
    }
}

/// What a scale generates. Counts are targets: the automated signals and positions can fall a
/// little short when the rules leave too few candidates (see [`SeedSummary`] for what was
/// written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Accounts, the benchmark account included.
    pub users: usize,
    /// Trading sessions covered, ending with the last completed one.
    pub trading_days: usize,
    pub automated_signals: usize,
    pub on_demand_signals: usize,
    /// Automated (paper) positions, open and closed.
    pub automated_positions: usize,
    pub manual_positions: usize,
    /// Every n-th generated user gets daily portfolio values for the last
    /// `snapshot_recent_days` sessions (the benchmark account gets every session).
    pub snapshot_every: usize,
    pub snapshot_recent_days: usize,
}

/// Why a seed did not run.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    #[error("{BENCH_EMAIL} already exists: this database has been seeded already; seed a fresh database")]
    AlreadySeeded,
    #[error("the database already holds {0} signal(s); seed a fresh database (one `strikeline serve` has not started yet)")]
    NotEmpty(i64),
    #[error("no price history for any symbol of the watchlist")]
    NoPrices,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    App(#[from] AppError),
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// What a seed wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedSummary {
    pub scale: Scale,
    /// Rows written by the bulk load, per table.
    pub written: SeedCounts,
    /// Rows in the seeded tables afterwards (the watchlist and history included).
    pub tables: TableCounts,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
    pub trading_days: usize,
    /// Automated signals still active at the last session.
    pub active_signals: usize,
    pub open_automated_positions: usize,
    pub bench_email: String,
    pub bench_open_positions: usize,
    pub bench_closed_positions: usize,
    pub bench_manual_positions: usize,
    pub bench_snapshots: usize,
    pub elapsed: StdDuration,
}

impl fmt::Display for SeedSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.written;
        let t = &self.tables;
        writeln!(f, "seeded scale `{}`: {} trading days, {} to {}", self.scale.name(), self.trading_days, self.first_day, self.last_day)?;
        writeln!(f, "  users                 {:>7}", w.users)?;
        writeln!(f, "  automated signals     {:>7}  ({} active)", t.automated_signals, self.active_signals)?;
        writeln!(f, "  on-demand signals     {:>7}", t.on_demand_signals)?;
        writeln!(f, "  automated positions   {:>7}  ({} open)", w.automated_positions, self.open_automated_positions)?;
        writeln!(f, "  manual positions      {:>7}", w.manual_positions)?;
        writeln!(f, "  portfolio snapshots   {:>7}", w.snapshots)?;
        writeln!(f, "  watchlist symbols     {:>7}  ({} daily bars)", t.stocks, t.bars)?;
        writeln!(
            f,
            "bench account: {} / {} (pro; {} open and {} closed automated positions, {} manual, {} daily values)",
            self.bench_email,
            BENCH_PASSWORD,
            self.bench_open_positions,
            self.bench_closed_positions,
            self.bench_manual_positions,
            self.bench_snapshots
        )?;
        writeln!(f, "done in {:.1} s", self.elapsed.as_secs_f64())
    }
}

/// Seeds `db` at `scale` as of `now`: the watchlist, its history and quotes (as a first start
/// of the server loads them, from the simulated market of `config.market.seed`), then the
/// generated users, signals, positions and snapshots in one transaction, then each day's
/// signal ranks. Refuses a database that has the benchmark account or any signal already.
pub async fn seed(db: &Db, config: &Config, scale: Scale, now: DateTime<Utc>) -> Result<SeedSummary, SeedError> {
    let started = Instant::now();
    if user_store::find_by_email(db, BENCH_EMAIL).await?.is_some() {
        return Err(SeedError::AlreadySeeded);
    }
    let existing = store::signal_count(db).await?;
    if existing > 0 {
        return Err(SeedError::NotEmpty(existing));
    }
    let sizes = scale.sizes();
    let state = seeding_state(db, config);
    ensure_universe(&state, now).await?;
    catch_up_history(&state, now).await?;
    refresh_prices(&state, now).await?;
    let stocks = market_store::list_stocks(db).await?;
    tracing::info!(symbols = stocks.len(), seconds = started.elapsed().as_secs_f64(), "seed: watchlist, history and quotes ready");
    // One hash for every account: argon2id is slow on purpose.
    let password_hash = password::hash_async(&state.capacity, BENCH_PASSWORD.to_owned()).await?;

    let phase = Instant::now();
    let generator_state = state.clone();
    let data = tokio::task::spawn_blocking(move || generate(&generator_state, &stocks, sizes, &password_hash, now))
        .await
        .map_err(|e| anyhow::anyhow!("the generator stopped: {e}"))??;
    tracing::info!(seconds = phase.elapsed().as_secs_f64(), "seed: rows generated");

    let phase = Instant::now();
    market_store::set_volatilities(db, &data.volatilities).await?;
    let written = store::insert(
        db,
        &SeedBatch {
            users: &data.users,
            signals: &data.signals,
            manual_positions: &data.manual,
            automated_positions: &data.automated,
            snapshots: &data.snapshots,
        },
    )
    .await?;
    tracing::info!(seconds = phase.elapsed().as_secs_f64(), "seed: rows written");
    let phase = Instant::now();
    signal_store::rerank_days(db, &data.ranked_days).await?;
    tracing::info!(days = data.ranked_days.len(), seconds = phase.elapsed().as_secs_f64(), "seed: automated signals ranked");
    let phase = Instant::now();
    db.refresh_statistics().await?;
    tracing::info!(seconds = phase.elapsed().as_secs_f64(), "seed: planner statistics refreshed");
    let tables = store::table_counts(db).await?;
    Ok(SeedSummary {
        scale,
        written,
        tables,
        first_day: data.first_day,
        last_day: data.last_day,
        trading_days: data.trading_days,
        active_signals: data.active_signals,
        open_automated_positions: data.open_automated,
        bench_email: BENCH_EMAIL.to_owned(),
        bench_open_positions: data.bench_open,
        bench_closed_positions: data.bench_closed,
        bench_manual_positions: data.bench_manual,
        bench_snapshots: data.bench_snapshots,
        elapsed: started.elapsed(),
    })
}

/// The application state the services need, over `db` and the simulated market of
/// `config.market.seed` (seeding never calls a vendor).
fn seeding_state(db: &Db, config: &Config) -> AppState {
    let simulated = Arc::new(SimulatedMarket::new(config.market.seed));
    let market = Arc::new(Market::with_provider(simulated, config.market.risk_free_rate));
    crate::state_on(db.clone(), config.clone(), market)
}

/// Everything generated, ready for the bulk load.
struct Generated {
    users: Vec<UserRecord>,
    signals: Vec<SignalRow>,
    manual: Vec<ManualRow>,
    automated: Vec<AutomatedRow>,
    snapshots: Vec<PortfolioSnapshot>,
    volatilities: Vec<(String, f64)>,
    ranked_days: Vec<NaiveDate>,
    first_day: NaiveDate,
    last_day: NaiveDate,
    trading_days: usize,
    active_signals: usize,
    open_automated: usize,
    bench_open: usize,
    bench_closed: usize,
    bench_manual: usize,
    bench_snapshots: usize,
}

/// A session of the window.
struct Day {
    date: NaiveDate,
    open: DateTime<Utc>,
    close: DateTime<Utc>,
}

/// A symbol's prices over the window, one entry per session, with what the strategies would
/// read before that session opens (the indicators end with the previous close).
struct Series {
    symbol: String,
    company_name: String,
    open: Vec<f64>,
    close: Vec<f64>,
    prev_close: Vec<f64>,
    hv20: Vec<f64>,
    atr14: Vec<f64>,
    rsi14: Vec<f64>,
    trend10: Vec<f64>,
    volume: Vec<i64>,
    /// The pricing volatility after the last session (the watchlist's estimate).
    volatility_now: f64,
}

/// A generated account and what the generator needs to know about it.
struct Member {
    record: UserRecord,
    plan: Plan,
    /// The first session the account can act in.
    join_day: usize,
    quota: Option<u32>,
    prefs: InvestmentPreferences,
}

/// The share of Free, Pro and Premium accounts (the rest of 1.0 is Premium).
const FREE_SHARE: f64 = 0.6;
const PRO_SHARE: f64 = 0.3;

const FIRST_NAMES: &[&str] = &[
    "Ada",
    "Grace",
    "Alan",
    "Edsger",
    "Barbara",
    "Donald",
    "Margaret",
    "Ken",
    "Frances",
    "Dennis",
    "Radia",
    "Niklaus",
    "Katherine",
    "John",
    "Hedy",
    "Claude",
    "Sophie",
    "Tim",
    "Anita",
    "Linus",
];
const LAST_NAMES: &[&str] = &[
    "Lovelace",
    "Hopper",
    "Turing",
    "Dijkstra",
    "Liskov",
    "Knuth",
    "Hamilton",
    "Thompson",
    "Allen",
    "Ritchie",
    "Perlman",
    "Wirth",
    "Johnson",
    "Backus",
    "Lamarr",
    "Shannon",
    "Wilson",
    "Berners-Lee",
    "Borg",
    "Torvalds",
];

struct Generator<'a> {
    state: &'a AppState,
    rng: StdRng,
    params: StrategyParams,
    commission_cents: i64,
    days: Vec<Day>,
    day_index: HashMap<NaiveDate, usize>,
    series: Vec<Series>,
}

fn generate(state: &AppState, stocks: &[StockRow], sizes: Sizes, password_hash: &str, now: DateTime<Utc>) -> Result<Generated, SeedError> {
    let last = state.market.last_completed_day(now);
    let days = window(state, last, sizes.trading_days.max(2));
    let simulated = SimulatedMarket::new(state.config.market.seed);
    let series: Vec<Series> = stocks.iter().filter_map(|stock| series_of(&simulated, stock, &days)).collect();
    if series.is_empty() {
        return Err(SeedError::NoPrices);
    }
    let day_index = days.iter().enumerate().map(|(i, d)| (d.date, i)).collect();
    let mut g = Generator {
        state,
        rng: StdRng::seed_from_u64(RNG_SEED),
        params: StrategyParams::default(),
        commission_cents: to_cents(state.config.portfolio.commission_per_contract),
        days,
        day_index,
        series,
    };
    let members = g.members(sizes, password_hash, now);

    // Automated signals, day by day; a symbol and strategy issues again only once its previous
    // signal has ended (as the live engine does), so what is still active is unique per setup.
    let (mut signals, automated_strategy) = g.automated_signals(sizes.automated_signals);
    let automated_count = signals.len();
    let ranks = day_ranks(&signals);
    let mut ranked_days: Vec<NaiveDate> = signals.iter().map(|s| s.issued_on).collect();
    ranked_days.sort_unstable();
    ranked_days.dedup();

    // On demand: Pro and Premium accounts generate them (the plan capability), each for a
    // session after they joined.
    let (on_demand, own_per_day) = g.on_demand_signals(&members, sizes.on_demand_signals);
    signals.extend(on_demand);

    let automated_view: Vec<AutomatedSignal> = (0..automated_count)
        .map(|i| AutomatedSignal {
            index: i,
            strategy: automated_strategy[i],
            rank: ranks[i],
            day: g.day_index.get(&signals[i].issued_on).copied().unwrap_or(0),
        })
        .collect();
    let (mut automated, mut holders) = g.open_positions(&members, &signals, &automated_view, &own_per_day);
    let open_automated = automated.len();
    let (closed, closed_holders) =
        g.closed_positions(&members, &signals, &automated_view, &own_per_day, sizes.automated_positions.saturating_sub(open_automated));
    automated.extend(closed);
    holders.extend(closed_holders);

    let (manual, manual_holders) = g.manual_positions(&members, sizes.manual_positions);
    let snapshots = g.snapshots(&members, sizes, &automated, &holders, &manual, &manual_holders, now);

    let bench_id = &members[0].record.id;
    let bench_open = automated.iter().filter(|p| &p.user_id == bench_id && p.status == PositionStatus::Open.as_str()).count();
    let bench_closed = automated.iter().filter(|p| &p.user_id == bench_id && p.status != PositionStatus::Open.as_str()).count();
    let bench_manual = manual.iter().filter(|p| &p.user_id == bench_id).count();
    let bench_snapshots = snapshots.iter().filter(|s| &s.user_id == bench_id).count();
    let active_signals = signals[..automated_count].iter().filter(|s| s.status == SignalStatus::Active.as_str()).count();
    let volatilities = g.series.iter().map(|s| (s.symbol.clone(), s.volatility_now)).collect();
    Ok(Generated {
        users: members.into_iter().map(|m| m.record).collect(),
        signals,
        manual,
        automated,
        snapshots,
        volatilities,
        ranked_days,
        first_day: g.days[0].date,
        last_day: last,
        trading_days: g.days.len(),
        active_signals,
        open_automated,
        bench_open,
        bench_closed,
        bench_manual,
        bench_snapshots,
    })
}

/// The last `count` sessions through `last`, oldest first.
fn window(state: &AppState, last: NaiveDate, count: usize) -> Vec<Day> {
    let calendar = &state.market.calendar;
    let mut dates = vec![last];
    while dates.len() < count {
        let previous = calendar.previous_trading_day(dates[dates.len() - 1]);
        dates.push(previous);
    }
    dates.reverse();
    dates.into_iter().filter_map(|date| calendar.session(date).map(|s| Day { date, open: s.open, close: s.close })).collect()
}

/// The prices of `stock` over `days`; `None` when the simulated market lacks a session.
fn series_of(market: &SimulatedMarket, stock: &StockRow, days: &[Day]) -> Option<Series> {
    const WARM_UP: usize = 21;
    let first = days.first()?.date;
    let last = days.last()?.date;
    let bars = market.bars(&stock.symbol, first - Duration::days(60), last).ok()?;
    let at: HashMap<NaiveDate, usize> = bars.iter().enumerate().map(|(i, b)| (b.date, i)).collect();
    let n = days.len();
    let mut s = Series {
        symbol: stock.symbol.clone(),
        company_name: stock.company_name.clone(),
        open: Vec::with_capacity(n),
        close: Vec::with_capacity(n),
        prev_close: Vec::with_capacity(n),
        hv20: Vec::with_capacity(n),
        atr14: Vec::with_capacity(n),
        rsi14: Vec::with_capacity(n),
        trend10: Vec::with_capacity(n),
        volume: Vec::with_capacity(n),
        volatility_now: 0.0,
    };
    let hv = |end: usize| {
        // 20 daily log returns ending with bar `end - 1`, annualised.
        let returns: Vec<f64> = (end - 20..end).map(|i| (bars[i].close / bars[i - 1].close).ln()).collect();
        let mean = returns.iter().sum::<f64>() / 20.0;
        (returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / 19.0).sqrt() * 252f64.sqrt()
    };
    for day in days {
        let k = *at.get(&day.date)?;
        if k < WARM_UP {
            return None;
        }
        let bar = &bars[k];
        s.open.push(bar.open);
        s.close.push(bar.close);
        s.prev_close.push(bars[k - 1].close);
        s.hv20.push(hv(k));
        let true_range = |i: usize| {
            let (h, l, pc) = (bars[i].high, bars[i].low, bars[i - 1].close);
            (h - l).max((h - pc).abs()).max((l - pc).abs())
        };
        s.atr14.push((k - 14..k).map(true_range).sum::<f64>() / 14.0);
        let (gain, loss) = (k - 14..k).fold((0.0, 0.0), |(g, l), i| {
            let change = bars[i].close - bars[i - 1].close;
            if change > 0.0 { (g + change, l) } else { (g, l - change) }
        });
        s.rsi14.push(if loss == 0.0 { 100.0 } else { 100.0 - 100.0 / (1.0 + gain / loss) });
        s.trend10.push(bars[k - 1].close / bars[k - 11].close - 1.0);
        s.volume.push(i64::try_from(bars[k - 1].volume).unwrap_or(i64::MAX));
    }
    let end = *at.get(&last)? + 1;
    s.volatility_now = (pricing_volatility(hv(end)) * 10_000.0).round() / 10_000.0;
    Some(s)
}

/// Each automated signal's rank in its day (1 = highest confidence, then the earlier, then the
/// smaller id): what `signals::rerank_days` stores, needed here for the plans' quotas.
fn day_ranks(signals: &[SignalRow]) -> Vec<i64> {
    let mut order: Vec<usize> = (0..signals.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&signals[a], &signals[b]);
        x.issued_on.cmp(&y.issued_on).then(y.confidence.cmp(&x.confidence)).then(x.created_at.cmp(&y.created_at)).then(x.id.cmp(&y.id))
    });
    let mut ranks = vec![0; signals.len()];
    let mut previous: Option<NaiveDate> = None;
    let mut rank = 0;
    for i in order {
        if previous != Some(signals[i].issued_on) {
            previous = Some(signals[i].issued_on);
            rank = 0;
        }
        rank += 1;
        ranks[i] = rank;
    }
    ranks
}

/// What the position generators need to know about an automated signal.
struct AutomatedSignal {
    index: usize,
    strategy: Strategy,
    rank: i64,
    day: usize,
}

/// How many of the user's own on-demand signals each (member, session) has.
type OwnPerDay = HashMap<(usize, usize), i64>;

/// Whether a plan with `quota` signals a day shows the signal ranked `rank` on a day the user
/// generated `own` signals of their own (the one quota rule, `visibility::beyond_quota`).
fn shown(quota: Option<u32>, rank: i64, own: i64) -> bool {
    !crate::services::visibility::beyond_quota(quota, rank, own)
}

impl Generator<'_> {
    fn id(&mut self) -> String {
        let mut bytes = [0u8; 16];
        self.rng.fill_bytes(&mut bytes);
        uuid::Builder::from_random_bytes(bytes).into_uuid().to_string()
    }

    /// The id of the one trading account of the user `user_id`, derived from it (so adding the
    /// accounts drew nothing from the generator and the rest of the data stays as it was).
    fn account_id_of(user_id: &str) -> String {
        let mut bytes = uuid::Uuid::parse_str(user_id).map(|u| *u.as_bytes()).unwrap_or_default();
        for b in &mut bytes {
            *b ^= 0x5a;
        }
        uuid::Builder::from_random_bytes(bytes).into_uuid().to_string()
    }

    /// A random instant of session `day`, away from the open and the close.
    fn time_in(&mut self, day: usize) -> DateTime<Utc> {
        let d = &self.days[day];
        let span = (d.close - d.open).num_milliseconds() - 10 * 60_000;
        d.open + Duration::minutes(5) + Duration::milliseconds(self.rng.gen_range(0..span.max(1)))
    }

    /// A standard normal draw (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u1: f64 = 1.0 - self.rng.gen_range(0.0..1.0);
        let u2: f64 = self.rng.gen_range(0.0..1.0);
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    fn members(&mut self, sizes: Sizes, password_hash: &str, now: DateTime<Utc>) -> Vec<Member> {
        let n_days = self.days.len();
        let window_start = self.days[0].open;
        let mut members = Vec::with_capacity(sizes.users.max(1));
        for i in 0..sizes.users.max(1) {
            let bench = i == 0;
            let plan = if bench {
                Plan::Pro
            } else {
                match self.rng.gen_range(0.0..1.0) {
                    x if x < FREE_SHARE => Plan::Free,
                    x if x < FREE_SHARE + PRO_SHARE => Plan::Pro,
                    _ => Plan::Premium,
                }
            };
            // 40% joined before the window; the rest during its first 80%.
            let (created_at, join_day) = if bench || self.rng.gen_bool(0.4) || n_days < 3 {
                (window_start - Duration::minutes(self.rng.gen_range(60..365 * 24 * 60)), 0)
            } else {
                let day = self.rng.gen_range(0..(n_days * 4 / 5).max(1));
                (self.time_in(day), day + 1)
            };
            // Most accounts keep the defaults; a quarter trade with more capital and their own
            // choice of strategies. The benchmark account takes about ten positions at a time.
            let (capital, risk, max_size, strategies) = if bench {
                (2_000_000, "high", 200_000, "Momentum,Mean Reversion,Breakout,Volatility".to_owned())
            } else if self.rng.gen_bool(0.25) {
                let capital = ((self.rng.gen_range(5_000f64.ln()..100_000f64.ln())).exp() / 100.0).round() as i64 * 10_000;
                let max_size = ((capital as f64 * self.rng.gen_range(0.15..0.4)) / 10_000.0).round().max(1.0) as i64 * 10_000;
                let risk = match self.rng.gen_range(0..10) {
                    0..3 => "low",
                    3..8 => "medium",
                    _ => "high",
                };
                let picked: Vec<&str> = Strategy::ALL.iter().filter(|_| self.rng.gen_bool(0.45)).map(|s| s.label()).collect();
                let strategies = if picked.is_empty() { "Momentum".to_owned() } else { picked.join(",") };
                (capital, risk, max_size, strategies)
            } else {
                (100_000, "medium", 10_000, "Momentum,Breakout".to_owned())
            };
            let (email, username) = if bench {
                (BENCH_EMAIL.to_owned(), BENCH_USERNAME.to_owned())
            } else {
                (format!("user{i:05}@{USER_EMAIL_DOMAIN}"), format!("user{i:05}"))
            };
            let first = FIRST_NAMES[self.rng.gen_range(0..FIRST_NAMES.len())];
            let last = LAST_NAMES[self.rng.gen_range(0..LAST_NAMES.len())];
            let id = self.id();
            let record = UserRecord {
                account_id: Self::account_id_of(&id),
                id,
                email,
                username,
                password_hash: password_hash.to_owned(),
                first_name: Some(if bench { "Bench".to_owned() } else { first.to_owned() }),
                last_name: Some(if bench { "Mark".to_owned() } else { last.to_owned() }),
                profile_image_url: None,
                role: "user".to_owned(),
                subscription_plan: plan.id().to_owned(),
                subscription_status: SubscriptionStatus::Active.as_str().to_owned(),
                subscription_expires_at: None,
                investment_capital_cents: capital,
                risk_tolerance: risk.to_owned(),
                max_position_size_cents: max_size,
                preferred_strategies: strategies,
                email_notifications: true,
                signal_alerts: true,
                portfolio_updates: true,
                theme: "system".to_owned(),
                currency: "USD".to_owned(),
                auto_update_signals: true,
                high_risk_alerts: false,
                push_events: crate::foundation::vocab::NotificationKind::set_to_stored(crate::foundation::vocab::NotificationKind::ALL),
                billing_interval: None,
                period_started_at: None,
                cancel_at_period_end: false,
                grace_ends_at: None,
                credit_cents: 0,
                payment_provider: None,
                payment_customer_id: None,
                payment_subscription_id: None,
                card_brand: None,
                card_last4: None,
                email_verified_at: Some(created_at),
                created_at,
                updated_at: created_at,
            };
            let quota = Entitlements::of(&record, now).signals_per_day;
            let prefs = crate::services::execution::automated::preferences_of(&record);
            members.push(Member { record, plan, join_day: join_day.min(n_days - 1), quota, prefs });
        }
        members
    }

    /// The contract a strategy buys on `series`' prices at `at` in session `day`; `None` when
    /// it cannot be priced or costs under five cents.
    #[expect(clippy::too_many_arguments, reason = "one signal's every input")]
    fn signal(
        &mut self,
        sym: usize,
        strategy: Strategy,
        day: usize,
        at: DateTime<Utc>,
        owner: Option<&str>,
        confidence: i64,
        id: String,
    ) -> Option<SignalRow> {
        let d = &self.days[day];
        let s = &self.series[sym];
        let span = (d.close - d.open).num_milliseconds().max(1) as f64;
        let frac = ((at - d.open).num_milliseconds() as f64 / span).clamp(0.0, 1.0);
        let spot = round_cents(s.open[day] + (s.close[day] - s.open[day]) * frac);
        let flip = self.rng.gen_bool(0.2);
        let kind = match strategy {
            Strategy::Volatility => SignalType::Straddle,
            Strategy::Momentum | Strategy::Breakout => {
                if (s.trend10[day] >= 0.0) != flip {
                    SignalType::Call
                } else {
                    SignalType::Put
                }
            }
            Strategy::MeanReversion => {
                if (s.rsi14[day] < 50.0) != flip {
                    SignalType::Call
                } else {
                    SignalType::Put
                }
            }
            // The seed issues the house strategies only.
            Strategy::Custom => return None,
        };
        let strike = pick_strike(spot, kind, strike_choice(strategy));
        let min_days = self.params.min_days_to_expiry(strategy) + self.rng.gen_range(0..=10);
        let expiration = self.state.market.expiration(d.date, min_days);
        let sigma = (pricing_volatility(s.hv20[day]) * 10_000.0).round() / 10_000.0;
        let years = years_between(d.date, expiration);
        let assumptions = self.state.market.assumptions;
        let premium = |underlying: f64| {
            BlackScholes::new(OptionInputs {
                spot: underlying.max(0.01),
                strike,
                rate: assumptions.rate,
                dividend_yield: assumptions.dividend_yield,
                volatility: sigma,
                time_to_expiry: years,
            })
            .ok()
            .map(|bs| round_cents(bs.price(kind.option_type())))
        };
        let entry = premium(spot)?;
        if entry < 0.05 {
            return None;
        }
        let atr = s.atr14[day].max(spot * 0.001);
        let (up, down) = (self.params.target_atr * atr, self.params.stop_atr * atr);
        let reversion = self.params.target_atr.min(1.5) * atr;
        let (target_at, stop_at) = match (strategy, kind) {
            (_, SignalType::Straddle) => (spot + up, spot),
            (Strategy::MeanReversion, SignalType::Call) => (spot + reversion, spot - down),
            (Strategy::MeanReversion, SignalType::Put) => (spot - reversion, spot + down),
            (_, SignalType::Call) => (spot + up, spot - down),
            (_, SignalType::Put) => (spot - up, spot + down),
        };
        let target = premium(target_at)?.max(entry + 0.01);
        let stop = if kind == SignalType::Straddle { round_cents(entry * self.params.straddle_stop_fraction) } else { premium(stop_at)? };
        let stop = round_cents(stop.min(entry - 0.01).max(0.0));
        let contract = match kind {
            SignalType::Call => "call",
            SignalType::Put => "put",
            SignalType::Straddle => "straddle (call + put)",
        };
        let reasoning = format!(
            "{} {} {}: generated for load benchmarks. Buy the {strike:.2} {contract} expiring {expiration} for {entry:.2} a share at {spot:.2} \
             (σ {:.1}% from 20-day historical volatility, {} days). Target {target:.2}; stop {stop:.2} (ATR {atr:.2}). Confidence {confidence}/100.",
            s.symbol,
            strategy.label(),
            kind.as_str(),
            sigma * 100.0,
            (expiration - d.date).num_days(),
        );
        Some(SignalRow {
            id,
            symbol: s.symbol.clone(),
            company_name: s.company_name.clone(),
            signal_type: SignalKind::from(kind).as_str().to_owned(),
            strategy: strategy.label().to_owned(),
            strike_cents: to_cents(strike),
            expiration_date: expiration,
            entry_cents: to_cents(entry),
            target_cents: to_cents(target),
            stop_cents: to_cents(stop),
            underlying_entry_cents: to_cents(spot),
            volatility: sigma,
            confidence,
            rsi: Some((s.rsi14[day] * 10.0).round() / 10.0),
            volume: Some(s.volume[day]),
            reasoning,
            current_option_cents: to_cents(entry),
            current_price_cents: to_cents(spot),
            previous_close_cents: to_cents(s.prev_close[day]),
            pnl_cents: 0,
            pnl_percent: 0.0,
            status: SignalStatus::Active.as_str().to_owned(),
            close_reason: None,
            closed_at: None,
            owner_id: owner.map(str::to_owned),
            issued_on: d.date,
            created_at: at,
            updated_at: at,
            provenance: Provenance::Unrecorded.as_str().to_owned(),
            slippage_bp: STANDARD_SLIPPAGE_BP,
            commission_cents: STANDARD_COMMISSION_CENTS,
            issue_probability: None,
            net_pnl_cents: None,
            model_probability: None,
            model_version: None,
            model_why: None,
            custom_strategy_id: None,
            close_after: None,
        })
    }

    /// Marks `row` at each session's close from its issue on, with the server's marking, until
    /// it ends; returns the session it ended in (`None`: still active after the last one).
    fn run_to_end(&self, row: &mut SignalRow, sym: usize, from: usize) -> Option<usize> {
        let s = &self.series[sym];
        for j in from..self.days.len() {
            let at = self.days[j].close;
            if at <= row.created_at {
                continue;
            }
            let Some(m) = mark_row(self.state, row, s.close[j], s.prev_close[j], at) else { continue };
            row.current_option_cents = m.current_option_cents;
            row.current_price_cents = m.current_price_cents;
            row.previous_close_cents = m.previous_close_cents;
            row.pnl_cents = m.pnl_cents;
            row.pnl_percent = m.pnl_percent;
            row.updated_at = at;
            if let Some((status, reason)) = m.close {
                row.status = status;
                row.close_reason = Some(reason);
                row.closed_at = Some(at);
                return Some(j);
            }
        }
        None
    }

    /// About `target` automated signals, spread evenly over the sessions (a few more or fewer
    /// each day), each on a symbol and strategy whose previous signal has ended.
    fn automated_signals(&mut self, target: usize) -> (Vec<SignalRow>, Vec<Strategy>) {
        let n_days = self.days.len();
        let mut per_day = vec![target / n_days; n_days];
        for slot in per_day.iter_mut().take(target % n_days) {
            *slot += 1;
        }
        let base = target / n_days;
        for _ in 0..n_days * 2 {
            let (from, to) = (self.rng.gen_range(0..n_days), self.rng.gen_range(0..n_days));
            if per_day[from] + 4 > base + 1 && per_day[from] > 0 {
                per_day[from] -= 1;
                per_day[to] += 1;
            }
        }
        let setups: Vec<(usize, Strategy)> =
            (0..self.series.len()).flat_map(|sym| Strategy::ALL.into_iter().map(move |s| (sym, s))).collect();
        // The session in which each setup's latest signal ended (`usize::MAX`: still active).
        let mut busy_until: Vec<Option<usize>> = vec![None; setups.len()];
        let mut rows = Vec::with_capacity(target);
        let mut strategies = Vec::with_capacity(target);
        for (day, &wanted) in per_day.iter().enumerate() {
            let mut free: Vec<usize> = (0..setups.len()).filter(|&i| busy_until[i].is_none_or(|end| end < day)).collect();
            let mut times: Vec<DateTime<Utc>> = (0..wanted.min(free.len())).map(|_| self.time_in(day)).collect();
            times.sort_unstable();
            for at in times {
                // A few setups cannot be priced (a premium under five cents): try another.
                while !free.is_empty() {
                    let pick = free.swap_remove(self.rng.gen_range(0..free.len()));
                    let (sym, strategy) = setups[pick];
                    let confidence = self.rng.gen_range(20..=95);
                    let id = self.id();
                    let Some(mut row) = self.signal(sym, strategy, day, at, None, confidence, id) else { continue };
                    busy_until[pick] = Some(self.run_to_end(&mut row, sym, day).unwrap_or(usize::MAX));
                    rows.push(row);
                    strategies.push(strategy);
                    break;
                }
            }
        }
        (rows, strategies)
    }

    /// `count` signals generated on demand by Pro and Premium accounts.
    fn on_demand_signals(&mut self, members: &[Member], count: usize) -> (Vec<SignalRow>, OwnPerDay) {
        let owners: Vec<usize> =
            (0..members.len()).filter(|&i| Entitlements::for_plan(members[i].plan).allows(Capability::GenerateSignals)).collect();
        let mut rows = Vec::with_capacity(count);
        let mut own = OwnPerDay::new();
        if owners.is_empty() {
            return (rows, own);
        }
        let n_days = self.days.len();
        let mut attempts = 0;
        while rows.len() < count && attempts < count * 3 {
            attempts += 1;
            let owner = owners[self.rng.gen_range(0..owners.len())];
            let day = self.rng.gen_range(members[owner].join_day..n_days);
            let sym = self.rng.gen_range(0..self.series.len());
            let strategy = Strategy::ALL[self.rng.gen_range(0..4)];
            let at = self.time_in(day);
            let confidence = self.rng.gen_range(20..=95);
            let id = self.id();
            let owner_id = members[owner].record.id.clone();
            let Some(mut row) = self.signal(sym, strategy, day, at, Some(&owner_id), confidence, id) else { continue };
            self.run_to_end(&mut row, sym, day);
            *own.entry((owner, day)).or_default() += 1;
            rows.push(row);
        }
        (rows, own)
    }

    /// The automated positions still open: for each user, what the automation's allocation
    /// takes from the active automated signals their plan shows, newest first, within their
    /// preferences and capital, at each signal's premium of issue (so the server's next pass
    /// has next to nothing left to open).
    fn open_positions(
        &mut self,
        members: &[Member],
        signals: &[SignalRow],
        automated: &[AutomatedSignal],
        own: &OwnPerDay,
    ) -> (Vec<AutomatedRow>, Vec<usize>) {
        let mut active: Vec<&AutomatedSignal> =
            automated.iter().filter(|a| signals[a.index].status == SignalStatus::Active.as_str()).collect();
        active.sort_by(|a, b| {
            let (x, y) = (&signals[a.index], &signals[b.index]);
            y.created_at.cmp(&x.created_at).then(y.id.cmp(&x.id))
        });
        let mut rows = Vec::new();
        let mut holders = Vec::new();
        for (u, member) in members.iter().enumerate() {
            if member.prefs.preferred_strategies.is_empty() {
                continue;
            }
            let mut open_cost = 0.0;
            for a in &active {
                let s = &signals[a.index];
                if !shown(member.quota, a.rank, own.get(&(u, a.day)).copied().unwrap_or(0)) {
                    continue;
                }
                // Taken minutes after the issue, at the premium of the issue.
                let candidate = AllocationSignal {
                    strategy: a.strategy,
                    confidence: u8::try_from(s.confidence).unwrap_or(0),
                    entry_price: dollars(s.entry_cents),
                };
                let Some(contracts) = automated_allocation(&candidate, &member.prefs, open_cost).contracts() else { continue };
                let opened_at = s.created_at.max(member.record.created_at) + Duration::seconds(self.rng.gen_range(30..300));
                let id = self.id();
                rows.push(AutomatedRow {
                    id,
                    user_id: member.record.id.clone(),
                    account_id: member.record.account_id.clone(),
                    signal_id: s.id.clone(),
                    quantity: i64::from(contracts),
                    entry_cents: s.entry_cents,
                    commissions_cents: self.commission_cents * i64::from(contracts),
                    status: PositionStatus::Open.as_str().to_owned(),
                    exit_cents: None,
                    opened_at,
                    closed_at: None,
                    updated_at: opened_at,
                });
                holders.push(u);
                open_cost += dollars(s.entry_cents * 100) * f64::from(contracts);
            }
        }
        (rows, holders)
    }

    /// About `count` closed automated positions on signals that have ended: each user's are
    /// signals issued after they joined, that their plan showed, of a strategy they prefer and
    /// at or above their confidence floor; closed with the signal, at its last mark. The
    /// benchmark account gets two dozen.
    fn closed_positions(
        &mut self,
        members: &[Member],
        signals: &[SignalRow],
        automated: &[AutomatedSignal],
        own: &OwnPerDay,
        count: usize,
    ) -> (Vec<AutomatedRow>, Vec<usize>) {
        let ended: Vec<&AutomatedSignal> = automated.iter().filter(|a| signals[a.index].status != SignalStatus::Active.as_str()).collect();
        let mut rows = Vec::with_capacity(count);
        let mut holders = Vec::with_capacity(count);
        if ended.is_empty() || members.is_empty() {
            return (rows, holders);
        }
        let mut held: HashSet<(usize, usize)> = HashSet::new();
        let bench_share = 24.min(count);
        let (mut bench_taken, mut bench_tries) = (0, 0);
        let mut attempts = 0usize;
        while rows.len() < count && attempts < count * 400 {
            // The benchmark account's share first (as far as its rules allow), then everyone else.
            let u = if members.len() == 1 || (bench_taken < bench_share && bench_tries < bench_share * 100) {
                0
            } else {
                self.rng.gen_range(1..members.len())
            };
            let member = &members[u];
            // Up to fifty tries for this user, then someone else.
            for _ in 0..50 {
                attempts += 1;
                if u == 0 {
                    bench_tries += 1;
                }
                let a = ended[self.rng.gen_range(0..ended.len())];
                let s = &signals[a.index];
                let fits = s.created_at > member.record.created_at
                    && shown(member.quota, a.rank, own.get(&(u, a.day)).copied().unwrap_or(0))
                    && member.prefs.preferred_strategies.contains(&a.strategy)
                    && u8::try_from(s.confidence).unwrap_or(0) >= member.prefs.risk_tolerance.confidence_floor()
                    && !held.contains(&(u, a.index));
                if !fits {
                    continue;
                }
                let Some(closed_at) = s.closed_at else { continue };
                let per_contract = dollars(s.entry_cents * 100).max(0.01);
                let contracts = ((member.prefs.max_position_size / per_contract).floor() as i64).clamp(1, 10);
                let latest_open = (closed_at - s.created_at).num_seconds().clamp(1, 300);
                let opened_at = s.created_at + Duration::seconds(self.rng.gen_range(0..latest_open));
                let id = self.id();
                rows.push(AutomatedRow {
                    id,
                    user_id: member.record.id.clone(),
                    account_id: member.record.account_id.clone(),
                    signal_id: s.id.clone(),
                    quantity: contracts,
                    entry_cents: s.entry_cents,
                    commissions_cents: 2 * self.commission_cents * contracts,
                    status: s.status.clone(),
                    exit_cents: Some(s.current_option_cents),
                    opened_at,
                    closed_at: Some(closed_at),
                    updated_at: closed_at,
                });
                holders.push(u);
                held.insert((u, a.index));
                if u == 0 {
                    bench_taken += 1;
                }
                break;
            }
        }
        (rows, holders)
    }

    /// `count` positions users entered themselves: open while their expiry is ahead (marked at
    /// the last close), expired at intrinsic value after it, some closed by hand. The
    /// benchmark account gets five, three of them open.
    fn manual_positions(&mut self, members: &[Member], count: usize) -> (Vec<ManualRow>, Vec<usize>) {
        let n_days = self.days.len();
        let last = n_days - 1;
        let mut rows = Vec::with_capacity(count);
        let mut holders = Vec::with_capacity(count);
        let mut attempts = 0;
        while rows.len() < count && attempts < count * 3 {
            attempts += 1;
            let bench = rows.len() < 5.min(count);
            let u = if bench || members.len() == 1 { 0 } else { self.rng.gen_range(1..members.len()) };
            let keep_open = bench && rows.len() < 3;
            let day =
                if keep_open { n_days.saturating_sub(5).max(members[u].join_day) } else { self.rng.gen_range(members[u].join_day..n_days) };
            let sym = self.rng.gen_range(0..self.series.len());
            let kind = match self.rng.gen_range(0..20) {
                0..9 => SignalType::Call,
                9..16 => SignalType::Put,
                _ => SignalType::Straddle,
            };
            let at = self.time_in(day);
            let nudge = (1.0 + 0.03 * self.normal()).clamp(0.8, 1.2);
            let d = &self.days[day];
            let s = &self.series[sym];
            let span = (d.close - d.open).num_milliseconds().max(1) as f64;
            let spot = round_cents(s.open[day] + (s.close[day] - s.open[day]) * ((at - d.open).num_milliseconds() as f64 / span));
            let choice = if self.rng.gen_bool(0.5) { StrikeChoice::AtTheMoney } else { StrikeChoice::FirstOutOfTheMoney };
            let strike = pick_strike(spot * nudge, kind, choice);
            let min_days = if keep_open { 30 } else { self.rng.gen_range(7..=60) };
            let expiration = self.state.market.expiration(d.date, min_days);
            let sigma = pricing_volatility(s.hv20[day]);
            let years = years_between(d.date, expiration);
            let assumptions = self.state.market.assumptions;
            let Ok(bs) = BlackScholes::new(OptionInputs {
                spot,
                strike,
                rate: assumptions.rate,
                dividend_yield: assumptions.dividend_yield,
                volatility: sigma,
                time_to_expiry: years,
            }) else {
                continue;
            };
            // What the user paid: the model price give or take a little.
            let entry = round_cents(bs.price(kind.option_type()) * self.rng.gen_range(0.97..1.03));
            if entry < 0.05 {
                continue;
            }
            // A few percent of the account's capital, one to ten contracts.
            let budget = dollars(members[u].record.investment_capital_cents) * self.rng.gen_range(0.02..0.15);
            let quantity = ((budget / (entry * 100.0)).floor() as i64).clamp(1, 10);
            let target = self.rng.gen_bool(0.5).then(|| to_cents(entry * self.rng.gen_range(1.3..2.0)));
            let stop = self.rng.gen_bool(0.5).then(|| to_cents(entry * self.rng.gen_range(0.3..0.7)));
            let reasoning =
                self.rng.gen_bool(0.4).then(|| format!("{} {} into earnings; sized small.", s.symbol, kind.as_str().to_lowercase()));
            let symbol = s.symbol.clone();
            let company_name = s.company_name.clone();
            let mut row = ManualRow {
                id: self.id(),
                user_id: members[u].record.id.clone(),
                account_id: members[u].record.account_id.clone(),
                symbol,
                company_name,
                position_type: SignalKind::from(kind).as_str().to_owned(),
                strike_cents: to_cents(strike),
                expiration_date: expiration,
                quantity,
                entry_cents: to_cents(entry),
                target_cents: target,
                stop_cents: stop,
                reasoning,
                status: PositionStatus::Open.as_str().to_owned(),
                current_option_cents: None,
                current_price_cents: None,
                pnl_cents: 0,
                pnl_percent: 0.0,
                closed_at: None,
                created_at: at,
                updated_at: at,
            };
            // Where it stands: expired after its expiry, sometimes closed by hand, else open
            // and marked at the last close.
            let expired_by_last = self.state.market.has_expired(expiration, self.days[last].close);
            let (mark_day, status) = if expired_by_last {
                (self.day_index.get(&expiration).copied().unwrap_or(last), PositionStatus::Expired)
            } else if !keep_open && day < last && self.rng.gen_bool(0.15) {
                (self.rng.gen_range(day + 1..=last), PositionStatus::Closed)
            } else {
                (last, PositionStatus::Open)
            };
            let mark_at = self.days[mark_day].close;
            let spot_then = self.series[sym].close[mark_day];
            let Some(open) = manual_open_signal(&row, sigma) else { continue };
            let years_left = self.state.market.years_to_expiry(expiration, mark_at);
            let Ok(m) = mark(&open, spot_then, years_left, status == PositionStatus::Expired, assumptions) else { continue };
            row.current_option_cents = Some(to_cents(m.option_price));
            row.current_price_cents = Some(to_cents(spot_then));
            row.pnl_cents = to_cents(m.pnl * quantity as f64);
            row.pnl_percent = m.pnl_percent;
            row.status = status.as_str().to_owned();
            row.updated_at = mark_at.max(at);
            if status != PositionStatus::Open {
                row.closed_at = Some(mark_at.max(at));
            }
            rows.push(row);
            holders.push(u);
        }
        (rows, holders)
    }

    /// Daily portfolio values: every session for the benchmark account, the last few for every
    /// n-th account. A value is the capital plus the P&L realised by then (net of
    /// commissions), plus a wandering unrealised part.
    #[expect(clippy::too_many_arguments, reason = "the positions and who holds each")]
    fn snapshots(
        &mut self,
        members: &[Member],
        sizes: Sizes,
        automated: &[AutomatedRow],
        automated_holders: &[usize],
        manual: &[ManualRow],
        manual_holders: &[usize],
        now: DateTime<Utc>,
    ) -> Vec<PortfolioSnapshot> {
        let n_days = self.days.len();
        let chosen: Vec<(usize, usize)> = (0..members.len())
            .filter_map(|u| match u {
                0 => Some((u, 0)),
                _ if sizes.snapshot_every > 0 && u % sizes.snapshot_every == 0 => {
                    Some((u, n_days.saturating_sub(sizes.snapshot_recent_days)))
                }
                _ => None,
            })
            .collect();
        let wanted: HashSet<usize> = chosen.iter().map(|(u, _)| *u).collect();
        let mut realised: HashMap<usize, Vec<(DateTime<Utc>, i64)>> = HashMap::new();
        for (p, &u) in automated.iter().zip(automated_holders) {
            if let (true, Some(at), Some(exit)) = (wanted.contains(&u), p.closed_at, p.exit_cents) {
                realised.entry(u).or_default().push((at, (exit - p.entry_cents) * 100 * p.quantity - p.commissions_cents));
            }
        }
        for (p, &u) in manual.iter().zip(manual_holders) {
            if let (true, Some(at)) = (wanted.contains(&u), p.closed_at) {
                realised.entry(u).or_default().push((at, p.pnl_cents));
            }
        }
        let mut rows = Vec::new();
        for (u, from) in chosen {
            let member = &members[u];
            let capital = member.record.investment_capital_cents;
            let events = realised.remove(&u).unwrap_or_default();
            let mut wander = 0.0;
            for day in from.max(member.join_day)..n_days {
                let close = self.days[day].close;
                wander = 0.9 * wander + 0.004 * capital as f64 * self.normal();
                let booked: i64 = events.iter().filter(|(at, _)| *at <= close).map(|(_, pnl)| pnl).sum();
                rows.push(PortfolioSnapshot {
                    user_id: member.record.id.clone(),
                    account_id: member.record.account_id.clone(),
                    day: self.days[day].date,
                    value_cents: (capital + booked + wander.round() as i64).max(0),
                    taken_at: (close + Duration::minutes(10)).min(now),
                });
            }
        }
        rows
    }
}
