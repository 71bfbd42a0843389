//! The `sessions` table: server-side sessions any instance can read.
//!
//! `sid` holds the SHA-256 of the cookie token, never the token itself, so a copy of the
//! database does not hand out live sessions. `expire` is the earlier of the idle and the
//! absolute deadline and is indexed for the sweep.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;

use crate::{Db, StoreResult, with_db};

/// The JSON kept in `sess`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionData {
    pub user_id: String,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub user_agent: Option<String>,
    pub ip: Option<String>,
}

/// A stored session.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRecord {
    pub sid: String,
    pub sess: SessionData,
    pub expire: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Row {
    sid: String,
    sess: Json<SessionData>,
    expire: DateTime<Utc>,
}

/// Stores a new session.
pub async fn insert(db: &Db, sid: &str, sess: &SessionData, expire: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("INSERT INTO sessions (sid, sess, expire, user_id) VALUES ($1, $2, $3, $4)")
            .bind(sid)
            .bind(Json(sess))
            .bind(expire)
            .bind(&sess.user_id)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Finds a session that has not expired at `now`.
pub async fn find_live(db: &Db, sid: &str, now: DateTime<Utc>) -> StoreResult<Option<SessionRecord>> {
    let row = with_db!(db, pool => {
        sqlx::query_as::<_, Row>("SELECT sid, sess, expire FROM sessions WHERE sid = $1 AND expire > $2")
            .bind(sid)
            .bind(now)
            .fetch_optional(pool)
            .await?
    });
    Ok(row.map(|r| SessionRecord { sid: r.sid, sess: r.sess.0, expire: r.expire }))
}

#[derive(sqlx::FromRow)]
struct LiveRow {
    #[sqlx(flatten)]
    user: crate::users::UserRecord,
    session_sess: Json<SessionData>,
}

/// Built once: every signed-in request runs it.
pub(crate) fn find_live_user_sql() -> &'static str {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT {}, s.sess AS session_sess FROM {} JOIN sessions s ON s.user_id = u.id WHERE s.sid = $1 AND s.expire > $2",
            crate::users::COLUMNS,
            crate::users::FROM
        )
    });
    &SQL
}

/// The account of a session that has not expired at `now`, with the session: one query, the
/// one every signed-in request makes.
pub async fn find_live_user(db: &Db, sid: &str, now: DateTime<Utc>) -> StoreResult<Option<(crate::users::UserRecord, SessionData)>> {
    let sql = find_live_user_sql();
    let row = with_db!(db, pool => sqlx::query_as::<_, LiveRow>(sql).bind(sid).bind(now).fetch_optional(pool).await?);
    Ok(row.map(|r| (r.user, r.session_sess.0)))
}

/// Records activity: new `sess` contents and a new expiry.
pub async fn touch(db: &Db, sid: &str, sess: &SessionData, expire: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE sessions SET sess = $1, expire = $2 WHERE sid = $3")
            .bind(Json(sess))
            .bind(expire)
            .bind(sid)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Deletes one session (logout); the user it belonged to, if it existed.
pub async fn delete(db: &Db, sid: &str) -> StoreResult<Option<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, String>("DELETE FROM sessions WHERE sid = $1 RETURNING user_id").bind(sid).fetch_optional(pool).await?
    }))
}

/// Deletes every session that expired before `now`; returns how many.
pub async fn delete_expired(db: &Db, now: DateTime<Utc>) -> StoreResult<u64> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM sessions WHERE expire <= $1").bind(now).execute(pool).await?.rows_affected()
    });
    Ok(done)
}

/// Every live session of a user, newest first.
pub async fn live_for_user(db: &Db, user_id: &str, now: DateTime<Utc>) -> StoreResult<Vec<SessionRecord>> {
    let rows = with_db!(db, pool => {
        sqlx::query_as::<_, Row>("SELECT sid, sess, expire FROM sessions WHERE user_id = $1 AND expire > $2")
            .bind(user_id)
            .bind(now)
            .fetch_all(pool)
            .await?
    });
    let mut sessions: Vec<SessionRecord> =
        rows.into_iter().map(|r| SessionRecord { sid: r.sid, sess: r.sess.0, expire: r.expire }).collect();
    sessions.sort_by(|a, b| b.sess.created_at.cmp(&a.sess.created_at).then_with(|| a.sid.cmp(&b.sid)));
    Ok(sessions)
}

/// Deletes one session of `user_id`; whether there was one (another user's sid deletes nothing).
pub async fn delete_for_user(db: &Db, user_id: &str, sid: &str) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query("DELETE FROM sessions WHERE sid = $1 AND user_id = $2").bind(sid).bind(user_id).execute(pool).await?.rows_affected()
    });
    Ok(done > 0)
}
