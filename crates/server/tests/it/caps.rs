//! Sessions and connection caps (issue 25, item 6): over https only the `__Host-` cookie is a
//! session (cookie tossing), the per-address caps count the client behind the trusted proxies
//! (one proxy carrying many event streams refuses no one else), and health probes are never
//! refused by a cap. Every scenario runs on SQLite and on PostgreSQL.

use std::time::Duration;

use crate::common::{TestApp, problem};
use reqwest::header::{HeaderMap, HeaderValue, ORIGIN};
use serde_json::{Value, json};
use strikeline_server::foundation::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

on_both_engines_with!(https, crate::caps::with_https;
    over_https_a_plain_name_cookie_is_not_a_session,
);

on_both_engines_with!(plain_http, crate::caps::with_few_connections;
    over_http_the_plain_name_stays_the_session_cookie,
    health_probes_answer_while_the_address_is_at_its_cap,
);

on_both_engines_with!(behind_a_proxy, crate::caps::behind_one_proxy;
    event_streams_through_one_proxy_refuse_no_other_client,
    a_forwarded_client_at_its_cap_is_refused_alone,
    behind_a_proxy_https_is_what_the_nearest_proxy_says,
);

const PUBLIC: &str = "https://strikeline.example.com";

fn with_https(config: &mut Config) {
    config.public_url = Some(PUBLIC.into());
}

fn with_few_connections(config: &mut Config) {
    config.capacity.connections_per_address = 3;
}

/// One reverse proxy in front, and a small cap: three requests and three event streams at once
/// per client address.
fn behind_one_proxy(config: &mut Config) {
    config.proxy_hops = 1;
    config.capacity.connections_per_address = 3;
}

/// The longest any one step of these tests may wait.
const STEP: Duration = Duration::from_secs(10);

/// A browser behind the proxy: its requests reach the server from the test's own address (the
/// proxy) with `X-Forwarded-For: client`.
fn behind_proxy(app: &TestApp, client: &str) -> reqwest::Client {
    let mut headers = HeaderMap::new();
    headers.insert(ORIGIN, HeaderValue::from_str(&app.base).expect("origin"));
    headers.insert("x-forwarded-for", HeaderValue::from_str(client).expect("address"));
    reqwest::Client::builder()
        .cookie_store(true)
        .default_headers(headers)
        .timeout(STEP)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The value of cookie `name` in a response's `Set-Cookie`.
fn set_cookie(response: &reqwest::Response, name: &str) -> String {
    let prefix = format!("{name}=");
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix(&prefix).and_then(|rest| rest.split(';').next()).map(str::to_owned))
        .unwrap_or_else(|| panic!("no {name} cookie in {:?}", response.headers()))
}

/// Registers `name` over https (as the browser on the public origin would) and returns the
/// session token its `__Host-` cookie carries.
async fn register_over_https(app: &TestApp, name: &str) -> String {
    let response = reqwest::Client::new()
        .post(app.url("/api/auth/register"))
        .header("origin", PUBLIC)
        .json(&json!({"email": format!("{name}@example.com"), "username": name, "password": "correct-horse"}))
        .timeout(STEP)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 201);
    set_cookie(&response, "__Host-strikeline_session")
}

/// `GET path` with exactly the `Cookie` header given (no cookie jar), and any extra headers.
async fn get_with_cookie(app: &TestApp, path: &str, cookie: &str, extra: &[(&str, &str)]) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(app.url(path)).header("cookie", cookie).timeout(STEP);
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    request.send().await.expect("request")
}

async fn username(response: reqwest::Response) -> String {
    assert_eq!(response.status(), 200);
    let user: Value = response.json().await.expect("user");
    user["username"].as_str().expect("username").to_owned()
}

async fn over_https_a_plain_name_cookie_is_not_a_session(app: TestApp) {
    let victim = register_over_https(&app, "ada").await;
    let attacker = register_over_https(&app, "mallory").await;
    // Cookie tossing: a sibling host (or a plain-http page) sets `strikeline_session` to the
    // attacker's own valid session. Over https it is no session at all.
    let tossed = get_with_cookie(&app, "/api/auth/me", &format!("strikeline_session={attacker}"), &[]).await;
    assert_eq!(tossed.status(), 401, "a plain-name cookie is ignored over https");
    problem(tossed).await;
    let stream = get_with_cookie(&app, "/api/events", &format!("strikeline_session={attacker}"), &[]).await;
    assert_eq!(stream.status(), 401, "nor does it open an event stream");
    // The victim's own `__Host-` cookie is the session, before or after a tossed one.
    assert_eq!(username(get_with_cookie(&app, "/api/auth/me", &format!("__Host-strikeline_session={victim}"), &[]).await).await, "ada");
    for cookie in [
        format!("strikeline_session={attacker}; __Host-strikeline_session={victim}"),
        format!("__Host-strikeline_session={victim}; strikeline_session={attacker}"),
    ] {
        assert_eq!(username(get_with_cookie(&app, "/api/auth/me", &cookie, &[]).await).await, "ada", "{cookie}");
    }
    // Signing out with only the tossed cookie ends nothing: the attacker's session lives on, and
    // the clearing cookie names the `__Host-` one.
    let out = reqwest::Client::new()
        .post(app.url("/api/auth/logout"))
        .header("origin", PUBLIC)
        .header("cookie", format!("strikeline_session={attacker}"))
        .timeout(STEP)
        .send()
        .await
        .expect("request");
    assert_eq!(out.status(), 204);
    assert_eq!(set_cookie(&out, "__Host-strikeline_session"), "");
    let attacker_me = get_with_cookie(&app, "/api/auth/me", &format!("__Host-strikeline_session={attacker}"), &[]).await;
    assert_eq!(username(attacker_me).await, "mallory");
}

async fn over_http_the_plain_name_stays_the_session_cookie(app: TestApp) {
    let response = app.register_with(&reqwest::Client::new(), "ada@example.com", "ada", "correct-horse").await;
    assert_eq!(response.status(), 201);
    let token = set_cookie(&response, "strikeline_session");
    assert_eq!(username(get_with_cookie(&app, "/api/auth/me", &format!("strikeline_session={token}"), &[]).await).await, "ada");
    // One name per scheme: over plain http the `__Host-` name is not read.
    let other = get_with_cookie(&app, "/api/auth/me", &format!("__Host-strikeline_session={token}"), &[]).await;
    assert_eq!(other.status(), 401);
}

/// Sends `GET path` on a new connection and returns what comes back within [`STEP`] (empty when
/// the connection is closed unanswered), with the connection.
async fn raw_get(app: &TestApp, path: &str) -> (String, TcpStream) {
    let mut connection = TcpStream::connect(app.addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", app.addr);
    let _ = connection.write_all(request.as_bytes()).await;
    let mut buf = [0u8; 1024];
    // A reset (the server closing with the request unread) reads as nothing.
    let n = tokio::time::timeout(STEP, connection.read(&mut buf)).await.expect("an answer or a close, not a hang").unwrap_or(0);
    (String::from_utf8_lossy(&buf[..n]).into_owned(), connection)
}

async fn health_probes_answer_while_the_address_is_at_its_cap(app: TestApp) {
    // Three kept-alive connections: the address is at its cap.
    let mut held = Vec::new();
    for _ in 0..3 {
        let (answer, connection) = raw_get(&app, "/api/plans").await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        held.push(connection);
    }
    // Another request from the address is turned away at the door, unanswered ...
    let (answer, _) = raw_get(&app, "/api/plans").await;
    assert_eq!(answer, "", "beyond the cap a connection is closed unanswered");
    // ... but the health probes are answered.
    for path in ["/healthz", "/readyz"] {
        let (answer, _) = raw_get(&app, path).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{path} at the cap: {answer}");
    }
    drop(held);
    let freed = tokio::time::timeout(STEP, async {
        loop {
            let (answer, _) = raw_get(&app, "/api/plans").await;
            if answer.starts_with("HTTP/1.1 200") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(freed.is_ok(), "closing connections frees their places");
}

/// Registers `name` from client address `ip` behind the proxy; its browser, signed in.
async fn signed_in_behind_proxy(app: &TestApp, ip: &str, name: &str) -> reqwest::Client {
    let client = behind_proxy(app, ip);
    let response = app.register_with(&client, &format!("{name}@example.com"), name, "correct-horse").await;
    assert_eq!(response.status(), 201, "registering {name}");
    client
}

async fn open_stream(app: &TestApp, client: &reqwest::Client) -> reqwest::Response {
    client.get(app.url("/api/events")).send().await.expect("stream")
}

async fn event_streams_through_one_proxy_refuse_no_other_client(app: TestApp) {
    // Row 10: many event streams arrive from one address, the proxy's; here twice its cap of 3,
    // for three clients behind it.
    let mut open = Vec::new();
    for i in 1..=3 {
        let client = signed_in_behind_proxy(&app, &format!("203.0.113.{i}"), &format!("user{i}")).await;
        for _ in 0..2 {
            let stream = open_stream(&app, &client).await;
            assert_eq!(stream.status(), 200);
            open.push(stream);
        }
    }
    assert_eq!(open.len(), 6);
    // An unrelated client behind the same proxy is served, and so are the probes, with or
    // without a forwarded address.
    let other = behind_proxy(&app, "198.51.100.7");
    for path in ["/api/plans", "/healthz", "/readyz"] {
        let response = other.get(app.url(path)).send().await.expect("request");
        assert_eq!(response.status(), 200, "{path}");
    }
    let plain = reqwest::Client::builder().timeout(STEP).build().expect("client");
    assert_eq!(plain.get(app.url("/healthz")).send().await.expect("request").status(), 200);
    // And a new client behind the proxy can open its own stream.
    let late = signed_in_behind_proxy(&app, "198.51.100.8", "late").await;
    assert_eq!(open_stream(&app, &late).await.status(), 200);
}

/// Starts `POST /api/auth/login` from `ip` behind the proxy and never sends the body: the
/// request stays in progress until the connection closes.
async fn stalled_request(app: &TestApp, ip: &str) -> TcpStream {
    let mut connection = TcpStream::connect(app.addr).await.expect("connect");
    let head = format!(
        "POST /api/auth/login HTTP/1.1\r\nHost: {addr}\r\nOrigin: {base}\r\nContent-Type: application/json\r\n\
         Content-Length: 64\r\nX-Forwarded-For: {ip}\r\n\r\n",
        addr = app.addr,
        base = app.base
    );
    connection.write_all(head.as_bytes()).await.expect("write");
    connection
}

/// Polls `GET path` as `client` until it answers `status` (within [`STEP`], each try within a
/// second); otherwise the error names what the tries got instead.
async fn until_status(app: &TestApp, client: &reqwest::Client, path: &str, status: u16) -> Result<reqwest::Response, String> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + STEP;
    while tokio::time::Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(1), client.get(app.url(path)).send()).await {
            Ok(Ok(response)) if response.status() == status => return Ok(response),
            Ok(Ok(response)) => seen.push(response.status().as_str().to_owned()),
            Ok(Err(err)) => seen.push(format!("error {err}")),
            Err(_) => seen.push("no answer in 1 s".to_owned()),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    seen.dedup();
    Err(format!("{path} never answered {status} in {STEP:?}; it answered {}", seen.join(", ")))
}

/// What the server has sent on a stalled request's connection so far (it should have sent
/// nothing: the request waits for its body).
async fn answered_so_far(connection: &mut TcpStream) -> String {
    let mut buffer = vec![0u8; 512];
    match tokio::time::timeout(Duration::from_millis(200), connection.read(&mut buffer)).await {
        Err(_) => "nothing (still waiting)".to_owned(),
        Ok(Ok(0)) => "closed".to_owned(),
        Ok(Ok(n)) => String::from_utf8_lossy(&buffer[..n]).lines().next().unwrap_or_default().to_owned(),
        Ok(Err(err)) => format!("error {err}"),
    }
}

async fn a_forwarded_client_at_its_cap_is_refused_alone(app: TestApp) {
    // Event streams: three from one client address, the fourth refused (the account could open
    // five); the client's other requests are not starved by its streams.
    let ada = signed_in_behind_proxy(&app, "203.0.113.50", "ada").await;
    let mut open = Vec::new();
    for _ in 0..3 {
        let stream = open_stream(&app, &ada).await;
        assert_eq!(stream.status(), 200);
        open.push(stream);
    }
    let fourth = open_stream(&app, &ada).await;
    assert_eq!(fourth.status(), 429, "three streams per client address");
    assert!(fourth.headers().get("retry-after").is_some());
    let body = problem(fourth).await;
    assert!(body["detail"].as_str().is_some_and(|d| d.contains("from one address")), "{body}");
    assert_eq!(ada.get(app.url("/api/auth/me")).send().await.expect("me").status(), 200, "streams do not use up requests");
    // The account's own bound holds across addresses: two more from elsewhere make five, and
    // a sixth is refused for the account.
    for ip in ["203.0.113.51", "203.0.113.51", "203.0.113.52"] {
        let stream = ada.get(app.url("/api/events")).header("x-forwarded-for", ip).send().await.expect("stream");
        if open.len() < 5 {
            assert_eq!(stream.status(), 200, "from {ip}");
            open.push(stream);
        } else {
            assert_eq!(stream.status(), 429, "five streams per account");
            let body = problem(stream).await;
            assert!(body["detail"].as_str().is_some_and(|d| d.contains("per account")), "{body}");
        }
    }

    // Ordinary requests: three in progress from one client address, the next refused 429 ...
    let mut stalled = Vec::new();
    for _ in 0..3 {
        stalled.push(stalled_request(&app, "203.0.113.60").await);
    }
    let busy = behind_proxy(&app, "203.0.113.60");
    let refused = match until_status(&app, &busy, "/api/plans", 429).await {
        Ok(refused) => refused,
        Err(failure) => {
            let mut stalls = Vec::new();
            for connection in &mut stalled {
                stalls.push(answered_so_far(connection).await);
            }
            panic!("{failure}; the stalled requests' connections: {stalls:?}");
        }
    };
    assert!(refused.headers().get("retry-after").is_some());
    let body = problem(refused).await;
    assert!(body["detail"].as_str().is_some_and(|d| d.contains("in progress")), "{body}");
    // ... while the probes from that very address, and everyone else, are answered.
    for path in ["/healthz", "/readyz"] {
        assert_eq!(busy.get(app.url(path)).send().await.expect("probe").status(), 200, "{path}");
    }
    assert_eq!(behind_proxy(&app, "203.0.113.61").get(app.url("/api/plans")).send().await.expect("plans").status(), 200);
    assert_eq!(ada.get(app.url("/api/plans")).send().await.expect("plans").status(), 200);
    // Closing the stalled requests gives their places back.
    drop(stalled);
    until_status(&app, &busy, "/api/plans", 200).await.expect("the places are given back");
}

async fn behind_a_proxy_https_is_what_the_nearest_proxy_says(app: TestApp) {
    let client = behind_proxy(&app, "203.0.113.70");
    let response = app.register_with(&client, "ada@example.com", "ada", "correct-horse").await;
    assert_eq!(response.status(), 201);
    // The proxy said nothing about https: the plain name.
    let token = set_cookie(&response, "strikeline_session");
    let https = [("x-forwarded-proto", "https"), ("x-forwarded-for", "203.0.113.70")];
    let tossed = get_with_cookie(&app, "/api/auth/me", &format!("strikeline_session={token}"), &https).await;
    assert_eq!(tossed.status(), 401, "over https (as the proxy says) the plain name is ignored");
    let host = get_with_cookie(&app, "/api/auth/me", &format!("__Host-strikeline_session={token}"), &https).await;
    assert_eq!(username(host).await, "ada");
}
