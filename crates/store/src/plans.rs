//! The read path's queries (what every open dashboard asks for on each poll) and how each
//! engine plans them. A query here must be answered from an index, so its cost stays the same
//! however many rows the tables hold; `tests/it/plans.rs` checks each plan on both engines.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreResult};

/// A sample value for one placeholder, typed as the query binds it.
#[derive(Clone, Debug)]
pub enum Sample {
    Text(&'static str),
    NullText,
    Int(i64),
    NullInt,
    Time(DateTime<Utc>),
    Day(NaiveDate),
}

/// One query of the read path with sample values for its placeholders.
#[derive(Clone, Debug)]
pub struct ReadQuery {
    pub name: &'static str,
    pub sql: String,
    pub samples: Vec<Sample>,
}

/// Every query of the read path, as the repository functions run them on `engine`.
pub fn read_path(engine: crate::Engine) -> Vec<ReadQuery> {
    use Sample::*;
    let at = DateTime::<Utc>::from_timestamp(1_790_000_000, 0).unwrap_or_default();
    let day = at.date_naive();
    let filters = vec![NullText, NullText, NullText, NullText, NullInt, NullInt, NullInt, NullInt];
    let list = |after: bool| {
        let mut samples = vec![Text("user-1")];
        samples.extend(filters.clone());
        samples.push(Int(51));
        if after {
            samples.extend([Time(at), Text("signal-1")]);
        }
        samples
    };
    let query = |name, sql: &str, samples| ReadQuery { name, sql: sql.to_owned(), samples };
    vec![
        query("signals: first page", crate::signals::list_sql(false), list(false)),
        query("signals: a later page", crate::signals::list_sql(true), list(true)),
        query("signals: active figures", crate::signals::ACTIVE_FIGURES, vec![]),
        query("signals: closed figures", crate::signals::CLOSED_FIGURES, vec![Time(at)]),
        query("signals: own per day", crate::signals::ON_DEMAND_COUNTS, vec![Text("user-1"), Day(day)]),
        query("signals: own since a day", crate::signals::own_since_sql(), vec![Text("user-1"), Day(day), Int(501)]),
        query("positions: automated with their signals", crate::positions::automated_with_signals_sql(engine), vec![Text("user-1")]),
        query("positions: manual", &crate::positions::manual_for_sql(), vec![Text("user-1")]),
        query("positions: value history", crate::positions::VALUE_HISTORY, vec![Text("user-1")]),
        query("positions: a user's whole book", crate::positions::account_book_sql(engine), vec![Text("user-1")]),
        query("sessions: live user", crate::sessions::find_live_user_sql(), vec![Text("sid"), Time(at)]),
        query("snapshots: on or before", crate::snapshots::ON_OR_BEFORE, vec![Day(day)]),
    ]
}

macro_rules! bind_samples {
    ($query:expr, $samples:expr) => {{
        let mut query = $query;
        for sample in $samples {
            query = match sample {
                Sample::Text(v) => query.bind(*v),
                Sample::NullText => query.bind(None::<String>),
                Sample::Int(v) => query.bind(*v),
                Sample::NullInt => query.bind(None::<i64>),
                Sample::Time(v) => query.bind(*v),
                Sample::Day(v) => query.bind(*v),
            };
        }
        query
    }};
}

/// The engine's plan of `query`, one line per step: SQLite's `EXPLAIN QUERY PLAN` details, or
/// PostgreSQL's `EXPLAIN` with sequential scans priced out (so a `Seq Scan` in the plan means
/// no index could answer).
pub async fn explain(db: &Db, query: &ReadQuery) -> StoreResult<Vec<String>> {
    Ok(match db {
        Db::Sqlite(pool) => {
            let sql = format!("EXPLAIN QUERY PLAN {}", query.sql);
            let rows: Vec<(i64, i64, i64, String)> = bind_samples!(sqlx::query_as(&sql), &query.samples).fetch_all(pool).await?;
            rows.into_iter().map(|(_, _, _, detail)| detail).collect()
        }
        Db::Postgres(pool) => {
            let mut tx = pool.begin().await?;
            sqlx::query("SET LOCAL enable_seqscan = off").execute(&mut *tx).await?;
            let sql = format!("EXPLAIN {}", query.sql);
            let rows: Vec<(String,)> = bind_samples!(sqlx::query_as(&sql), &query.samples).fetch_all(&mut *tx).await?;
            tx.rollback().await?;
            rows.into_iter().map(|(line,)| line).collect()
        }
    })
}
