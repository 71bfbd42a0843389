//! Webhook endpoints: at most the cap per user, however many are created at once; an endpoint
//! deleted while its messages are queued or sent leaves the others queued and no error.

use strikeline_store::{Db, outbox, webhooks};

use crate::common::{t0, user};

crate::on_both_engines!(parallel_creates_never_pass_the_endpoint_cap, an_endpoint_deleted_meanwhile_is_skipped_not_an_error);

fn endpoint(user_id: &str, n: usize) -> webhooks::Endpoint {
    webhooks::Endpoint {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.into(),
        url: format!("https://hooks.example.com/{n}"),
        event_type: "new_signal".into(),
        secret: "whsec_test".into(),
        is_active: true,
        failing_since: None,
        disabled_at: None,
        created_at: t0(),
        account_id: None,
    }
}

async fn parallel_creates_never_pass_the_endpoint_cap(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let creates = (0..25).map(|n| {
        let (db, ada) = (db.clone(), ada.id.clone());
        tokio::spawn(async move { webhooks::insert_within(&db, &endpoint(&ada, n), 10).await.expect("insert") })
    });
    let mut made = 0;
    for create in creates {
        made += usize::from(create.await.expect("task"));
    }
    assert_eq!(made, 10, "25 parallel creates, a cap of 10");
    assert_eq!(webhooks::list(&db, &ada.id).await.expect("list").len(), 10);
    assert!(webhooks::insert_within(&db, &endpoint(&bob.id, 0), 10).await.expect("insert"), "the cap is per user");
}

async fn an_endpoint_deleted_meanwhile_is_skipped_not_an_error(db: Db) {
    let ada = user(&db, "ada").await;
    let (kept, gone) = (endpoint(&ada.id, 1), endpoint(&ada.id, 2));
    for e in [&kept, &gone] {
        assert!(webhooks::insert_within(&db, e, 10).await.expect("insert"));
    }
    let to = |e: &webhooks::Endpoint, id: &str| {
        outbox::Message::pending(id.into(), "webhook", &ada.id, Some(&e.id), "new_signal", "{}".into(), t0())
    };
    let first = to(&gone, "msg_first");
    assert_eq!(outbox::enqueue(&db, std::slice::from_ref(&first)).await.expect("queued"), 1);

    // Deleted after the announcer read it: its message is left out, the other one queued.
    assert!(webhooks::delete(&db, &ada.id, &gone.id).await.expect("delete"));
    assert_eq!(outbox::get(&db, "msg_first").await.expect("read").map(|m| m.id), None, "its queued message went with it");
    assert_eq!(outbox::enqueue(&db, &[to(&gone, "msg_gone"), to(&kept, "msg_kept")]).await.expect("queued"), 1);
    assert!(outbox::get(&db, "msg_gone").await.expect("read").is_none());
    assert!(outbox::get(&db, "msg_kept").await.expect("read").is_some());

    // An attempt that ends after the delete: nothing to log it against, and no error.
    let attempt = |message: &str, endpoint: &str| webhooks::Attempt {
        id: uuid::Uuid::new_v4().to_string(),
        message_id: message.into(),
        endpoint_id: endpoint.into(),
        attempted_at: t0(),
        status_code: Some(200),
        latency_ms: 12,
        succeeded: true,
        error: None,
    };
    assert!(!webhooks::log_attempt(&db, &attempt("msg_first", &gone.id)).await.expect("not an error"));
    assert!(webhooks::log_attempt(&db, &attempt("msg_kept", &kept.id)).await.expect("logged"));
    assert_eq!(webhooks::attempts(&db, &kept.id, 50).await.expect("log").len(), 1);
}
