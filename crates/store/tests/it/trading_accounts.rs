//! Trading accounts: every user starts with one current account; more are opened within the
//! plan's number even under parallel requests; names are unique per user whatever their case;
//! exactly one account is current; an account is deleted only when it is neither current nor
//! holding open positions; and nobody reaches another user's accounts.

use chrono::Duration;
use strikeline_store::api_keys::{self, NewApiKey};
use strikeline_store::positions::{self, ManualRow};
use strikeline_store::trading_accounts::{self as accounts, AccountRow, AccountUpdate, Kept};
use strikeline_store::{Db, StoreError, users};

use crate::common::{day, t0, user};

crate::on_both_engines!(
    registration_opens_a_current_first_account,
    parallel_openings_stop_at_the_plans_number,
    names_are_unique_per_user_whatever_their_case,
    switching_keeps_exactly_one_current_account,
    an_account_is_deleted_only_when_idle_and_not_current,
    the_automation_reads_each_accounts_place,
    a_scoped_key_acts_on_its_account_whatever_is_current,
);

fn account(user_id: &str, name: &str, minutes: i64) -> AccountRow {
    AccountRow {
        id: uuid::Uuid::new_v4().to_string(),
        name: name.into(),
        automate: false,
        is_current: false,
        created_at: t0() + Duration::minutes(minutes),
        updated_at: t0() + Duration::minutes(minutes),
        ..accounts::first_account(user_id, t0())
    }
}

async fn registration_opens_a_current_first_account(db: Db) {
    let ada = user(&db, "ada").await;
    let list = accounts::for_user(&db, &ada.id).await.expect("list");
    assert_eq!(list.len(), 1);
    let main = &list[0];
    assert_eq!((main.name.as_str(), main.is_current, main.automate), ("Main", true, true));
    assert_eq!(main.id, ada.account_id, "the user's record names the current account");
    assert_eq!(
        (ada.investment_capital_cents, ada.risk_tolerance.as_str(), ada.max_position_size_cents, ada.preferred_strategies.as_str()),
        (100_000, "medium", 10_000, "Momentum,Breakout"),
        "and carries its preferences"
    );
}

async fn parallel_openings_stop_at_the_plans_number(db: Db) {
    let ada = user(&db, "ada").await;
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let db = db.clone();
            let row = account(&ada.id, &format!("Account {i}"), i);
            tokio::spawn(async move { accounts::insert_within(&db, &row, 10).await.expect("insert") })
        })
        .collect();
    let mut stored = 0;
    for task in tasks {
        stored += usize::from(task.await.expect("task"));
    }
    assert_eq!(stored, 9, "the first account and nine more: ten");
    assert_eq!(accounts::for_user(&db, &ada.id).await.expect("list").len(), 10);
    let bob = user(&db, "bob").await;
    assert!(!accounts::insert_within(&db, &account(&bob.id, "IRA", 1), 1).await.expect("insert"), "a plan of one holds one");
}

async fn names_are_unique_per_user_whatever_their_case(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    assert!(accounts::insert_within(&db, &account(&ada.id, "IRA", 1), 10).await.expect("insert"));
    assert!(matches!(accounts::insert_within(&db, &account(&ada.id, "ira", 2), 10).await, Err(StoreError::Conflict("name"))));
    assert!(accounts::insert_within(&db, &account(&bob.id, "IRA", 1), 10).await.expect("another user's IRA"));
    let paper = account(&ada.id, "Paper", 3);
    assert!(accounts::insert_within(&db, &paper, 10).await.expect("insert"));
    let rename = AccountUpdate { name: Some("MAIN".into()), ..AccountUpdate::default() };
    assert!(matches!(accounts::update(&db, &ada.id, &paper.id, &rename, t0()).await, Err(StoreError::Conflict("name"))));
    let change = AccountUpdate { name: Some("Paper trading".into()), automate: Some(true), ..AccountUpdate::default() };
    let saved = accounts::update(&db, &ada.id, &paper.id, &change, t0()).await.expect("update");
    assert_eq!((saved.name.as_str(), saved.automate, saved.investment_capital_cents), ("Paper trading", true, 100_000));
    assert!(matches!(accounts::update(&db, &bob.id, &paper.id, &change, t0()).await, Err(StoreError::NotFound)), "not bob's");
    assert!(matches!(accounts::find(&db, &bob.id, &paper.id).await, Err(StoreError::NotFound)));
}

async fn switching_keeps_exactly_one_current_account(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let ira = account(&ada.id, "IRA", 1);
    assert!(accounts::insert_within(&db, &ira, 10).await.expect("insert"));
    let tasks: Vec<_> = (0..10)
        .map(|i| {
            let db = db.clone();
            let (user_id, id) = (ada.id.clone(), if i % 2 == 0 { ira.id.clone() } else { ada.account_id.clone() });
            tokio::spawn(async move { accounts::switch_current(&db, &user_id, &id, t0()).await.expect("switch") })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }
    let current: Vec<_> = accounts::for_user(&db, &ada.id).await.expect("list").into_iter().filter(|a| a.is_current).collect();
    assert_eq!(current.len(), 1, "one current account after parallel switches");
    let switched = accounts::switch_current(&db, &ada.id, &ira.id, t0()).await.expect("switch");
    assert!(switched.is_current);
    let record = users::find_by_id(&db, &ada.id).await.expect("find").expect("ada");
    assert_eq!(record.account_id, ira.id, "the user's record follows the switch");
    assert!(matches!(accounts::switch_current(&db, &bob.id, &ira.id, t0()).await, Err(StoreError::NotFound)), "not bob's");
    assert_eq!(accounts::current(&db, &bob.id).await.expect("bob's").id, bob.account_id, "bob's current account unchanged");
    assert_eq!(accounts::current(&db, &ada.id).await.expect("ada's").id, ira.id, "a refused switch changes nothing");
}

async fn an_account_is_deleted_only_when_idle_and_not_current(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let ira = account(&ada.id, "IRA", 1);
    assert!(accounts::insert_within(&db, &ira, 10).await.expect("insert"));
    assert_eq!(accounts::delete(&db, &ada.id, &ada.account_id).await.expect("delete"), Err(Kept::Current));
    let held = ManualRow {
        id: "m1".into(),
        user_id: ada.id.clone(),
        account_id: ira.id.clone(),
        symbol: "AAPL".into(),
        company_name: "Apple".into(),
        position_type: "CALL".into(),
        strike_cents: 20_000,
        expiration_date: day(2026, 6, 19),
        quantity: 1,
        entry_cents: 500,
        target_cents: None,
        stop_cents: None,
        reasoning: None,
        status: "open".into(),
        current_option_cents: None,
        current_price_cents: None,
        pnl_cents: 0,
        pnl_percent: 0.0,
        closed_at: None,
        created_at: t0(),
        updated_at: t0(),
    };
    positions::insert_manual(&db, &held).await.expect("manual");
    positions::snapshot_value(&db, &ira.id, day(2026, 3, 2), 99_000, t0()).await.expect("value");
    assert_eq!(accounts::delete(&db, &ada.id, &ira.id).await.expect("delete"), Err(Kept::OpenPositions));
    assert!(matches!(accounts::delete(&db, &bob.id, &ira.id).await, Err(StoreError::NotFound)), "not bob's");
    positions::mark_manual(
        &db,
        &[positions::ManualMark {
            id: "m1".into(),
            current_option_cents: 0,
            current_price_cents: 19_000,
            pnl_cents: -500,
            pnl_percent: -100.0,
            expired: true,
            at: t0(),
        }],
    )
    .await
    .expect("expire");
    assert_eq!(accounts::delete(&db, &ada.id, &ira.id).await.expect("delete"), Ok(()));
    assert!(positions::manual_for(&db, &ira.id).await.expect("list").is_empty(), "its closed positions went with it");
    assert!(positions::value_history(&db, &ira.id).await.expect("history").is_empty(), "and its history");
    assert_eq!(accounts::for_user(&db, &ada.id).await.expect("list").len(), 1);
}

async fn the_automation_reads_each_accounts_place(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let ira = AccountRow { automate: true, ..account(&ada.id, "IRA", 1) };
    let paper = account(&ada.id, "Paper", 2);
    for row in [&ira, &paper] {
        assert!(accounts::insert_within(&db, row, 10).await.expect("insert"));
    }
    let automating = accounts::automating(&db).await.expect("automating");
    let places: Vec<(String, i64)> = automating.iter().map(|a| (a.account.id.clone(), a.place)).collect();
    let mut expected = vec![(ada.account_id.clone(), 1), (ira.id.clone(), 2), (bob.account_id.clone(), 1)];
    expected.sort_by(|a, b| {
        let owner = |id: &str| if id == bob.account_id { bob.id.clone() } else { ada.id.clone() };
        (owner(&a.0), a.1).cmp(&(owner(&b.0), b.1))
    });
    assert_eq!(places, expected, "the accounts whose automation is on, each with its place among its owner's (Paper is off)");
}

async fn a_scoped_key_acts_on_its_account_whatever_is_current(db: Db) {
    let ada = user(&db, "ada").await;
    let ira = account(&ada.id, "IRA", 1);
    assert!(accounts::insert_within(&db, &ira, 10).await.expect("insert"));
    let key = |n: &str, account_id: Option<String>| NewApiKey {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: ada.id.clone(),
        name: n.into(),
        key_hash: format!("hash-{n}"),
        key_prefix: "slk_00000000".into(),
        permissions: "read".into(),
        expires_at: None,
        created_at: t0(),
        account_id,
    };
    assert!(api_keys::insert_within(&db, &key("scoped", Some(ira.id.clone())), 20).await.expect("scoped key"));
    assert!(api_keys::insert_within(&db, &key("follows", None), 20).await.expect("unscoped key"));
    let owner_of = |hash: &'static str| {
        let db = db.clone();
        async move { api_keys::find_by_hash(&db, hash).await.expect("find").expect("key").1 }
    };
    assert_eq!(owner_of("hash-scoped").await.account_id, ira.id, "the scoped key reads the IRA");
    assert_eq!(owner_of("hash-follows").await.account_id, ada.account_id, "the other follows the current account");
    accounts::switch_current(&db, &ada.id, &ira.id, t0()).await.expect("switch");
    assert_eq!(owner_of("hash-follows").await.account_id, ira.id);
    accounts::switch_current(&db, &ada.id, &ada.account_id, t0()).await.expect("switch back");
    assert_eq!(owner_of("hash-scoped").await.account_id, ira.id, "still the IRA");
    assert_eq!(owner_of("hash-scoped").await.investment_capital_cents, ira.investment_capital_cents, "with its preferences");
    // Deleting the account takes the key scoped to it: it never falls back to a wider reach.
    assert_eq!(accounts::delete(&db, &ada.id, &ira.id).await.expect("delete"), Ok(()));
    assert!(api_keys::find_by_hash(&db, "hash-scoped").await.expect("find").is_none());
    assert!(api_keys::find_by_hash(&db, "hash-follows").await.expect("find").is_some());
}
