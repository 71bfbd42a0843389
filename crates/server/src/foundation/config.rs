//! Typed, layered configuration: built-in defaults, then an optional TOML file, then
//! `STRIKELINE_*` environment variables (nested keys with `__`, e.g.
//! `STRIKELINE_SESSION__IDLE_MINUTES`), then `DATABASE_URL`, then command-line flags.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

/// A value that must not appear in logs: `Debug` and `Display` print `[redacted]`.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Secret(value)
    }
    /// The wrapped value; call only where it is used.
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Everything the server can be told.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Address to listen on. Keep 127.0.0.1 unless a reverse proxy needs otherwise.
    pub host: IpAddr,
    /// Port to listen on; 0 picks a free one.
    pub port: u16,
    /// Where the embedded SQLite database and other local state live.
    pub data_dir: PathBuf,
    /// `sqlite://…` or `postgres://…`; default: SQLite in `data_dir`.
    pub database_url: Option<Secret<String>>,
    /// `redis://…`: keep the limiter's buckets in Redis instead of the database (`REDIS_URL`).
    pub redis_url: Option<Secret<String>>,
    /// Prefix of this deployment's Redis keys.
    pub redis_prefix: String,
    /// The built web app (`web/dist`).
    pub web_dir: PathBuf,
    /// The address users reach the app at, e.g. `https://strikeline.example.com`. When set it is
    /// the only origin accepted for state-changing requests, and `https` turns on `Secure` cookies.
    pub public_url: Option<String>,
    /// How many reverse proxies you run in front of the server. With 0 (the default) the
    /// socket's peer is the client and `X-Forwarded-*` headers are ignored; with N, the client is
    /// the rightmost address in `X-Forwarded-For` that none of the N proxies added, and
    /// `X-Forwarded-Proto` from the nearest proxy is believed. See docs/security.md.
    pub proxy_hops: usize,
    /// Seconds between SIGTERM and closing the listener during which `/readyz` answers 503 and
    /// everything else is still served, so a load balancer's health check takes this instance
    /// out of rotation before its connections close (docs/deployment.md). 0: stop at once.
    pub drain_seconds: u64,
    /// Administrators' emails: a list, or one comma-separated string (`STRIKELINE_ADMIN_EMAILS`).
    #[serde(deserialize_with = "list_or_commas")]
    pub admin_emails: Vec<String>,
    /// A bearer token that may read `/metrics` (`STRIKELINE_METRICS_TOKEN`); administrators'
    /// sessions may read it too. None: administrators only.
    pub metrics_token: Option<Secret<String>>,
    pub session: SessionConfig,
    pub retention: RetentionConfig,
    /// Overrides of the limiter's built-in policies, by name (see `limits::POLICIES`), e.g.
    /// `[limits.refresh] quota = 20, window_seconds = 60`.
    pub limits: std::collections::BTreeMap<String, LimitOverride>,
    pub capacity: CapacityConfig,
    pub schedule: ScheduleConfig,
    pub market: MarketConfig,
    pub support: SupportConfig,
    pub portfolio: PortfolioConfig,
    pub billing: BillingConfig,
    pub delivery: DeliveryConfig,
    pub outbound: OutboundConfig,
    pub email: EmailConfig,
    pub push: PushConfig,
    pub sms: SmsConfig,
    pub brokers: BrokersConfig,
    pub news: NewsConfig,
    pub ai: AiConfig,
    /// `tracing` filter, e.g. `info` or `strikeline_server=debug,info`.
    pub log: String,
    /// Start the server's clock at this instant (RFC 3339) instead of the system time; it then
    /// runs forward in real time. For end-to-end runs and demonstrations of a given day
    /// (`STRIKELINE_CLOCK_START`); never set in production.
    pub clock_start: Option<chrono::DateTime<chrono::Utc>>,
}

/// Who takes payments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentProviderKind {
    /// The built-in test provider: no network, test cards only (docs/billing.md).
    Test,
    /// Stripe (`billing.stripe_*` required).
    Stripe,
}

/// Payments (docs/billing.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct BillingConfig {
    pub provider: PaymentProviderKind,
    pub stripe_base_url: String,
    /// `sk_…`: the server's key.
    pub stripe_secret_key: Option<Secret<String>>,
    /// `pk_…`: handed to the payment page.
    pub stripe_publishable_key: Option<String>,
    /// `whsec_…`: verifies `Stripe-Signature` on `POST /api/billing/stripe/webhook`.
    pub stripe_webhook_secret: Option<Secret<String>>,
    /// Seconds a webhook's signed timestamp may be from now.
    pub stripe_webhook_tolerance_seconds: i64,
    /// The Stripe price ids of the catalogue, by `<plan>_<billing>`: `pro_monthly`,
    /// `pro_yearly`, `premium_monthly`, `premium_yearly`.
    pub stripe_prices: std::collections::BTreeMap<String, String>,
    /// Lets administrators move the server's clock forward and run the billing schedule then
    /// (`POST /api/admin/billing/run`), for end-to-end tests of renewals and cancellations.
    /// Test provider only; off by default; never on a server people use.
    pub test_clock: bool,
}

impl Default for BillingConfig {
    fn default() -> Self {
        BillingConfig {
            provider: PaymentProviderKind::Test,
            stripe_base_url: "https://api.stripe.com".into(),
            stripe_secret_key: None,
            stripe_publishable_key: None,
            stripe_webhook_secret: None,
            stripe_webhook_tolerance_seconds: 300,
            stripe_prices: std::collections::BTreeMap::new(),
            test_clock: false,
        }
    }
}

/// Sending out of the machine: webhook deliveries and email, from one durable outbox
/// (docs/notifications.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct DeliveryConfig {
    /// Seconds to wait before each retry after a failed attempt; the message is given up after
    /// the last. The default spreads eight attempts over about 27 hours.
    pub retry_seconds: Vec<u64>,
    /// How often each instance looks for due messages.
    pub poll_seconds: u64,
    /// How long a claimed message is held before another worker may send it again (a worker
    /// that died mid-send).
    pub claim_seconds: u64,
    /// An endpoint whose deliveries have failed for this long is switched off and its owner told.
    pub disable_after_hours: i64,
    /// Seconds one webhook request may take, connection included.
    pub timeout_seconds: u64,
    /// Messages sent at once by each instance's worker (webhooks and email together). One
    /// webhook endpoint is sent one message at a time, in order, so a slow receiver holds one
    /// of these and delays nobody else.
    pub concurrency: usize,
    /// Allow `http://` webhook URLs. Local development only.
    pub allow_http: bool,
    /// Allow webhook URLs (and the redirects feeds answer) on private and loopback addresses,
    /// on any port. Local development only.
    pub allow_private: bool,
}

impl DeliveryConfig {
    /// How long a claimed message is held.
    pub fn claim_hold(&self) -> chrono::Duration {
        chrono::Duration::seconds(i64::try_from(self.claim_seconds).unwrap_or(60))
    }
}

impl Default for DeliveryConfig {
    fn default() -> Self {
        DeliveryConfig {
            retry_seconds: vec![5, 300, 1800, 7200, 18_000, 36_000, 36_000],
            poll_seconds: 2,
            claim_seconds: 60,
            disable_after_hours: 24,
            timeout_seconds: 10,
            concurrency: 16,
            allow_http: false,
            allow_private: false,
        }
    }
}

/// Requests to addresses we do not control: webhook endpoints and the redirects feeds answer
/// (docs/security.md, "Outgoing requests").
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct OutboundConfig {
    /// Ports such a request may go to, named in the URL or its scheme's default
    /// (`STRIKELINE_OUTBOUND__ALLOWED_PORTS=[443,8443]`). `delivery.allow_private` lifts this for
    /// local development.
    pub allowed_ports: Vec<u16>,
}

impl Default for OutboundConfig {
    fn default() -> Self {
        OutboundConfig { allowed_ports: crate::foundation::outbound::DEFAULT_PORTS.to_vec() }
    }
}

/// How email leaves the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmailTransport {
    /// Kept in the outbox for administrators to read (`GET /api/admin/emails`); nothing is sent.
    Outbox,
    /// Sent through an SMTP server (`email.smtp_*`).
    Smtp,
}

/// How the SMTP connection is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    /// Plain text: a relay on the same host or local testing only.
    None,
    /// STARTTLS upgrade (port 587).
    Starttls,
    /// TLS from the start (port 465).
    Tls,
}

/// Email (docs/notifications.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct EmailConfig {
    pub transport: EmailTransport,
    /// The sender, e.g. `Strikeline <alerts@strikeline.example.com>`.
    pub from: String,
    pub smtp_host: String,
    pub smtp_port: u16,
    pub smtp_security: SmtpSecurity,
    pub smtp_username: Option<String>,
    pub smtp_password: Option<Secret<String>>,
}

impl Default for EmailConfig {
    fn default() -> Self {
        EmailConfig {
            transport: EmailTransport::Outbox,
            from: "Strikeline <alerts@strikeline.local>".into(),
            smtp_host: "localhost".into(),
            smtp_port: 587,
            smtp_security: SmtpSecurity::Starttls,
            smtp_username: None,
            smtp_password: None,
        }
    }
}

/// Web Push (docs/notifications.md). The VAPID key is generated at first start and stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PushConfig {
    /// The contact push services are given in each request's VAPID token (RFC 8292 §2.1): a
    /// `mailto:` or `https:` URL. Default: `public_url`, else the email sender's address.
    pub subject: Option<String>,
}

/// How text messages leave the machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmsTransport {
    /// Kept in the outbox for administrators to read; nothing is sent, and the plans do not sell
    /// SMS.
    #[default]
    Outbox,
    /// Sent through Twilio's Messages API, or a service that speaks it (`sms.twilio_*`).
    Twilio,
}

/// Alpaca's paper-trading endpoint.
pub const ALPACA_PAPER_URL: &str = "https://paper-api.alpaca.markets";
/// Alpaca's live-trading endpoint.
pub const ALPACA_LIVE_URL: &str = "https://api.alpaca.markets";

/// Real brokers an account can send its orders to (docs/execution.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct BrokersConfig {
    /// The key an account's broker keys are sealed with (AES-256-GCM): 32 bytes, base64. Without
    /// it no broker can be connected; it never sits in the database.
    pub credentials_key: Option<Secret<String>>,
    /// Alpaca's paper and live trading endpoints (a local fake's in tests).
    pub alpaca_paper_url: String,
    pub alpaca_live_url: String,
    /// The longest wait for one of Alpaca's rate limits to reset, milliseconds.
    pub alpaca_max_wait_ms: u64,
}

impl Default for BrokersConfig {
    fn default() -> Self {
        BrokersConfig {
            credentials_key: None,
            alpaca_paper_url: ALPACA_PAPER_URL.into(),
            alpaca_live_url: ALPACA_LIVE_URL.into(),
            alpaca_max_wait_ms: 60_000,
        }
    }
}

/// Text messages (docs/notifications.md, "SMS").
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct SmsConfig {
    pub transport: SmsTransport,
    /// The Messages API's address (a Twilio-compatible service's, or a local fake in tests).
    pub twilio_base_url: String,
    /// The account SID (`AC…`) and its auth token, which also signs inbound webhooks.
    pub twilio_account_sid: Option<String>,
    pub twilio_auth_token: Option<Secret<String>>,
    /// The sending number (E.164) or messaging service SID. In an environment variable,
    /// `+15005550006` reads as a number; digits alone are taken as that E.164 number.
    #[serde(deserialize_with = "phone_or_sid")]
    pub twilio_from: Option<String>,
    /// The address Twilio posts inbound messages to, exactly as configured there (the signature
    /// covers it). Default: `public_url` + `/api/sms/twilio/inbound`.
    pub inbound_url: Option<String>,
}

impl Default for SmsConfig {
    fn default() -> Self {
        SmsConfig {
            transport: SmsTransport::Outbox,
            twilio_base_url: "https://api.twilio.com".into(),
            twilio_account_sid: None,
            twilio_auth_token: None,
            twilio_from: None,
            inbound_url: None,
        }
    }
}

impl SmsConfig {
    /// Whether texts reach phones: Twilio, with its account, token and sender.
    pub fn sends(&self) -> bool {
        self.transport == SmsTransport::Twilio
            && self.twilio_account_sid.is_some()
            && self.twilio_auth_token.is_some()
            && self.twilio_from.is_some()
    }
}

/// News (docs/news.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct NewsConfig {
    /// RSS or Atom feed addresses: a list, or one comma-separated string
    /// (`STRIKELINE_NEWS__FEEDS`). Empty (the default): the bundled sample articles.
    #[serde(deserialize_with = "list_or_commas")]
    pub feeds: Vec<String>,
    /// Each feed is asked at most this often.
    pub poll_minutes: u64,
    /// Seconds one feed request may take.
    pub timeout_seconds: u64,
}

impl Default for NewsConfig {
    fn default() -> Self {
        NewsConfig { feeds: Vec::new(), poll_minutes: 15, timeout_seconds: 15 }
    }
}

/// What writes the analyses and recommendations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AiProvider {
    /// The built-in analyser: offline, always available.
    Builtin,
    /// An OpenAI-compatible chat endpoint (`ai.base_url`, `ai.model`, `ai.api_key`), within
    /// the budgets `ai_news` and `ai_day_<plan>`; the built-in analyser answers beyond them or
    /// when the endpoint fails.
    Openai,
}

/// AI analysis (docs/news.md).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct AiConfig {
    pub provider: AiProvider,
    /// E.g. `https://api.openai.com/v1`; `/chat/completions` is appended.
    pub base_url: String,
    pub model: String,
    /// Sent as a bearer token; never logged.
    pub api_key: Option<Secret<String>>,
    /// Seconds one request may take.
    pub timeout_seconds: u64,
    /// Retries after a 429, a 5xx or a network failure.
    pub max_retries: u32,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            provider: AiProvider::Builtin,
            base_url: "https://api.openai.com/v1".into(),
            model: "gpt-4o-mini".into(),
            api_key: None,
            timeout_seconds: 20,
            max_retries: 2,
        }
    }
}

/// How long records are kept (the privacy policy, section 5); the hourly sweep deletes what
/// is older (`services::retention`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetentionConfig {
    /// What is kept of a deleted account (invoices, audit entries), years.
    pub account_years: u32,
    /// Closed positions, daily portfolio values and self-generated signals, years.
    pub trading_years: u32,
    /// Contact messages, notifications and sent email, years.
    pub communications_years: u32,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig { account_years: 7, trading_years: 10, communications_years: 3 }
    }
}

/// Session lifetimes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionConfig {
    /// A session ends after this long without a request.
    pub idle_minutes: i64,
    /// A session ends this long after sign-in, however active.
    pub absolute_hours: i64,
}

/// A limiter policy's numbers, replacing the built-in ones.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitOverride {
    pub quota: u32,
    pub window_seconds: u64,
}

/// How much work the server takes on at once, so a flood cannot exhaust memory or CPU.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct CapacityConfig {
    /// Password hashes computed at once (argon2id takes 19 MiB each).
    pub password_hashes: usize,
    /// Requests that may wait for a password hash; beyond that, 503 with `Retry-After`.
    pub password_queue: usize,
    /// Backtests and recomputations running at once on the whole server.
    pub heavy_jobs: usize,
    /// Of those, at once for one user.
    pub heavy_jobs_per_user: usize,
    /// Longest a backtest may run before it is stopped.
    pub heavy_job_seconds: u64,
    /// Open event streams per user.
    pub event_streams_per_user: usize,
    /// Per client address (after the trusted proxy hops): requests in progress, and event
    /// streams counted apart; without a proxy also open connections per peer (http/serve.rs).
    pub connections_per_address: usize,
    /// Seconds a client has to send a request's headers.
    pub header_read_seconds: u64,
    /// Seconds a request may take before it is answered 408.
    pub request_seconds: u64,
}

impl Default for CapacityConfig {
    fn default() -> Self {
        CapacityConfig {
            password_hashes: 2,
            password_queue: 32,
            heavy_jobs: 2,
            heavy_jobs_per_user: 1,
            heavy_job_seconds: 25,
            event_streams_per_user: 5,
            connections_per_address: 128,
            header_read_seconds: 10,
            request_seconds: 30,
        }
    }
}

/// How often the scheduler does each job (read by the scheduler and shown to users).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct ScheduleConfig {
    /// Marking active signals to market while the exchange is open.
    pub signal_refresh_seconds: u64,
    /// Refreshing the watchlist's quotes while the exchange is open.
    pub price_refresh_seconds: u64,
    /// Running the strategies for new signals while the exchange is open.
    pub new_signal_seconds: u64,
    /// Recomputing the dashboard figures and their daily snapshot.
    pub portfolio_stats_seconds: u64,
    /// Minutes before the open for the pre-market job (history caught up, quotes primed).
    pub pre_market_minutes: i64,
    /// Minutes after the close for the end-of-day job (the day's bars stored, snapshot taken).
    pub end_of_day_minutes: i64,
    /// Whether automation runs on a fresh deployment until an administrator stops it.
    pub start_running: bool,
    /// How often each instance checks for due jobs.
    pub tick_seconds: u64,
    /// Run the scheduler loop in this process (tests turn it off and drive `tick` themselves).
    pub background: bool,
}

impl Default for ScheduleConfig {
    fn default() -> Self {
        ScheduleConfig {
            signal_refresh_seconds: 300,
            price_refresh_seconds: 60,
            new_signal_seconds: 900,
            portfolio_stats_seconds: 900,
            pre_market_minutes: 30,
            end_of_day_minutes: 10,
            start_running: true,
            tick_seconds: 15,
            background: true,
        }
    }
}

/// Paper trading and backtest costs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct PortfolioConfig {
    /// Dollars per contract, charged on open and on close.
    pub commission_per_contract: f64,
    /// Fraction of the premium lost to the spread on each fill in backtests (0.01 = 1 %).
    pub backtest_slippage: f64,
    /// Starting equity of a backtest, dollars.
    pub backtest_initial_capital: f64,
}

impl Default for PortfolioConfig {
    fn default() -> Self {
        PortfolioConfig { commission_per_contract: 0.65, backtest_slippage: 0.01, backtest_initial_capital: 100_000.0 }
    }
}

/// Where market data comes from (also what `/api/public/stats` and the served OpenAPI document
/// say, so the app can label simulated prices as such).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MarketProvider {
    /// The seeded, deterministic simulated market (no network).
    Simulated,
    /// Polygon.io's REST API (`market.polygon_api_key` required).
    Polygon,
}

/// The support the operator offers beyond email: the Premium plan lists phone support, and the
/// help and legal pages show the number, only when a number is configured.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SupportConfig {
    /// The support line, as callers dial it (`+1 212 555 0100`): digits, spaces, `+`, `(`, `)`,
    /// `-` and `.`, at most 30 characters.
    pub phone: Option<String>,
    /// When the line is staffed, in words (`Every day, around the clock`); at most 80 characters.
    pub phone_hours: Option<String>,
}

/// Market data and the pricing assumptions.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct MarketConfig {
    pub provider: MarketProvider,
    /// Seed of the simulated market: same seed, same market.
    pub seed: u64,
    /// Years of daily history loaded on first start (0 loads none).
    pub history_years: u32,
    /// Trading days replayed through the engine on first start, so a new deployment shows the
    /// signals the strategies issued recently and how they ended (0 replays none).
    pub replay_days: u32,
    /// Sessions of implied-volatility history back-filled on first start and each weekend,
    /// where the provider can answer for past sessions (the simulated market); 0 fills none.
    pub iv_backfill_sessions: u32,
    /// Risk-free rate used for option prices.
    pub risk_free_rate: f64,
    /// Most symbols the shared watchlist may hold.
    pub max_symbols: usize,
    pub polygon_base_url: String,
    pub polygon_api_key: Option<Secret<String>>,
    /// The vendor plan's request budget (the free tier allows 5 per minute).
    pub polygon_requests_per_minute: u32,
}

impl Default for MarketConfig {
    fn default() -> Self {
        MarketConfig {
            provider: MarketProvider::Simulated,
            seed: 20_140_102,
            history_years: 10,
            replay_days: 60,
            iv_backfill_sessions: 260,
            risk_free_rate: 0.04,
            max_symbols: 500,
            polygon_base_url: "https://api.polygon.io".into(),
            polygon_api_key: None,
            polygon_requests_per_minute: 5,
        }
    }
}

fn list_or_commas<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        List(Vec<String>),
        One(String),
    }
    let items = match Raw::deserialize(deserializer)? {
        Raw::List(items) => items,
        Raw::One(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(items.into_iter().map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty()).collect())
}

/// A phone number or an identifier: as written, or (an environment variable's `+15005550006`,
/// which reads as a number) the digits with their `+` put back.
fn phone_or_sid<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Digits(u64),
    }
    Ok(Option::<Raw>::deserialize(deserializer)?.map(|raw| match raw {
        Raw::Text(text) => text,
        Raw::Digits(digits) => format!("+{digits}"),
    }))
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            data_dir: PathBuf::from("./data"),
            database_url: None,
            redis_url: None,
            redis_prefix: "strikeline".into(),
            web_dir: PathBuf::from("web/dist"),
            public_url: None,
            proxy_hops: 0,
            drain_seconds: 0,
            admin_emails: Vec::new(),
            metrics_token: None,
            session: SessionConfig::default(),
            retention: RetentionConfig::default(),
            limits: std::collections::BTreeMap::new(),
            capacity: CapacityConfig::default(),
            schedule: ScheduleConfig::default(),
            market: MarketConfig::default(),
            support: SupportConfig::default(),
            portfolio: PortfolioConfig::default(),
            billing: BillingConfig::default(),
            delivery: DeliveryConfig::default(),
            outbound: OutboundConfig::default(),
            email: EmailConfig::default(),
            push: PushConfig::default(),
            sms: SmsConfig::default(),
            brokers: BrokersConfig::default(),
            news: NewsConfig::default(),
            ai: AiConfig::default(),
            log: "info".into(),
            clock_start: None,
        }
    }
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig { idle_minutes: 30, absolute_hours: 12 }
    }
}

impl Config {
    /// Reads the layers. `file` is optional; a named file that does not exist is an error,
    /// while the default `strikeline.toml` is read only if present.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Config> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(path) if !path.exists() => anyhow::bail!("config file {} does not exist", path.display()),
            Some(path) => figment = figment.merge(Toml::file(path)),
            None => figment = figment.merge(Toml::file("strikeline.toml")),
        }
        figment = figment.merge(Env::prefixed("STRIKELINE_").split("__"));
        if let Ok(url) = std::env::var("DATABASE_URL")
            && !url.is_empty()
        {
            figment = figment.merge(("database_url", url));
        }
        if let Ok(url) = std::env::var("REDIS_URL")
            && !url.is_empty()
        {
            figment = figment.merge(("redis_url", url));
        }
        let config: Config = figment.extract()?;
        config.validate()?;
        Ok(config)
    }

    /// Checks values that would otherwise fail later and less clearly.
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(self.session.idle_minutes > 0, "session.idle_minutes must be positive");
        anyhow::ensure!(self.session.absolute_hours > 0, "session.absolute_hours must be positive");
        for (name, o) in &self.limits {
            let plan_quota =
                crate::foundation::entitlements::Plan::ALL.iter().any(|p| crate::foundation::limits::api_hourly(*p, 1).name == name);
            anyhow::ensure!(
                plan_quota || crate::foundation::limits::POLICIES.iter().any(|p| p.name == name),
                "limits.{name} is not a policy; known: {}",
                crate::foundation::limits::POLICIES.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            );
            anyhow::ensure!(o.quota > 0 && o.window_seconds > 0, "limits.{name}: quota and window_seconds must be positive");
        }
        let c = &self.capacity;
        for (name, value) in [
            ("password_hashes", c.password_hashes),
            ("heavy_jobs", c.heavy_jobs),
            ("heavy_jobs_per_user", c.heavy_jobs_per_user),
            ("event_streams_per_user", c.event_streams_per_user),
            ("connections_per_address", c.connections_per_address),
        ] {
            anyhow::ensure!(value > 0, "capacity.{name} must be positive");
        }
        anyhow::ensure!(
            c.heavy_job_seconds > 0 && c.header_read_seconds > 0 && c.request_seconds > 0,
            "capacity timeouts must be positive"
        );
        anyhow::ensure!(self.proxy_hops <= 10, "proxy_hops must be at most 10");
        anyhow::ensure!(self.drain_seconds <= 300, "drain_seconds must be at most 300");
        anyhow::ensure!(self.schedule.signal_refresh_seconds > 0, "schedule.signal_refresh_seconds must be positive");
        anyhow::ensure!(self.schedule.price_refresh_seconds > 0, "schedule.price_refresh_seconds must be positive");
        anyhow::ensure!(self.schedule.new_signal_seconds > 0, "schedule.new_signal_seconds must be positive");
        anyhow::ensure!(self.schedule.portfolio_stats_seconds > 0, "schedule.portfolio_stats_seconds must be positive");
        anyhow::ensure!(self.schedule.tick_seconds > 0, "schedule.tick_seconds must be positive");
        anyhow::ensure!((0.0..=0.25).contains(&self.market.risk_free_rate), "market.risk_free_rate must be between 0 and 0.25");
        anyhow::ensure!(self.market.history_years <= 30, "market.history_years must be at most 30");
        if let Some(phone) = &self.support.phone {
            let digits = phone.chars().filter(char::is_ascii_digit).count();
            anyhow::ensure!(
                phone.len() <= 30 && digits >= 7 && phone.chars().all(|c| c.is_ascii_digit() || " +()-.".contains(c)),
                "support.phone must be a phone number: 7 or more digits, with spaces, +, (, ), - or ., at most 30 characters"
            );
        }
        if let Some(hours) = &self.support.phone_hours {
            anyhow::ensure!(
                !hours.trim().is_empty() && hours.chars().count() <= 80 && !hours.chars().any(char::is_control),
                "support.phone_hours must be 1–80 characters of text"
            );
            anyhow::ensure!(self.support.phone.is_some(), "support.phone_hours needs support.phone");
        }
        anyhow::ensure!(self.market.iv_backfill_sessions <= 2_520, "market.iv_backfill_sessions must be at most 2520");
        anyhow::ensure!(self.market.max_symbols > 0, "market.max_symbols must be positive");
        anyhow::ensure!(
            (0.0..=100.0).contains(&self.portfolio.commission_per_contract),
            "portfolio.commission_per_contract must be between 0 and 100"
        );
        anyhow::ensure!((0.0..0.5).contains(&self.portfolio.backtest_slippage), "portfolio.backtest_slippage must be in [0, 0.5)");
        anyhow::ensure!(self.portfolio.backtest_initial_capital > 0.0, "portfolio.backtest_initial_capital must be positive");
        let d = &self.delivery;
        anyhow::ensure!(!d.retry_seconds.is_empty() && d.retry_seconds.len() <= 20, "delivery.retry_seconds must list 1 to 20 delays");
        anyhow::ensure!(
            d.poll_seconds > 0 && d.claim_seconds > 0 && d.timeout_seconds > 0,
            "delivery.poll_seconds, claim_seconds and timeout_seconds must be positive"
        );
        anyhow::ensure!(d.claim_seconds > d.timeout_seconds, "delivery.claim_seconds must be longer than delivery.timeout_seconds");
        anyhow::ensure!(d.disable_after_hours > 0, "delivery.disable_after_hours must be positive");
        anyhow::ensure!((1..=256).contains(&d.concurrency), "delivery.concurrency must be between 1 and 256");
        anyhow::ensure!(
            !self.outbound.allowed_ports.is_empty() && !self.outbound.allowed_ports.contains(&0),
            "outbound.allowed_ports must list at least one port, and not 0"
        );
        anyhow::ensure!(
            self.email.from.parse::<lettre::message::Mailbox>().is_ok(),
            "email.from must be an address, e.g. `Strikeline <alerts@example.com>`"
        );
        anyhow::ensure!(
            self.news.poll_minutes > 0 && self.news.timeout_seconds > 0,
            "news.poll_minutes and news.timeout_seconds must be positive"
        );
        for feed in &self.news.feeds {
            anyhow::ensure!(
                url::Url::parse(feed).is_ok_and(|u| matches!(u.scheme(), "http" | "https")),
                "news.feeds: {feed} is not an http(s) address"
            );
        }
        if self.ai.provider == AiProvider::Openai {
            anyhow::ensure!(url::Url::parse(&self.ai.base_url).is_ok(), "ai.base_url must be a URL when ai.provider is openai");
            anyhow::ensure!(!self.ai.model.is_empty(), "ai.model is required when ai.provider is openai");
            anyhow::ensure!(
                (1..=120).contains(&self.ai.timeout_seconds) && self.ai.max_retries <= 5,
                "ai.timeout_seconds must be 1 to 120 and ai.max_retries at most 5"
            );
        }
        if self.email.transport == EmailTransport::Smtp {
            anyhow::ensure!(!self.email.smtp_host.is_empty(), "email.smtp_host is required when email.transport is smtp");
        }
        if self.market.provider == MarketProvider::Polygon {
            anyhow::ensure!(
                self.market.polygon_api_key.as_ref().is_some_and(|k| !k.expose().is_empty()),
                "market.polygon_api_key is required when market.provider is polygon"
            );
        }
        if self.billing.provider == PaymentProviderKind::Stripe {
            let b = &self.billing;
            anyhow::ensure!(
                b.stripe_secret_key.as_ref().is_some_and(|k| !k.expose().is_empty())
                    && b.stripe_webhook_secret.as_ref().is_some_and(|k| !k.expose().is_empty())
                    && b.stripe_publishable_key.as_ref().is_some_and(|k| !k.is_empty()),
                "billing.stripe_secret_key, stripe_publishable_key and stripe_webhook_secret are required when billing.provider is stripe"
            );
            for name in ["pro_monthly", "pro_yearly", "premium_monthly", "premium_yearly"] {
                anyhow::ensure!(
                    b.stripe_prices.get(name).is_some_and(|p| !p.is_empty()),
                    "billing.stripe_prices.{name} is required when billing.provider is stripe"
                );
            }
            anyhow::ensure!(
                (1..=3600).contains(&b.stripe_webhook_tolerance_seconds),
                "billing.stripe_webhook_tolerance_seconds must be 1 to 3600"
            );
            anyhow::ensure!(!b.test_clock, "billing.test_clock is for the test provider only");
        }
        if let Some(url) = &self.public_url {
            anyhow::ensure!(url.starts_with("http://") || url.starts_with("https://"), "public_url must start with http:// or https://");
        }
        Ok(())
    }

    /// The database URL in force: the configured one, or SQLite in the data directory.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.expose().clone(),
            None => strikeline_store::Db::sqlite_url_in(&self.data_dir),
        }
    }

    /// Whether `email` belongs to an administrator.
    pub fn is_admin(&self, email: &str) -> bool {
        self.admin_emails.iter().any(|admin| admin.eq_ignore_ascii_case(email))
    }

    /// The origin (`scheme://host[:port]`) of `public_url`, without a trailing slash.
    pub fn public_origin(&self) -> Option<String> {
        self.public_url.as_ref().map(|url| origin_of(url).to_owned())
    }
}

/// The `scheme://authority` part of a URL.
pub fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(slash) => &url[..after_scheme + slash],
        None => url,
    }
}

#[cfg(test)]
#[expect(clippy::result_large_err, reason = "figment::Jail's closure signature")]
mod tests {
    use super::*;

    /// The contract fuzzing's profile names every policy the limiter has (a new policy left
    /// out would answer the fuzzer 429 and hide its operation's logic).
    #[test]
    fn the_fuzz_profile_lifts_every_limit() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/fuzz/strikeline.toml");
        let config = Config::load(Some(&path)).expect("the fuzz profile loads");
        let plans = crate::foundation::entitlements::Plan::ALL.iter().map(|p| crate::foundation::limits::api_hourly(*p, 1));
        for policy in crate::foundation::limits::POLICIES.into_iter().chain(plans) {
            let lifted = config.limits.get(policy.name).unwrap_or_else(|| panic!("{} is not in the fuzz profile", policy.name));
            assert!(lifted.quota >= 1_000_000 && lifted.window_seconds <= 1, "{} is not lifted", policy.name);
        }
        assert_eq!(config.limits.len(), crate::foundation::limits::POLICIES.len() + 3, "no name the limiter does not know");
        // Three session runs at once, two workers each: no backtest is refused as "busy".
        assert!(config.capacity.heavy_jobs >= 6 && config.capacity.heavy_jobs_per_user >= 2, "{:?}", config.capacity);
    }

    #[test]
    fn a_support_phone_is_a_phone_number_and_its_hours_need_one() {
        let with = |phone: Option<&str>, hours: Option<&str>| {
            let support = SupportConfig { phone: phone.map(str::to_owned), phone_hours: hours.map(str::to_owned) };
            Config { support, ..Config::default() }.validate()
        };
        assert!(with(Some("+1 (212) 555-0100"), Some("Every day, around the clock")).is_ok());
        assert!(with(Some("+44 20 7946 0958"), None).is_ok());
        for bad in ["call us", "12345", "+1 212 555 0100 ext. 9", "<script>"] {
            assert!(with(Some(bad), None).is_err(), "{bad}");
        }
        assert!(with(None, Some("Weekdays")).is_err(), "hours without a number");
        assert!(with(Some("+1 212 555 0100"), Some("  ")).is_err());
    }

    #[test]
    fn secrets_do_not_print() {
        let s = Secret::new("postgres://u:pw@h/db".to_string());
        assert_eq!(format!("{s:?}"), "[redacted]");
    }

    #[test]
    fn origin_drops_the_path() {
        assert_eq!(origin_of("https://app.example.com/x/y"), "https://app.example.com");
        assert_eq!(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }

    #[test]
    fn defaults_are_valid_and_database_defaults_to_sqlite_in_data_dir() {
        let config = Config::default();
        config.validate().expect("defaults validate");
        assert_eq!(config.database_url(), "sqlite://./data/strikeline.db");
        assert_eq!(config.port, 8080);
    }

    #[test]
    fn file_then_environment_layers_override_defaults() {
        figment::Jail::expect_with(|jail| {
            jail.create_file("custom.toml", "port = 9000\nlog = \"debug\"\n[session]\nidle_minutes = 30\n")?;
            jail.set_env("STRIKELINE_LOG", "warn");
            jail.set_env("STRIKELINE_SESSION__ABSOLUTE_HOURS", "12");
            let config = Config::load(Some(Path::new("custom.toml"))).expect("loads");
            assert_eq!(config.port, 9000);
            assert_eq!(config.log, "warn");
            assert_eq!(config.session.idle_minutes, 30);
            assert_eq!(config.session.absolute_hours, 12);
            Ok(())
        });
    }

    #[test]
    fn admin_emails_come_as_a_list_or_a_comma_separated_string() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("STRIKELINE_ADMIN_EMAILS", "Ops@Example.com, cto@example.com");
            let config = Config::load(None).expect("loads");
            assert_eq!(config.admin_emails, ["ops@example.com", "cto@example.com"]);
            assert!(config.is_admin("OPS@example.com"));
            assert!(!config.is_admin("someone@example.com"));
            jail.create_file("admins.toml", "admin_emails = [\"a@b.co\"]\n")?;
            jail.clear_env();
            let config = Config::load(Some(Path::new("admins.toml"))).expect("loads");
            assert_eq!(config.admin_emails, ["a@b.co"]);
            Ok(())
        });
    }

    #[test]
    fn limits_are_overridden_by_name_and_unknown_names_are_refused() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("STRIKELINE_LIMITS__LOGIN_IP__QUOTA", "500");
            jail.set_env("STRIKELINE_LIMITS__LOGIN_IP__WINDOW_SECONDS", "60");
            let config = Config::load(None).expect("loads");
            let o = config.limits["login_ip"];
            assert_eq!((o.quota, o.window_seconds), (500, 60));
            jail.set_env("STRIKELINE_LIMITS__NO_SUCH__QUOTA", "5");
            jail.set_env("STRIKELINE_LIMITS__NO_SUCH__WINDOW_SECONDS", "5");
            let err = Config::load(None).expect_err("unknown policy");
            assert!(err.to_string().contains("limits.no_such is not a policy"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn outbound_ports_default_to_80_and_443_and_are_overridden_as_a_list() {
        assert_eq!(Config::default().outbound.allowed_ports, [80, 443]);
        figment::Jail::expect_with(|jail| {
            jail.set_env("STRIKELINE_OUTBOUND__ALLOWED_PORTS", "[443, 8443]");
            assert_eq!(Config::load(None).expect("loads").outbound.allowed_ports, [443, 8443]);
            jail.create_file("ports.toml", "[outbound]\nallowed_ports = [443]\n")?;
            jail.clear_env();
            assert_eq!(Config::load(Some(Path::new("ports.toml"))).expect("loads").outbound.allowed_ports, [443]);
            for bad in ["[]", "[0, 443]", "[70000]"] {
                jail.set_env("STRIKELINE_OUTBOUND__ALLOWED_PORTS", bad);
                assert!(Config::load(None).is_err(), "{bad} is refused");
            }
            Ok(())
        });
    }

    #[test]
    fn a_missing_named_file_or_bad_value_is_an_error() {
        assert!(Config::load(Some(Path::new("/nonexistent/strikeline.toml"))).is_err());
        figment::Jail::expect_with(|jail| {
            jail.set_env("STRIKELINE_PORT", "not-a-port");
            assert!(Config::load(None).is_err());
            Ok(())
        });
    }

    #[test]
    fn an_sms_sender_in_the_environment_keeps_its_plus() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("STRIKELINE_SMS__TWILIO_FROM", "+15005550006");
            assert_eq!(Config::load(None).expect("config").sms.twilio_from.as_deref(), Some("+15005550006"));
            jail.set_env("STRIKELINE_SMS__TWILIO_FROM", "MG0123456789abcdef");
            assert_eq!(Config::load(None).expect("config").sms.twilio_from.as_deref(), Some("MG0123456789abcdef"));
            Ok(())
        });
    }
}
