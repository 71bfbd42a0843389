//! Shared rate-limit buckets: GCRA lets exactly the quota through, back-off grows and forgets.

use strikeline_store::Db;
use strikeline_store::rate_limits::{self, Backoff, Verdict};

crate::on_both_engines!(
    gcra_lets_exactly_the_quota_through_concurrent_hits,
    gcra_refused_hits_change_nothing_and_the_bucket_refills,
    backoff_lets_free_attempts_through_then_waits_longer_up_to_the_cap,
    reset_and_stale_buckets_are_forgotten,
);

/// 2026-03-02T15:00:00Z in epoch milliseconds.
const T: i64 = 1_772_463_600_000;
const PERIOD: i64 = 60_000;
const QUOTA: i64 = 5;
const INTERVAL: i64 = PERIOD / QUOTA;

async fn gcra(db: &Db, bucket: &str, now: i64) -> Verdict {
    rate_limits::gcra(db, bucket, now, INTERVAL, PERIOD).await.expect("gcra")
}

async fn gcra_lets_exactly_the_quota_through_concurrent_hits(db: Db) {
    let tasks: Vec<_> = (0..QUOTA + 4)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move { gcra(&db, "register:203.0.113.7", T).await })
        })
        .collect();
    let mut allowed = 0;
    for task in tasks {
        if task.await.expect("task").allowed {
            allowed += 1;
        }
    }
    assert_eq!(allowed, QUOTA, "N + k concurrent hits let exactly N through");
    assert!(gcra(&db, "register:198.51.100.1", T).await.allowed, "another key has its own bucket");
}

async fn gcra_refused_hits_change_nothing_and_the_bucket_refills(db: Db) {
    let bucket = "contact:203.0.113.7";
    for k in 1..=QUOTA {
        let v = gcra(&db, bucket, T).await;
        assert_eq!((v.allowed, v.tat_ms, v.attempts), (true, T + k * INTERVAL, 0), "hit {k}");
    }
    let full = T + QUOTA * INTERVAL;
    // Hammering a full bucket does not keep it closed longer.
    for ms in [0, 1, INTERVAL / 2, INTERVAL - 1] {
        let v = gcra(&db, bucket, T + ms).await;
        assert_eq!((v.allowed, v.tat_ms), (false, full), "refused at +{ms} ms, nothing moves");
    }
    // One interval later exactly one more fits.
    let v = gcra(&db, bucket, T + INTERVAL).await;
    assert_eq!((v.allowed, v.tat_ms), (true, full + INTERVAL));
    assert!(!gcra(&db, bucket, T + INTERVAL).await.allowed);
    // After a whole quiet period the full burst is back.
    let later = full + INTERVAL + PERIOD;
    for k in 1..=QUOTA {
        assert!(gcra(&db, bucket, later).await.allowed, "burst hit {k} after a quiet period");
    }
    assert!(!gcra(&db, bucket, later).await.allowed);
}

async fn backoff_lets_free_attempts_through_then_waits_longer_up_to_the_cap(db: Db) {
    let rule = Backoff { free: 3, step_ms: 1_000, cap_ms: 2_500, forget_ms: 60_000 };
    let bucket = "login:ada@example.com";
    let hit = |now: i64| {
        let db = db.clone();
        async move { rate_limits::backoff(&db, bucket, now, rule).await.expect("backoff") }
    };
    // The first two attempts set no wait; the third (the `free`-th) sets one step.
    assert_eq!(hit(T).await, Verdict { allowed: true, tat_ms: T, attempts: 1 });
    assert_eq!(hit(T).await, Verdict { allowed: true, tat_ms: T, attempts: 2 });
    assert_eq!(hit(T).await, Verdict { allowed: true, tat_ms: T + 1_000, attempts: 3 });
    // Refused attempts during the wait do not lengthen it.
    for ms in [0, 10, 999] {
        assert_eq!(hit(T + ms).await, Verdict { allowed: false, tat_ms: T + 1_000, attempts: 3 }, "at +{ms} ms");
    }
    // Each next allowed attempt waits one step longer, up to the cap.
    assert_eq!(hit(T + 1_000).await, Verdict { allowed: true, tat_ms: T + 3_000, attempts: 4 });
    assert_eq!(hit(T + 3_000).await, Verdict { allowed: true, tat_ms: T + 5_500, attempts: 5 }, "capped at 2.5 s");
    assert_eq!(hit(T + 5_500).await, Verdict { allowed: true, tat_ms: T + 8_000, attempts: 6 });
    assert!(!hit(T + 7_999).await.allowed);
    // Left alone for `forget` after its wait ended, the bucket starts over.
    assert_eq!(hit(T + 8_000 + 60_000).await, Verdict { allowed: true, tat_ms: T + 68_000 + 2_500, attempts: 7 }, "not yet forgotten");
    let fresh = T + 70_500 + 60_001;
    assert_eq!(hit(fresh).await, Verdict { allowed: true, tat_ms: fresh, attempts: 1 }, "forgotten");

    // Parallel attempts are stamped a few milliseconds apart and may reach the store out of
    // order: every free attempt still goes through, and the wait starts at the `free`-th.
    let other = "login:grace@example.com";
    let hit_other = |now: i64| {
        let db = db.clone();
        async move { rate_limits::backoff(&db, other, now, rule).await.expect("backoff") }
    };
    let stamps = [T + 9, T + 2, T + 5];
    let verdicts: Vec<bool> = {
        let mut out = Vec::new();
        for now in stamps {
            out.push(hit_other(now).await.allowed);
        }
        out
    };
    assert_eq!(verdicts, [true, true, true], "the third (free-th) attempt, stamped earlier than the first, is allowed");
    assert!(!hit_other(T + 1).await.allowed, "the fourth waits, whatever its stamp");
}

async fn reset_and_stale_buckets_are_forgotten(db: Db) {
    let rule = Backoff { free: 1, step_ms: 10_000, cap_ms: 60_000, forget_ms: 60_000 };
    let v = rate_limits::backoff(&db, "login:ada", T, rule).await.expect("backoff");
    assert_eq!((v.allowed, v.tat_ms), (true, T + 10_000));
    assert!(!rate_limits::backoff(&db, "login:ada", T + 1, rule).await.expect("backoff").allowed);
    // A sign-in that succeeded forgets the failures.
    rate_limits::reset(&db, "login:ada").await.expect("reset");
    assert_eq!(rate_limits::backoff(&db, "login:ada", T + 2, rule).await.expect("backoff").attempts, 1);

    gcra(&db, "old", T - 1).await; // tat T - 1 + INTERVAL
    gcra(&db, "new", T + PERIOD).await;
    assert_eq!(rate_limits::delete_stale(&db, T).await.expect("sweep"), 0, "nothing has passed yet");
    // By T + INTERVAL "old" (tat T + INTERVAL - 1) and "login:ada" (tat T + 10 002) have passed; "new" has not.
    assert_eq!(rate_limits::delete_stale(&db, T + INTERVAL).await.expect("sweep"), 2);
    assert_eq!(gcra(&db, "old", T + INTERVAL).await.tat_ms, T + 2 * INTERVAL, "a swept bucket starts empty");
    assert_eq!(gcra(&db, "new", T + PERIOD).await.tat_ms, T + PERIOD + 2 * INTERVAL, "the live bucket was kept");
}
