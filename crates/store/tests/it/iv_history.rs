//! The implied-volatility history: a session's reading written twice is one reading (the
//! later), series come back in date order per symbol, and fractions survive both engines.

use chrono::{Days, NaiveDate};
use strikeline_store::Db;
use strikeline_store::iv_history::{self, IvRow};

use crate::common::t0;

crate::on_both_engines!(readings_are_one_per_session_and_read_back_in_order);

fn reading(symbol: &str, day: NaiveDate, atm_iv: f64) -> IvRow {
    IvRow {
        symbol: symbol.into(),
        day,
        atm_iv,
        near_expiration: day + Days::new(28),
        far_expiration: Some(day + Days::new(35)),
        provider: "simulated".into(),
        recorded_at: t0(),
    }
}

async fn readings_are_one_per_session_and_read_back_in_order(db: Db) {
    let day = NaiveDate::from_ymd_opt(2026, 3, 2).expect("a date");
    let rows: Vec<IvRow> = (0..5).rev().map(|i| reading("AAPL", day + Days::new(i), 0.2 + 0.01 * i as f64)).collect();
    iv_history::upsert(&db, &rows).await.expect("stored");
    iv_history::upsert(&db, &[reading("MSFT", day, 0.31), IvRow { far_expiration: None, ..reading("AAPL", day, 0.123_456_789) }])
        .await
        .expect("stored again");

    let series = iv_history::series(&db, "AAPL", day, day + Days::new(3)).await.expect("read");
    assert_eq!(series.iter().map(|r| r.day).collect::<Vec<_>>(), (0..4).map(|i| day + Days::new(i)).collect::<Vec<_>>());
    assert_eq!((series[0].atm_iv, series[0].far_expiration), (0.123_456_789, None), "the second write replaced the first");
    assert_eq!(series[1], reading("AAPL", day + Days::new(1), 0.2 + 0.01), "every field round-trips");
    let all = iv_history::all_series(&db, day, day).await.expect("read");
    assert_eq!(all.iter().map(|r| (r.symbol.as_str(), r.atm_iv)).collect::<Vec<_>>(), [("AAPL", 0.123_456_789), ("MSFT", 0.31)]);
}
