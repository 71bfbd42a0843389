//! The durable outbox: one attempt is claimed by one worker, and a claim holds the message.

use chrono::Duration;
use strikeline_store::{Db, outbox};

use crate::common::{t0, user};

crate::on_both_engines!(two_workers_never_claim_the_same_attempt, a_claimed_message_is_held_until_its_claim_lapses);

async fn queued(db: &Db, id: &str) -> outbox::Message {
    let owner = user(db, &format!("owner{id}")).await;
    let message = outbox::Message::pending(id.into(), "webhook", &owner.id, None, "new_signal", "{}".into(), t0());
    outbox::enqueue(db, std::slice::from_ref(&message)).await.expect("queued");
    message
}

async fn two_workers_never_claim_the_same_attempt(db: Db) {
    let message = queued(&db, "msg_race").await;
    // Ten workers that all read the message as due race for its first attempt.
    let claims = (0..10).map(|_| {
        let (db, message) = (db.clone(), message.clone());
        tokio::spawn(async move { outbox::claim(&db, &message, t0(), t0() + Duration::minutes(5)).await.expect("claim") })
    });
    let mut won = 0;
    for claim in claims {
        won += usize::from(claim.await.expect("task"));
    }
    assert_eq!(won, 1, "exactly one worker sends the attempt");
    let stored = outbox::get(&db, "msg_race").await.expect("read").expect("kept");
    assert_eq!(stored.attempts, 1, "the attempt is counted once");
    // A worker holding the stale copy cannot claim it again either.
    assert!(!outbox::claim(&db, &message, t0() + Duration::minutes(10), t0() + Duration::minutes(15)).await.expect("claim"));
}

async fn a_claimed_message_is_held_until_its_claim_lapses(db: Db) {
    queued(&db, "msg_hold").await;
    let due = outbox::due(&db, t0(), 10).await.expect("due");
    assert_eq!(due.len(), 1);
    assert!(outbox::claim(&db, &due[0], t0(), t0() + Duration::minutes(5)).await.expect("claim"));
    assert!(outbox::due(&db, t0() + Duration::minutes(4), 10).await.expect("due").is_empty(), "held while the sender works");
    let lapsed = outbox::due(&db, t0() + Duration::minutes(5), 10).await.expect("due");
    assert_eq!(lapsed.len(), 1, "a sender that died leaves the message to be sent again");
    assert!(outbox::claim(&db, &lapsed[0], t0() + Duration::minutes(5), t0() + Duration::minutes(10)).await.expect("claim"));
    outbox::delivered(&db, "msg_hold", t0() + Duration::minutes(6)).await.expect("delivered");
    assert!(outbox::due(&db, t0() + Duration::days(1), 10).await.expect("due").is_empty(), "a delivered message is never due");
    let stored = outbox::get(&db, "msg_hold").await.expect("read").expect("kept");
    assert_eq!((stored.status.as_str(), stored.attempts), ("delivered", 2));
}
