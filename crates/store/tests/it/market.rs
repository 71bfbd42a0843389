//! The tracked universe and its daily history.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use strikeline_store::market::{self, BarRow, QuoteUpdate, StockRow};
use strikeline_store::{Db, StoreError};

use crate::common::{day, t0, user};

crate::on_both_engines!(a_symbol_is_tracked_once, bars_are_upserted_and_read_by_range, quotes_and_volatilities_are_written);

fn stock(symbol: &str, added_by: Option<&str>, at: DateTime<Utc>) -> StockRow {
    StockRow {
        id: uuid::Uuid::new_v4().to_string(),
        symbol: symbol.into(),
        company_name: format!("{symbol} Inc."),
        sector: "Technology".into(),
        current_price_cents: 18_950,
        previous_close_cents: 18_700,
        volume: 52_000_000,
        high_52_week_cents: 23_700,
        low_52_week_cents: 16_400,
        market_cap: Some(2.9e12),
        added_by: added_by.map(str::to_owned),
        last_updated: at,
        created_at: at,
    }
}

fn bar(d: NaiveDate, close: i64) -> BarRow {
    BarRow { day: d, open_cents: close - 50, high_cents: close + 100, low_cents: close - 100, close_cents: close, volume: 1_000 }
}

async fn a_symbol_is_tracked_once(db: Db) {
    let ada = user(&db, "ada").await;
    let aapl = stock("AAPL", Some(&ada.id), t0());
    market::insert_stock(&db, &stock("MSFT", None, t0())).await.expect("msft");
    market::insert_stock(&db, &aapl).await.expect("aapl");
    let again = market::insert_stock(&db, &stock("AAPL", None, t0())).await;
    assert!(matches!(again, Err(StoreError::Conflict("symbol"))), "{again:?}");

    assert_eq!(market::find_stock(&db, "AAPL").await.expect("find"), Some(aapl.clone()));
    assert_eq!(market::find_stock(&db, "NOPE").await.expect("find"), None);
    let symbols: Vec<String> = market::list_stocks(&db).await.expect("list").into_iter().map(|s| s.symbol).collect();
    assert_eq!(symbols, ["AAPL", "MSFT"], "ordered by symbol");
    assert_eq!(market::count_stocks(&db).await.expect("count"), 2);
}

async fn bars_are_upserted_and_read_by_range(db: Db) {
    // More than one multi-row INSERT's worth (500 rows) across two symbols.
    let start = day(2023, 1, 1);
    let days: Vec<NaiveDate> = (0..700).map(|i| start + Duration::days(i)).collect();
    let mut bars: Vec<(String, BarRow)> = days.iter().enumerate().map(|(i, d)| ("AAPL".to_owned(), bar(*d, 10_000 + i as i64))).collect();
    bars.extend(days.iter().take(10).map(|d| ("MSFT".to_owned(), bar(*d, 30_000))));
    market::upsert_bars(&db, &bars).await.expect("upsert");
    market::upsert_bars(&db, &bars).await.expect("upsert again");
    assert_eq!(market::count_bars(&db).await.expect("count"), 710, "writing the same bars twice stores them once");

    // Replacing a day overwrites it.
    let fixed = BarRow { volume: 7, ..bar(days[5], 12_345) };
    market::upsert_bars(&db, &[("AAPL".to_owned(), fixed)]).await.expect("replace");
    assert_eq!(market::count_bars(&db).await.expect("count"), 710);

    let range = market::bars(&db, "AAPL", days[3], days[6]).await.expect("range");
    assert_eq!(range, [bar(days[3], 10_003), bar(days[4], 10_004), fixed, bar(days[6], 10_006)], "inclusive, oldest first");
    assert!(market::bars(&db, "AAPL", days[6], days[3]).await.expect("range").is_empty());
    assert!(market::bars(&db, "NOPE", days[0], days[699]).await.expect("range").is_empty());

    let last = market::last_bars(&db, "AAPL", days[100], 3).await.expect("last");
    assert_eq!(last, [bar(days[98], 10_098), bar(days[99], 10_099), bar(days[100], 10_100)], "the last N up to the day, oldest first");
    assert_eq!(market::last_bars(&db, "MSFT", days[699], 50).await.expect("last").len(), 10);

    assert_eq!(market::latest_bar_day(&db, "AAPL").await.expect("latest"), Some(days[699]));
    assert_eq!(market::latest_bar_day(&db, "NOPE").await.expect("latest"), None);
    assert_eq!(market::range_of(&db, "MSFT", days[0]).await.expect("range"), Some((30_100, 29_900)));
    assert_eq!(market::range_of(&db, "NOPE", days[0]).await.expect("range"), None);
    let ranges = market::ranges_since(&db, days[690]).await.expect("ranges");
    assert_eq!(ranges, [("AAPL".to_owned(), 10_699 + 100, 10_690 - 100)]);

    // The same symbol and day twice in one batch: the last one wins, on both engines.
    let twice = [
        ("AAPL".to_owned(), bar(day(2030, 1, 1), 1_000)),
        ("MSFT".to_owned(), bar(day(2030, 1, 1), 5)),
        ("AAPL".to_owned(), bar(day(2030, 1, 1), 2_000)),
    ];
    market::upsert_bars(&db, &twice).await.expect("duplicates fold");
    assert_eq!(market::bars(&db, "AAPL", day(2030, 1, 1), day(2030, 1, 1)).await.expect("bars"), [bar(day(2030, 1, 1), 2_000)]);
    assert_eq!(market::count_bars(&db).await.expect("count"), 712);
}

async fn quotes_and_volatilities_are_written(db: Db) {
    market::insert_stock(&db, &stock("AAPL", None, t0())).await.expect("aapl");
    market::insert_stock(&db, &stock("MSFT", None, t0())).await.expect("msft");
    let at = t0() + Duration::minutes(15);
    market::update_quotes(
        &db,
        &[QuoteUpdate {
            symbol: "AAPL".into(),
            current_price_cents: 19_100,
            previous_close_cents: 18_950,
            volume: 1,
            high_52_week_cents: 23_700,
            low_52_week_cents: 16_400,
            at,
        }],
    )
    .await
    .expect("quotes");
    let aapl = market::find_stock(&db, "AAPL").await.expect("find").expect("exists");
    assert_eq!((aapl.current_price_cents, aapl.previous_close_cents, aapl.last_updated), (19_100, 18_950, at));
    assert_eq!(market::find_stock(&db, "MSFT").await.expect("find").expect("exists").last_updated, t0());

    assert!(market::volatilities(&db).await.expect("vols").is_empty());
    market::set_volatilities(&db, &[("AAPL".into(), 0.27)]).await.expect("set");
    assert_eq!(market::volatilities(&db).await.expect("vols"), [("AAPL".to_owned(), 0.27)]);
}
