//! `strikeline import prices`: real history in, all or nothing.

use crate::common::TestApp;
use chrono::NaiveDate;
use strikeline_server::cli::import::{ImportError, import_prices};
use strikeline_store::market;

on_both_engines!(a_good_file_is_stored_and_tracked, one_bad_row_rejects_the_whole_file);

const GOOD: &str = "symbol,date,open,high,low,close,volume\n\
    ZZQQ,2026-11-18,10.00,10.50,9.90,10.40,120000\n\
    ZZQQ,2026-11-19,10.40,10.80,10.20,10.75,150000\n\
    aapl,2026-11-19,190.00,192.00,189.50,191.25,50000000\n";

fn day(s: &str) -> NaiveDate {
    s.parse().expect("date")
}

async fn a_good_file_is_stored_and_tracked(app: TestApp) {
    let summary = import_prices(app.db(), GOOD, 1, app.now()).await.expect("import");
    assert_eq!((summary.bars, summary.symbols), (3, 2));
    assert_eq!((summary.first, summary.last), (day("2026-11-18"), day("2026-11-19")));
    assert_eq!(summary.new_symbols, 1, "AAPL is already on the default watchlist; ZZQQ is new");
    let bars = market::bars(app.db(), "ZZQQ", day("2026-11-01"), day("2026-11-30")).await.expect("bars");
    assert_eq!(bars.iter().map(|b| b.close_cents).collect::<Vec<_>>(), [1040, 1075], "prices read back exactly");
    let stock = market::find_stock(app.db(), "ZZQQ").await.expect("query").expect("tracked");
    assert_eq!(
        (stock.current_price_cents, stock.previous_close_cents, stock.high_52_week_cents, stock.low_52_week_cents),
        (1075, 1040, 1080, 990)
    );
    // Importing again replaces rather than duplicates.
    import_prices(app.db(), GOOD, 1, app.now()).await.expect("again");
    assert_eq!(market::bars(app.db(), "ZZQQ", day("2026-11-01"), day("2026-11-30")).await.expect("bars").len(), 2);
}

async fn one_bad_row_rejects_the_whole_file(app: TestApp) {
    let before = market::count_bars(app.db()).await.expect("count");
    let bad = format!("{GOOD}ZZQQ,2026-11-20,10.00,9.00,9.50,9.60,100\nZZQQ,not-a-date,1,1,1,1,1\n");
    match import_prices(app.db(), &bad, 1, app.now()).await {
        Err(ImportError::Csv(errors)) => {
            let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
            assert_eq!(lines, [5, 6], "each bad row is reported with its line number: {errors:?}");
        }
        other => panic!("expected CSV errors, got {other:?}"),
    }
    assert_eq!(market::count_bars(app.db()).await.expect("count"), before, "nothing half-imported");
    assert!(market::find_stock(app.db(), "ZZQQ").await.expect("query").is_none());
}
