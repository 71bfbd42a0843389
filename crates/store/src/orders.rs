//! The `orders`, `order_legs` and `order_fills` tables (docs/execution.md): a trading account's
//! orders as sent to the broker, each with its legs, the state it has reached and its fills.
//! Placing is idempotent by the client order id (unique per account), and every change of state
//! is a compare-and-set on the state read, so two senders (a restart, a second instance) never
//! place or fill one order twice.

use chrono::{DateTime, NaiveDate, Utc};

use crate::{Db, StoreError, StoreResult, with_db};

/// A stored order. `order_type` is `market | limit`, `time_in_force` `day | gtc`, `status`
/// `new | accepted | partially_filled | filled | cancelled | rejected`.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct OrderRow {
    pub id: String,
    pub user_id: String,
    pub account_id: String,
    pub client_order_id: String,
    pub signal_id: Option<String>,
    pub underlying: String,
    pub quantity: i64,
    pub order_type: String,
    /// Dollars per share per unit, net (positive paid); `None` for a market order.
    pub limit_price: Option<f64>,
    pub time_in_force: String,
    pub status: String,
    pub filled_units: i64,
    pub reason: Option<String>,
    pub placed_on: NaiveDate,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// `paper` (the built-in broker) or a real broker's name.
    pub broker: String,
    /// The broker's id for it, once it has one.
    pub broker_order_id: Option<String>,
    /// When it is cancelled if still standing (`None`: never by the clock).
    pub expires_at: Option<DateTime<Utc>>,
}

/// One leg. `option_right` is `call | put`, `side` `buy | sell`.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct OrderLegRow {
    pub order_id: String,
    pub user_id: String,
    pub leg_index: i64,
    pub option_right: String,
    pub strike_cents: i64,
    pub expiration_date: NaiveDate,
    pub side: String,
    pub ratio: i64,
}

/// One fill.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct FillRow {
    pub id: String,
    pub order_id: String,
    pub user_id: String,
    pub units: i64,
    /// Dollars per share per unit, net of the legs (positive paid).
    pub net_price: f64,
    /// Dollars taken from cash (negative: brought in), commissions included.
    pub cash_out: f64,
    pub commission_cents: i64,
    pub filled_at: DateTime<Utc>,
}

/// An order with its legs in order.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredOrder {
    pub row: OrderRow,
    pub legs: Vec<OrderLegRow>,
}

const COLUMNS: &str = "id, user_id, account_id, client_order_id, signal_id, underlying, quantity, order_type, limit_price, \
    time_in_force, status, filled_units, reason, placed_on, created_at, updated_at, broker, broker_order_id, expires_at";
const LEG_COLUMNS: &str = "order_id, user_id, leg_index, option_right, strike_cents, expiration_date, side, ratio";
const FILL_COLUMNS: &str = "id, order_id, user_id, units, net_price, cash_out, commission_cents, filled_at";

/// The statuses of an order still standing.
const STANDING: &str = "('new', 'accepted', 'partially_filled')";

fn assemble(rows: Vec<OrderRow>, legs: Vec<OrderLegRow>) -> Vec<StoredOrder> {
    let mut by_id: std::collections::HashMap<String, Vec<OrderLegRow>> = std::collections::HashMap::new();
    for leg in legs {
        by_id.entry(leg.order_id.clone()).or_default().push(leg);
    }
    rows.into_iter()
        .map(|row| {
            let mut legs = by_id.remove(&row.id).unwrap_or_default();
            legs.sort_by_key(|l| l.leg_index);
            StoredOrder { row, legs }
        })
        .collect()
}

/// Places `row` with its `legs` unless its account already holds an order with its client
/// order id. Returns the order as stored (the earlier one when the id was used already, its
/// legs as first placed) and whether this call placed it. One transaction: parallel senders of
/// one id place one order.
pub async fn place(db: &Db, row: &OrderRow, legs: &[OrderLegRow]) -> StoreResult<(StoredOrder, bool)> {
    place_audited(db, row, legs, None).await
}

/// [`place`], recording `audit` in the same transaction when the order is placed.
pub async fn place_audited(
    db: &Db,
    row: &OrderRow,
    legs: &[OrderLegRow],
    audit: Option<&crate::audit::AuditEvent>,
) -> StoreResult<(StoredOrder, bool)> {
    let sql = format!(
        "INSERT INTO orders ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) \
         ON CONFLICT (account_id, client_order_id) DO NOTHING"
    );
    let leg_sql = format!("INSERT INTO order_legs ({LEG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    let placed = with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let placed = sqlx::query(&sql)
            .bind(&row.id)
            .bind(&row.user_id)
            .bind(&row.account_id)
            .bind(&row.client_order_id)
            .bind(&row.signal_id)
            .bind(&row.underlying)
            .bind(row.quantity)
            .bind(&row.order_type)
            .bind(row.limit_price)
            .bind(&row.time_in_force)
            .bind(&row.status)
            .bind(row.filled_units)
            .bind(&row.reason)
            .bind(row.placed_on)
            .bind(row.created_at)
            .bind(row.updated_at)
            .bind(&row.broker)
            .bind(&row.broker_order_id)
            .bind(row.expires_at)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if placed {
            for leg in legs {
                sqlx::query(&leg_sql)
                    .bind(&row.id)
                    .bind(&leg.user_id)
                    .bind(leg.leg_index)
                    .bind(&leg.option_right)
                    .bind(leg.strike_cents)
                    .bind(leg.expiration_date)
                    .bind(&leg.side)
                    .bind(leg.ratio)
                    .execute(&mut *tx)
                    .await?;
            }
            if let Some(event) = audit {
                crate::audit::bind_audit!(sqlx::query(crate::audit::INSERT), event).execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        placed
    });
    let stored = by_client_id(db, &row.account_id, &row.client_order_id).await?;
    Ok((stored, placed))
}

/// The order of `account_id` with the client order id `client_order_id`.
pub async fn by_client_id(db: &Db, account_id: &str, client_order_id: &str) -> StoreResult<StoredOrder> {
    let sql = format!("SELECT {COLUMNS} FROM orders WHERE account_id = $1 AND client_order_id = $2");
    let row = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).bind(account_id).bind(client_order_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)?;
    with_legs(db, vec![row]).await?.pop().ok_or(StoreError::NotFound)
}

/// One of an account's orders ([`StoreError::NotFound`] for any other account's).
pub async fn find(db: &Db, account_id: &str, id: &str) -> StoreResult<StoredOrder> {
    let sql = format!("SELECT {COLUMNS} FROM orders WHERE id = $1 AND account_id = $2");
    let row = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).bind(id).bind(account_id).fetch_optional(pool).await?)
        .ok_or(StoreError::NotFound)?;
    with_legs(db, vec![row]).await?.pop().ok_or(StoreError::NotFound)
}

/// An account's latest `limit` orders, newest first.
pub async fn for_account(db: &Db, account_id: &str, limit: i64) -> StoreResult<Vec<StoredOrder>> {
    let sql = format!("SELECT {COLUMNS} FROM orders WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT $2");
    let rows = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).bind(account_id).bind(limit).fetch_all(pool).await?);
    with_legs(db, rows).await
}

/// Every order still standing (new, accepted, partially filled), oldest first: what the
/// broker's book and the deadline job work through.
pub async fn standing(db: &Db) -> StoreResult<Vec<StoredOrder>> {
    let sql = format!("SELECT {COLUMNS} FROM orders WHERE status IN {STANDING} ORDER BY created_at, id");
    let rows = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).fetch_all(pool).await?);
    with_legs(db, rows).await
}

async fn with_legs(db: &Db, rows: Vec<OrderRow>) -> StoreResult<Vec<StoredOrder>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=rows.len()).map(|i| format!("${i}")).collect();
    let sql = format!("SELECT {LEG_COLUMNS} FROM order_legs WHERE order_id IN ({})", placeholders.join(", "));
    let legs = with_db!(db, pool => {
        let mut query = sqlx::query_as::<_, OrderLegRow>(&sql);
        for row in &rows {
            query = query.bind(&row.id);
        }
        query.fetch_all(pool).await?
    });
    Ok(assemble(rows, legs))
}

/// The orders still standing whose deadline has passed at `now`, oldest first.
pub async fn overdue(db: &Db, now: DateTime<Utc>) -> StoreResult<Vec<StoredOrder>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM orders WHERE status IN {STANDING} AND expires_at IS NOT NULL AND expires_at <= $1 ORDER BY created_at, id"
    );
    let rows = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).bind(now).fetch_all(pool).await?);
    with_legs(db, rows).await
}

/// The orders executing a signal that is still active, oldest first: what the automation
/// resumes (standing) or leaves alone (final) instead of placing again.
pub async fn on_active_signals(db: &Db) -> StoreResult<Vec<StoredOrder>> {
    let columns: Vec<String> = COLUMNS.split(',').map(|c| format!("o.{}", c.trim())).collect();
    let sql = format!(
        "SELECT {} FROM orders o JOIN signals s ON s.id = o.signal_id WHERE s.status = 'active' ORDER BY o.created_at, o.id",
        columns.join(", ")
    );
    let rows = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).fetch_all(pool).await?);
    with_legs(db, rows).await
}

/// The orders of `account_id` whose client order id is `prefix` or starts with `prefix-`,
/// oldest first: each attempt at one thing (closing one position).
pub async fn attempts(db: &Db, account_id: &str, prefix: &str) -> StoreResult<Vec<StoredOrder>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM orders WHERE account_id = $1 AND (client_order_id = $2 OR substr(client_order_id, 1, $3) = $4) \
         ORDER BY created_at, id"
    );
    let dashed = format!("{prefix}-");
    let length = i32::try_from(dashed.chars().count()).unwrap_or(i32::MAX);
    let rows = with_db!(db, pool => {
        sqlx::query_as::<_, OrderRow>(&sql).bind(account_id).bind(prefix).bind(length).bind(&dashed).fetch_all(pool).await?
    });
    with_legs(db, rows).await
}

/// The orders of `account_id` still standing, oldest first.
pub async fn standing_in(db: &Db, account_id: &str) -> StoreResult<Vec<StoredOrder>> {
    let sql = format!("SELECT {COLUMNS} FROM orders WHERE account_id = $1 AND status IN {STANDING} ORDER BY created_at, id");
    let rows = with_db!(db, pool => sqlx::query_as::<_, OrderRow>(&sql).bind(account_id).fetch_all(pool).await?);
    with_legs(db, rows).await
}

/// The fills of each of `order_ids`, oldest first within each.
pub async fn fills_of(db: &Db, order_ids: &[String]) -> StoreResult<Vec<FillRow>> {
    if order_ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=order_ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!("SELECT {FILL_COLUMNS} FROM order_fills WHERE order_id IN ({}) ORDER BY filled_at, id", placeholders.join(", "));
    Ok(with_db!(db, pool => {
        let mut query = sqlx::query_as::<_, FillRow>(&sql);
        for id in order_ids {
            query = query.bind(id);
        }
        query.fetch_all(pool).await?
    }))
}

/// What the fills of each of `user_id`'s accounts took from cash (negative: brought in),
/// commissions included, and the fees its broker charged ([`crate::broker_fees`]), by account
/// id; only `account` when given. An account with neither is not listed.
pub async fn cash_out_by_account(db: &Db, user_id: &str, account: Option<&str>) -> StoreResult<Vec<(String, f64)>> {
    let sql = "SELECT account_id, SUM(taken) FROM ( \
                   SELECT o.account_id AS account_id, f.cash_out AS taken FROM order_fills f JOIN orders o ON o.id = f.order_id \
                   WHERE o.user_id = $1 \
                   UNION ALL \
                   SELECT account_id, CAST(amount_cents AS DOUBLE PRECISION) / 100 FROM broker_fees WHERE user_id = $2 \
               ) books WHERE $3 IS NULL OR account_id = $4 GROUP BY account_id";
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, f64)>(sql).bind(user_id).bind(user_id).bind(account).bind(account).fetch_all(pool).await?
    }))
}

/// An order's fills, oldest first.
pub async fn fills(db: &Db, order_id: &str) -> StoreResult<Vec<FillRow>> {
    let sql = format!("SELECT {FILL_COLUMNS} FROM order_fills WHERE order_id = $1 ORDER BY filled_at, id");
    Ok(with_db!(db, pool => sqlx::query_as::<_, FillRow>(&sql).bind(order_id).fetch_all(pool).await?))
}

/// A change of an order's state, as read and as it becomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Advance<'a> {
    pub id: &'a str,
    /// The status and filled units read: the change applies only while they still hold.
    pub from: (&'a str, i64),
    pub to: (&'a str, i64),
    /// Why, for a rejection or a cancellation.
    pub reason: Option<&'a str>,
    /// The broker's id for the order, once it has given one.
    pub broker_order_id: Option<&'a str>,
    /// The fill that moved it, if any (its units are `to.1 - from.1`).
    pub fill: Option<&'a FillRow>,
    /// The automated position the fill opens, stored with it (`ON CONFLICT DO NOTHING` on the
    /// account and signal, as every opening).
    pub opens: Option<&'a crate::positions::AutomatedRow>,
    /// The automated position the fill closes, closed with it: the change applies only while
    /// the position is still open.
    pub closes: Option<&'a crate::positions::Closing>,
    /// The owner's audit log entry for the change, stored with it.
    pub audit: Option<&'a crate::audit::AuditEvent>,
    pub at: DateTime<Utc>,
}

/// Applies `change` in one transaction: the order moves (and its fill and the position it opens
/// are stored) only if it is still as read; `false`, with nothing written, when another sender
/// changed it first.
pub async fn advance(db: &Db, change: &Advance<'_>) -> StoreResult<bool> {
    let fill_sql = format!("INSERT INTO order_fills ({FILL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    let open_sql = format!(
        "INSERT INTO portfolio_positions ({}, order_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         ON CONFLICT (account_id, signal_id) DO NOTHING",
        crate::positions::AUTOMATED_COLUMNS
    );
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let moved = sqlx::query(
            "UPDATE orders SET status = $1, filled_units = $2, reason = COALESCE($3, reason), updated_at = $4, \
             broker_order_id = COALESCE($8, broker_order_id) WHERE id = $5 AND status = $6 AND filled_units = $7",
        )
        .bind(change.to.0)
        .bind(change.to.1)
        .bind(change.reason)
        .bind(change.at)
        .bind(change.id)
        .bind(change.from.0)
        .bind(change.from.1)
        .bind(change.broker_order_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(fill) = change.fill {
            sqlx::query(&fill_sql)
                .bind(&fill.id)
                .bind(&fill.order_id)
                .bind(&fill.user_id)
                .bind(fill.units)
                .bind(fill.net_price)
                .bind(fill.cash_out)
                .bind(fill.commission_cents)
                .bind(fill.filled_at)
                .execute(&mut *tx)
                .await?;
        }
        if let Some(position) = change.opens {
            crate::positions::bind_automated!(sqlx::query(&open_sql), position).bind(change.id).execute(&mut *tx).await?;
        }
        if let Some(closing) = change.closes {
            let closed = sqlx::query(
                "UPDATE portfolio_positions SET status = $1, exit_cents = $2, commissions_cents = commissions_cents + $3, \
                 closed_at = $4, updated_at = $4 WHERE id = $5 AND status = 'open'",
            )
            .bind(&closing.status)
            .bind(closing.exit_cents)
            .bind(closing.commission_cents)
            .bind(change.at)
            .bind(&closing.position_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if closed != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        if let Some(event) = change.audit {
            crate::audit::bind_audit!(sqlx::query(crate::audit::INSERT), event).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}
