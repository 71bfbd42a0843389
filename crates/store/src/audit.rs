//! The `audit_events` table: who did what to an account, when, from where.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// One recorded event.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AuditEvent {
    pub id: String,
    /// The account concerned.
    pub user_id: Option<String>,
    /// The administrator who acted, for admin actions.
    pub actor_id: Option<String>,
    /// One of the actions in the table's CHECK constraint, e.g. `sign_in`.
    pub action: String,
    pub detail: Option<String>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub at: DateTime<Utc>,
}

const COLUMNS: &str = "id, user_id, actor_id, action, detail, ip, user_agent, at";

/// The statement that stores an event; bind it with [`bind_audit!`].
pub(crate) const INSERT: &str = "INSERT INTO audit_events (id, user_id, actor_id, action, detail, ip, user_agent, at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// Binds an [`AuditEvent`] to [`INSERT`] (for a write that records its event in its own
/// transaction).
macro_rules! bind_audit {
    ($query:expr, $event:expr) => {
        $query
            .bind(&$event.id)
            .bind(&$event.user_id)
            .bind(&$event.actor_id)
            .bind(&$event.action)
            .bind(&$event.detail)
            .bind(&$event.ip)
            .bind(&$event.user_agent)
            .bind($event.at)
    };
}

pub(crate) use bind_audit;

/// Stores an event.
pub async fn record(db: &Db, event: &AuditEvent) -> StoreResult<()> {
    with_db!(db, pool => {
        bind_audit!(sqlx::query(INSERT), event).execute(pool).await?;
    });
    Ok(())
}

/// A user's events, newest first (ties by id, largest first), at most `limit`, after the
/// position `before` when given: older than its time, or as old with a smaller id (an id of
/// `None` takes every event at that time as already seen).
pub async fn for_user(db: &Db, user_id: &str, before: Option<(DateTime<Utc>, Option<String>)>, limit: u32) -> StoreResult<Vec<AuditEvent>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM audit_events WHERE user_id = $1 \
         AND ($2 IS NULL OR at < $3 OR (at = $4 AND $5 IS NOT NULL AND id < $6)) ORDER BY at DESC, id DESC LIMIT $7"
    );
    let (at, id) = before.map_or((None, None), |(at, id)| (Some(at), id));
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, AuditEvent>(&sql)
            .bind(user_id)
            .bind(at)
            .bind(at)
            .bind(at)
            .bind(id.clone())
            .bind(id)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?
    }))
}

/// The newest events of every account, for administrators.
pub async fn recent(db: &Db, limit: u32) -> StoreResult<Vec<AuditEvent>> {
    let sql = format!("SELECT {COLUMNS} FROM audit_events ORDER BY at DESC, id DESC LIMIT $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, AuditEvent>(&sql).bind(i64::from(limit)).fetch_all(pool).await?))
}
