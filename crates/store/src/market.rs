//! The tracked universe with its latest quotes (`stock_prices`) and daily history (`daily_bars`).

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// One tracked symbol with its latest quote. Prices in cents.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct StockRow {
    pub id: String,
    pub symbol: String,
    pub company_name: String,
    pub sector: String,
    pub current_price_cents: i64,
    pub previous_close_cents: i64,
    pub volume: i64,
    pub high_52_week_cents: i64,
    pub low_52_week_cents: i64,
    pub market_cap: Option<f64>,
    pub added_by: Option<String>,
    pub last_updated: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

/// One day of history. Prices in cents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct BarRow {
    pub day: NaiveDate,
    pub open_cents: i64,
    pub high_cents: i64,
    pub low_cents: i64,
    pub close_cents: i64,
    pub volume: i64,
}

/// The latest quote of a symbol, as written by a price refresh.
#[derive(Clone, Debug, PartialEq)]
pub struct QuoteUpdate {
    pub symbol: String,
    pub current_price_cents: i64,
    pub previous_close_cents: i64,
    pub volume: i64,
    pub high_52_week_cents: i64,
    pub low_52_week_cents: i64,
    pub at: DateTime<Utc>,
}

const STOCK_COLUMNS: &str = "id, symbol, company_name, sector, current_price_cents, previous_close_cents, volume, \
    high_52_week_cents, low_52_week_cents, market_cap, added_by, last_updated, created_at";

/// Every tracked symbol, ordered by symbol.
pub async fn list_stocks(db: &Db) -> StoreResult<Vec<StockRow>> {
    let sql = format!("SELECT {STOCK_COLUMNS} FROM stock_prices ORDER BY symbol");
    Ok(with_db!(db, pool => sqlx::query_as::<_, StockRow>(&sql).fetch_all(pool).await?))
}

/// One tracked symbol.
pub async fn find_stock(db: &Db, symbol: &str) -> StoreResult<Option<StockRow>> {
    let sql = format!("SELECT {STOCK_COLUMNS} FROM stock_prices WHERE symbol = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, StockRow>(&sql).bind(symbol).fetch_optional(pool).await?))
}

/// How many symbols are tracked.
pub async fn count_stocks(db: &Db) -> StoreResult<i64> {
    Ok(with_db!(db, pool => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM stock_prices").fetch_one(pool).await?))
}

/// Starts tracking a symbol; [`StoreError::Conflict`] (`symbol`) when it is already tracked.
pub async fn insert_stock(db: &Db, s: &StockRow) -> StoreResult<()> {
    let sql = format!("INSERT INTO stock_prices ({STOCK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)");
    with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&s.id)
            .bind(&s.symbol)
            .bind(&s.company_name)
            .bind(&s.sector)
            .bind(s.current_price_cents)
            .bind(s.previous_close_cents)
            .bind(s.volume)
            .bind(s.high_52_week_cents)
            .bind(s.low_52_week_cents)
            .bind(s.market_cap)
            .bind(&s.added_by)
            .bind(s.last_updated)
            .bind(s.created_at)
            .execute(pool)
            .await
            .map_err(StoreError::from_write)?;
    });
    Ok(())
}

/// Writes the latest quotes of many symbols in one transaction.
pub async fn update_quotes(db: &Db, quotes: &[QuoteUpdate]) -> StoreResult<()> {
    const SQL: &str = "UPDATE stock_prices SET current_price_cents = $1, previous_close_cents = $2, volume = $3, \
        high_52_week_cents = $4, low_52_week_cents = $5, last_updated = $6 WHERE symbol = $7";
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for q in quotes {
            sqlx::query(SQL)
                .bind(q.current_price_cents)
                .bind(q.previous_close_cents)
                .bind(q.volume)
                .bind(q.high_52_week_cents)
                .bind(q.low_52_week_cents)
                .bind(q.at)
                .bind(&q.symbol)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// Rows per multi-row INSERT (7 binds each stays far below both engines' parameter limits).
const BAR_CHUNK: usize = 500;

/// Writes bars for many symbols in one transaction, replacing any bar already stored for the
/// same symbol and day. All or nothing. When `bars` holds the same symbol and day more than
/// once, the last one wins (on both engines: PostgreSQL refuses an upsert that touches a row
/// twice in one statement, SQLite would apply both, so duplicates are folded here first).
pub async fn upsert_bars(db: &Db, bars: &[(String, BarRow)]) -> StoreResult<()> {
    let mut position: HashMap<(&str, NaiveDate), usize> = HashMap::with_capacity(bars.len());
    let mut unique: Vec<&(String, BarRow)> = Vec::with_capacity(bars.len());
    for entry in bars {
        match position.entry((entry.0.as_str(), entry.1.day)) {
            Entry::Occupied(at) => unique[*at.get()] = entry,
            Entry::Vacant(slot) => {
                slot.insert(unique.len());
                unique.push(entry);
            }
        }
    }
    let style = crate::db::Placeholders::of(db);
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for chunk in unique.chunks(BAR_CHUNK) {
            let mut sql = crate::db::insert_sql(
                "daily_bars",
                "symbol, day, open_cents, high_cents, low_cents, close_cents, volume",
                chunk.len(),
                style,
            );
            sql.push_str(
                " ON CONFLICT (symbol, day) DO UPDATE SET open_cents = excluded.open_cents, high_cents = excluded.high_cents, \
                 low_cents = excluded.low_cents, close_cents = excluded.close_cents, volume = excluded.volume",
            );
            let mut query = sqlx::query(&sql);
            for (symbol, bar) in chunk {
                query = query
                    .bind(symbol)
                    .bind(bar.day)
                    .bind(bar.open_cents)
                    .bind(bar.high_cents)
                    .bind(bar.low_cents)
                    .bind(bar.close_cents)
                    .bind(bar.volume);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// The bars of `symbol` from `from` to `to` inclusive, oldest first.
pub async fn bars(db: &Db, symbol: &str, from: NaiveDate, to: NaiveDate) -> StoreResult<Vec<BarRow>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, BarRow>(
            "SELECT day, open_cents, high_cents, low_cents, close_cents, volume FROM daily_bars \
             WHERE symbol = $1 AND day >= $2 AND day <= $3 ORDER BY day",
        )
        .bind(symbol)
        .bind(from)
        .bind(to)
        .fetch_all(pool)
        .await?
    }))
}

/// The last `limit` bars of `symbol` up to `to` inclusive, oldest first.
pub async fn last_bars(db: &Db, symbol: &str, to: NaiveDate, limit: i64) -> StoreResult<Vec<BarRow>> {
    let mut rows = with_db!(db, pool => {
        sqlx::query_as::<_, BarRow>(
            "SELECT day, open_cents, high_cents, low_cents, close_cents, volume FROM daily_bars \
             WHERE symbol = $1 AND day <= $2 ORDER BY day DESC LIMIT $3",
        )
        .bind(symbol)
        .bind(to)
        .bind(limit)
        .fetch_all(pool)
        .await?
    });
    rows.reverse();
    Ok(rows)
}

/// The most recent stored day of `symbol`, if any.
pub async fn latest_bar_day(db: &Db, symbol: &str) -> StoreResult<Option<NaiveDate>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, Option<NaiveDate>>("SELECT MAX(day) FROM daily_bars WHERE symbol = $1")
            .bind(symbol)
            .fetch_one(pool)
            .await?
    }))
}

/// How many bars are stored in all.
pub async fn count_bars(db: &Db) -> StoreResult<i64> {
    Ok(with_db!(db, pool => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM daily_bars").fetch_one(pool).await?))
}

/// Each symbol's highest high and lowest low (cents) over the bars since `since`.
pub async fn ranges_since(db: &Db, since: NaiveDate) -> StoreResult<Vec<(String, i64, i64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, i64, i64)>(
            "SELECT symbol, MAX(high_cents), MIN(low_cents) FROM daily_bars WHERE day >= $1 GROUP BY symbol",
        )
        .bind(since)
        .fetch_all(pool)
        .await?
    }))
}

/// Stores each symbol's volatility estimate (annual, e.g. 0.27).
pub async fn set_volatilities(db: &Db, estimates: &[(String, f64)]) -> StoreResult<()> {
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for (symbol, volatility) in estimates {
            sqlx::query("UPDATE stock_prices SET volatility = $1 WHERE symbol = $2").bind(volatility).bind(symbol).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    });
    Ok(())
}

/// Each tracked symbol's volatility estimate, where one is known.
pub async fn volatilities(db: &Db) -> StoreResult<Vec<(String, f64)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, f64)>("SELECT symbol, volatility FROM stock_prices WHERE volatility IS NOT NULL")
            .fetch_all(pool)
            .await?
    }))
}

/// One symbol's highest high and lowest low (cents) over its bars since `since`.
pub async fn range_of(db: &Db, symbol: &str, since: NaiveDate) -> StoreResult<Option<(i64, i64)>> {
    let (high, low): (Option<i64>, Option<i64>) = with_db!(db, pool => {
        sqlx::query_as("SELECT MAX(high_cents), MIN(low_cents) FROM daily_bars WHERE symbol = $1 AND day >= $2")
            .bind(symbol)
            .bind(since)
            .fetch_one(pool)
            .await?
    });
    Ok(high.zip(low))
}
