//! Scheduler state: settings and the leader lease only one instance holds at a time.

use chrono::Duration;
use strikeline_store::Db;
use strikeline_store::automation;

use crate::common::t0;

crate::on_both_engines!(settings_are_stored_and_replaced, the_lease_is_exclusive_until_it_expires, concurrent_instances_elect_one_leader);

async fn settings_are_stored_and_replaced(db: Db) {
    assert_eq!(automation::get(&db, "running").await.expect("get"), None);
    automation::set(&db, "running", "true", t0()).await.expect("set");
    automation::set(&db, "running", "false", t0() + Duration::seconds(1)).await.expect("set again");
    assert_eq!(automation::get(&db, "running").await.expect("get").as_deref(), Some("false"));
}

async fn the_lease_is_exclusive_until_it_expires(db: Db) {
    let lease = "scheduler";
    let at = |s: i64| t0() + Duration::seconds(s);
    assert!(automation::acquire_lease(&db, lease, "a", at(0), at(30)).await.expect("a takes"));
    assert!(!automation::acquire_lease(&db, lease, "b", at(10), at(40)).await.expect("b"), "held by a");
    assert!(automation::acquire_lease(&db, lease, "a", at(20), at(50)).await.expect("a renews"));
    assert!(!automation::acquire_lease(&db, lease, "b", at(49), at(79)).await.expect("b"), "a's renewal holds");
    assert!(automation::acquire_lease(&db, lease, "b", at(50), at(80)).await.expect("b takes"), "expired at `until`");
    assert!(!automation::acquire_lease(&db, lease, "a", at(51), at(81)).await.expect("a"), "now b's");

    automation::release_lease(&db, lease, "a").await.expect("release by a non-holder");
    assert!(!automation::acquire_lease(&db, lease, "a", at(52), at(82)).await.expect("a"), "only the holder can release");
    automation::release_lease(&db, lease, "b").await.expect("release");
    assert!(automation::acquire_lease(&db, lease, "a", at(53), at(83)).await.expect("a"), "released: free at once");

    // A lease row does not disturb a setting of another name.
    automation::set(&db, "running", "true", t0()).await.expect("set");
    assert_eq!(automation::get(&db, "running").await.expect("get").as_deref(), Some("true"));
}

async fn concurrent_instances_elect_one_leader(db: Db) {
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move {
                automation::acquire_lease(&db, "scheduler", &format!("instance-{i}"), t0(), t0() + Duration::seconds(30)).await
            })
        })
        .collect();
    let mut winners = 0;
    for task in tasks {
        if task.await.expect("task").expect("acquire") {
            winners += 1;
        }
    }
    assert_eq!(winners, 1, "exactly one instance holds the lease");
}
