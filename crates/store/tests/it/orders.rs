//! Orders: placed once per client order id and account whatever runs at once, moved only from
//! the state read (a stale sender changes nothing), fills kept with their order, the schema's
//! checks in force, and an account's orders gone with it.

use chrono::Duration;
use strikeline_store::broker_fees::{self, FeeRow};
use strikeline_store::orders::{self, Advance, FillRow, OrderLegRow, OrderRow};
use strikeline_store::trading_accounts::{self as accounts, AccountRow};
use strikeline_store::users::UserRecord;
use strikeline_store::{Db, StoreError};

use crate::common::{day, t0, user};

crate::on_both_engines!(
    one_client_order_id_places_one_order_whatever_runs_at_once,
    an_order_moves_only_from_the_state_read,
    the_schema_refuses_what_the_engine_never_writes,
    an_accounts_orders_go_with_it,
    cash_counts_each_fill_and_each_broker_fee_once,
);

fn order(owner: &UserRecord, account_id: &str, client_order_id: &str) -> (OrderRow, Vec<OrderLegRow>) {
    let id = uuid::Uuid::new_v4().to_string();
    let row = OrderRow {
        id: id.clone(),
        user_id: owner.id.clone(),
        account_id: account_id.to_owned(),
        client_order_id: client_order_id.to_owned(),
        signal_id: None,
        underlying: "AAPL".into(),
        quantity: 3,
        order_type: "limit".into(),
        limit_price: Some(3.07),
        time_in_force: "day".into(),
        status: "new".into(),
        filled_units: 0,
        reason: None,
        placed_on: day(2026, 12, 1),
        created_at: t0(),
        updated_at: t0(),
        broker: "paper".into(),
        broker_order_id: None,
        expires_at: None,
    };
    let leg = |i: i64, strike: i64, side: &str| OrderLegRow {
        order_id: id.clone(),
        user_id: owner.id.clone(),
        leg_index: i,
        option_right: "call".into(),
        strike_cents: strike,
        expiration_date: day(2026, 12, 18),
        side: side.into(),
        ratio: 1,
    };
    (row, vec![leg(0, 20_000, "buy"), leg(1, 21_000, "sell")])
}

fn fill(row: &OrderRow, units: i64, minutes: i64) -> FillRow {
    FillRow {
        id: uuid::Uuid::new_v4().to_string(),
        order_id: row.id.clone(),
        user_id: row.user_id.clone(),
        units,
        net_price: 3.07,
        cash_out: 3.07 * 100.0 * units as f64 + 1.3 * units as f64,
        commission_cents: 130 * units,
        filled_at: t0() + Duration::minutes(minutes),
    }
}

/// Another account of `owner`'s, "IRA", not current.
async fn second_account(db: &Db, owner: &UserRecord) -> AccountRow {
    let ira = AccountRow {
        id: uuid::Uuid::new_v4().to_string(),
        name: "IRA".into(),
        is_current: false,
        ..accounts::first_account(&owner.id, t0())
    };
    assert!(accounts::insert_within(db, &ira, 10).await.expect("account"));
    ira
}

/// A change of order `id` from one state to another at `t0`, with nothing else attached.
fn change<'a>(id: &'a str, from: (&'a str, i64), to: (&'a str, i64)) -> Advance<'a> {
    Advance { broker_order_id: None, id, from, to, reason: None, fill: None, opens: None, closes: None, audit: None, at: t0() }
}

async fn one_client_order_id_places_one_order_whatever_runs_at_once(db: Db) {
    let ada = user(&db, "ada").await;
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let db = db.clone();
            let (row, legs) = order(&ada, &ada.account_id, "signal-1/main");
            tokio::spawn(async move { orders::place(&db, &row, &legs).await.expect("place") })
        })
        .collect();
    let mut placed = Vec::new();
    for task in tasks {
        placed.push(task.await.expect("task"));
    }
    assert_eq!(placed.iter().filter(|(_, new)| *new).count(), 1, "one sender placed it");
    let first = &placed.iter().find(|(_, new)| *new).expect("placed").0;
    assert!(placed.iter().all(|(stored, _)| stored == first), "every sender reads the one order");
    assert_eq!(first.legs.len(), 2);
    assert_eq!((first.legs[0].side.as_str(), first.legs[1].side.as_str()), ("buy", "sell"));
    assert_eq!(orders::for_account(&db, &ada.account_id, 10).await.expect("list").len(), 1);
    // The same client order id in another account is another order.
    let ira = second_account(&db, &ada).await;
    let (row, legs) = order(&ada, &ira.id, "signal-1/main");
    assert!(orders::place(&db, &row, &legs).await.expect("place").1);
    assert!(matches!(orders::find(&db, &ira.id, &first.row.id).await, Err(StoreError::NotFound)), "not the IRA's");
}

async fn an_order_moves_only_from_the_state_read(db: Db) {
    let ada = user(&db, "ada").await;
    let (row, legs) = order(&ada, &ada.account_id, "o-1");
    let (stored, _) = orders::place(&db, &row, &legs).await.expect("place");
    let id = stored.row.id.as_str();
    let step = |from: (&'static str, i64), to: (&'static str, i64), fill: Option<FillRow>, reason: Option<&'static str>| {
        let db = db.clone();
        let id = id.to_owned();
        async move {
            let change = Advance {
                broker_order_id: None,
                id: &id,
                from,
                to,
                reason,
                fill: fill.as_ref(),
                opens: None,
                closes: None,
                audit: None,
                at: t0() + Duration::minutes(1),
            };
            orders::advance(&db, &change).await.expect("advance")
        }
    };
    assert!(step(("new", 0), ("accepted", 0), None, None).await);
    assert!(!step(("new", 0), ("rejected", 0), None, Some("late")).await, "a stale sender changes nothing");
    assert!(step(("accepted", 0), ("partially_filled", 1), Some(fill(&row, 1, 1)), None).await);
    assert!(!step(("accepted", 0), ("partially_filled", 1), Some(fill(&row, 1, 2)), None).await, "that fill is not stored twice");
    assert_eq!(orders::standing(&db).await.expect("standing").len(), 1);
    assert!(step(("partially_filled", 1), ("filled", 3), Some(fill(&row, 2, 3)), None).await);
    let done = orders::find(&db, &ada.account_id, id).await.expect("find");
    assert_eq!((done.row.status.as_str(), done.row.filled_units), ("filled", 3));
    let fills = orders::fills(&db, id).await.expect("fills");
    assert_eq!(fills.iter().map(|f| f.units).collect::<Vec<_>>(), [1, 2], "oldest first");
    assert!(orders::standing(&db).await.expect("standing").is_empty(), "a filled order no longer stands");
}

async fn the_schema_refuses_what_the_engine_never_writes(db: Db) {
    let ada = user(&db, "ada").await;
    let (row, legs) = order(&ada, &ada.account_id, "o-1");
    let market_with_limit = OrderRow { order_type: "market".into(), ..row.clone() };
    assert!(orders::place(&db, &market_with_limit, &legs).await.is_err());
    let limit_without = OrderRow { limit_price: None, ..row.clone() };
    assert!(orders::place(&db, &limit_without, &legs).await.is_err());
    assert!(orders::place(&db, &OrderRow { status: "pending".into(), ..row.clone() }, &legs).await.is_err());
    assert!(orders::place(&db, &OrderRow { quantity: 0, ..row.clone() }, &legs).await.is_err());
    let bad_leg = vec![OrderLegRow { side: "hold".into(), ..legs[0].clone() }];
    assert!(
        orders::place(&db, &OrderRow { client_order_id: "o-2".into(), ..row.clone() }, &bad_leg).await.is_err(),
        "and nothing half-placed"
    );
    assert!(orders::for_account(&db, &ada.account_id, 10).await.expect("list").is_empty(), "nothing stored from the refusals");
    let (stored, _) = orders::place(&db, &row, &legs).await.expect("place");
    let overfill = change(&stored.row.id, ("new", 0), ("filled", 4));
    assert!(orders::advance(&db, &overfill).await.is_err(), "never more than the quantity");
}

async fn an_accounts_orders_go_with_it(db: Db) {
    let ada = user(&db, "ada").await;
    let ira = second_account(&db, &ada).await;
    let (row, legs) = order(&ada, &ira.id, "o-1");
    let (stored, _) = orders::place(&db, &row, &legs).await.expect("place");
    assert_eq!(
        accounts::delete(&db, &ada.id, &ira.id).await.expect("delete"),
        Err(accounts::Kept::OpenPositions),
        "a standing order keeps it"
    );
    let cancel = Advance { reason: Some("test"), ..change(&stored.row.id, ("new", 0), ("rejected", 0)) };
    assert!(orders::advance(&db, &cancel).await.expect("reject"));
    assert_eq!(accounts::delete(&db, &ada.id, &ira.id).await.expect("delete"), Ok(()));
    assert!(matches!(orders::find(&db, &ira.id, &stored.row.id).await, Err(StoreError::NotFound)));
}

fn fee(owner: &UserRecord, account_id: &str, activity_id: &str, amount_cents: i64) -> FeeRow {
    FeeRow {
        account_id: account_id.to_owned(),
        user_id: owner.id.clone(),
        activity_id: activity_id.to_owned(),
        kind: Some("ORF".into()),
        amount_cents,
        charged_on: Some(day(2026, 12, 1)),
        booked_at: t0(),
    }
}

async fn cash_counts_each_fill_and_each_broker_fee_once(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let ira = second_account(&db, &ada).await;
    let (row, legs) = order(&ada, &ada.account_id, "o-1");
    let (stored, _) = orders::place(&db, &row, &legs).await.expect("place");
    let filled = fill(&stored.row, 3, 1);
    let filling = Advance { fill: Some(&filled), ..change(&stored.row.id, ("new", 0), ("filled", 3)) };
    assert!(orders::advance(&db, &filling).await.expect("fill"));

    // The same two fees read by eight checks at once (a fee refunded among them): booked once.
    let fees = vec![fee(&ada, &ada.account_id, "fee-1", 3), fee(&ada, &ada.account_id, "fee-2", 2), fee(&ada, &ira.id, "fee-3", -1)];
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (db, fees) = (db.clone(), fees.clone());
            tokio::spawn(async move { broker_fees::book(&db, &fees).await.expect("book") })
        })
        .collect();
    let mut booked = 0;
    for task in tasks {
        booked += task.await.expect("task");
    }
    assert_eq!(booked, 3, "each fee booked by one of the checks");
    assert_eq!(broker_fees::book(&db, &[fee(&bob, &bob.account_id, "fee-1", 7)]).await.expect("bob"), 1, "ids are per account");

    let cents = |v: Vec<(String, f64)>| {
        let mut v: Vec<(String, i64)> = v.into_iter().map(|(id, out)| (id, (out * 100.0).round() as i64)).collect();
        v.sort();
        v
    };
    let fills_cents = (filled.cash_out * 100.0).round() as i64;
    let mut want = vec![(ada.account_id.clone(), fills_cents + 5), (ira.id.clone(), -1)];
    want.sort();
    assert_eq!(cents(orders::cash_out_by_account(&db, &ada.id, None).await.expect("all")), want);
    assert_eq!(
        cents(orders::cash_out_by_account(&db, &ada.id, Some(&ira.id)).await.expect("one")),
        [(ira.id.clone(), -1)],
        "one account when named"
    );
    assert!(orders::cash_out_by_account(&db, &ada.id, Some(&bob.account_id)).await.expect("not hers").is_empty(), "never another user's");
    assert_eq!(cents(orders::cash_out_by_account(&db, &bob.id, None).await.expect("bob")), [(bob.account_id.clone(), 7)]);
    assert_eq!(broker_fees::of_account(&db, &ada.account_id).await.expect("fees").len(), 2);
}
