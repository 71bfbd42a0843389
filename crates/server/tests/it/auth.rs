//! Accounts and sessions, end to end over HTTP, on SQLite and PostgreSQL.

use crate::common::{TestApp, fields, problem};
use chrono::{Duration, Utc};
use serde_json::json;
use strikeline_store::sessions;

on_both_engines!(
    registering_returns_the_user_with_defaults_and_signs_in,
    a_taken_email_or_username_is_a_409_naming_the_field,
    invalid_registration_fields_are_a_422_naming_each_field,
    signing_in_with_the_right_password_starts_a_new_session,
    a_wrong_password_or_unknown_email_is_a_401_with_one_message,
    twenty_failed_sign_ins_from_one_address_are_throttled,
    signing_out_ends_the_session_on_the_server,
    without_a_session_me_is_a_401,
    an_idle_session_expires,
    a_session_expires_at_its_absolute_deadline_however_active,
    a_session_made_on_one_instance_is_valid_on_another,
    passwords_are_stored_as_argon2id_hashes,
);

async fn registering_returns_the_user_with_defaults_and_signs_in(app: TestApp) {
    let response = app.register_unconfirmed_with(&app.client, "Ada@Example.com", "ada", "correct-horse").await;
    assert_eq!(response.status(), 201);
    let cookie = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).expect("cookie").to_owned();
    assert!(cookie.starts_with("strikeline_session="), "{cookie}");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "cookie lacks {attribute}: {cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http gets no Secure cookie");
    let user: serde_json::Value = response.json().await.expect("json");
    assert_eq!(user["email"], "ada@example.com", "emails are stored lower-cased");
    assert_eq!(user["username"], "ada");
    assert_eq!(user["firstName"], "Ada");
    // Free, unconfirmed, until the emailed link is opened.
    assert_eq!((user["subscriptionPlan"].as_str(), user["emailVerified"].as_bool()), (Some("free"), Some(false)));
    assert_eq!(user["investmentCapital"], 1000.0);
    assert_eq!(user["maxPositionSize"], 100.0);
    assert_eq!(user["riskTolerance"], "medium");
    assert_eq!(user["preferredStrategies"], "Momentum,Breakout");
    assert_eq!(user["emailNotifications"], true);
    assert!(user.get("passwordHash").is_none(), "the hash never leaves the server");
    app.confirm_email("ada@example.com").await;
    let user: serde_json::Value = app.me(&app.client).await.json().await.expect("json");
    assert_eq!((user["subscriptionPlan"].as_str(), user["subscriptionStatus"].as_str()), (Some("pro"), Some("trialing")));
    let trial_end: chrono::DateTime<Utc> = user["subscriptionExpiresAt"].as_str().expect("trial end").parse().expect("date");
    let days = (trial_end - app.now()).num_hours() as f64 / 24.0;
    assert!((13.9..=14.0).contains(&days), "a 14-day trial, got {days}");

    let me = app.me(&app.client).await;
    assert_eq!(me.status(), 200);
    let me: serde_json::Value = me.json().await.expect("json");
    assert_eq!(me["id"], user["id"]);
}

async fn a_taken_email_or_username_is_a_409_naming_the_field(app: TestApp) {
    app.register().await;
    let other = TestApp::browser(&app.base);
    let response = app.register_with(&other, "ADA@example.com", "someone", "correct-horse").await;
    assert_eq!(response.status(), 409);
    assert_eq!(fields(&problem(response).await), ["email"]);
    let response = app.register_with(&other, "someone@example.com", "ADA", "correct-horse").await;
    assert_eq!(response.status(), 409);
    let body = problem(response).await;
    assert_eq!(fields(&body), ["username"]);
    assert_eq!(body["errors"][0]["message"], "This username is already taken");
}

async fn invalid_registration_fields_are_a_422_naming_each_field(app: TestApp) {
    let body = json!({"email": "not-an-email", "username": "ab", "password": "12345"});
    let response = app.post_json(&app.client, "/api/auth/register", &body).await;
    assert_eq!(response.status(), 422);
    let body = problem(response).await;
    assert_eq!(fields(&body), ["email", "username", "password"]);
    assert_eq!(body["errors"][0]["message"], "Invalid email address");
    assert_eq!(body["errors"][1]["message"], "Username must be at least 3 characters");
    assert_eq!(body["errors"][2]["message"], "Password must be at least 6 characters");
    assert_eq!(strikeline_store::users::count(app.db()).await.expect("count"), 0, "nothing half-written");
}

fn session_cookie(response: &reqwest::Response) -> String {
    let header = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).expect("set-cookie");
    header.split(';').next().expect("pair").to_owned()
}

async fn signing_in_with_the_right_password_starts_a_new_session(app: TestApp) {
    let registered = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let first = session_cookie(&registered);
    let response = app.login_with(&app.client, "ADA@example.com", "correct-horse").await;
    assert_eq!(response.status(), 200);
    let second = session_cookie(&response);
    assert_ne!(first, second, "a new session id at sign-in");
    let user: serde_json::Value = response.json().await.expect("json");
    assert_eq!(user["username"], "ada");
    assert_eq!(app.me(&app.client).await.status(), 200);
    // The session held before signing in again is over.
    let stale = reqwest::Client::new().get(app.url("/api/auth/me")).header("cookie", first).send().await.expect("request");
    assert_eq!(stale.status(), 401);
}

async fn a_wrong_password_or_unknown_email_is_a_401_with_one_message(app: TestApp) {
    app.register().await;
    let browser = TestApp::browser(&app.base);
    let wrong = app.login_with(&browser, "ada@example.com", "wrong-horse").await;
    assert_eq!(wrong.status(), 401);
    assert!(wrong.headers().get("set-cookie").is_none());
    let mut wrong = problem(wrong).await;
    let mut unknown = problem(app.login_with(&browser, "nobody@example.com", "wrong-horse").await).await;
    assert_eq!(wrong["detail"], "Invalid email or password");
    // Alike but for each request's own id.
    for answer in [&mut wrong, &mut unknown] {
        assert!(answer.as_object_mut().and_then(|o| o.remove("requestId")).is_some_and(|id| id.is_string()));
    }
    assert_eq!(wrong, unknown, "the answer does not reveal which emails exist");
    assert_eq!(app.me(&browser).await.status(), 401);
}

async fn twenty_failed_sign_ins_from_one_address_are_throttled(app: TestApp) {
    let browser = TestApp::browser(&app.base);
    for attempt in 0..20 {
        let response = app.login_with(&browser, &format!("user{attempt}@example.com"), "wrong-horse").await;
        assert_eq!(response.status(), 401, "attempt {attempt}");
    }
    let response = app.login_with(&browser, "user99@example.com", "wrong-horse").await;
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
}

async fn signing_out_ends_the_session_on_the_server(app: TestApp) {
    let response = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let cookie = session_cookie(&response);
    let out = app.client.post(app.url("/api/auth/logout")).send().await.expect("request");
    assert_eq!(out.status(), 204);
    let cleared = out.headers()["set-cookie"].to_str().expect("ascii");
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(app.me(&app.client).await.status(), 401);
    // Replaying the old cookie does not work: the session row is gone.
    let replay = reqwest::Client::new().get(app.url("/api/auth/me")).header("cookie", cookie).send().await.expect("request");
    assert_eq!(replay.status(), 401);
    // Signing out again is harmless.
    assert_eq!(app.client.post(app.url("/api/auth/logout")).send().await.expect("request").status(), 204);
}

async fn without_a_session_me_is_a_401(app: TestApp) {
    let response = app.me(&app.client).await;
    assert_eq!(response.status(), 401);
    let body = problem(response).await;
    assert_eq!(body["status"], 401);
    let forged = reqwest::Client::new()
        .get(app.url("/api/auth/me"))
        .header("cookie", "strikeline_session=forged-token")
        .send()
        .await
        .expect("request");
    assert_eq!(forged.status(), 401);
}

/// The one session row in the database (tests create exactly one).
async fn only_session(app: &TestApp, token_cookie: &str) -> sessions::SessionRecord {
    let token = token_cookie.split_once('=').expect("pair").1;
    let sid = strikeline_server::foundation::session::sid_for(token);
    sessions::find_live(app.db(), &sid, app.now()).await.expect("query").expect("live session")
}

async fn an_idle_session_expires(app: TestApp) {
    let response = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let cookie = session_cookie(&response);
    let session = only_session(&app, &cookie).await;
    let idle = Duration::minutes(app.state.config.session.idle_minutes);
    assert!(session.expire <= app.now() + idle, "the deadline is the idle one");
    // As if the user had been away longer than the idle limit.
    sessions::touch(app.db(), &session.sid, &session.sess, app.now() - Duration::seconds(1)).await.expect("touch");
    assert_eq!(app.me(&app.client).await.status(), 401);
}

async fn a_session_expires_at_its_absolute_deadline_however_active(app: TestApp) {
    let response = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let cookie = session_cookie(&response);
    let session = only_session(&app, &cookie).await;
    let absolute = Duration::hours(app.state.config.session.absolute_hours);
    let mut aged = session.sess.clone();
    aged.created_at = app.now() - absolute + Duration::seconds(4);
    aged.last_seen_at = app.now() - Duration::minutes(5);
    sessions::touch(app.db(), &session.sid, &aged, app.now() + Duration::minutes(10)).await.expect("touch");
    // Activity now cannot push the session past created_at + absolute.
    assert_eq!(app.me(&app.client).await.status(), 200);
    let renewed = only_session(&app, &cookie).await;
    assert!(renewed.expire <= aged.created_at + absolute, "capped by the absolute deadline");
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    assert_eq!(app.me(&app.client).await.status(), 401);
}

async fn a_session_made_on_one_instance_is_valid_on_another(app: TestApp) {
    let response = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let cookie = session_cookie(&response);
    let url = app.database_url.clone();
    let second = TestApp::spawn_with(crate::common::Engine::Sqlite, |config| {
        config.database_url = Some(strikeline_server::foundation::config::Secret::new(url));
    })
    .await
    .expect("second instance");
    let response = reqwest::Client::new().get(second.url("/api/auth/me")).header("cookie", cookie).send().await.expect("request");
    assert_eq!(response.status(), 200, "the second instance knows the session");
    let user: serde_json::Value = response.json().await.expect("json");
    assert_eq!(user["username"], "ada");
}

async fn passwords_are_stored_as_argon2id_hashes(app: TestApp) {
    app.register().await;
    let user = strikeline_store::users::find_by_email(app.db(), "ada@example.com").await.expect("query").expect("user");
    assert!(user.password_hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{}", user.password_hash);
    assert!(!user.password_hash.contains("correct-horse"));
}
