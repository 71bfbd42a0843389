//! Webhook endpoints: at most the cap per user, however many are created at once.

use strikeline_store::{Db, webhooks};

use crate::common::{t0, user};

crate::on_both_engines!(parallel_creates_never_pass_the_endpoint_cap);

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
