//! The `broker_fees` table: fees a real broker charged a trading account (Alpaca's `FEE`
//! activities), each booked once, by the broker's activity id, into the account's cash
//! ([`crate::orders::cash_out_by_account`]; docs/execution.md).

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreResult, with_db};

/// One fee as booked.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct FeeRow {
    pub account_id: String,
    pub user_id: String,
    /// The broker's id for the activity.
    pub activity_id: String,
    /// The broker's name for it (Alpaca's `activity_sub_type`: ORF, OCC, TAF, ...).
    pub kind: Option<String>,
    /// Cents charged (negative: refunded).
    pub amount_cents: i64,
    pub charged_on: Option<NaiveDate>,
    pub booked_at: DateTime<Utc>,
}

const COLUMNS: &str = "account_id, user_id, activity_id, kind, amount_cents, charged_on, booked_at";

/// Books the fees not booked before (by account and activity id), in one transaction; returns
/// how many were new. Reading the broker's fees again, or from two instances at once, books
/// each once.
pub async fn book(db: &Db, fees: &[FeeRow]) -> StoreResult<u64> {
    if fees.is_empty() {
        return Ok(0);
    }
    let sql = format!("INSERT INTO broker_fees ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING");
    Ok(with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mut booked = 0;
        for fee in fees {
            booked += sqlx::query(&sql)
                .bind(&fee.account_id)
                .bind(&fee.user_id)
                .bind(&fee.activity_id)
                .bind(&fee.kind)
                .bind(fee.amount_cents)
                .bind(fee.charged_on)
                .bind(fee.booked_at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
        booked
    }))
}

/// The fees booked for `account_id`, newest charge first.
pub async fn of_account(db: &Db, account_id: &str) -> StoreResult<Vec<FeeRow>> {
    let sql = format!("SELECT {COLUMNS} FROM broker_fees WHERE account_id = $1 ORDER BY charged_on DESC, activity_id DESC");
    Ok(with_db!(db, pool => sqlx::query_as::<_, FeeRow>(&sql).bind(account_id).fetch_all(pool).await?))
}
