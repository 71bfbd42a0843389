//! Observability (issue 26, item 5): every answer carries a request id, problem+json bodies
//! name it, and `/metrics` reports requests by route pattern (never raw paths), latency
//! histograms, limiter refusals, the pool and the outbox, to administrators or the token only.

use serde_json::json;

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(observed, crate::observability::with_metrics;
    requests_carry_ids_and_metrics_count_them_by_route,
);

const TOKEN: &str = "scrape-token-0123456789";

pub fn with_metrics(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_admin(config);
    config.metrics_token = Some(strikeline_server::foundation::config::Secret::new(TOKEN.to_owned()));
}

async fn scrape(app: &TestApp) -> String {
    let response = reqwest::Client::new().get(app.url("/metrics")).bearer_auth(TOKEN).send().await.expect("request");
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().is_ok_and(|v| v.starts_with("text/plain; version=0.0.4")));
    response.text().await.expect("text")
}

/// The value of the sample `name{labels}` in `text`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(series).and_then(|rest| rest.trim().parse().ok()))
}

async fn requests_carry_ids_and_metrics_count_them_by_route(app: TestApp) {
    // An id is made for each request, or kept when a proxy gave a well-formed one.
    let stats = app.client.get(app.url("/api/public/stats")).send().await.expect("request");
    let made = stats.headers()["x-request-id"].to_str().expect("id").to_owned();
    assert_eq!(made.len(), 32, "{made}");
    let kept = app.client.get(app.url("/api/public/stats")).header("X-Request-Id", "edge-7f3a.42").send().await.expect("request");
    assert_eq!(kept.headers()["x-request-id"], "edge-7f3a.42");
    let long = "x".repeat(65);
    for hostile in ["has space", "quote\"d", long.as_str()] {
        let replaced = app.client.get(app.url("/api/public/stats")).header("X-Request-Id", hostile).send().await.expect("request");
        let id = replaced.headers()["x-request-id"].to_str().expect("id").to_owned();
        assert!(id != hostile && id.len() == 32, "{hostile:?} → {id}");
    }

    // A problem names the request it answers.
    let bad = app.post_json(&app.client, "/api/auth/register", &json!({"email": "not an address"})).await;
    let id = bad.headers()["x-request-id"].to_str().expect("id").to_owned();
    let body = problem(bad).await;
    assert_eq!(body["requestId"], id.as_str(), "{body}");
    assert!(!fields(&body).is_empty());

    // Routes by pattern: a hundred ids are one series, and no id appears.
    app.register().await;
    for i in 0..3 {
        let missing = app.client.get(app.url(&format!("/api/manual-positions/no-such-{i}"))).send().await.expect("request");
        assert_eq!(missing.status(), 404);
    }
    assert_eq!(app.client.get(app.url("/api/no/such/route")).send().await.expect("request").status(), 404);
    // The limiter's refusals: eleven reset requests an hour from one address; the eleventh is 429.
    let stranger = TestApp::browser(&app.base);
    let mut refused = 0;
    for _ in 0..11 {
        let answer = app.post_json(&stranger, "/api/auth/forgot-password", &json!({"email": "nobody@example.com"})).await;
        refused += usize::from(answer.status() == 429);
    }
    assert_eq!(refused, 1);

    let text = scrape(&app).await;
    let stats = sample(&text, "strikeline_http_requests_total{route=\"/api/public/stats\",method=\"GET\",status=\"200\"}");
    assert_eq!(stats, Some(5.0), "{text}");
    let by_pattern = sample(&text, "strikeline_http_requests_total{route=\"/api/manual-positions/{id}\",method=\"GET\",status=\"404\"}");
    assert_eq!(by_pattern, Some(3.0));
    assert!(!text.contains("no-such-"), "raw paths never become labels");
    assert_eq!(sample(&text, "strikeline_http_requests_total{route=\"/api/{*rest}\",method=\"GET\",status=\"404\"}"), Some(1.0));
    let inf = sample(
        &text,
        "strikeline_http_request_duration_seconds_bucket{route=\"/api/public/stats\",method=\"GET\",status=\"200\",le=\"+Inf\"}",
    );
    assert_eq!(inf, Some(5.0));
    assert!(
        sample(&text, "strikeline_http_request_duration_seconds_sum{route=\"/api/public/stats\",method=\"GET\",status=\"200\"}")
            .is_some_and(|s| s > 0.0)
    );
    assert_eq!(sample(&text, "strikeline_limiter_refusals_total{policy=\"password_reset_ip\"}"), Some(1.0));
    assert!(sample(&text, "strikeline_db_pool_max_connections").is_some_and(|n| n >= 1.0));
    assert!(sample(&text, "strikeline_db_pool_connections{state=\"idle\"}").is_some());
    assert_eq!(sample(&text, "strikeline_event_streams"), Some(0.0));
    assert!(text.contains("# TYPE strikeline_outbox_pending gauge"));
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let value = line.rsplit(' ').next().unwrap_or("");
        assert!(value.parse::<f64>().is_ok(), "every sample is `series value`: {line}");
    }

    // Administrators or the token only.
    let anonymous = reqwest::Client::new().get(app.url("/metrics")).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
    let wrong = reqwest::Client::new().get(app.url("/metrics")).bearer_auth("scrape-token-0123456780").send().await.expect("request");
    assert_eq!(wrong.status(), 401);
    let user = app.client.get(app.url("/metrics")).send().await.expect("request");
    assert_eq!(user.status(), 403, "Ada is not an administrator");
    let admin = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&admin, "admin@example.com", "admin", "correct-horse").await.status(), 201);
    let answer = admin.get(app.url("/metrics")).send().await.expect("request");
    assert_eq!(answer.status(), 200);
    assert!(answer.text().await.expect("text").contains("strikeline_http_requests_total{"));
}
