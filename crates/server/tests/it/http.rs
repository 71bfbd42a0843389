//! The HTTP envelope: errors, limits, headers, CSRF, the web app and operations endpoints.

use crate::common::{TestApp, fields, problem};
use serde_json::json;

on_both_engines!(
    health_and_readiness_report_the_database,
    malformed_json_is_a_400_problem,
    wrong_types_missing_and_unknown_fields_are_422_naming_the_field,
    a_body_over_one_mebibyte_is_a_413_problem,
    a_body_that_is_not_json_is_a_415_problem,
    hostile_inputs_never_cause_a_500,
    unknown_api_paths_and_methods_are_problems,
    app_routes_get_the_web_app_and_assets_are_cached_for_good,
    every_response_carries_the_security_headers,
    responses_are_compressed_when_the_client_accepts_gzip,
    the_builds_precompressed_files_are_sent_as_they_are,
    cross_site_writes_with_a_session_are_refused,
    the_openapi_document_is_served,
);

async fn health_and_readiness_report_the_database(app: TestApp) {
    let health = app.client.get(app.url("/healthz")).send().await.expect("request");
    assert_eq!(health.status(), 200);
    let ready: serde_json::Value = app.client.get(app.url("/readyz")).send().await.expect("request").json().await.expect("json");
    assert_eq!(ready["status"], "ready");
    let expected = if app.database_url.starts_with("postgres") { "postgres" } else { "sqlite" };
    assert_eq!(ready["database"], expected);
    // With the database gone, the instance is alive but not ready.
    app.db().close().await;
    assert_eq!(app.client.get(app.url("/healthz")).send().await.expect("request").status(), 200);
    let not_ready = app.client.get(app.url("/readyz")).send().await.expect("request");
    assert_eq!(not_ready.status(), 503);
    problem(not_ready).await;
}

async fn post_raw(app: &TestApp, path: &str, content_type: &str, body: impl Into<reqwest::Body>) -> reqwest::Response {
    app.client.post(app.url(path)).header("content-type", content_type).body(body).send().await.expect("request")
}

async fn malformed_json_is_a_400_problem(app: TestApp) {
    for body in ["{\"email\": ", "not json", "", "{\"email\":\"a@b.co\",\"password\":\"secret1\"} trailing"] {
        let response = post_raw(&app, "/api/auth/login", "application/json", body).await;
        assert_eq!(response.status(), 400, "body {body:?}");
        let problem = problem(response).await;
        assert!(problem["detail"].as_str().expect("detail").contains("not valid JSON"), "{problem}");
    }
}

async fn wrong_types_missing_and_unknown_fields_are_422_naming_the_field(app: TestApp) {
    let cases = [
        (json!({"email": 42, "password": "secret1"}), "email"),
        (json!({"email": "a@b.co"}), "password"),
        (json!({"email": "a@b.co", "password": "secret1", "isAdmin": true}), "isAdmin"),
        (json!(["a@b.co", "secret1"]), "body"),
        (json!(null), "body"),
    ];
    for (body, field) in cases {
        let response = app.post_json(&app.client, "/api/auth/login", &body).await;
        assert_eq!(response.status(), 422, "body {body}");
        assert_eq!(fields(&problem(response).await), [field], "body {body}");
    }
    let response = app
        .post_json(&app.client, "/api/auth/register", &json!({"email": "a@b.co", "username": "abc", "password": "secret1", "firstName": 7}))
        .await;
    assert_eq!(response.status(), 422);
    assert_eq!(fields(&problem(response).await), ["firstName"]);
}

async fn a_body_over_one_mebibyte_is_a_413_problem(app: TestApp) {
    let padding = "x".repeat(1024 * 1024 + 1);
    let body = format!("{{\"email\":\"a@b.co\",\"password\":\"{padding}\"}}");
    let response = post_raw(&app, "/api/auth/login", "application/json", body.clone()).await;
    assert_eq!(response.status(), 413);
    problem(response).await;
    // Without a Content-Length (chunked), the limit still holds.
    let stream = futures_stream(body.into_bytes());
    let response = app
        .client
        .post(app.url("/api/auth/login"))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(stream))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 413);
    problem(response).await;
}

fn futures_stream(bytes: Vec<u8>) -> impl futures_core::Stream<Item = Result<Vec<u8>, std::io::Error>> + Send + 'static {
    struct Chunks(std::vec::IntoIter<Vec<u8>>);
    impl futures_core::Stream for Chunks {
        type Item = Result<Vec<u8>, std::io::Error>;
        fn poll_next(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> std::task::Poll<Option<Self::Item>> {
            std::task::Poll::Ready(self.0.next().map(Ok))
        }
    }
    Chunks(bytes.chunks(64 * 1024).map(<[u8]>::to_vec).collect::<Vec<_>>().into_iter())
}

async fn a_body_that_is_not_json_is_a_415_problem(app: TestApp) {
    let response = post_raw(&app, "/api/auth/login", "text/plain", "email=a@b.co").await;
    assert_eq!(response.status(), 415);
    problem(response).await;
    let response = app.client.post(app.url("/api/auth/register")).send().await.expect("request");
    assert_eq!(response.status(), 415);
}

async fn hostile_inputs_never_cause_a_500(app: TestApp) {
    let long = "a".repeat(10_000);
    let bodies = [
        json!({"email": format!("{long}@example.com"), "username": long, "password": long}),
        json!({"email": "a@b.co\u{0}", "username": "ab\u{0}c", "password": "secret1"}),
        json!({"email": "'; DROP TABLE users; --@x.com", "username": "robert'); --", "password": "secret1"}),
        json!({"email": "ü@exämple.com", "username": "ünïcode", "password": "sécret😀"}),
        json!({"email": {"nested": true}, "username": [], "password": 1.5e300}),
    ];
    for body in bodies {
        for path in ["/api/auth/register", "/api/auth/login"] {
            let response = app.post_json(&app.client, path, &body).await;
            assert!(response.status().is_client_error(), "{path} {body} gave {}", response.status());
            problem(response).await;
        }
    }
    assert_eq!(strikeline_store::users::count(app.db()).await.expect("count"), 0);
}

async fn unknown_api_paths_and_methods_are_problems(app: TestApp) {
    for path in ["/api/nope", "/api/v1/nope", "/api/auth/me/extra"] {
        let response = app.client.get(app.url(path)).send().await.expect("request");
        assert_eq!(response.status(), 404, "{path}");
        problem(response).await;
    }
    let response = app.client.delete(app.url("/api/auth/me")).send().await.expect("request");
    assert_eq!(response.status(), 405);
    assert!(response.headers().contains_key("allow"));
    problem(response).await;
}

async fn app_routes_get_the_web_app_and_assets_are_cached_for_good(app: TestApp) {
    // `/api` itself is the web app's API reference page; only paths below it are the API.
    for path in ["/", "/dashboard", "/signals", "/api", "/anything/else"] {
        let response = app.client.get(app.url(path)).send().await.expect("request");
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache");
        assert!(response.text().await.expect("text").contains("<div id=root>"), "{path} serves index.html");
    }
    let asset = app.client.get(app.url("/assets/app-1234.js")).send().await.expect("request");
    assert_eq!(asset.status(), 200);
    assert!(asset.headers()["cache-control"].to_str().expect("ascii").contains("immutable"));
}

async fn every_response_carries_the_security_headers(app: TestApp) {
    for path in ["/", "/api/auth/me", "/healthz"] {
        let response = app.client.get(app.url(path)).send().await.expect("request");
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().expect("ascii");
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin");
        assert_eq!(headers["x-frame-options"], "DENY");
    }
}

async fn responses_are_compressed_when_the_client_accepts_gzip(app: TestApp) {
    let raw = reqwest::Client::builder().no_gzip().build().expect("client");
    let response = raw.get(app.url("/assets/app-1234.js")).header("accept-encoding", "gzip").send().await.expect("request");
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let plain = raw.get(app.url("/assets/app-1234.js")).send().await.expect("request");
    assert!(plain.headers().get("content-encoding").is_none());
}

async fn the_builds_precompressed_files_are_sent_as_they_are(app: TestApp) {
    // What `npm run build` writes beside each file (web/vite.config.ts); the bytes stand in for
    // brotli and gzip output, so a body equal to them shows they were sent untouched.
    let web = app.dir.path().join("web");
    std::fs::write(web.join("assets/app-1234.js.br"), b"brotli at quality 11").expect("br");
    std::fs::write(web.join("index.html.gz"), b"gzip at level 9").expect("gz");
    let raw = reqwest::Client::builder().no_gzip().build().expect("client");

    let br = raw.get(app.url("/assets/app-1234.js")).header("accept-encoding", "gzip, deflate, br").send().await.expect("request");
    assert_eq!(br.status(), 200);
    assert_eq!(br.headers()["content-encoding"], "br");
    assert!(br.headers()["content-type"].to_str().expect("ascii").contains("javascript"));
    assert!(br.headers()["vary"].to_str().expect("ascii").to_ascii_lowercase().contains("accept-encoding"));
    assert!(br.headers()["cache-control"].to_str().expect("ascii").contains("immutable"));
    assert_eq!(br.bytes().await.expect("body").as_ref(), b"brotli at quality 11");

    // An app route falls back to index.html, precompressed too.
    let page = raw.get(app.url("/signals")).header("accept-encoding", "gzip").send().await.expect("request");
    assert_eq!(page.headers()["content-encoding"], "gzip");
    assert!(page.headers()["content-type"].to_str().expect("ascii").starts_with("text/html"));
    assert_eq!(page.headers()["cache-control"], "no-cache");
    assert_eq!(page.bytes().await.expect("body").as_ref(), b"gzip at level 9");

    // Without a precompressed file for the encoding asked, the file is compressed as it goes.
    let gz = raw.get(app.url("/assets/app-1234.js")).header("accept-encoding", "gzip").send().await.expect("request");
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    assert_eq!(gz.headers().get_all("vary").iter().filter(|v| v.to_str().is_ok_and(|v| v.contains("accept-encoding"))).count(), 1);
    assert_ne!(gz.bytes().await.expect("body").as_ref(), b"gzip at level 9");
}

async fn cross_site_writes_with_a_session_are_refused(app: TestApp) {
    let response = app.register_with(&app.client, "ada@example.com", "ada", "correct-horse").await;
    let cookie = response.headers()["set-cookie"].to_str().expect("ascii").split(';').next().expect("pair").to_owned();
    let bare = reqwest::Client::new();
    let logout = app.url("/api/auth/logout");

    let evil = bare.post(&logout).header("cookie", &cookie).header("origin", "https://evil.example").send().await.expect("request");
    assert_eq!(evil.status(), 403);
    problem(evil).await;
    let no_origin = bare.post(&logout).header("cookie", &cookie).send().await.expect("request");
    assert_eq!(no_origin.status(), 403, "a cookie-bearing write must say where it comes from");
    let evil_referer =
        bare.post(&logout).header("cookie", &cookie).header("referer", "https://evil.example/page").send().await.expect("request");
    assert_eq!(evil_referer.status(), 403);
    // Still signed in: none of those writes took effect.
    assert_eq!(app.me(&app.client).await.status(), 200);
    // A foreign page cannot sign a visitor in either.
    let login = bare
        .post(app.url("/api/auth/login"))
        .header("origin", "https://evil.example")
        .json(&json!({"email": "ada@example.com", "password": "correct-horse"}))
        .send()
        .await
        .expect("request");
    assert_eq!(login.status(), 403);

    let same_site_referer =
        bare.post(&logout).header("cookie", &cookie).header("referer", format!("{}/dashboard", app.base)).send().await.expect("request");
    assert_eq!(same_site_referer.status(), 204);
    assert_eq!(app.me(&app.client).await.status(), 401);
}

async fn the_openapi_document_is_served(app: TestApp) {
    let response = app.client.get(app.url("/api/openapi.json")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let doc: serde_json::Value = response.json().await.expect("json");
    assert!(doc["openapi"].as_str().expect("version").starts_with("3.1"));
    for path in ["/api/auth/register", "/api/auth/login", "/api/auth/logout", "/api/auth/me", "/healthz", "/readyz"] {
        assert!(doc["paths"].get(path).is_some(), "{path} documented");
    }
}
