//! Issue 25, item 1 and row 11: verified accounts. Registration emails a single-use link;
//! until it is opened the account has no trial, API keys, webhooks or administrator rights;
//! addresses are addr-specs only; the trial is granted once per address, even after the
//! account is deleted; a forgotten password is reset by an emailed link (single use, 30
//! minutes, the same answer for any address) that ends every session and switches off the API
//! keys; a password change switches them off unless asked not to.

use chrono::Duration;
use futures_util::future::join_all;
use serde_json::{Value, json};

use crate::common::{TestApp, fields, problem};

on_both_engines!(
    links_work_once_only_the_newest_and_not_after_they_expire,
    the_trial_is_granted_once_per_address_even_after_the_account_is_deleted,
    addresses_are_addr_specs_and_one_address_is_one_account,
    a_forgotten_password_is_reset_by_a_link_that_ends_sessions_and_keys,
    a_password_change_switches_the_api_keys_off_unless_asked_not_to,
);

on_both_engines_with!(admin, crate::common::with_admin;
    an_unconfirmed_account_gets_no_trial_keys_webhooks_or_admin_rights,
);

/// The status of a public API call with `key`.
async fn v1(app: &TestApp, key: &str) -> u16 {
    reqwest::Client::new().get(app.url("/api/v1/stats")).bearer_auth(key).send().await.expect("v1").status().as_u16()
}

async fn make_key(app: &TestApp) -> String {
    let key = app.post_json(&app.client, "/api/api-keys", &json!({"name": "bot"})).await;
    assert_eq!(key.status(), 201);
    key.json::<Value>().await.expect("json")["key"].as_str().expect("key").to_owned()
}

async fn me(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = app.me(client).await;
    assert_eq!(response.status(), 200);
    response.json().await.expect("json")
}

async fn an_unconfirmed_account_gets_no_trial_keys_webhooks_or_admin_rights(app: TestApp) {
    // Someone registers the administrator's address before the operator does.
    let registered = app.register_unconfirmed_with(&app.client, "admin@example.com", "squatter", "correct-horse").await;
    assert_eq!(registered.status(), 201);
    let user = me(&app, &app.client).await;
    assert_eq!((user["subscriptionPlan"].as_str(), user["emailVerified"].as_bool()), (Some("free"), Some(false)));
    assert_eq!(user["isAdministrator"], false);
    let key = app.post_json(&app.client, "/api/api-keys", &json!({"name": "bot"})).await;
    assert_eq!(key.status(), 403);
    assert!(problem(key).await["detail"].as_str().expect("detail").contains("Confirm your email address"));
    let hook = app.post_json(&app.client, "/api/webhooks", &json!({"eventType": "new_signal", "url": "https://example.com/hook"})).await;
    assert_eq!(hook.status(), 403);
    let admin = app.client.get(app.url("/api/admin/emails")).send().await.expect("admin");
    assert_eq!(admin.status(), 403, "an unconfirmed address is no administrator");

    // Whoever owns the mailbox opens the link: the trial starts, and the rest with it.
    let token = app.emailed_token("admin@example.com", "verify-email").await.expect("link");
    let confirmed = app.post_json(&TestApp::browser(&app.base), "/api/auth/verify-email", &json!({ "token": token })).await;
    assert_eq!(confirmed.status(), 200);
    let confirmed: Value = confirmed.json().await.expect("json");
    assert_eq!(confirmed["trialStarted"], true);
    let user = me(&app, &app.client).await;
    assert_eq!(
        (user["subscriptionPlan"].as_str(), user["subscriptionStatus"].as_str(), user["emailVerified"].as_bool()),
        (Some("pro"), Some("trialing"), Some(true))
    );
    assert_eq!(app.post_json(&app.client, "/api/api-keys", &json!({"name": "bot"})).await.status(), 201);
    assert_eq!(app.client.get(app.url("/api/admin/emails")).send().await.expect("admin").status(), 200);
    assert_eq!(me(&app, &app.client).await["isAdministrator"], true);
}

async fn links_work_once_only_the_newest_and_not_after_they_expire(app: TestApp) {
    let registered = app.register_unconfirmed_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    assert_eq!(registered.status(), 201);
    let first = app.emailed_token("ada@example.com", "verify-email").await.expect("link");
    app.state.clock.advance(Duration::seconds(5));
    let resent = app.client.post(app.url("/api/auth/verify-email/resend")).send().await.expect("resend");
    assert_eq!(resent.status(), 202);
    let second = app.emailed_token("ada@example.com", "verify-email").await.expect("link");
    assert_ne!(first, second);
    let open = |token: String| {
        let app = &app;
        async move { app.post_json(&TestApp::browser(&app.base), "/api/auth/verify-email", &json!({ "token": token })).await }
    };
    // The first link stopped working when the second was sent.
    let old = open(first).await;
    assert_eq!(old.status(), 422);
    assert_eq!(fields(&problem(old).await), ["token"]);
    // Twenty opens of the newest at once: exactly one confirms.
    let opens = join_all((0..20).map(|_| open(second.clone()))).await;
    assert_eq!(opens.iter().filter(|r| r.status() == 200).count(), 1);
    assert!(opens.iter().all(|r| r.status() == 200 || r.status() == 422));
    // Made-up and hostile tokens are a clear 422, never a 500.
    for token in ["", "x", &"a".repeat(5000), "' OR 1=1 --", "\u{0}"] {
        assert_eq!(open(token.to_owned()).await.status(), 422, "{token:?}");
    }
    // An expired link: Bob's, opened 49 hours later.
    assert_eq!(app.register_unconfirmed_with(&TestApp::browser(&app.base), "bob@example.com", "bob", "correct-horse").await.status(), 201);
    let late = app.emailed_token("bob@example.com", "verify-email").await.expect("link");
    app.state.clock.advance(Duration::hours(49));
    assert_eq!(open(late).await.status(), 422);
    let bob = strikeline_store::users::find_by_email(app.db(), "bob@example.com").await.expect("query").expect("bob");
    assert!(bob.email_verified_at.is_none());
}

async fn the_trial_is_granted_once_per_address_even_after_the_account_is_deleted(app: TestApp) {
    let user = app.register().await;
    assert_eq!(user["subscriptionStatus"], "trialing");
    let deleted = app.client.delete(app.url("/api/user")).json(&json!({"password": "correct-horse"})).send().await.expect("delete");
    assert_eq!(deleted.status(), 204);
    // Back again with the same address (in another case): confirmed, but no second trial.
    let again = TestApp::browser(&app.base);
    let response = app.register_unconfirmed_with(&again, "Ada@EXAMPLE.com", "ada2", "correct-horse").await;
    assert_eq!(response.status(), 201);
    let token = app.emailed_token("ada@example.com", "verify-email").await.expect("link");
    let confirmed: Value = app.post_json(&again, "/api/auth/verify-email", &json!({ "token": token })).await.json().await.expect("json");
    assert_eq!(confirmed["trialStarted"], false);
    assert_eq!((confirmed["user"]["subscriptionPlan"].as_str(), confirmed["user"]["emailVerified"].as_bool()), (Some("free"), Some(true)));
    // The register keeps no address, only a keyed hash.
    let stored: Vec<String> = match app.db() {
        strikeline_store::Db::Sqlite(pool) => sqlx::query_scalar("SELECT email_key FROM trial_grants").fetch_all(pool).await.expect("read"),
        strikeline_store::Db::Postgres(pool) => {
            sqlx::query_scalar("SELECT email_key FROM trial_grants").fetch_all(pool).await.expect("read")
        }
    };
    assert_eq!(stored.len(), 1);
    // 64 hex digits, never the address (a bare "ada" can occur in hex by chance: a, d, a).
    assert!(stored[0].len() == 64 && stored[0].chars().all(|c| c.is_ascii_hexdigit()) && !stored[0].contains("ada@example.com"));
}

async fn addresses_are_addr_specs_and_one_address_is_one_account(app: TestApp) {
    for hostile in ["x<victim@corp.example>", "Eve <eve@example.com>", "eve@example.com, victim@corp.example", "\"a b\"@example.com"] {
        let response = app.register_unconfirmed_with(&TestApp::browser(&app.base), hostile, "eve", "correct-horse").await;
        assert_eq!(response.status(), 422, "{hostile}");
        assert_eq!(fields(&problem(response).await), ["email"]);
    }
    assert_eq!(app.register_unconfirmed_with(&TestApp::browser(&app.base), "Ada@Example.COM", "ada", "correct-horse").await.status(), 201);
    let taken = app.register_unconfirmed_with(&TestApp::browser(&app.base), "ada@example.com", "ada_two", "correct-horse").await;
    assert_eq!(taken.status(), 409);
    assert_eq!(fields(&problem(taken).await), ["email"]);
}

async fn a_forgotten_password_is_reset_by_a_link_that_ends_sessions_and_keys(app: TestApp) {
    app.register().await;
    let key = make_key(&app).await;
    assert_eq!(v1(&app, &key).await, 200);

    // The same answer whether or not an account has the address.
    let stranger = TestApp::browser(&app.base);
    let known = app.post_json(&stranger, "/api/auth/forgot-password", &json!({"email": "ada@example.com"})).await;
    let unknown = app.post_json(&stranger, "/api/auth/forgot-password", &json!({"email": "nobody@example.com"})).await;
    assert_eq!((known.status().as_u16(), unknown.status().as_u16()), (202, 202));
    assert_eq!(known.json::<Value>().await.expect("json"), unknown.json::<Value>().await.expect("json"));
    assert_eq!(app.emailed_token("nobody@example.com", "reset-password").await, None);
    let bad = app.post_json(&stranger, "/api/auth/forgot-password", &json!({"email": "x<ada@example.com>"})).await;
    assert_eq!(bad.status(), 422);

    let token = app.emailed_token("ada@example.com", "reset-password").await.expect("link");
    let reset = |token: String, password: &'static str| {
        let (app, stranger) = (&app, stranger.clone());
        async move { app.post_json(&stranger, "/api/auth/reset-password", &json!({"token": token, "newPassword": password})).await }
    };
    let short = reset(token.clone(), "123").await;
    assert_eq!(short.status(), 422);
    assert_eq!(fields(&problem(short).await), ["newPassword"]);
    // Ten uses at once: exactly one sets the password.
    let uses = join_all((0..10).map(|_| reset(token.clone(), "battery-staple"))).await;
    assert_eq!(uses.iter().filter(|r| r.status() == 204).count(), 1);
    // Every session ended, every key off; the new password signs in, the old one does not.
    assert_eq!(app.me(&app.client).await.status(), 401);
    assert_eq!(v1(&app, &key).await, 401);
    assert_eq!(app.login_with(&stranger, "ada@example.com", "correct-horse").await.status(), 401);
    assert_eq!(app.login_with(&stranger, "ada@example.com", "battery-staple").await.status(), 200);

    // A link is good for 30 minutes.
    let again = app.post_json(&stranger, "/api/auth/forgot-password", &json!({"email": "ada@example.com"})).await;
    assert_eq!(again.status(), 202);
    let late = app.emailed_token("ada@example.com", "reset-password").await.expect("link");
    app.state.clock.advance(Duration::minutes(31));
    assert_eq!(reset(late, "horse-battery").await.status(), 422);
    // Three links an hour per account, whoever asks: the fourth request answers the same, sends nothing.
    app.state.clock.advance(Duration::hours(2));
    for _ in 0..4 {
        assert_eq!(
            app.post_json(&TestApp::browser(&app.base), "/api/auth/forgot-password", &json!({"email": "ada@example.com"})).await.status(),
            202
        );
    }
    let ada = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("ada");
    let since = app.now() - Duration::minutes(59);
    let sent = strikeline_store::accounts::sent_since(app.db(), &ada.id, strikeline_store::accounts::Purpose::ResetPassword, since)
        .await
        .expect("count");
    assert_eq!(sent, 3);
}

async fn a_password_change_switches_the_api_keys_off_unless_asked_not_to(app: TestApp) {
    app.register().await;
    let kept = make_key(&app).await;
    let change = app
        .post_json(
            &app.client,
            "/api/user/password",
            &json!({"currentPassword": "correct-horse", "newPassword": "battery-staple", "revokeApiKeys": false}),
        )
        .await;
    assert_eq!(change.status(), 204);
    assert_eq!(v1(&app, &kept).await, 200, "kept when asked");
    let change = app
        .post_json(&app.client, "/api/user/password", &json!({"currentPassword": "battery-staple", "newPassword": "horse-battery"}))
        .await;
    assert_eq!(change.status(), 204);
    assert_eq!(v1(&app, &kept).await, 401, "switched off by default");
    let keys: Vec<Value> = app.client.get(app.url("/api/api-keys")).send().await.expect("keys").json().await.expect("json");
    assert!(keys.iter().all(|k| k["isActive"] == false), "{keys:?}");
}

/// `strikeline users confirm` is the link's confirmation done by an operator: the address is
/// confirmed and the trial starts as it would have, once per address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_confirmation_starts_the_trial_as_the_link_would() {
    let app = TestApp::spawn(crate::common::Engine::Sqlite).await.expect("app");
    let confirm = |email: &str| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_strikeline"));
        command.args(["users", "confirm", email, "--data-dir"]).arg(app.data_dir()).env_remove("DATABASE_URL");
        command.env("STRIKELINE_CLOCK_START", app.now().to_rfc3339());
        let out = command.output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let client = TestApp::browser(&app.base);
    assert_eq!(app.register_unconfirmed_with(&client, "grace@example.com", "grace", "correct-horse").await.status(), 201);
    assert_eq!(confirm("Grace@Example.com"), "grace@example.com is confirmed; its 14-day Pro trial has started");
    let me: Value = app.me(&client).await.json().await.expect("json");
    assert_eq!(
        (me["subscriptionPlan"].as_str(), me["subscriptionStatus"].as_str(), me["emailVerified"].as_bool()),
        (Some("pro"), Some("trialing"), Some(true))
    );
    // Again: still confirmed, no second trial.
    assert_eq!(confirm("grace@example.com"), "grace@example.com is confirmed");
    let me: Value = app.me(&client).await.json().await.expect("json");
    assert_eq!(me["subscriptionStatus"], "trialing");
}
