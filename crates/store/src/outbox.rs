//! The `outbox` table: one durable queue for everything sent out of the machine (webhook
//! deliveries and email). A message is written in the same breath as the event it announces;
//! a worker claims due messages, sends them and either marks them delivered or sets the next
//! attempt. A restart loses nothing: what was not delivered is still pending.
//!
//! Claiming is a compare-and-set on the attempt count, so two workers (two instances) never
//! send the same attempt; a worker that dies mid-send leaves a claim that expires, and the
//! message is sent again (receivers de-duplicate by the message id).

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A queued message.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Message {
    /// The webhook's `webhook-id` (`msg_…`) or the email's id.
    pub id: String,
    /// `webhook | email`.
    pub channel: String,
    /// Whose it is.
    pub user_id: String,
    /// The webhook endpoint (webhooks only).
    pub endpoint_id: Option<String>,
    /// The webhook's event type, or the email's kind.
    pub topic: String,
    /// Exactly what is sent (the JSON body of a webhook, the JSON of an email).
    pub payload: String,
    /// `pending | delivered | failed`.
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
}

const COLUMNS: &str =
    "id, channel, user_id, endpoint_id, topic, payload, status, attempts, next_attempt_at, last_error, created_at, delivered_at";

impl Message {
    /// A new pending message, due at `now`.
    pub fn pending(
        id: String,
        channel: &str,
        user_id: &str,
        endpoint_id: Option<&str>,
        topic: &str,
        payload: String,
        now: DateTime<Utc>,
    ) -> Message {
        Message {
            id,
            channel: channel.to_owned(),
            user_id: user_id.to_owned(),
            endpoint_id: endpoint_id.map(str::to_owned),
            topic: topic.to_owned(),
            payload,
            status: "pending".to_owned(),
            attempts: 0,
            next_attempt_at: now,
            last_error: None,
            created_at: now,
            delivered_at: None,
        }
    }
}

/// Queues messages in one transaction; how many. A message whose user or endpoint is gone by
/// now (deleted since the caller read it: an owner removing an endpoint while a signal is
/// announced) is left out rather than failing the others.
pub async fn enqueue(db: &Db, messages: &[Message]) -> StoreResult<usize> {
    if messages.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "INSERT INTO outbox ({COLUMNS}) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 \
         WHERE EXISTS (SELECT 1 FROM users WHERE id = $3) \
         AND ($4 IS NULL OR EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $4))"
    );
    let mut queued = 0;
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for m in messages {
            queued += sqlx::query(&sql)
                .bind(&m.id)
                .bind(&m.channel)
                .bind(&m.user_id)
                .bind(&m.endpoint_id)
                .bind(&m.topic)
                .bind(&m.payload)
                .bind(&m.status)
                .bind(m.attempts)
                .bind(m.next_attempt_at)
                .bind(&m.last_error)
                .bind(m.created_at)
                .bind(m.delivered_at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
    });
    Ok(usize::try_from(queued).unwrap_or(usize::MAX))
}

/// Pending messages due at `now`, oldest due first, at most `limit`.
pub async fn due(db: &Db, now: DateTime<Utc>, limit: u32) -> StoreResult<Vec<Message>> {
    let sql =
        format!("SELECT {COLUMNS} FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Message>(&sql).bind(now).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// The oldest due message of each lane, oldest first, at most `limit`: a lane is one webhook
/// endpoint (its messages are sent one at a time, in order), and every other message is a lane
/// of its own. However long one endpoint's backlog, it takes one place here, so the messages of
/// other endpoints are never pushed out of the batch.
pub async fn due_heads(db: &Db, now: DateTime<Utc>, limit: u32) -> StoreResult<Vec<Message>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM (\
           SELECT {COLUMNS}, ROW_NUMBER() OVER (\
             PARTITION BY endpoint_id, CASE WHEN endpoint_id IS NULL THEN id END \
             ORDER BY next_attempt_at, created_at, id) AS place \
           FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1\
         ) AS due WHERE place = 1 ORDER BY next_attempt_at, created_at, id LIMIT $2"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, Message>(&sql).bind(now).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// One endpoint's pending messages due at `now`, in the order they are sent (oldest due first,
/// then oldest queued), at most `limit`.
pub async fn due_for_endpoint(db: &Db, endpoint_id: &str, now: DateTime<Utc>, limit: u32) -> StoreResult<Vec<Message>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM outbox WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= $2 \
         ORDER BY next_attempt_at, created_at, id LIMIT $3"
    );
    Ok(with_db!(db, pool => sqlx::query_as::<_, Message>(&sql).bind(endpoint_id).bind(now).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// Claims a due message for one attempt: counts the attempt and holds the message until
/// `until` (if the sender dies, it is sent again then). Whether this caller got it: `false`
/// when another worker claimed that attempt first.
pub async fn claim(db: &Db, message: &Message, now: DateTime<Utc>, until: DateTime<Utc>) -> StoreResult<bool> {
    let done = with_db!(db, pool => {
        sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1 \
             WHERE id = $2 AND status = 'pending' AND attempts = $3 AND next_attempt_at <= $4",
        )
        .bind(until)
        .bind(&message.id)
        .bind(message.attempts)
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected()
    });
    Ok(done == 1)
}

/// Marks a message delivered.
pub async fn delivered(db: &Db, id: &str, at: DateTime<Utc>) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE outbox SET status = 'delivered', delivered_at = $1, last_error = NULL WHERE id = $2 AND status = 'pending'")
            .bind(at)
            .bind(id)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Sets a failed message's next attempt.
pub async fn retry_at(db: &Db, id: &str, next: DateTime<Utc>, error: &str) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE outbox SET next_attempt_at = $1, last_error = $2 WHERE id = $3 AND status = 'pending'")
            .bind(next)
            .bind(error)
            .bind(id)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// Gives a message up after its last attempt.
pub async fn give_up(db: &Db, id: &str, error: &str) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query("UPDATE outbox SET status = 'failed', last_error = $1 WHERE id = $2 AND status = 'pending'").bind(error).bind(id).execute(pool).await?;
    });
    Ok(())
}

/// One message.
pub async fn get(db: &Db, id: &str) -> StoreResult<Option<Message>> {
    let sql = format!("SELECT {COLUMNS} FROM outbox WHERE id = $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Message>(&sql).bind(id).fetch_optional(pool).await?))
}

/// The newest messages of a channel, at most `limit` (the administrators' view of email).
pub async fn newest(db: &Db, channel: &str, limit: u32) -> StoreResult<Vec<Message>> {
    let sql = format!("SELECT {COLUMNS} FROM outbox WHERE channel = $1 ORDER BY created_at DESC, id DESC LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, Message>(&sql).bind(channel).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// The one-click unsubscribe token of a user's mailing list (`all` or `portfolio_summary`),
/// made from `fresh` the first time.
pub async fn unsubscribe_token(db: &Db, user_id: &str, list: &str, fresh: &str, now: DateTime<Utc>) -> StoreResult<String> {
    Ok(with_db!(db, pool => {
        sqlx::query("INSERT INTO email_unsubscribes (token, user_id, list, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, list) DO NOTHING")
            .bind(fresh)
            .bind(user_id)
            .bind(list)
            .bind(now)
            .execute(pool)
            .await?;
        sqlx::query_scalar::<_, String>("SELECT token FROM email_unsubscribes WHERE user_id = $1 AND list = $2").bind(user_id).bind(list).fetch_one(pool).await?
    }))
}

/// Whose list an unsubscribe token is: `(user_id, list)`.
pub async fn unsubscribe_target(db: &Db, token: &str) -> StoreResult<Option<(String, String)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, (String, String)>("SELECT user_id, list FROM email_unsubscribes WHERE token = $1").bind(token).fetch_optional(pool).await?
    }))
}

/// Messages waiting to go out on each channel, and when the oldest of them was queued.
pub async fn backlog(db: &Db) -> StoreResult<Vec<(String, i64, Option<DateTime<Utc>>)>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as(
            "SELECT channel, CAST(COUNT(*) AS BIGINT), MIN(created_at) FROM outbox WHERE status = 'pending' GROUP BY channel ORDER BY channel",
        )
        .fetch_all(pool)
        .await?
    }))
}
