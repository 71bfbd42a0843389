//! Accounts: registration, uniqueness, subscription and investment preferences.

use chrono::Duration;
use strikeline_store::users::{self, NewUser};
use strikeline_store::{Db, StoreError};

use crate::common::{new_user, t0};

crate::on_both_engines!(
    registration_stores_the_account_with_defaults,
    a_taken_email_or_username_is_a_conflict_naming_the_field,
    subscription_changes_are_stored_and_checked,
    investment_preferences_are_stored_and_checked,
);

async fn registration_stores_the_account_with_defaults(db: Db) {
    let ada = users::insert(&db, &new_user("ada@example.com", "Ada")).await.expect("insert");
    assert_eq!(ada.email, "ada@example.com");
    assert_eq!(ada.username, "Ada", "the username keeps its case");
    assert_eq!((ada.subscription_plan.as_str(), ada.subscription_status.as_str()), ("pro", "trialing"));
    assert_eq!(ada.subscription_expires_at, Some(t0() + Duration::days(14)));
    assert_eq!(ada.role, "user");
    assert_eq!(ada.risk_tolerance, "medium");
    assert_eq!((ada.investment_capital_cents, ada.max_position_size_cents), (100_000, 10_000));
    assert_eq!(ada.preferred_strategies, "Momentum,Breakout");
    assert!(ada.email_notifications && ada.signal_alerts && ada.portfolio_updates);
    assert_eq!((ada.created_at, ada.updated_at), (t0(), t0()));

    assert_eq!(users::find_by_email(&db, "ada@example.com").await.expect("find"), Some(ada.clone()));
    assert_eq!(users::find_by_id(&db, &ada.id).await.expect("find"), Some(ada.clone()));
    assert_eq!(users::find_by_email(&db, "nobody@example.com").await.expect("find"), None);
    assert_eq!(users::find_by_id(&db, "no-such-id").await.expect("find"), None);

    let mut later = new_user("bob@example.com", "bob");
    later.created_at = t0() + Duration::seconds(1);
    let bob = users::insert(&db, &later).await.expect("insert bob");
    assert_eq!(users::count(&db).await.expect("count"), 2);
    let all: Vec<String> = users::all(&db).await.expect("all").into_iter().map(|u| u.id).collect();
    assert_eq!(all, [ada.id, bob.id], "oldest first");
}

async fn a_taken_email_or_username_is_a_conflict_naming_the_field(db: Db) {
    users::insert(&db, &new_user("ada@example.com", "Ada")).await.expect("insert");

    let same_email = users::insert(&db, &new_user("ada@example.com", "someone-else")).await;
    assert!(matches!(same_email, Err(StoreError::Conflict("email"))), "{same_email:?}");

    // Usernames are unique regardless of case.
    let same_username = users::insert(&db, &new_user("other@example.com", "ADA")).await;
    assert!(matches!(same_username, Err(StoreError::Conflict("username"))), "{same_username:?}");

    assert_eq!(users::count(&db).await.expect("count"), 1, "nothing was stored by the refused inserts");
}

async fn subscription_changes_are_stored_and_checked(db: Db) {
    let ada = users::insert(&db, &new_user("ada@example.com", "ada")).await.expect("insert");
    let at = t0() + Duration::hours(1);
    let until = t0() + Duration::days(30);
    users::set_subscription(&db, &ada.id, "premium", "active", Some(until), at).await.expect("premium");
    let stored = users::find_by_id(&db, &ada.id).await.expect("find").expect("exists");
    assert_eq!((stored.subscription_plan.as_str(), stored.subscription_status.as_str()), ("premium", "active"));
    assert_eq!((stored.subscription_expires_at, stored.updated_at), (Some(until), at));
    assert_eq!(stored.created_at, t0(), "creation time is kept");

    for status in ["canceled", "past_due", "trialing", "active"] {
        users::set_subscription(&db, &ada.id, "free", status, None, at).await.unwrap_or_else(|e| panic!("{status}: {e}"));
    }

    let missing = users::set_subscription(&db, "no-such-id", "pro", "active", None, at).await;
    assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");

    // The schema refuses values the application never writes.
    let plan = users::set_subscription(&db, &ada.id, "gold", "active", None, at).await;
    assert!(matches!(plan, Err(StoreError::Database(_))), "unknown plan refused: {plan:?}");
    let status = users::set_subscription(&db, &ada.id, "pro", "paused", None, at).await;
    assert!(matches!(status, Err(StoreError::Database(_))), "unknown status refused: {status:?}");
    let stored = users::find_by_id(&db, &ada.id).await.expect("find").expect("exists");
    assert_eq!((stored.subscription_plan.as_str(), stored.subscription_status.as_str()), ("free", "active"));

    let bad = NewUser { subscription_plan: "enterprise".into(), ..new_user("bob@example.com", "bob") };
    assert!(users::insert(&db, &bad).await.is_err(), "registration with an unknown plan is refused");
}

async fn investment_preferences_are_stored_and_checked(db: Db) {
    let ada = users::insert(&db, &new_user("ada@example.com", "ada")).await.expect("insert");
    let at = t0() + Duration::minutes(5);
    users::set_investment_preferences(&db, &ada.id, 2_500_000, "high", 250_000, "Volatility,Mean Reversion", at)
        .await
        .expect("preferences");
    let stored = users::find_by_id(&db, &ada.id).await.expect("find").expect("exists");
    assert_eq!(stored.investment_capital_cents, 2_500_000);
    assert_eq!(stored.risk_tolerance, "high");
    assert_eq!(stored.max_position_size_cents, 250_000);
    assert_eq!(stored.preferred_strategies, "Volatility,Mean Reversion");
    let account = strikeline_store::trading_accounts::current(&db, &ada.id).await.expect("current account");
    assert_eq!((account.investment_capital_cents, account.updated_at), (2_500_000, at), "the current account's preferences");

    let missing = users::set_investment_preferences(&db, "no-such-id", 1, "low", 1, "Momentum", at).await;
    assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
    let risk = users::set_investment_preferences(&db, &ada.id, 1, "reckless", 1, "Momentum", at).await;
    assert!(matches!(risk, Err(StoreError::Database(_))), "unknown risk tolerance refused: {risk:?}");
    let negative = users::set_investment_preferences(&db, &ada.id, -1, "low", 1, "Momentum", at).await;
    assert!(matches!(negative, Err(StoreError::Database(_))), "negative capital refused: {negative:?}");
    let stored = users::find_by_id(&db, &ada.id).await.expect("find").expect("exists");
    assert_eq!((stored.investment_capital_cents, stored.risk_tolerance.as_str()), (2_500_000, "high"), "refused writes change nothing");
}
