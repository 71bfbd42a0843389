//! What visitors send from the public site: contact messages and newsletter sign-ups.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A stored contact message.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ContactMessage {
    pub id: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub subject: Option<String>,
    pub message: String,
    pub source: String,
    pub ip: String,
    pub created_at: DateTime<Utc>,
}

/// A newsletter subscriber.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Subscriber {
    pub email: String,
    pub created_at: DateTime<Utc>,
}

const CONTACT_COLUMNS: &str = "id, name, email, company, subject, message, source, ip, created_at";

/// Stores a contact message.
pub async fn insert_contact(db: &Db, m: &ContactMessage) -> StoreResult<()> {
    let sql = format!("INSERT INTO contact_messages ({CONTACT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)");
    with_db!(db, pool => {
        sqlx::query(&sql)
            .bind(&m.id)
            .bind(&m.name)
            .bind(&m.email)
            .bind(&m.company)
            .bind(&m.subject)
            .bind(&m.message)
            .bind(&m.source)
            .bind(&m.ip)
            .bind(m.created_at)
            .execute(pool)
            .await?;
    });
    Ok(())
}

/// The id of the same message from the same email since `since`, if one was already stored.
pub async fn find_duplicate_contact(db: &Db, email: &str, message: &str, since: DateTime<Utc>) -> StoreResult<Option<String>> {
    Ok(with_db!(db, pool => {
        sqlx::query_scalar::<_, String>(
            "SELECT id FROM contact_messages WHERE email = $1 AND message = $2 AND created_at > $3 ORDER BY created_at LIMIT 1",
        )
        .bind(email)
        .bind(message)
        .bind(since)
        .fetch_optional(pool)
        .await?
    }))
}

/// The most recent contact messages, newest first.
pub async fn recent_contacts(db: &Db, limit: i64) -> StoreResult<Vec<ContactMessage>> {
    let sql = format!("SELECT {CONTACT_COLUMNS} FROM contact_messages ORDER BY created_at DESC LIMIT $1");
    Ok(with_db!(db, pool => sqlx::query_as::<_, ContactMessage>(&sql).bind(limit).fetch_all(pool).await?))
}

/// Subscribes an email; `true` when it is new, `false` when it was already subscribed.
pub async fn subscribe(db: &Db, email: &str, ip: &str, at: DateTime<Utc>) -> StoreResult<bool> {
    let inserted = with_db!(db, pool => {
        sqlx::query("INSERT INTO newsletter_subscribers (email, ip, created_at) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING")
            .bind(email)
            .bind(ip)
            .bind(at)
            .execute(pool)
            .await?
            .rows_affected()
    });
    Ok(inserted == 1)
}

/// The most recent subscribers, newest first.
pub async fn recent_subscribers(db: &Db, limit: i64) -> StoreResult<Vec<Subscriber>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, Subscriber>("SELECT email, created_at FROM newsletter_subscribers ORDER BY created_at DESC LIMIT $1")
            .bind(limit)
            .fetch_all(pool)
            .await?
    }))
}
