//! Account settings, password changes, account deletion, API keys and the audit log, as the
//! repositories store them, on both engines.

use chrono::Duration;
use strikeline_store::Db;
use strikeline_store::api_keys::{self, NewApiKey};
use strikeline_store::audit::{self, AuditEvent};
use strikeline_store::sessions::{self, SessionData};
use strikeline_store::users::{self, SettingsUpdate};

use crate::common::{t0, user};

crate::on_both_engines!(
    settings_change_only_the_fields_given_and_are_checked,
    a_new_password_ends_every_other_session_at_once,
    deleting_a_user_takes_their_keys_sessions_and_audit_entries,
    keys_are_capped_per_user_found_by_hash_and_reached_only_by_their_owner,
    audit_entries_page_newest_first_per_user,
);

fn key(user_id: &str, n: u32) -> NewApiKey {
    NewApiKey {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.into(),
        name: format!("key {n}"),
        key_hash: format!("{user_id}-hash-{n}"),
        key_prefix: format!("slk_{n:08}"),
        permissions: "read".into(),
        expires_at: None,
        created_at: t0() + Duration::seconds(i64::from(n)),
        account_id: None,
    }
}

async fn settings_change_only_the_fields_given_and_are_checked(db: Db) {
    let ada = user(&db, "ada").await;
    assert_eq!((ada.theme.as_str(), ada.currency.as_str(), ada.auto_update_signals, ada.high_risk_alerts), ("system", "USD", true, false));
    let change = SettingsUpdate { theme: Some("dark".into()), portfolio_updates: Some(false), ..SettingsUpdate::default() };
    users::update_settings(&db, &ada.id, &change, t0() + Duration::minutes(1)).await.expect("update");
    let after = users::find_by_id(&db, &ada.id).await.expect("find").expect("exists");
    assert_eq!(
        (after.theme.as_str(), after.portfolio_updates, after.currency.as_str(), after.email_notifications),
        ("dark", false, "USD", true)
    );
    assert_eq!(after.updated_at, t0() + Duration::minutes(1));
    for bad in [
        SettingsUpdate { theme: Some("blue".into()), ..SettingsUpdate::default() },
        SettingsUpdate { currency: Some("JPY".into()), ..SettingsUpdate::default() },
    ] {
        assert!(users::update_settings(&db, &ada.id, &bad, t0()).await.is_err(), "the CHECK constraints refuse {bad:?}");
    }
    assert!(users::update_settings(&db, "nobody", &change, t0()).await.is_err());
}

async fn a_new_password_ends_every_other_session_at_once(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    for (sid, owner) in [("a1", &ada.id), ("a2", &ada.id), ("a3", &ada.id), ("b1", &bob.id)] {
        let data = SessionData { user_id: owner.clone(), created_at: t0(), last_seen_at: t0(), user_agent: None, ip: None };
        sessions::insert(&db, sid, &data, t0() + Duration::hours(1)).await.expect("session");
    }
    let mut ended = users::set_password(&db, &ada.id, "$argon2id$new", "a2", t0()).await.expect("set");
    ended.sort();
    assert_eq!(ended, ["a1", "a3"]);
    let live: Vec<String> = sessions::live_for_user(&db, &ada.id, t0()).await.expect("live").into_iter().map(|s| s.sid).collect();
    assert_eq!(live, ["a2"]);
    assert_eq!(sessions::live_for_user(&db, &bob.id, t0()).await.expect("live").len(), 1, "other accounts untouched");
    assert_eq!(users::find_by_id(&db, &ada.id).await.expect("find").expect("exists").password_hash, "$argon2id$new");
    assert!(!sessions::delete_for_user(&db, &bob.id, "a2").await.expect("delete"), "a session is only its owner's to revoke");
    assert!(sessions::delete_for_user(&db, &ada.id, "a2").await.expect("delete"));
}

async fn deleting_a_user_takes_their_keys_sessions_and_audit_entries(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let data = SessionData { user_id: ada.id.clone(), created_at: t0(), last_seen_at: t0(), user_agent: None, ip: None };
    sessions::insert(&db, "a1", &data, t0() + Duration::hours(1)).await.expect("session");
    assert!(api_keys::insert_within(&db, &key(&ada.id, 1), 20).await.expect("key"));
    assert!(api_keys::insert_within(&db, &key(&bob.id, 1), 20).await.expect("key"));
    for who in [&ada.id, &bob.id] {
        let event = AuditEvent {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: Some(who.clone()),
            actor_id: None,
            action: "sign_in".into(),
            detail: None,
            ip: None,
            user_agent: None,
            at: t0(),
        };
        audit::record(&db, &event).await.expect("audit");
    }
    assert_eq!(users::delete(&db, &ada.id).await.expect("delete"), ["a1"]);
    assert!(users::find_by_id(&db, &ada.id).await.expect("find").is_none());
    assert!(api_keys::list(&db, &ada.id).await.expect("keys").is_empty());
    assert!(audit::for_user(&db, &ada.id, None, 50).await.expect("audit").is_empty());
    assert_eq!(api_keys::list(&db, &bob.id).await.expect("keys").len(), 1, "other accounts untouched");
    assert_eq!(audit::for_user(&db, &bob.id, None, 50).await.expect("audit").len(), 1);
    assert!(users::delete(&db, &ada.id).await.is_err(), "deleting twice finds nothing");
}

async fn keys_are_capped_per_user_found_by_hash_and_reached_only_by_their_owner(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    for n in 0..3 {
        assert!(api_keys::insert_within(&db, &key(&ada.id, n), 3).await.expect("key"));
    }
    assert!(!api_keys::insert_within(&db, &key(&ada.id, 3), 3).await.expect("key"), "the cap holds");
    assert!(api_keys::insert_within(&db, &key(&bob.id, 0), 3).await.expect("key"), "per user");
    let listed = api_keys::list(&db, &ada.id).await.expect("list");
    assert_eq!(listed.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["key 2", "key 1", "key 0"], "newest first");
    let (found, owner) = api_keys::find_by_hash(&db, &format!("{}-hash-1", ada.id)).await.expect("find").expect("exists");
    assert_eq!((found.name.as_str(), owner.id.as_str(), found.is_active), ("key 1", ada.id.as_str(), true));
    assert!(api_keys::find_by_hash(&db, "nope").await.expect("find").is_none());

    assert!(api_keys::set_active(&db, &bob.id, &found.id, false, t0()).await.expect("toggle").is_none(), "not bob's");
    assert!(!api_keys::delete(&db, &bob.id, &found.id).await.expect("delete"));
    let off = api_keys::set_active(&db, &ada.id, &found.id, false, t0() + Duration::hours(1)).await.expect("toggle").expect("ada's");
    assert!(!off.is_active);
    assert_eq!(off.updated_at, t0() + Duration::hours(1));

    api_keys::touch(&db, &found.id, t0() + Duration::minutes(5)).await.expect("touch");
    api_keys::touch(&db, &found.id, t0() + Duration::minutes(2)).await.expect("an older use does not go back");
    let used = api_keys::find_owned(&db, &ada.id, &found.id).await.expect("find").expect("exists");
    assert_eq!(used.last_used_at, Some(t0() + Duration::minutes(5)));

    let mut duplicate = key(&bob.id, 9);
    duplicate.key_hash = format!("{}-hash-1", ada.id);
    assert!(api_keys::insert_within(&db, &duplicate, 20).await.is_err(), "hashes are unique");
    assert!(api_keys::delete(&db, &ada.id, &found.id).await.expect("delete"));
    assert_eq!(api_keys::list(&db, &ada.id).await.expect("list").len(), 2);
}

fn anonymous_like(user_id: &str) -> AuditEvent {
    AuditEvent {
        id: String::new(),
        user_id: Some(user_id.into()),
        actor_id: None,
        action: "sign_in".into(),
        detail: None,
        ip: None,
        user_agent: None,
        at: t0(),
    }
}

async fn audit_entries_page_newest_first_per_user(db: Db) {
    let ada = user(&db, "ada").await;
    for minute in 0..5 {
        let event = AuditEvent {
            id: format!("e{minute}"),
            user_id: Some(ada.id.clone()),
            actor_id: None,
            action: "sign_in".into(),
            detail: Some(format!("minute {minute}")),
            ip: Some("127.0.0.1".into()),
            user_agent: Some("test".into()),
            at: t0() + Duration::minutes(minute),
        };
        audit::record(&db, &event).await.expect("record");
    }
    let anonymous = AuditEvent {
        id: "anon".into(),
        user_id: None,
        actor_id: None,
        action: "sign_in_failed".into(),
        detail: None,
        ip: None,
        user_agent: None,
        at: t0(),
    };
    audit::record(&db, &anonymous).await.expect("record");
    let first: Vec<String> = audit::for_user(&db, &ada.id, None, 2).await.expect("page").into_iter().map(|e| e.id).collect();
    assert_eq!(first, ["e4", "e3"]);
    let next: Vec<String> = audit::for_user(&db, &ada.id, Some((t0() + Duration::minutes(3), None)), 10)
        .await
        .expect("page")
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(next, ["e2", "e1", "e0"]);
    // Two events at one time across a page boundary: the cursor's id keeps the second.
    let twin = AuditEvent { id: "e2b".into(), at: t0() + Duration::minutes(2), ..anonymous_like(&ada.id) };
    audit::record(&db, &twin).await.expect("record");
    let first_two: Vec<String> = audit::for_user(&db, &ada.id, Some((t0() + Duration::minutes(3), None)), 1)
        .await
        .expect("page")
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(first_two, ["e2b"], "ties by id, largest first");
    let after: Vec<String> = audit::for_user(&db, &ada.id, Some((t0() + Duration::minutes(2), Some("e2b".into()))), 10)
        .await
        .expect("page")
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(after, ["e2", "e1", "e0"], "the twin with the same time is not skipped");
    assert_eq!(audit::recent(&db, 10).await.expect("recent").len(), 7);
    let bad = AuditEvent { id: "bad".into(), action: "teleported".into(), ..anonymous };
    assert!(audit::record(&db, &bad).await.is_err(), "the action is checked");
}
