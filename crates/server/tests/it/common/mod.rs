//! Test harness: the real application on port 0 over a fresh database, on either engine.
//!
//! PostgreSQL tests use `STRIKELINE_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432`)
//! and create one database per test, a copy of a migrated template (the store's
//! `test_support`, shared with its own tests). When PostgreSQL cannot be reached they are
//! skipped with a notice, unless `STRIKELINE_REQUIRE_PG=1` (set by CI), where that is a failure.
//!
//! Time: every app runs on its own clock, started at `STRIKELINE_TEST_NOW` (RFC 3339) when set,
//! else at the system time; tests read the time from the app (`app.now()`) or, before there is
//! one, from [`now`], and derive days from the app's exchange calendar, never from the wall clock.

use std::net::SocketAddr;
use std::path::PathBuf;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use reqwest::header::{HeaderMap, HeaderValue, ORIGIN};
use serde_json::{Value, json};
use strikeline_server::foundation::clock::Clock;
use strikeline_server::foundation::config::{Config, Secret};
use strikeline_server::{Server, foundation::state::AppState};
use strikeline_store::Db;
use strikeline_store::signals::SignalRow;
use tokio::sync::oneshot;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub base: String,
    pub state: AppState,
    /// A browser: keeps cookies and sends this site's Origin.
    pub client: reqwest::Client,
    pub dir: tempfile::TempDir,
    pub database_url: String,
    /// The PostgreSQL database's name, on that engine.
    pub pg_database: Option<String>,
    shutdown: Option<oneshot::Sender<()>>,
}

/// The instant the suite is pinned to (`STRIKELINE_TEST_NOW`), if any.
pub fn pinned() -> Option<DateTime<Utc>> {
    let text = std::env::var("STRIKELINE_TEST_NOW").ok().filter(|t| !t.trim().is_empty())?;
    match DateTime::parse_from_rfc3339(text.trim()) {
        Ok(at) => Some(at.with_timezone(&Utc)),
        Err(err) => panic!("STRIKELINE_TEST_NOW={text} is not an RFC 3339 instant: {err}"),
    }
}

/// The suite's time, where no app is at hand: the pinned instant (running forward from the
/// first reading) or the system time, to the millisecond.
pub fn now() -> DateTime<Utc> {
    static CLOCK: std::sync::OnceLock<Clock> = std::sync::OnceLock::new();
    CLOCK.get_or_init(|| Clock::from_start(pinned())).now()
}

/// Today in New York at [`now`].
pub fn today() -> NaiveDate {
    strikeline_market::calendar::to_new_york(now()).date_naive()
}

use strikeline_store::test_support::{create_pg_database, drop_pg_database, pg_required};

impl TestApp {
    /// The default test configuration, rooted in a temporary directory.
    pub fn config(dir: &std::path::Path) -> Config {
        let web_dir = dir.join("web");
        std::fs::create_dir_all(web_dir.join("assets")).expect("web dir");
        std::fs::write(web_dir.join("index.html"), "<!doctype html><title>Strikeline</title><div id=root></div>").expect("index");
        std::fs::write(web_dir.join("assets/app-1234.js"), "console.log('strikeline');".repeat(200)).expect("asset");
        let mut config = Config { port: 0, data_dir: dir.join("data"), web_dir, ..Config::default() };
        // Tests that need a market ask for one (see `with_market`); the rest start lean, and
        // no test has the background scheduler running jobs behind its back.
        config.market.history_years = 0;
        config.market.replay_days = 0;
        config.market.iv_backfill_sessions = 0;
        config.schedule.start_running = false;
        config.schedule.background = false;
        config.clock_start = pinned();
        config
    }

    /// Starts the app on `engine`; `None` only when PostgreSQL is unreachable and not required.
    pub async fn spawn(engine: Engine) -> Option<TestApp> {
        Self::spawn_with(engine, |_| {}).await
    }

    /// Like [`spawn`](Self::spawn), with a chance to change the configuration first.
    pub async fn spawn_with(engine: Engine, tweak: impl FnOnce(&mut Config)) -> Option<TestApp> {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = Self::config(dir.path());
        let mut pg_database = None;
        if engine == Engine::Postgres {
            match create_pg_database("strikeline_test", true).await {
                Ok((url, name)) => {
                    config.database_url = Some(Secret::new(url));
                    pg_database = Some(name);
                }
                Err(why) if !pg_required() => {
                    eprintln!("SKIPPED: PostgreSQL is not reachable ({why}); set STRIKELINE_REQUIRE_PG=1 to fail instead");
                    return None;
                }
                Err(why) => panic!("PostgreSQL is required (STRIKELINE_REQUIRE_PG=1) but not reachable: {why}"),
            }
        }
        tweak(&mut config);
        let database_url = config.database_url();
        let server = Server::bind(config).await.expect("server binds");
        let addr = server.addr;
        let state = server.state.clone();
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(server.run(async move {
            let _ = rx.await;
        }));
        let base = format!("http://{addr}");
        let client = Self::browser(&base);
        Some(TestApp { addr, base, state, client, dir, database_url, pg_database, shutdown: Some(tx) })
    }

    /// A new browser with its own cookie jar, sending `Origin` for this site.
    pub fn browser(base: &str) -> reqwest::Client {
        let mut headers = HeaderMap::new();
        headers.insert(ORIGIN, HeaderValue::from_str(base).expect("origin"));
        reqwest::Client::builder()
            .cookie_store(true)
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn db(&self) -> &Db {
        &self.state.db
    }

    /// The app's time: what the server reads for this request.
    pub fn now(&self) -> DateTime<Utc> {
        self.state.clock.now()
    }

    /// Today in New York, as the server counts days.
    pub fn today(&self) -> NaiveDate {
        self.state.market.today(self.now())
    }

    /// The session signals issued now belong to (today, or the last trading day before it).
    pub fn issue_day(&self) -> NaiveDate {
        self.state.market.issue_day(self.now())
    }

    pub async fn post_json(&self, client: &reqwest::Client, path: &str, body: &Value) -> reqwest::Response {
        client.post(self.url(path)).json(body).send().await.expect("request")
    }

    /// Registers an account and, when that succeeds, confirms its address through the emailed
    /// link as its owner would; the registration's own response.
    pub async fn register_with(&self, client: &reqwest::Client, email: &str, username: &str, password: &str) -> reqwest::Response {
        let response = self.register_unconfirmed_with(client, email, username, password).await;
        if response.status() == 201 {
            self.confirm_email(email).await;
        }
        response
    }

    /// Registers an account and leaves its address unconfirmed.
    pub async fn register_unconfirmed_with(
        &self,
        client: &reqwest::Client,
        email: &str,
        username: &str,
        password: &str,
    ) -> reqwest::Response {
        let body = json!({"email": email, "username": username, "password": password, "firstName": "Ada", "lastName": "Lovelace"});
        self.post_json(client, "/api/auth/register", &body).await
    }

    /// Registers `ada@example.com` / `ada` / `correct-horse` on the default client and confirms
    /// the address; the account as it then is (on its Pro trial).
    pub async fn register(&self) -> Value {
        let response = self.register_with(&self.client, "ada@example.com", "ada", "correct-horse").await;
        assert_eq!(response.status(), 201, "registration should succeed");
        let me = self.me(&self.client).await;
        assert_eq!(me.status(), 200);
        me.json().await.expect("user json")
    }

    /// The token of the newest `page` link (`verify-email`, `reset-password`) emailed to
    /// `email`, read from the outbox as the built-in transport keeps it.
    pub async fn emailed_token(&self, email: &str, page: &str) -> Option<String> {
        let mails = strikeline_store::outbox::newest(self.db(), "email", 500).await.expect("outbox");
        let marker = format!("/{page}?token=");
        mails.iter().find_map(|m| {
            let mail: Value = serde_json::from_str(&m.payload).ok()?;
            if mail["to"].as_str() != Some(email.trim().to_lowercase().as_str()) {
                return None;
            }
            let text = mail["text"].as_str()?;
            let start = text.find(&marker)? + marker.len();
            Some(text[start..].split_whitespace().next()?.to_owned())
        })
    }

    /// Opens the confirmation link emailed to `email` (from any browser: it needs no session).
    pub async fn confirm_email(&self, email: &str) {
        let token = self.emailed_token(email, "verify-email").await.expect("a confirmation link was emailed");
        let confirmed = self.post_json(&Self::browser(&self.base), "/api/auth/verify-email", &json!({ "token": token })).await;
        assert_eq!(confirmed.status(), 200, "the emailed link confirms the address");
    }

    pub async fn login_with(&self, client: &reqwest::Client, email: &str, password: &str) -> reqwest::Response {
        self.post_json(client, "/api/auth/login", &json!({"email": email, "password": password})).await
    }

    pub async fn me(&self, client: &reqwest::Client) -> reqwest::Response {
        client.get(self.url("/api/auth/me")).send().await.expect("request")
    }

    /// Begins the server's shutdown (as SIGTERM does), without waiting for it.
    pub fn begin_shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(name) = self.pg_database.take() {
            drop_pg_database(name);
        }
    }
}

/// A problem+json body, checked for its content type.
pub async fn problem(response: reqwest::Response) -> Value {
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    assert_eq!(content_type, "application/problem+json", "errors are problem+json");
    let body: Value = response.json().await.expect("problem json");
    assert!(body["title"].is_string() && body["status"].is_u64(), "problem has title and status: {body}");
    body
}

/// The field names in a problem's `errors`.
pub fn fields(problem: &Value) -> Vec<String> {
    problem["errors"]
        .as_array()
        .map(|errors| errors.iter().filter_map(|e| e["field"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// A server process the test started: killed (SIGKILL) when the test says so, or when it ends
/// (a failing assertion included), so none outlives its test.
pub struct Killed(pub std::process::Child);

impl Killed {
    /// Kills it now (SIGKILL) and reaps it.
    pub fn kill_9(&mut self) {
        self.0.kill().expect("SIGKILL");
        self.0.wait().expect("reaped");
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An RFC 3339 time in a JSON body, parsed. Compare instants this way, never as text: the
/// server writes as many fraction digits as a time needs (0, 3, 6 or 9), so `.1Z` sorts
/// after `.123Z` as text.
pub fn instant(value: &Value) -> DateTime<Utc> {
    let text = value.as_str().unwrap_or_else(|| panic!("not a time: {value}"));
    DateTime::parse_from_rfc3339(text).unwrap_or_else(|err| panic!("{text} is not RFC 3339: {err}")).with_timezone(&Utc)
}

/// Runs each listed `async fn(TestApp)` once on SQLite and once on PostgreSQL.
#[macro_export]
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let app = $crate::common::TestApp::spawn($crate::common::Engine::Sqlite).await.expect("sqlite app");
                    super::$name(app).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(app) = $crate::common::TestApp::spawn($crate::common::Engine::Postgres).await {
                        super::$name(app).await;
                    }
                }
            )*
        }
    };
}

/// Like [`on_both_engines!`], with the configuration changed by `$tweak`, a path to a
/// `fn(&mut Config)` from the test crate's root (e.g. `crate::common::with_market`); the tests are grouped in module `$group`.
#[macro_export]
macro_rules! on_both_engines_with {
    ($group:ident, $tweak:path; $($name:ident),* $(,)?) => {
        mod $group {
            mod sqlite {
                $(
                    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                    async fn $name() {
                        let app = $crate::common::TestApp::spawn_with($crate::common::Engine::Sqlite, $tweak).await.expect("sqlite app");
                        super::super::$name(app).await;
                    }
                )*
            }
            mod postgres {
                $(
                    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                    async fn $name() {
                        if let Some(app) = $crate::common::TestApp::spawn_with($crate::common::Engine::Postgres, $tweak).await {
                            super::super::$name(app).await;
                        }
                    }
                )*
            }
        }
    };
}

/// A market with two years of simulated history, so the strategies have something to read.
pub fn with_market(config: &mut Config) {
    config.market.history_years = 2;
}

/// Makes `email` an administrator (before the app starts).
pub fn with_admin(config: &mut Config) {
    config.admin_emails = vec!["admin@example.com".into()];
}

/// The mark that ends signal `id` at its target, its premium at `premium_cents` (from a $3.00
/// entry on a $100 underlying now at $105).
pub fn target_reached(id: &str, premium_cents: i64, at: DateTime<Utc>) -> strikeline_store::signals::SignalMark {
    strikeline_store::signals::SignalMark {
        id: id.to_owned(),
        current_option_cents: premium_cents,
        current_price_cents: 10_500,
        previous_close_cents: 10_000,
        pnl_cents: (premium_cents - 300) * 100,
        pnl_percent: (premium_cents - 300) as f64 / 3.0,
        close: Some(("closed".into(), "target".into())),
        net_pnl_cents: None,
        at,
    }
}

/// A stored signal as the engine would issue it, `minutes_ago`, owned by `owner` when on demand.
pub fn signal_row(symbol: &str, confidence: i64, day: NaiveDate, minutes_ago: i64, owner: Option<&str>) -> SignalRow {
    strikeline_store::test_support::signal(symbol, "Momentum", confidence, day, now() - Duration::minutes(minutes_ago), owner)
}

/// Every signal `GET /api/signals{query}` lists for `client`, following `nextCursor` through
/// pages of 200 (each page a 200).
pub async fn signal_page(app: &TestApp, client: &reqwest::Client, query: &str) -> Vec<Value> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let separator = if query.is_empty() { "?" } else { "&" };
        let page_query = match &cursor {
            Some(c) => format!("{query}{separator}limit=200&cursor={c}"),
            None => format!("{query}{separator}limit=200"),
        };
        let response = client.get(app.url(&format!("/api/signals{page_query}"))).send().await.expect("request");
        assert_eq!(response.status(), 200, "{page_query}");
        let page: Value = response.json().await.expect("json");
        all.extend(page["signals"].as_array().expect("signals").iter().cloned());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return all,
        }
    }
}
