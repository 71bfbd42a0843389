//! Portfolios: manual positions belong to their owner; automated positions open once per
//! user and signal and close when their signal ends.

use chrono::{DateTime, Duration, Utc};
use strikeline_store::positions::{self, AutomatedRow, ManualMark, ManualRow};
use strikeline_store::signals::{self, SignalMark};
use strikeline_store::users::UserRecord;
use strikeline_store::{Db, StoreError};

use crate::common::{day, signal, t0, user};

crate::on_both_engines!(
    manual_positions_are_scoped_to_their_owner,
    a_manual_position_that_expired_is_not_marked_again,
    an_automated_position_opens_once_per_user_and_signal,
    ended_signals_name_the_positions_to_close,
    portfolio_values_are_kept_per_day,
    a_users_book_in_one_row_is_what_the_rows_hold,
);

fn manual(owner: &UserRecord, symbol: &str, created_at: DateTime<Utc>) -> ManualRow {
    ManualRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: owner.id.clone(),
        account_id: owner.account_id.clone(),
        symbol: symbol.into(),
        company_name: format!("{symbol} Inc."),
        position_type: "PUT".into(),
        strike_cents: 15_000,
        expiration_date: day(2026, 4, 17),
        quantity: 3,
        entry_cents: 525,
        target_cents: Some(800),
        stop_cents: None,
        reasoning: Some("earnings".into()),
        status: "open".into(),
        current_option_cents: None,
        current_price_cents: None,
        pnl_cents: 0,
        pnl_percent: 0.0,
        closed_at: None,
        created_at,
        updated_at: created_at,
    }
}

fn automated(owner: &UserRecord, signal_id: &str, quantity: i64) -> AutomatedRow {
    AutomatedRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: owner.id.clone(),
        account_id: owner.account_id.clone(),
        signal_id: signal_id.into(),
        quantity,
        entry_cents: 300,
        commissions_cents: 65 * quantity,
        status: "open".into(),
        exit_cents: None,
        opened_at: t0(),
        closed_at: None,
        updated_at: t0(),
    }
}

async fn manual_positions_are_scoped_to_their_owner(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let first = manual(&ada, "AAPL", t0());
    let second = manual(&ada, "MSFT", t0() + Duration::minutes(1));
    let bobs = manual(&bob, "TSLA", t0());
    for p in [&first, &second, &bobs] {
        positions::insert_manual(&db, p).await.expect("insert");
    }

    assert_eq!(positions::manual_for(&db, &ada.account_id).await.expect("list"), [second.clone(), first.clone()], "newest first, own only");
    assert_eq!(positions::find_manual(&db, &ada.account_id, &first.id).await.expect("find"), first);
    let foreign = positions::find_manual(&db, &bob.account_id, &first.id).await;
    assert!(matches!(foreign, Err(StoreError::NotFound)), "another user's position is not found: {foreign:?}");

    let foreign = positions::delete_manual(&db, &bob.account_id, &first.id).await;
    assert!(matches!(foreign, Err(StoreError::NotFound)), "{foreign:?}");
    assert_eq!(positions::manual_for(&db, &ada.account_id).await.expect("list").len(), 2, "a foreign delete deletes nothing");
    positions::delete_manual(&db, &ada.account_id, &first.id).await.expect("delete own");
    assert!(matches!(positions::find_manual(&db, &ada.account_id, &first.id).await, Err(StoreError::NotFound)));
    assert!(matches!(positions::delete_manual(&db, &ada.account_id, &first.id).await, Err(StoreError::NotFound)), "gone");
    assert_eq!(positions::manual_for(&db, &bob.account_id).await.expect("list"), [bobs]);

    // What the server never writes is refused.
    let zero = ManualRow { quantity: 0, ..manual(&ada, "AMD", t0()) };
    assert!(positions::insert_manual(&db, &zero).await.is_err(), "quantity below 1");
    let odd = ManualRow { position_type: "CONDOR".into(), ..manual(&ada, "AMD", t0()) };
    assert!(positions::insert_manual(&db, &odd).await.is_err(), "unknown position type");
    let pending = ManualRow { status: "pending".into(), ..manual(&ada, "AMD", t0()) };
    assert!(positions::insert_manual(&db, &pending).await.is_err(), "unknown status");
}

async fn a_manual_position_that_expired_is_not_marked_again(db: Db) {
    let ada = user(&db, "ada").await;
    let p = manual(&ada, "AAPL", t0());
    positions::insert_manual(&db, &p).await.expect("insert");
    let mark = |expired, cents, at| ManualMark {
        id: p.id.clone(),
        current_option_cents: cents,
        current_price_cents: 14_000,
        pnl_cents: (cents - 525) * 300,
        pnl_percent: 0.0,
        expired,
        at,
    };
    positions::mark_manual(&db, &[mark(false, 600, t0() + Duration::hours(1))]).await.expect("mark");
    let marked = positions::find_manual(&db, &ada.account_id, &p.id).await.expect("find");
    assert_eq!((marked.status.as_str(), marked.current_option_cents, marked.closed_at), ("open", Some(600), None));
    assert_eq!(positions::open_manual(&db).await.expect("open").len(), 1);

    let ended_at = t0() + Duration::days(46);
    positions::mark_manual(&db, &[mark(true, 0, ended_at)]).await.expect("expire");
    let ended = positions::find_manual(&db, &ada.account_id, &p.id).await.expect("find");
    assert_eq!((ended.status.as_str(), ended.closed_at, ended.current_option_cents), ("expired", Some(ended_at), Some(0)));
    positions::mark_manual(&db, &[mark(false, 900, ended_at + Duration::days(1))]).await.expect("mark");
    assert_eq!(positions::find_manual(&db, &ada.account_id, &p.id).await.expect("find"), ended, "not marked again");
    assert!(positions::open_manual(&db).await.expect("open").is_empty());
}

async fn an_automated_position_opens_once_per_user_and_signal(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let s = signal("AAPL", "Momentum", 80, day(2026, 3, 2), t0(), None);
    signals::issue_automated(&db, std::slice::from_ref(&s)).await.expect("issue");

    let first = automated(&ada, &s.id, 2);
    assert!(positions::open_automated(&db, &first).await.expect("open"));
    assert!(!positions::open_automated(&db, &automated(&ada, &s.id, 5)).await.expect("open"), "already held");
    assert!(positions::open_automated(&db, &automated(&bob, &s.id, 1)).await.expect("open"), "another user may hold it too");

    assert_eq!(held_positions(&db, &ada.account_id).await, std::slice::from_ref(&first));
    assert_eq!(positions::find_automated(&db, &ada.account_id, &first.id).await.expect("find"), first);
    assert!(matches!(positions::find_automated(&db, &bob.account_id, &first.id).await, Err(StoreError::NotFound)), "scoped to the owner");

    let carol = user(&db, "carol").await;
    assert!(positions::open_automated(&db, &automated(&carol, &s.id, 0)).await.is_err(), "quantity below 1 is refused");
    let closing = AutomatedRow { status: "closing".into(), ..automated(&carol, &s.id, 1) };
    assert!(positions::open_automated(&db, &closing).await.is_err(), "unknown status is refused");
    assert!(held_positions(&db, &carol.account_id).await.is_empty());
}

async fn ended_signals_name_the_positions_to_close(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let today = day(2026, 3, 2);
    let winner = signal("AAPL", "Momentum", 80, today, t0(), None);
    let running = signal("MSFT", "Momentum", 80, today, t0(), None);
    let lapsed = signal("AMD", "Breakout", 80, today, t0(), None);
    signals::issue_automated(&db, &[winner.clone(), running.clone(), lapsed.clone()]).await.expect("issue");
    for (who, s, qty) in [(&ada, &winner.id, 2), (&bob, &winner.id, 1), (&ada, &running.id, 4), (&ada, &lapsed.id, 1)] {
        assert!(positions::open_automated(&db, &automated(who, s, qty)).await.expect("open"));
    }
    let ended_at = t0() + Duration::hours(3);
    let end = |id: &str, status: &str, reason: &str, cents: i64| SignalMark {
        id: id.into(),
        current_option_cents: cents,
        current_price_cents: 10_500,
        previous_close_cents: 9_900,
        pnl_cents: cents - 300,
        pnl_percent: 0.0,
        close: Some((status.into(), reason.into())),
        net_pnl_cents: None,
        at: ended_at,
    };
    signals::apply_marks(&db, &[end(&winner.id, "closed", "target", 450), end(&lapsed.id, "expired", "expiry", 0)]).await.expect("end");

    // The settlement closes these with sell orders (the server's tests follow them there).
    let ending = positions::ending(&db).await.expect("ending");
    let mut seen: Vec<(String, String, String)> =
        ending.iter().map(|e| (e.position.user_id.clone(), e.position.signal_id.clone(), e.ended_as.clone())).collect();
    seen.sort();
    let mut expected = vec![
        (ada.id.clone(), winner.id.clone(), "closed".to_owned()),
        (bob.id.clone(), winner.id.clone(), "closed".to_owned()),
        (ada.id.clone(), lapsed.id.clone(), "expired".to_owned()),
    ];
    expected.sort();
    assert_eq!(seen, expected, "open positions on ended signals, with how each ended; not the running one");
}

async fn portfolio_values_are_kept_per_day(db: Db) {
    let ada = user(&db, "ada").await;
    let (d1, d2) = (day(2026, 3, 2), day(2026, 3, 3));
    positions::snapshot_value(&db, &ada.account_id, d2, 120_000, t0()).await.expect("d2");
    positions::snapshot_value(&db, &ada.account_id, d1, 100_000, t0()).await.expect("d1");
    positions::snapshot_value(&db, &ada.account_id, d2, 125_000, t0() + Duration::hours(1)).await.expect("d2 again");
    assert_eq!(
        positions::value_history(&db, &ada.account_id).await.expect("history"),
        [(d1, 100_000), (d2, 125_000)],
        "one value per day, oldest first"
    );
}

/// A user's automated positions as the read path loads them (with their signals), checking each
/// signal is the one the position holds.
async fn held_positions(db: &Db, user_id: &str) -> Vec<positions::AutomatedRow> {
    positions::automated_with_signals(db, user_id)
        .await
        .expect("list")
        .into_iter()
        .map(|(position, signal)| {
            assert_eq!(position.signal_id, signal.id, "each position comes with its own signal");
            position
        })
        .collect()
}

/// `account_book` packs a user's positions and values into JSON text in the database; what comes
/// back must be exactly what the row-by-row reads give: reals to the last bit, text with
/// quotes, backslashes and non-ASCII, empty optionals, and the same order.
async fn a_users_book_in_one_row_is_what_the_rows_hold(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    assert_eq!(positions::account_book(&db, &ada.account_id).await.expect("empty book"), positions::AccountBook::default(), "nothing held");

    let awkward = 0.1 + 0.2; // 0.30000000000000004: 17 significant digits
    let mut held = Vec::new();
    for (i, (symbol, opened_min)) in [("AAPL", 0), ("MSFT", 5), ("NVDA", 5), ("TSLA", 9)].into_iter().enumerate() {
        let mut s = signal(symbol, "Momentum", 60 + i as i64, day(2026, 3, 2), t0() + Duration::minutes(i as i64), None);
        s.volatility = awkward * (i as f64 + 1.0) / 3.0;
        s.company_name = format!("{symbol} \"Quoted\" \\ Société {i}");
        signals::issue_automated(&db, std::slice::from_ref(&s)).await.expect("issue");
        let mut p = automated(&ada, &s.id, 1 + i as i64);
        p.opened_at = t0() + Duration::minutes(opened_min) + Duration::microseconds(123_457);
        p.updated_at = p.opened_at;
        if i == 3 {
            p.status = "closed".into();
        }
        assert!(positions::open_automated(&db, &p).await.expect("open"));
        held.push(p);
    }
    assert!(positions::open_automated(&db, &automated(&bob, &held[0].signal_id, 1)).await.expect("bob's"));
    let mut first = manual(&ada, "AMD", t0());
    first.pnl_percent = -awkward;
    first.reasoning = None;
    first.target_cents = None;
    let second = ManualRow { reasoning: Some("line\nbreak \u{1F4C8}".into()), ..manual(&ada, "INTC", t0() + Duration::seconds(1)) };
    for p in [&first, &second, &manual(&bob, "IBM", t0())] {
        positions::insert_manual(&db, p).await.expect("insert");
    }
    for (d, cents) in [(day(2026, 3, 3), 101_000), (day(2026, 3, 2), 100_000), (day(2026, 3, 4), 99_500)] {
        positions::snapshot_value(&db, &ada.account_id, d, cents, t0()).await.expect("value");
    }

    let book = positions::account_book(&db, &ada.account_id).await.expect("book");
    assert_eq!(book.manual, positions::manual_for(&db, &ada.account_id).await.expect("manual"), "manual positions, newest first");
    assert_eq!(book.manual[1].pnl_percent.to_bits(), (-awkward).to_bits(), "a real keeps every bit");
    let rows: Vec<_> =
        positions::all_automated_with_signals(&db).await.expect("all").into_iter().filter(|(p, _)| p.user_id == ada.id).collect();
    assert_eq!(book.automated, rows, "automated positions with their signals, open first, then newest");
    assert_eq!(book.automated, positions::automated_with_signals(&db, &ada.account_id).await.expect("held"));
    assert_eq!(book.automated.last().map(|(p, _)| p.status.as_str()), Some("closed"));
    assert!(book.automated.iter().all(|(p, s)| p.signal_id == s.id), "each position with its own signal");
    assert_eq!(book.history, positions::value_history(&db, &ada.account_id).await.expect("history"));
    assert_eq!(book.history, [(day(2026, 3, 2), 100_000), (day(2026, 3, 3), 101_000), (day(2026, 3, 4), 99_500)], "oldest first");
}
