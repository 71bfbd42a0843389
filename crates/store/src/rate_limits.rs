//! Rate-limit buckets shared by every instance: each hit is one atomic upsert.
//!
//! Two algorithms share the table. The generic cell rate algorithm ([`gcra`]) lets a burst of
//! `quota` through and then one request per `period / quota`; [`backoff`] lets a few attempts
//! through freely and then makes each next one wait longer (sign-in). In both, a refused hit
//! changes nothing, so hammering a closed bucket does not keep it closed longer.

use crate::{Db, StoreResult, with_db};

/// The outcome of one hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub allowed: bool,
    /// Theoretical arrival time (GCRA) or the earliest next attempt (back-off), epoch ms.
    pub tat_ms: i64,
    /// Attempts counted by a back-off bucket (0 for GCRA buckets).
    pub attempts: i64,
}

/// One GCRA hit on `bucket` at `now_ms`: allowed when, after it, the bucket's theoretical
/// arrival time is at most `period_ms` ahead of now; every allowed hit moves it `interval_ms`
/// (= period / quota) on.
pub async fn gcra(db: &Db, bucket: &str, now_ms: i64, interval_ms: i64, period_ms: i64) -> StoreResult<Verdict> {
    // In an UPDATE every right-hand side reads the row as it was, on both engines. A hit is
    // allowed when max(tat, now) + interval - now <= period; as interval <= period, that is
    // tat <= now + period - interval.
    const SQL: &str = "INSERT INTO rate_limit_buckets (bucket, tat_ms, n, allowed) VALUES ($1, $2 + $3, 0, $3 <= $4) \
        ON CONFLICT (bucket) DO UPDATE SET \
          allowed = rate_limit_buckets.tat_ms <= $2 + $4 - $3, \
          tat_ms = CASE WHEN rate_limit_buckets.tat_ms > $2 + $4 - $3 THEN rate_limit_buckets.tat_ms \
                        WHEN rate_limit_buckets.tat_ms > $2 THEN rate_limit_buckets.tat_ms + $3 \
                        ELSE $2 + $3 END \
        RETURNING allowed, tat_ms, n";
    let (allowed, tat_ms, attempts): (bool, i64, i64) = with_db!(db, pool => {
        sqlx::query_as(SQL).bind(bucket).bind(now_ms).bind(interval_ms).bind(period_ms).fetch_one(pool).await?
    });
    Ok(Verdict { allowed, tat_ms, attempts })
}

/// How a back-off bucket grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// Attempts allowed back to back before any wait (the `free`-th attempt already sets one).
    pub free: i64,
    /// The wait grows by this much with each attempt from the `free`-th on.
    pub step_ms: i64,
    /// The longest wait.
    pub cap_ms: i64,
    /// A bucket left alone this long after its wait ended starts over.
    pub forget_ms: i64,
}

/// Whether a stored bucket holds a wait that is not over: only from the `free`-th attempt on
/// (before that no wait was set), so concurrent attempts stamped a few milliseconds apart
/// and arriving out of order all get their free attempts.
const WAITING: &str = "(rate_limit_buckets.n >= $3 AND rate_limit_buckets.tat_ms > $2)";

/// One back-off hit: allowed when the bucket's wait is over; an allowed hit counts one more
/// attempt and sets the next wait from that count.
pub async fn backoff(db: &Db, bucket: &str, now_ms: i64, rule: Backoff) -> StoreResult<Verdict> {
    // wait(k) = 0 before the `free`-th attempt, then min((k - free + 1) × step, cap).
    fn wait(k: &str) -> String {
        format!("(CASE WHEN {k} < $3 THEN 0 WHEN ({k} - $3 + 1) * $4 > $5 THEN $5 ELSE ({k} - $3 + 1) * $4 END)")
    }
    let sql = format!(
        "INSERT INTO rate_limit_buckets (bucket, tat_ms, n, allowed) VALUES ($1, $2 + {first}, 1, TRUE) \
         ON CONFLICT (bucket) DO UPDATE SET \
           allowed = NOT ({waiting}), \
           n = CASE WHEN {waiting} THEN rate_limit_buckets.n \
                    WHEN rate_limit_buckets.tat_ms + $6 < $2 THEN 1 \
                    ELSE rate_limit_buckets.n + 1 END, \
           tat_ms = CASE WHEN {waiting} THEN rate_limit_buckets.tat_ms \
                    WHEN rate_limit_buckets.tat_ms + $6 < $2 THEN $2 + {first} \
                    ELSE $2 + {next} END \
         RETURNING allowed, tat_ms, n",
        first = wait("1"),
        next = wait("(rate_limit_buckets.n + 1)"),
        waiting = WAITING,
    );
    let (allowed, tat_ms, attempts): (bool, i64, i64) = with_db!(db, pool => {
        sqlx::query_as(&sql)
            .bind(bucket)
            .bind(now_ms)
            .bind(rule.free)
            .bind(rule.step_ms)
            .bind(rule.cap_ms)
            .bind(rule.forget_ms)
            .fetch_one(pool)
            .await?
    });
    Ok(Verdict { allowed, tat_ms, attempts })
}

/// Empties `bucket` (a sign-in that succeeded forgets its failures).
pub async fn reset(db: &Db, bucket: &str) -> StoreResult<()> {
    with_db!(db, pool => { sqlx::query("DELETE FROM rate_limit_buckets WHERE bucket = $1").bind(bucket).execute(pool).await?; });
    Ok(())
}

/// Deletes buckets whose time passed before `before_ms` (they act as empty anyway); returns how many.
pub async fn delete_stale(db: &Db, before_ms: i64) -> StoreResult<u64> {
    Ok(with_db!(db, pool => {
        sqlx::query("DELETE FROM rate_limit_buckets WHERE tat_ms < $1").bind(before_ms).execute(pool).await?.rows_affected()
    }))
}
