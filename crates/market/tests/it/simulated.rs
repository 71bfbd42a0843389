//! The simulated market: determinism, calendar, bar sanity, realised volatility and volume,
//! intraday quotes, the universe, exchange rates.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use strikeline_market::calendar::Calendar;
use strikeline_market::simulated::{HISTORY_START, ListingOrigin, REFERENCE_DATE};
use strikeline_market::{Currency, MarketData, MarketError, Sector, SimulatedMarket};

fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).single().expect("a valid instant")
}

fn symbols(market: &SimulatedMarket) -> Vec<String> {
    market.listings().into_iter().map(|l| l.symbol).collect()
}

const TEN_YEARS_FROM: (i32, u32, u32) = (2015, 1, 1);
const TEN_YEARS_TO: (i32, u32, u32) = (2024, 12, 31);

fn ten_years() -> (NaiveDate, NaiveDate) {
    let (a, b, c) = TEN_YEARS_FROM;
    let (x, y, z) = TEN_YEARS_TO;
    (ymd(a, b, c), ymd(x, y, z))
}

#[test]
fn the_universe_has_fifty_unique_names_in_every_sector() {
    let market = SimulatedMarket::new(1);
    let listings = market.listings();
    assert_eq!(listings.len(), 50);
    let unique: HashSet<_> = listings.iter().map(|l| l.symbol.as_str()).collect();
    assert_eq!(unique.len(), 50);
    let sectors: HashSet<_> = listings.iter().map(|l| l.sector).collect();
    assert_eq!(sectors.len(), Sector::ALL.len(), "every sector has a name");
    for l in &listings {
        assert!(strikeline_market::is_valid_symbol(&l.symbol), "{}", l.symbol);
        assert!(!l.name.is_empty());
        assert!(l.reference_price > 1.0);
        assert!((0.1..0.8).contains(&l.annual_volatility), "{}", l.symbol);
        assert!((-0.1..0.4).contains(&l.annual_drift), "{}", l.symbol);
        assert!(l.average_volume >= 1_000_000);
        assert!(l.shares_outstanding >= 100_000_000);
        assert_eq!(l.origin, ListingOrigin::BuiltIn);
    }
    let apple = market.listing("AAPL").unwrap();
    assert_eq!(apple.name, "Apple Inc.");
    assert_eq!(apple.sector, Sector::Technology);
    for (symbol, sector) in [
        ("JPM", Sector::Financial),
        ("XOM", Sector::Energy),
        ("JNJ", Sector::Healthcare),
        ("GOOGL", Sector::Communications),
        ("PLD", Sector::RealEstate),
        ("NEE", Sector::Utilities),
        ("LIN", Sector::Materials),
        ("CAT", Sector::Industrial),
        ("AMZN", Sector::Consumer),
    ] {
        assert_eq!(market.listing(symbol).unwrap().sector, sector, "{symbol}");
    }
}

#[test]
fn the_same_seed_gives_the_same_market_whatever_the_order_of_calls() {
    let (from, to) = ten_years();
    let a = SimulatedMarket::new(42);
    let b = SimulatedMarket::new(42);
    // b: other symbols first, a late range before an early one, a quote before any history.
    let at = utc(2023, 6, 14, 17, 3);
    let quote_b = b.quote("MSFT", at).unwrap();
    let late_b = b.bars("AAPL", ymd(2030, 1, 1), ymd(2030, 3, 1)).unwrap();
    let _ = b.bars("TSLA", from, to).unwrap();
    let early_b = b.bars("AAPL", from, to).unwrap();

    let early_a = a.bars("AAPL", from, to).unwrap();
    let late_a = a.bars("AAPL", ymd(2030, 1, 1), ymd(2030, 3, 1)).unwrap();
    let quote_a = a.quote("MSFT", at).unwrap();
    assert_eq!(early_a, early_b);
    assert_eq!(late_a, late_b);
    assert!(!late_a.is_empty());
    assert_eq!(quote_a, quote_b);

    // A sub-range is a slice of the long range.
    let slice = a.bars("AAPL", ymd(2019, 5, 1), ymd(2019, 5, 31)).unwrap();
    let start = early_a.iter().position(|b| b.date == slice[0].date).unwrap();
    assert_eq!(&early_a[start..start + slice.len()], slice.as_slice());

    // Another seed is another market.
    let c = SimulatedMarket::new(43);
    assert_ne!(c.bars("AAPL", from, to).unwrap(), early_a);
}

#[test]
fn prices_meet_their_reference_on_the_reference_date() {
    let market = SimulatedMarket::new(9);
    for listing in market.listings() {
        let bars = market.bars(&listing.symbol, REFERENCE_DATE, REFERENCE_DATE).unwrap();
        assert_eq!(bars.len(), 1);
        assert_eq!(bars[0].close, listing.reference_price, "{}", listing.symbol);
    }
}

#[test]
fn bars_fall_exactly_on_trading_days() {
    let market = SimulatedMarket::new(3);
    let calendar = Calendar::nyse();
    let (from, to) = (ymd(2013, 6, 1), ymd(2026, 12, 31));
    let bars = market.bars("NVDA", from, to).unwrap();
    let mut expected = Vec::new();
    let mut day = HISTORY_START;
    while day <= to {
        if calendar.is_trading_day(day) {
            expected.push(day);
        }
        day = day.succ_opt().unwrap();
    }
    let dates: Vec<NaiveDate> = bars.iter().map(|b| b.date).collect();
    assert_eq!(dates, expected);
    assert_eq!(dates[0], HISTORY_START);
    // Good Friday 2024, Juneteenth 2023, the Carter mourning day: no bars.
    for closed in [ymd(2024, 3, 29), ymd(2023, 6, 19), ymd(2025, 1, 9)] {
        assert!(!dates.contains(&closed), "{closed}");
    }
    assert!(market.bars("NVDA", to, from).unwrap().is_empty());
    assert!(market.bars("NVDA", ymd(2000, 1, 1), ymd(2013, 12, 31)).unwrap().is_empty());
}

#[test]
fn ten_years_of_fifty_names_are_sane_and_fast() {
    let market = SimulatedMarket::new(2024);
    let (from, to) = ten_years();
    let started = Instant::now();
    let all: Vec<_> = symbols(&market).iter().map(|s| (s.clone(), market.bars(s, from, to).unwrap())).collect();
    let elapsed = started.elapsed();
    eprintln!("ten years x 50 names generated in {elapsed:?} (this build's profile)");
    // Generous for unoptimised builds on a busy machine; release takes a few milliseconds.
    assert!(elapsed.as_secs_f64() < 10.0, "{elapsed:?}");

    for (symbol, bars) in &all {
        assert!(bars.len() > 2500, "{symbol}: {}", bars.len());
        let mut previous_close = None;
        for bar in bars {
            assert!(bar.is_consistent(), "{symbol} {bar:?}");
            assert!(bar.low > 0.0);
            assert!(bar.high >= bar.open.max(bar.close));
            assert!(bar.low <= bar.open.min(bar.close));
            assert!(bar.volume > 0);
            assert!(bar.high / bar.low < 2.0, "{symbol} {bar:?}: implausible range");
            if let Some(prev) = previous_close {
                let gap: f64 = bar.open / prev;
                assert!((0.5..2.0).contains(&gap), "{symbol} {bar:?}: implausible gap");
            }
            previous_close = Some(bar.close);
        }
        // Opens are not simply the previous close: there are gaps.
        let gaps = bars.windows(2).filter(|w| w[1].open != w[0].close).count();
        assert!(gaps > bars.len() / 2, "{symbol}: {gaps} gaps");
    }
}

fn log_returns(closes: &[f64]) -> Vec<f64> {
    closes.windows(2).map(|w| (w[1] / w[0]).ln()).collect()
}

fn stdev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

#[test]
fn realised_volatility_matches_the_configured_one() {
    let (from, to) = ten_years();
    let mut ratios = Vec::new();
    for seed in [1, 2, 3] {
        let market = SimulatedMarket::new(seed);
        for listing in market.listings() {
            let bars = market.bars(&listing.symbol, from, to).unwrap();
            let closes: Vec<f64> = bars.iter().map(|b| b.close).collect();
            let realised = stdev(&log_returns(&closes)) * 252f64.sqrt();
            let ratio = realised / listing.annual_volatility;
            assert!(
                (0.7..1.35).contains(&ratio),
                "seed {seed} {}: realised {realised:.3} vs configured {:.3}",
                listing.symbol,
                listing.annual_volatility
            );
            ratios.push(ratio);
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    assert!((0.92..1.08).contains(&mean), "mean realised/configured {mean:.3}");
}

#[test]
fn volatility_comes_in_calm_and_stormy_stretches() {
    // Rolling 21-day volatility of one name over ten years spans a wide range, and
    // neighbouring months resemble each other (clustering), unlike shuffled returns.
    let market = SimulatedMarket::new(11);
    let (from, to) = ten_years();
    let bars = market.bars("JPM", from, to).unwrap();
    let closes: Vec<f64> = bars.iter().map(|b| b.close).collect();
    let returns = log_returns(&closes);
    let monthly: Vec<f64> = returns.chunks(21).map(stdev).collect();
    let max = monthly.iter().copied().fold(f64::MIN, f64::max);
    let min = monthly.iter().copied().fold(f64::MAX, f64::min);
    assert!(max / min > 3.0, "monthly vol range {min:.4}..{max:.4}");
    // Autocorrelation of squared returns is clearly positive (volatility clustering).
    let sq: Vec<f64> = returns.iter().map(|r| r * r).collect();
    let mean = sq.iter().sum::<f64>() / sq.len() as f64;
    let cov = |lag: usize| sq.iter().zip(&sq[lag..]).map(|(a, b)| (a - mean) * (b - mean)).sum::<f64>() / (sq.len() - lag) as f64;
    let acf5 = cov(5) / cov(0);
    assert!(acf5 > 0.05, "acf of squared returns at lag 5: {acf5:.3}");
}

#[test]
fn volume_hovers_around_the_average_and_rises_on_big_moves() {
    let market = SimulatedMarket::new(5);
    let (from, to) = ten_years();
    for symbol in ["AAPL", "KO", "TSLA"] {
        let listing = market.listing(symbol).unwrap();
        let bars = market.bars(symbol, from, to).unwrap();
        let mean = bars.iter().map(|b| b.volume as f64).sum::<f64>() / bars.len() as f64;
        let ratio = mean / listing.average_volume as f64;
        assert!((0.85..1.2).contains(&ratio), "{symbol}: mean volume ratio {ratio:.3}");
        let mut by_move: Vec<(f64, u64)> = bars.windows(2).map(|w| ((w[1].close / w[0].close).ln().abs(), w[1].volume)).collect();
        by_move.sort_by(|a, b| a.0.total_cmp(&b.0));
        let tenth = by_move.len() / 10;
        let quiet = by_move[..tenth].iter().map(|x| x.1 as f64).sum::<f64>();
        let wild = by_move[by_move.len() - tenth..].iter().map(|x| x.1 as f64).sum::<f64>();
        assert!(wild > 1.5 * quiet, "{symbol}: big moves trade more");
    }
}

#[test]
fn a_quote_at_the_close_is_the_bar_and_closed_markets_do_not_tick() {
    let market = SimulatedMarket::new(77);
    let day = ymd(2024, 7, 10); // a Wednesday
    let bar = market.bars("AAPL", day, day).unwrap()[0];
    let previous = market.bars("AAPL", ymd(2024, 7, 9), ymd(2024, 7, 9)).unwrap()[0];
    let open = utc(2024, 7, 10, 13, 30); // 09:30 EDT
    let close = utc(2024, 7, 10, 20, 0); // 16:00 EDT

    let at_open = market.quote("AAPL", open).unwrap();
    assert_eq!(at_open.price, bar.open);
    assert_eq!(at_open.previous_close, previous.close);
    assert_eq!(at_open.volume, 0);

    let at_close = market.quote("AAPL", close).unwrap();
    assert_eq!(at_close.price, bar.close);
    assert_eq!(at_close.day_open, bar.open);
    assert_eq!(at_close.day_high, bar.high);
    assert_eq!(at_close.day_low, bar.low);
    assert_eq!(at_close.volume, bar.volume);
    assert_eq!(at_close.previous_close, previous.close);
    assert_eq!(at_close.at, close);

    // A millisecond before the close the path is within a cent or so of the close.
    let almost = market.quote("AAPL", close - Duration::milliseconds(1)).unwrap();
    assert!((almost.price - bar.close).abs() <= 0.05 * bar.close);
    assert!(almost.volume <= bar.volume);

    // Evening, night, the next morning before the open: the same quote, no ticks.
    for at in [close + Duration::minutes(1), utc(2024, 7, 11, 3, 0), utc(2024, 7, 11, 13, 29)] {
        assert_eq!(market.quote("AAPL", at).unwrap(), at_close, "{at}");
    }
    // A holiday weekend: Friday's close holds until Tuesday's open (2024-09-02 Labor Day).
    let friday = market.bars("AAPL", ymd(2024, 8, 30), ymd(2024, 8, 30)).unwrap()[0];
    for at in [utc(2024, 8, 31, 15, 0), utc(2024, 9, 2, 15, 0), utc(2024, 9, 3, 13, 29)] {
        let q = market.quote("AAPL", at).unwrap();
        assert_eq!(q.price, friday.close, "{at}");
        assert_eq!(q.at, utc(2024, 8, 30, 20, 0));
    }
}

#[test]
fn intraday_quotes_move_within_the_day_and_agree_with_the_bar() {
    let market = SimulatedMarket::new(8);
    let day = ymd(2024, 11, 29); // day after Thanksgiving: early close 13:00 EST = 18:00 UTC
    let bar = market.bars("TSLA", day, day).unwrap()[0];
    let open = utc(2024, 11, 29, 14, 30);
    let close = utc(2024, 11, 29, 18, 0);
    let mut last_volume = 0;
    let mut last_high = 0.0;
    let mut last_low = f64::MAX;
    let mut prices = HashSet::new();
    let mut at = open;
    while at < close {
        let q = market.quote("TSLA", at).unwrap();
        assert!(q.price >= bar.low && q.price <= bar.high, "{at} {q:?}");
        assert!(q.day_low <= q.price && q.price <= q.day_high);
        assert!(q.day_high >= last_high && q.day_low <= last_low, "extremes only widen");
        assert!(q.volume >= last_volume, "volume only grows");
        assert_eq!(q.day_open, bar.open);
        assert_eq!(q.at, at);
        last_volume = q.volume;
        last_high = q.day_high;
        last_low = q.day_low;
        prices.insert(q.price.to_bits());
        at += Duration::minutes(7);
    }
    assert!(prices.len() > 10, "the price moves during the session");
    let at_close = market.quote("TSLA", close).unwrap();
    assert_eq!((at_close.price, at_close.day_high, at_close.day_low, at_close.volume), (bar.close, bar.high, bar.low, bar.volume));
}

#[test]
fn unknown_valid_symbols_get_a_stable_synthetic_listing() {
    let market = SimulatedMarket::new(1);
    let zz = market.listing("ZZTOP").unwrap();
    assert_eq!(zz.origin, ListingOrigin::Synthetic);
    assert_eq!(zz.name, "ZZTOP Company");
    assert_eq!(zz.sector, Sector::Technology);
    assert_eq!(SimulatedMarket::new(99).listing("ZZTOP").unwrap().reference_price, zz.reference_price);
    let bars = market.bars("ZZTOP", ymd(2020, 1, 1), ymd(2020, 12, 31)).unwrap();
    assert!(bars.len() > 250);
    assert!(bars.iter().all(|b| b.is_consistent()));

    let registered = market.register("ZZTOP", Some("ZZ Top Holdings"), Some(Sector::Consumer)).unwrap();
    assert_eq!(registered.origin, ListingOrigin::Registered);
    assert_eq!(market.listing("ZZTOP").unwrap().name, "ZZ Top Holdings");
    assert_eq!(market.company_info("ZZTOP").unwrap().sector, Sector::Consumer);
    assert_eq!(market.listings().len(), 51);
    // Registration changes the name, never the prices.
    assert_eq!(market.bars("ZZTOP", ymd(2020, 1, 1), ymd(2020, 12, 31)).unwrap(), bars);
    // A blank name falls back to "SYMBOL Company"; built-in names keep their real facts.
    assert_eq!(market.register("QQQQ", Some("  "), None).unwrap().name, "QQQQ Company");
    let apple = market.register("AAPL", Some("Banana"), Some(Sector::Energy)).unwrap();
    assert_eq!((apple.name.as_str(), apple.sector), ("Apple Inc.", Sector::Technology));

    assert!(matches!(market.listing("aapl"), Err(MarketError::InvalidSymbol(_))));
    assert!(matches!(market.bars("", ymd(2020, 1, 1), ymd(2020, 2, 1)), Err(MarketError::InvalidSymbol(_))));
}

#[test]
fn no_quote_before_the_history_starts() {
    let market = SimulatedMarket::new(1);
    assert!(matches!(market.quote("AAPL", utc(2014, 1, 2, 14, 0)), Err(MarketError::Unavailable(_))));
    assert!(market.quote("AAPL", utc(2014, 1, 2, 14, 31)).is_ok());
    // Far future: answered as of the horizon.
    assert!(market.quote("AAPL", utc(2150, 1, 1, 0, 0)).is_ok());
}

#[tokio::test]
async fn it_serves_as_a_shared_trait_object() {
    let market: Arc<dyn MarketData> = Arc::new(SimulatedMarket::new(4));
    assert_eq!(market.provider_name(), "simulated");
    let symbols = vec!["AAPL".to_owned(), "ZZTOP".to_owned(), "MSFT".to_owned()];
    let at = utc(2025, 3, 5, 15, 0);
    let quotes = market.quotes(&symbols, at).await.unwrap();
    let got: Vec<&str> = quotes.iter().map(|q| q.symbol.as_str()).collect();
    assert_eq!(got, ["AAPL", "ZZTOP", "MSFT"]);
    let bars = market.daily_bars("AAPL", ymd(2025, 3, 3), ymd(2025, 3, 7)).await.unwrap();
    assert_eq!(bars.len(), 5);
    let apple = market.company("AAPL").await.unwrap();
    assert_eq!(apple.name, "Apple Inc.");
    assert!(apple.market_cap.unwrap() > 1e12);
    let bad = vec!["not a symbol".to_owned()];
    assert!(matches!(market.quotes(&bad, at).await, Err(MarketError::InvalidSymbol(_))));
    // Shared across tasks.
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let market = Arc::clone(&market);
            tokio::spawn(async move {
                let symbol = ["AAPL", "NVDA", "KO", "XOM"][i];
                market.daily_bars(symbol, ymd(2016, 1, 1), ymd(2016, 12, 31)).await.unwrap().len()
            })
        })
        .collect();
    let sessions_2016 = Calendar::nyse().trading_days_between(ymd(2015, 12, 31), ymd(2016, 12, 31));
    for h in handles {
        assert_eq!(h.await.unwrap() as i64, sessions_2016);
    }
}

#[tokio::test]
async fn exchange_rates_are_a_pure_function_of_the_seed_and_the_new_york_date() {
    let market: Arc<dyn MarketData> = Arc::new(SimulatedMarket::new(42));
    let again = SimulatedMarket::new(42);
    // Tuesday 2024-03-05 in New York runs from 05:00 UTC to 04:59 UTC the next day.
    let early = utc(2024, 3, 5, 5, 0);
    let rates = market.exchange_rates(early).await.unwrap();
    assert_eq!(rates.base, Currency::Usd);
    assert_eq!(rates.provider, "simulated");
    assert_eq!(rates.as_of, early);
    assert_eq!(rates.rate(Currency::Usd), 1.0);
    let currencies: Vec<Currency> = rates.rates.iter().map(|&(c, _)| c).collect();
    assert_eq!(currencies, Currency::ALL);
    assert_eq!(again.exchange_rates_at(utc(2024, 3, 6, 4, 59)).rates, rates.rates);

    // The New York dates on either side differ, both rates.
    for other in [utc(2024, 3, 5, 4, 59), utc(2024, 3, 6, 5, 0)] {
        let moved = again.exchange_rates_at(other);
        for currency in [Currency::Eur, Currency::Gbp] {
            assert_ne!(moved.rate(currency), rates.rate(currency), "{other} {currency}");
        }
    }
    // A weekend keeps Friday's rates.
    let friday = again.exchange_rates_at(utc(2024, 3, 8, 20, 0)).rates;
    assert_eq!(again.exchange_rates_at(utc(2024, 3, 9, 12, 0)).rates, friday);
    assert_eq!(again.exchange_rates_at(utc(2024, 3, 11, 3, 0)).rates, friday);
    // Another seed, another path.
    assert_ne!(SimulatedMarket::new(43).exchange_rates_at(early).rates, rates.rates);
}

#[test]
fn exchange_rates_wander_within_sane_bounds_for_ten_years() {
    let started = Instant::now();
    let (from, to) = ten_years();
    for seed in [1, 42] {
        let market = SimulatedMarket::new(seed);
        let mut eur = Vec::new();
        let mut gbp = Vec::new();
        let mut date = from;
        while date <= to {
            // Noon in New York.
            let at = date.and_hms_opt(17, 0, 0).unwrap().and_utc();
            let rates = market.exchange_rates_at(at);
            assert_eq!(rates.rate(Currency::Usd), 1.0);
            assert_eq!(rates.rates.len(), Currency::ALL.len());
            eur.push(rates.rate(Currency::Eur));
            gbp.push(rates.rate(Currency::Gbp));
            date = date.succ_opt().unwrap();
        }
        for (name, series, range, level) in [("EUR", &eur, 0.7..1.2, 0.92_f64), ("GBP", &gbp, 0.6..1.0, 0.79_f64)] {
            assert!(series.iter().all(|r| range.contains(r)), "{seed} {name}");
            let moves = log_returns(series);
            let biggest = moves.iter().fold(0.0_f64, |m, r| m.max(r.abs()));
            assert!(biggest < 0.025, "{seed} {name}: a {biggest} day");
            // About 0.37% a weekday (weekends do not move).
            let weekday_vol = stdev(&moves) * (7.0_f64 / 5.0).sqrt();
            assert!((0.003..0.0045).contains(&weekday_vol), "{seed} {name}: {weekday_vol}");
            let lo = series.iter().copied().fold(f64::MAX, f64::min);
            let hi = series.iter().copied().fold(f64::MIN, f64::max);
            assert!(hi / lo > 1.05, "{seed} {name} hardly moves: {lo}..{hi}");
            let mean_log = series.iter().map(|r| (r / level).ln()).sum::<f64>() / series.len() as f64;
            assert!(mean_log.abs() < 0.1, "{seed} {name} drifts away: {mean_log}");
        }
        // The common dollar move: euro and pound mostly move together.
        let (e, g) = (log_returns(&eur), log_returns(&gbp));
        let covariance = e.iter().zip(&g).map(|(a, b)| a * b).sum::<f64>() / e.len() as f64;
        let correlation = covariance / (stdev(&e) * stdev(&g));
        assert!((0.45..0.75).contains(&correlation), "{seed}: {correlation}");
    }
    eprintln!("twenty years of daily exchange rates in {:?}", started.elapsed());
}
