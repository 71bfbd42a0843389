//! Retention as the privacy policy states it (issue 26, item 4): at the time the clock gives,
//! communications older than 3 years, trading records that ended more than 10 years ago and
//! what is kept of deleted accounts after 7 years are deleted; everything younger, and every
//! open position, stays.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use strikeline_server::services::retention::{Removed, enforce};
use strikeline_store::Db;

use crate::common::TestApp;

on_both_engines_with!(market, crate::common::with_market;
    records_past_their_period_go_and_younger_ones_stay,
);

async fn execute(db: &Db, sql: &str, at: DateTime<Utc>, id: &str) {
    match db {
        Db::Sqlite(pool) => sqlx::query(sql).bind(at).bind(id).execute(pool).await.map(|_| ()),
        Db::Postgres(pool) => sqlx::query(sql).bind(at).bind(id).execute(pool).await.map(|_| ()),
    }
    .expect(sql);
}

async fn count(db: &Db, sql: &str) -> i64 {
    match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect(sql)
}

async fn records_past_their_period_go_and_younger_ones_stay(app: TestApp) {
    app.register().await;
    let now = app.now();
    let years = |n: i64| now - Duration::days(365 * n + n / 4 + 2);
    let db = app.db();

    // Positions: one closed 11 years ago, one closed 9 years ago, one open since 12 years ago.
    let expiry = (app.today() + Duration::days(40)).to_string();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let position = json!({"symbol": "AAPL", "companyName": "Apple Inc.", "type": "call", "strikePrice": 250.0,
                              "expirationDate": expiry, "quantity": 1, "entryPrice": 2.5, "status": "open"});
        let created: Value = app.post_json(&app.client, "/api/manual-positions", &position).await.json().await.expect("json");
        ids.push(created["id"].as_str().expect("id").to_owned());
    }
    let close = "UPDATE manual_positions SET status = 'closed', closed_at = $1, updated_at = $1 WHERE id = $2";
    execute(db, close, years(11), &ids[0]).await;
    execute(db, close, years(9), &ids[1]).await;
    execute(db, "UPDATE manual_positions SET created_at = $1, updated_at = $1 WHERE id = $2", years(12), &ids[2]).await;

    // Contact messages: one 4 years old, one 2 years old.
    for text in ["an old question", "a recent question"] {
        let message = json!({"name": "Ada", "email": "ada@example.com", "message": text, "source": "landing"});
        assert_eq!(app.post_json(&app.client, "/api/contact", &message).await.status(), 201);
    }
    execute(db, "UPDATE contact_messages SET created_at = $1 WHERE message = $2", years(4), "an old question").await;
    execute(db, "UPDATE contact_messages SET created_at = $1 WHERE message = $2", years(2), "a recent question").await;

    // What is kept of deleted accounts: audit entries without a user, 8 and 6 years old.
    for (id, age) in [("gone-8", 8), ("gone-6", 6)] {
        let sql = "INSERT INTO audit_events (id, user_id, action, detail, at) VALUES ($2, NULL, 'account_deleted', 'account x', $1)";
        execute(db, sql, years(age), id).await;
    }

    let removed = enforce(&app.state, now).await.expect("retention");
    assert_eq!(removed, Removed { communications: 1, trading: 1, closed_accounts: 1 });
    let left = count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM manual_positions").await;
    assert_eq!(left, 2, "the position closed 9 years ago and the one still open stay");
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM contact_messages WHERE message = 'an old question'").await, 0);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM contact_messages WHERE message = 'a recent question'").await, 1);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM audit_events WHERE id = 'gone-8'").await, 0);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM audit_events WHERE id = 'gone-6'").await, 1);
    assert!(
        count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM audit_events WHERE user_id IS NOT NULL").await > 0,
        "a live account's audit log stays"
    );

    // Idempotent: a second run finds nothing; two years on, the 9-year-old close is past 10.
    assert_eq!(enforce(&app.state, now).await.expect("again"), Removed::default());
    let later = enforce(&app.state, now + Duration::days(2 * 366)).await.expect("later");
    assert_eq!((later.trading, later.communications, later.closed_accounts), (1, 1, 1));
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS BIGINT) FROM manual_positions").await, 1, "the open position stays, however old");
}
