//! A fresh, migrated database per story, on either engine (`strikeline_store::test_support`,
//! shared with the server's tests), and the stories' sample rows.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use strikeline_store::Db;
use strikeline_store::users::{self, NewUser, UserRecord};

pub use strikeline_store::test_support::{TestDb, signal};

/// Runs each listed `async fn(Db)` once on SQLite and once on PostgreSQL, each on a fresh database.
#[macro_export]
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let test_db = $crate::common::TestDb::sqlite().await;
                    super::$name(test_db.db.clone()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(test_db) = $crate::common::TestDb::postgres("strikeline_store_test").await {
                        super::$name(test_db.db.clone()).await;
                        test_db.db.close().await;
                    }
                }
            )*
        }
    };
}

/// A fixed instant, whole seconds, so what is stored reads back equal on both engines.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, 15, 0, 0).single().expect("valid instant")
}

pub fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("valid day")
}

/// Registration as the server does it: Pro on trial.
pub fn new_user(email: &str, username: &str) -> NewUser {
    NewUser {
        id: uuid::Uuid::new_v4().to_string(),
        email: email.into(),
        username: username.into(),
        password_hash: "$argon2id$test".into(),
        first_name: Some("Ada".into()),
        last_name: None,
        subscription_plan: "pro".into(),
        subscription_status: "trialing".into(),
        subscription_expires_at: Some(t0() + Duration::days(14)),
        created_at: t0(),
    }
}

/// Inserts a user named after `name` (`{name}@example.com`).
pub async fn user(db: &Db, name: &str) -> UserRecord {
    users::insert(db, &new_user(&format!("{name}@example.com"), name)).await.expect("insert user")
}
