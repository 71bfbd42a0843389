//! The option chain and the implied-volatility history over HTTP: a listed expiration's
//! strikes with calls beside puts, refused parameters named; readings recorded once per
//! session from the provider's chain, IV rank and percentile shown from 200 sessions, a
//! missing session reported and not filled, and a short history hidden with its reason.

use chrono::{DateTime, NaiveDate, Utc};
use serde_json::Value;
use strikeline_server::services::implied_volatility::{self, Reach, Recorded};
use strikeline_store::iv_history;

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(with_market, crate::common::with_market;
    the_chain_lists_strikes_with_calls_beside_puts,
    the_chain_refuses_what_it_does_not_list,
    rank_and_percentile_come_from_the_recorded_year,
    a_live_vendor_is_recorded_only_for_the_session_its_quotes_are_from,
);

on_both_engines_with!(with_slow_refill, crate::options::with_slow_refill;
    parallel_chains_stop_at_the_users_limit,
);

on_both_engines_with!(with_backfill, crate::options::with_backfill;
    the_first_start_records_and_the_scheduler_back_fills_every_symbol_once,
);

/// A market, and the chain's quota of 60 refilled over an hour instead of a minute: the
/// parallel requests of the limit's test cannot meet a refill however slow the machine.
fn with_slow_refill(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_market(config);
    let quota = strikeline_server::foundation::limits::OPTION_CHAIN.quota;
    config.limits.insert("option_chain".into(), strikeline_server::foundation::config::LimitOverride { quota, window_seconds: 3_600 });
}

/// A market, and a week of implied volatility to back-fill.
fn with_backfill(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_market(config);
    config.market.iv_backfill_sessions = 5;
}

async fn the_first_start_records_and_the_scheduler_back_fills_every_symbol_once(app: TestApp) {
    let now = app.now();
    let last = app.state.market.last_completed_day(now);
    let week = app.state.market.calendar.sessions_back(last, 5);
    let stocks = strikeline_store::market::list_stocks(app.db()).await.expect("stocks");
    assert!(stocks.len() >= 10);
    let span = (week[0] - chrono::Days::new(30), last);
    // The first start records the last session, before serving.
    let stored = iv_history::all_series(app.db(), span.0, span.1).await.expect("read");
    assert_eq!(stored.len(), stocks.len(), "the last session for each tracked symbol");
    assert!(stored.iter().all(|r| r.day == last));
    // The background scheduler back-fills the rest once it starts.
    assert_eq!(implied_volatility::record_due(&app.state, now, Reach::Backfill).await.expect("back-fill"), 4 * stocks.len());
    let stored = iv_history::all_series(app.db(), span.0, span.1).await.expect("read");
    assert_eq!(stored.len(), 5 * stocks.len(), "five sessions for each tracked symbol");
    assert!(stored.iter().all(|r| week.contains(&r.day) && r.provider == "simulated"));
    assert_eq!(implied_volatility::record_due(&app.state, now, Reach::Backfill).await.expect("again"), 0, "nothing twice");
    // `strikeline iv-rank msft --record`'s answer: five sessions, hidden until 200.
    let view = strikeline_server::handlers::options::iv_rank_of(&app.state, "msft", true, now).await.expect("a view");
    assert_eq!((view.symbol.as_str(), view.recorded_sessions, view.missing.len()), ("MSFT", 5, 248));
    assert!(view.standing.is_none() && view.hidden_reason.is_some_and(|why| why.contains("; 5 recorded so far")));
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn date(v: &Value) -> NaiveDate {
    v.as_str().and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()).unwrap_or_else(|| panic!("not a date: {v}"))
}

async fn get(app: &TestApp, path: &str) -> reqwest::Response {
    app.client.get(app.url(path)).send().await.expect("request")
}

async fn the_chain_lists_strikes_with_calls_beside_puts(app: TestApp) {
    app.register().await;
    let response = get(&app, "/api/stock-prices/AAPL/options").await;
    assert_eq!(response.status(), 200);
    let chain: Value = response.json().await.expect("json");
    let today = app.state.market.today(app.now());
    let expirations: Vec<NaiveDate> = chain["expirations"].as_array().expect("expirations").iter().map(date).collect();
    assert!(expirations.len() >= 9 && expirations.windows(2).all(|w| w[0] < w[1]), "{expirations:?}");
    let shown = date(&chain["expiration"]);
    assert!((shown - today).num_days() >= 7, "the first expiration a week away by default: {shown}");
    assert!(expirations.contains(&shown));
    assert_eq!(
        (chain["symbol"].as_str(), chain["provider"].as_str(), chain["exercise"].as_str()),
        (Some("AAPL"), Some("simulated"), Some("american"))
    );
    let spot = num(&chain["underlyingPrice"]);
    let rows = chain["rows"].as_array().expect("rows");
    let strikes: Vec<f64> = rows.iter().map(|r| num(&r["strike"])).collect();
    assert!(strikes.windows(2).all(|w| w[0] < w[1]));
    assert!(strikes[0] < spot && spot < *strikes.last().expect("a strike"), "strikes either side of {spot}");
    for row in rows {
        let (call, put) = (&row["call"], &row["put"]);
        assert!(num(&call["bid"]) <= num(&call["ask"]) && num(&put["bid"]) <= num(&put["ask"]), "{row}");
        assert!((0.0..=1.0).contains(&num(&call["delta"])) && (-1.0..=0.0).contains(&num(&put["delta"])), "{row}");
        assert!(num(&call["impliedVolatility"]) > 0.0 && call["openInterest"].as_u64().is_some(), "{row}");
    }
    // A chosen expiration, further out.
    let later = expirations[expirations.len() - 1];
    let chosen: Value = get(&app, &format!("/api/stock-prices/aapl/options?expiration={later}")).await.json().await.expect("json");
    assert_eq!(date(&chosen["expiration"]), later);
    assert!(chosen["rows"].as_array().expect("rows").len() > rows.len(), "a year out lists a wider range of strikes");
}

async fn the_chain_refuses_what_it_does_not_list(app: TestApp) {
    assert_eq!(get(&app, "/api/stock-prices/AAPL/options").await.status(), 401, "signed in only");
    app.register().await;
    for (query, field) in [
        ("expiration=2020-01-17", "expiration"),
        ("expiration=next-friday", "expiration"),
        ("expiration=2099-12-31", "expiration"),
        ("strike=100", "strike"),
    ] {
        let response = get(&app, &format!("/api/stock-prices/AAPL/options?{query}")).await;
        assert_eq!(response.status(), 422, "{query}");
        assert_eq!(fields(&problem(response).await), [field], "{query}");
    }
    for symbol in ["ZZZZ", "not-a-symbol!", "A%27%20OR%201%3D1"] {
        assert_eq!(get(&app, &format!("/api/stock-prices/{symbol}/options")).await.status(), 404, "{symbol}");
        assert_eq!(get(&app, &format!("/api/stock-prices/{symbol}/implied-volatility")).await.status(), 404, "{symbol}");
    }
}

/// Records `symbol` for every session in `days`; how many readings were stored.
async fn record_all(app: &TestApp, symbol: &str, days: &[NaiveDate], now: DateTime<Utc>) -> usize {
    let mut stored = 0;
    for day in days {
        match implied_volatility::record(&app.state, symbol, *day, now).await.expect("recorded") {
            Recorded::Stored(row) => {
                assert!(row.atm_iv > 0.0 && row.day == *day, "{row:?}");
                stored += 1;
            }
            Recorded::Skipped(why) => panic!("{symbol} {day}: {why}"),
        }
    }
    stored
}

async fn rank_and_percentile_come_from_the_recorded_year(app: TestApp) {
    app.register().await;
    let now = app.now();
    let last = app.state.market.last_completed_day(now);
    let sessions = app.state.market.calendar.sessions_back(last, 253);
    // One session of the year is never recorded.
    let skipped = sessions[100];
    let recorded: Vec<NaiveDate> = sessions.iter().copied().filter(|d| *d != skipped).collect();
    assert_eq!(record_all(&app, "MSFT", &recorded, now).await, 252);
    // Recording again is idempotent: one reading per session.
    record_all(&app, "MSFT", &recorded[240..], now).await;
    assert_eq!(iv_history::series(app.db(), "MSFT", sessions[0], last).await.expect("read").len(), 252);

    let view: Value = get(&app, "/api/stock-prices/MSFT/implied-volatility").await.json().await.expect("json");
    assert_eq!((view["recordedSessions"].as_u64(), view["lookbackSessions"].as_u64()), (Some(252), Some(253)));
    assert_eq!(view["missing"].as_array().expect("missing").iter().map(date).collect::<Vec<_>>(), [skipped], "reported, not filled");
    assert_eq!(date(&view["lookbackTo"]), last);
    let series: Vec<(NaiveDate, f64)> =
        view["series"].as_array().expect("series").iter().map(|p| (date(&p["date"]), num(&p["iv"]))).collect();
    assert_eq!(series.len(), 252);
    let standing = &view["standing"];
    let current = series.last().expect("the last session").1;
    let (low, high) = series.iter().fold((f64::MAX, f64::MIN), |(lo, hi), (_, v)| (lo.min(*v), hi.max(*v)));
    assert!((num(&standing["rank"]) - (100.0 * (current - low) / (high - low) * 10.0).round() / 10.0).abs() < 1e-9, "{standing}");
    let below = series[..251].iter().filter(|(_, v)| *v < current).count() as f64;
    assert!((num(&standing["percentile"]) - (1000.0 * below / 251.0).round() / 10.0).abs() < 1e-9, "{standing}");
    assert_eq!((num(&standing["high"]["iv"]), num(&standing["low"]["iv"])), (high, low));
    assert!(view["hiddenReason"].is_null());

    // A symbol with a month of readings: hidden, and why.
    record_all(&app, "JPM", &sessions[232..], now).await;
    let short: Value = get(&app, "/api/stock-prices/JPM/implied-volatility").await.json().await.expect("json");
    assert!(short["standing"].is_null());
    assert_eq!(short["hiddenReason"].as_str(), Some("IV rank needs 200 recorded sessions in the last year; 21 recorded so far."));
    assert_eq!(short["missing"].as_array().expect("missing").len(), 232);

    // The stock list carries the same figures; a symbol never recorded has none.
    let stocks: Vec<Value> = get(&app, "/api/stock-prices").await.json().await.expect("json");
    let row = |symbol: &str| stocks.iter().find(|s| s["symbol"] == symbol).cloned().unwrap_or_else(|| panic!("{symbol} listed"));
    let msft = row("MSFT");
    assert_eq!((num(&msft["ivRank"]), num(&msft["ivPercentile"])), (num(&standing["rank"]), num(&standing["percentile"])));
    assert_eq!(num(&msft["impliedVolatility"]), current);
    let jpm = row("JPM");
    assert!(jpm["impliedVolatility"].is_number() && jpm["ivRank"].is_null() && jpm["ivPercentile"].is_null(), "{jpm}");
    let aapl = row("AAPL");
    assert!(aapl["impliedVolatility"].is_null() && aapl["ivRank"].is_null(), "{aapl}");
}

/// 70 chains at once from one user: the limiter's 60 a minute answer, the rest are 429 with
/// Retry-After, and another user is not held up by them.
async fn parallel_chains_stop_at_the_users_limit(app: TestApp) {
    app.register().await;
    let asks = (0..70).map(|_| get(&app, "/api/stock-prices/AAPL/options"));
    let answers = futures_util::future::join_all(asks).await;
    let statuses: Vec<u16> = answers.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 60, "{statuses:?}");
    assert!(answers.iter().filter(|r| r.status() == 429).all(|r| r.headers().contains_key("retry-after")));
    let other = TestApp::browser(&app.base);
    app.register_with(&other, "other@example.com", "other", "password123").await;
    assert_eq!(other.get(app.url("/api/stock-prices/AAPL/options")).send().await.expect("request").status(), 200);
}

/// A vendor that, like a live one, answers with its latest data whatever instant it is asked
/// for: the simulated market as of `latest`.
struct LiveVendor {
    market: strikeline_market::SimulatedMarket,
    latest: DateTime<Utc>,
}

impl strikeline_market::MarketData for LiveVendor {
    fn provider_name(&self) -> &'static str {
        "live"
    }
    fn quotes<'a>(
        &'a self,
        symbols: &'a [String],
        _at: DateTime<Utc>,
    ) -> strikeline_market::MarketFuture<'a, Vec<strikeline_market::Quote>> {
        self.market.quotes(symbols, self.latest)
    }
    fn daily_bars<'a>(
        &'a self,
        symbol: &'a str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> strikeline_market::MarketFuture<'a, Vec<strikeline_market::DailyBar>> {
        self.market.daily_bars(symbol, from, to)
    }
    fn company<'a>(&'a self, symbol: &'a str) -> strikeline_market::MarketFuture<'a, strikeline_market::CompanyInfo> {
        self.market.company(symbol)
    }
    fn exchange_rates<'a>(&'a self, _at: DateTime<Utc>) -> strikeline_market::MarketFuture<'a, strikeline_market::ExchangeRates> {
        self.market.exchange_rates(self.latest)
    }
    fn option_chain<'a>(
        &'a self,
        symbol: &'a str,
        query: strikeline_market::options::ChainQuery,
        _at: DateTime<Utc>,
    ) -> strikeline_market::MarketFuture<'a, strikeline_market::options::OptionChain> {
        strikeline_market::MarketData::option_chain(&self.market, symbol, query, self.latest)
    }
}

async fn a_live_vendor_is_recorded_only_for_the_session_its_quotes_are_from(app: TestApp) {
    let now = app.now();
    let last = app.state.market.last_completed_day(now);
    let latest = app.state.market.calendar.session(last).expect("a session").close;
    let live = LiveVendor { market: strikeline_market::SimulatedMarket::new(app.state.config.market.seed), latest };
    let market = strikeline_server::foundation::market::Market::with_provider(std::sync::Arc::new(live), 0.04);
    let mut config = (*app.state.config).clone();
    config.market.iv_backfill_sessions = 30;
    let state = strikeline_server::foundation::state::AppState {
        market: std::sync::Arc::new(market),
        config: std::sync::Arc::new(config),
        ..app.state.clone()
    };
    let earlier = app.state.market.calendar.sessions_back(last, 3)[0];
    match implied_volatility::record(&state, "AAPL", earlier, now).await.expect("no error") {
        Recorded::Skipped(why) => assert_eq!(why, format!("the provider's quotes are from {last}, not {earlier}")),
        Recorded::Stored(row) => panic!("a past session recorded from today's quotes: {row:?}"),
    }
    assert!(matches!(implied_volatility::record(&state, "AAPL", last, now).await.expect("no error"), Recorded::Stored(_)));
    // Its back-fill of 30 sessions reaches the last session only: the other symbols get theirs.
    let tracked = strikeline_store::market::list_stocks(app.db()).await.expect("stocks").len();
    assert_eq!(implied_volatility::record_due(&state, now, Reach::Backfill).await.expect("recorded"), tracked - 1);
    let days: Vec<NaiveDate> = iv_history::series(app.db(), "AAPL", earlier, last).await.expect("read").iter().map(|r| r.day).collect();
    assert_eq!(days, [last]);
}
