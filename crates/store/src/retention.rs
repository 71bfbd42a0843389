//! Deleting what the privacy policy's retention periods have run out on (section 5): each
//! kind of record in one transaction, answering how many rows went.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// Communications made before `before`: contact-form messages, in-app notifications and
/// outbox messages already sent or given up on (with their delivery attempts).
pub async fn communications(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    delete_all(
        db,
        before,
        &[
            "DELETE FROM contact_messages WHERE created_at < $1",
            "DELETE FROM notifications WHERE created_at < $1",
            "DELETE FROM outbox WHERE status <> 'pending' AND created_at < $1",
        ],
    )
    .await
}

/// Trading records that ended before `before`: closed or expired positions (manual and
/// automated), daily portfolio values, and the signals users generated for themselves. The
/// automated signals are the public track record and are not personal data: they stay.
pub async fn trading(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    delete_all(
        db,
        before,
        &[
            "DELETE FROM manual_positions WHERE status <> 'open' AND COALESCE(closed_at, updated_at) < $1",
            "DELETE FROM structure_positions WHERE status <> 'open' AND COALESCE(closed_at, updated_at) < $1",
            "DELETE FROM portfolio_positions WHERE status <> 'open' AND COALESCE(closed_at, updated_at) < $1",
            "DELETE FROM portfolio_snapshots WHERE taken_at < $1",
            "DELETE FROM signals WHERE owner_id IS NOT NULL AND created_at < $1 \
             AND id NOT IN (SELECT signal_id FROM portfolio_positions WHERE signal_id IS NOT NULL)",
        ],
    )
    .await
}

/// What is kept of deleted accounts past `before`: their invoices and audit entries (whose
/// user is gone).
pub async fn closed_accounts(db: &Db, before: DateTime<Utc>) -> StoreResult<u64> {
    delete_all(
        db,
        before,
        &["DELETE FROM invoices WHERE user_id IS NULL AND created_at < $1", "DELETE FROM audit_events WHERE user_id IS NULL AND at < $1"],
    )
    .await
}

async fn delete_all(db: &Db, before: DateTime<Utc>, statements: &[&str]) -> StoreResult<u64> {
    let mut removed = 0;
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for sql in statements {
            removed += sqlx::query(sql).bind(before).execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
    });
    Ok(removed)
}
