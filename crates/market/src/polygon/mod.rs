//! The Polygon.io REST adapter (Polygon.io now trades as Massive; `api.polygon.io` keeps
//! serving the same API): daily aggregates, the stocks snapshot, ticker details and forex
//! previous closes.
//!
//! | data | endpoint |
//! |---|---|
//! | daily bars | `GET /v2/aggs/ticker/{symbol}/range/1/day/{from}/{to}?adjusted=true&sort=asc&limit=50000`, following `next_url` |
//! | quotes | `GET /v2/snapshot/locale/us/markets/stocks/tickers?tickers=A,B` |
//! | company | `GET /v3/reference/tickers/{symbol}` |
//! | exchange rates | `GET /v2/aggs/ticker/C:USDEUR/prev`, `GET /v2/aggs/ticker/C:USDGBP/prev` |
//! | option chain | `GET /v3/snapshot/options/{symbol}` ([`options`]) |
//!
//! The API key travels in the `Authorization: Bearer` header (which Polygon accepts as well
//! as the `apiKey` query parameter), so it never appears in a URL, a log line or an error.
//!
//! Policy: every attempt waits its turn at a client-side limiter (`requests_per_minute`, a
//! sliding one-minute window; Polygon's free tier allows 5). Network errors, timeouts and 5xx
//! answers are retried up to `max_retries` times after `retry_base_delay × 2^attempt`; a 429
//! waits the `Retry-After` the server gives (or the backoff) when that fits in
//! `max_retry_wait` and retries remain, otherwise it is [`MarketError::RateLimited`]. 401 and
//! 403 are [`MarketError::Unavailable`] ("API key rejected"); 404 and an unknown ticker are
//! [`MarketError::UnknownSymbol`]; an answer that does not parse is
//! [`MarketError::InvalidResponse`].

mod options;

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use reqwest::header::{AUTHORIZATION, HeaderMap, RETRY_AFTER};
use reqwest::{StatusCode, Url};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::calendar::to_new_york;
use crate::data::{CompanyInfo, DailyBar, MarketError, Quote, Sector, checked_symbol};
use crate::fx::{Currency, ExchangeRates};
use crate::options::{ChainQuery, OptionChain};
use crate::provider::{MarketData, MarketFuture};

/// Polygon's production API.
pub const DEFAULT_BASE_URL: &str = "https://api.polygon.io";

/// Tickers per snapshot request (keeps the URL short).
const SNAPSHOT_BATCH: usize = 100;
/// Pages of aggregates followed at most (50,000 bars a page).
const MAX_PAGES: usize = 100;
/// Longest piece of a provider's error text we quote.
const MAX_MESSAGE: usize = 200;
/// The forex pair quoting each non-base currency per US dollar.
const FOREX_PAIRS: [(Currency, &str); 2] = [(Currency::Eur, "C:USDEUR"), (Currency::Gbp, "C:USDGBP")];

/// How to reach Polygon and how patiently.
#[derive(Clone)]
pub struct PolygonConfig {
    /// `https://api.polygon.io`, or a fake server in tests.
    pub base_url: String,
    /// The account's API key. Never logged; redacted from `Debug`.
    pub api_key: String,
    /// Limit for one HTTP attempt, connection included.
    pub timeout: Duration,
    /// Attempts after the first, for network errors, timeouts, 5xx and 429.
    pub max_retries: u32,
    /// Requests allowed per rolling minute, counted on this client (0 = no limit).
    pub requests_per_minute: u32,
    /// First backoff delay; doubles with every retry.
    pub retry_base_delay: Duration,
    /// The longest single wait (backoff or `Retry-After`) taken inside one call; a 429 asking
    /// for longer is answered at once with [`MarketError::RateLimited`].
    pub max_retry_wait: Duration,
}

impl PolygonConfig {
    /// Production defaults for `api_key`: 10 s timeout, 3 retries from 1 s backoff, at most
    /// 60 s of waiting per retry, 5 requests per minute (the free tier).
    pub fn new(api_key: impl Into<String>) -> Self {
        Self {
            base_url: DEFAULT_BASE_URL.to_owned(),
            api_key: api_key.into(),
            timeout: Duration::from_secs(10),
            max_retries: 3,
            requests_per_minute: 5,
            retry_base_delay: Duration::from_secs(1),
            max_retry_wait: Duration::from_secs(60),
        }
    }
}

impl fmt::Debug for PolygonConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PolygonConfig")
            .field("base_url", &self.base_url)
            .field("api_key", &"<redacted>")
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("requests_per_minute", &self.requests_per_minute)
            .field("retry_base_delay", &self.retry_base_delay)
            .field("max_retry_wait", &self.max_retry_wait)
            .finish()
    }
}

/// The Polygon.io market-data provider.
pub struct PolygonClient {
    http: reqwest::Client,
    base: Url,
    auth: String,
    api_key: String,
    max_retries: u32,
    retry_base_delay: Duration,
    max_retry_wait: Duration,
    limiter: RateLimiter,
}

impl fmt::Debug for PolygonClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PolygonClient").field("base", &self.base.as_str()).finish_non_exhaustive()
    }
}

/// What one request came to, before the caller gives it meaning.
enum Answer<T> {
    Found(T),
    NotFound,
}

impl PolygonClient {
    /// A client for `config`.
    ///
    /// # Errors
    ///
    /// [`MarketError::Unavailable`] when the base URL is not an http(s) URL, the API key is
    /// blank, or the HTTP client cannot be built.
    pub fn new(config: PolygonConfig) -> Result<Self, MarketError> {
        let base = Url::parse(config.base_url.trim_end_matches('/'))
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
            .ok_or_else(|| MarketError::Unavailable(format!("the Polygon base URL {:?} is not an http(s) URL", config.base_url)))?;
        let api_key = config.api_key.trim().to_owned();
        if api_key.is_empty() {
            return Err(MarketError::Unavailable("no Polygon API key is configured".to_owned()));
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(concat!("strikeline-market/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| MarketError::Unavailable(format!("HTTP client: {}", e.without_url())))?;
        Ok(Self {
            http,
            base,
            auth: format!("Bearer {api_key}"),
            api_key,
            max_retries: config.max_retries,
            retry_base_delay: config.retry_base_delay,
            max_retry_wait: config.max_retry_wait,
            limiter: RateLimiter::per_minute(config.requests_per_minute),
        })
    }

    /// Daily bars of `symbol` in `[from, to]`, oldest first.
    ///
    /// # Errors
    ///
    /// See the module documentation.
    pub async fn fetch_daily_bars(&self, symbol: &str, from: NaiveDate, to: NaiveDate) -> Result<Vec<DailyBar>, MarketError> {
        let symbol = checked_symbol(symbol)?;
        if to < from {
            return Ok(Vec::new());
        }
        let mut url = self.endpoint(&["v2", "aggs", "ticker", symbol, "range", "1", "day", &from.to_string(), &to.to_string()]);
        url.query_pairs_mut().append_pair("adjusted", "true").append_pair("sort", "asc").append_pair("limit", "50000");

        let mut bars = Vec::new();
        for _ in 0..MAX_PAGES {
            let page: AggregatesPage = match self.get_json(url).await? {
                Answer::Found(page) => page,
                Answer::NotFound => return Err(MarketError::UnknownSymbol(symbol.to_owned())),
            };
            check_status(page.status.as_deref())?;
            for agg in page.results.unwrap_or_default() {
                let bar = agg.into_bar()?;
                if (from..=to).contains(&bar.date) {
                    bars.push(bar);
                }
            }
            match page.next_url.filter(|u| !u.is_empty()) {
                Some(next) => url = self.same_origin(&next)?,
                None => break,
            }
        }
        bars.sort_by_key(|b| b.date);
        bars.dedup_by_key(|b| b.date);
        if bars.is_empty() {
            // Aggregates answer an unknown ticker with an empty list, like a quiet range:
            // ask the reference data which one it is.
            self.fetch_company(symbol).await?;
        }
        Ok(bars)
    }

    /// Snapshot quotes for `symbols`, in the order asked; tickers Polygon does not return
    /// are left out. `at` is used only when a snapshot carries no timestamp.
    ///
    /// # Errors
    ///
    /// See the module documentation.
    pub async fn fetch_quotes(&self, symbols: &[String], at: DateTime<Utc>) -> Result<Vec<Quote>, MarketError> {
        for symbol in symbols {
            checked_symbol(symbol)?;
        }
        let mut found: Vec<Quote> = Vec::with_capacity(symbols.len());
        for batch in symbols.chunks(SNAPSHOT_BATCH) {
            let mut url = self.endpoint(&["v2", "snapshot", "locale", "us", "markets", "stocks", "tickers"]);
            url.query_pairs_mut().append_pair("tickers", &batch.join(","));
            let snapshot: Snapshot = match self.get_json(url).await? {
                Answer::Found(snapshot) => snapshot,
                Answer::NotFound => continue,
            };
            check_status(snapshot.status.as_deref())?;
            for ticker in snapshot.tickers.unwrap_or_default() {
                if let Some(quote) = ticker.into_quote(at)? {
                    found.push(quote);
                }
            }
        }
        // In the order asked, once each.
        let mut ordered = Vec::with_capacity(found.len());
        for symbol in symbols {
            if let Some(i) = found.iter().position(|q| &q.symbol == symbol) {
                ordered.push(found.swap_remove(i));
            }
        }
        Ok(ordered)
    }

    /// Ticker details: name, sector (from the SIC code), market cap, shares outstanding.
    ///
    /// # Errors
    ///
    /// See the module documentation.
    pub async fn fetch_company(&self, symbol: &str) -> Result<CompanyInfo, MarketError> {
        let symbol = checked_symbol(symbol)?;
        let url = self.endpoint(&["v3", "reference", "tickers", symbol]);
        let details: TickerDetails = match self.get_json(url).await? {
            Answer::Found(details) => details,
            Answer::NotFound => return Err(MarketError::UnknownSymbol(symbol.to_owned())),
        };
        let Some(results) = details.results else {
            return Err(MarketError::UnknownSymbol(symbol.to_owned()));
        };
        let name = results.name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).unwrap_or_else(|| format!("{symbol} Company"));
        let shares = results
            .share_class_shares_outstanding
            .or(results.weighted_shares_outstanding)
            .filter(|s| s.is_finite() && *s > 0.0)
            // Share counts are far below 2^53; the cast saturates in any case.
            .map(|s| s.round() as u64);
        Ok(CompanyInfo {
            symbol: symbol.to_owned(),
            name,
            sector: sector_from_sic(results.sic_code.as_deref(), results.sic_description.as_deref()),
            market_cap: results.market_cap.filter(|m| m.is_finite() && *m > 0.0),
            shares_outstanding: shares,
        })
    }

    /// Exchange rates from the previous daily close of the forex pairs `C:USDEUR` and
    /// `C:USDGBP` (`c`: units per USD); `as_of` is the start (`t`) of the older of the two
    /// bars.
    ///
    /// # Errors
    ///
    /// See the module documentation; a pair Polygon does not find or answers without a
    /// result, for another ticker, or with a rate that is not positive is
    /// [`MarketError::InvalidResponse`].
    pub async fn fetch_exchange_rates(&self) -> Result<ExchangeRates, MarketError> {
        let mut rates = Vec::with_capacity(FOREX_PAIRS.len());
        let mut as_of = DateTime::<Utc>::MAX_UTC;
        for (currency, ticker) in FOREX_PAIRS {
            let invalid = |why: &str| MarketError::InvalidResponse(format!("Polygon {ticker}: {why}"));
            let url = self.endpoint(&["v2", "aggs", "ticker", ticker, "prev"]);
            let page: PreviousClose = match self.get_json(url).await? {
                Answer::Found(page) => page,
                Answer::NotFound => return Err(invalid("not found")),
            };
            check_status(page.status.as_deref())?;
            let Some(close) = page.results.and_then(|r| r.into_iter().next()) else {
                return Err(invalid("no previous close"));
            };
            if close.ticker.as_deref().is_some_and(|t| t != ticker) {
                return Err(invalid("answered for another ticker"));
            }
            let t = Utc.timestamp_millis_opt(close.t).single().ok_or_else(|| invalid("timestamp out of range"))?;
            as_of = as_of.min(t);
            rates.push((currency, close.c));
        }
        ExchangeRates::new(&rates, as_of, self.provider_name())
    }

    fn endpoint(&self, segments: &[&str]) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().extend(segments);
        }
        url
    }

    /// A `next_url` to follow, only on the configured origin (the key must not travel
    /// anywhere else).
    fn same_origin(&self, next: &str) -> Result<Url, MarketError> {
        let url = Url::parse(next).map_err(|_| MarketError::InvalidResponse("next_url is not a URL".to_owned()))?;
        if url.origin() == self.base.origin() {
            Ok(url)
        } else {
            Err(MarketError::InvalidResponse(format!("next_url leads to another host ({})", url.host_str().unwrap_or("?"))))
        }
    }

    /// GET `url` as JSON with the retry and rate-limit policy.
    async fn get_json<T: DeserializeOwned>(&self, url: Url) -> Result<Answer<T>, MarketError> {
        let endpoint = url.path().to_owned();
        let mut attempt: u32 = 0;
        loop {
            self.limiter.acquire().await;
            let outcome = self.http.get(url.clone()).header(AUTHORIZATION, &self.auth).send().await;
            let retry_in = match outcome {
                Err(error) => {
                    let why = self.describe(&error);
                    if attempt >= self.max_retries {
                        return Err(MarketError::Unavailable(format!("Polygon {endpoint}: {why} (after {} attempts)", attempt + 1)));
                    }
                    tracing::warn!(provider = "polygon", %endpoint, attempt, error = %why, "request failed; retrying");
                    self.backoff(attempt)
                }
                Ok(response) => {
                    let status = response.status();
                    if status.is_success() {
                        match response.bytes().await {
                            Ok(body) => {
                                return serde_json::from_slice(&body)
                                    .map(Answer::Found)
                                    .map_err(|e| MarketError::InvalidResponse(format!("Polygon {endpoint}: {e}")));
                            }
                            Err(error) if attempt < self.max_retries => {
                                let why = self.describe(&error);
                                tracing::warn!(provider = "polygon", %endpoint, attempt, error = %why, "reading the answer failed; retrying");
                                self.backoff(attempt)
                            }
                            Err(error) => {
                                return Err(MarketError::Unavailable(format!("Polygon {endpoint}: {}", self.describe(&error))));
                            }
                        }
                    } else if status == StatusCode::TOO_MANY_REQUESTS {
                        let wait = retry_after(response.headers()).unwrap_or_else(|| self.backoff(attempt));
                        if attempt >= self.max_retries || wait > self.max_retry_wait {
                            return Err(MarketError::RateLimited { retry_after: wait });
                        }
                        tracing::warn!(provider = "polygon", %endpoint, attempt, wait_ms = wait.as_millis(), "rate limited; waiting");
                        wait
                    } else if status.is_server_error() {
                        if attempt >= self.max_retries {
                            let message = self.message(response).await;
                            return Err(MarketError::Unavailable(format!(
                                "Polygon {endpoint} answered {status}{message} (after {} attempts)",
                                attempt + 1
                            )));
                        }
                        tracing::warn!(provider = "polygon", %endpoint, attempt, %status, "server error; retrying");
                        self.backoff(attempt)
                    } else if status == StatusCode::UNAUTHORIZED {
                        return Err(MarketError::Unavailable("API key rejected".to_owned()));
                    } else if status == StatusCode::FORBIDDEN {
                        let message = self.message(response).await;
                        return Err(MarketError::Unavailable(format!("API key rejected: not entitled to {endpoint}{message}")));
                    } else if status == StatusCode::NOT_FOUND {
                        return Ok(Answer::NotFound);
                    } else {
                        let message = self.message(response).await;
                        return Err(MarketError::InvalidResponse(format!("Polygon {endpoint} answered {status}{message}")));
                    }
                }
            };
            tokio::time::sleep(retry_in).await;
            attempt += 1;
        }
    }

    fn backoff(&self, attempt: u32) -> Duration {
        self.retry_base_delay.saturating_mul(2u32.saturating_pow(attempt)).min(self.max_retry_wait)
    }

    /// A transport error without its URL (and so without anything secret).
    fn describe(&self, error: &reqwest::Error) -> String {
        let kind = if error.is_timeout() {
            "timed out"
        } else if error.is_connect() {
            "could not connect"
        } else {
            "request failed"
        };
        let detail = redact(&error_chain(error), &self.api_key);
        format!("{kind}: {detail}")
    }

    /// `": {message}"` from an error answer's body (`message` or `error` field), shortened and
    /// with the key blanked out; empty when there is none.
    async fn message(&self, response: reqwest::Response) -> String {
        let Ok(body) = response.bytes().await else {
            return String::new();
        };
        let text = serde_json::from_slice::<ErrorBody>(&body).ok().and_then(|b| b.message.or(b.error)).unwrap_or_default();
        let text: String = redact(text.trim(), &self.api_key).chars().take(MAX_MESSAGE).collect();
        if text.is_empty() { String::new() } else { format!(": {text}") }
    }
}

fn error_chain(error: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn redact(text: &str, secret: &str) -> String {
    if secret.is_empty() { text.to_owned() } else { text.replace(secret, "<redacted>") }
}

/// `Retry-After` as seconds (the form Polygon and most APIs send) or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = DateTime::parse_from_rfc2822(value).ok()?;
    // An HTTP date is relative to the real clock: the only clock this adapter reads.
    let wait = when.with_timezone(&Utc) - Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

fn check_status(status: Option<&str>) -> Result<(), MarketError> {
    match status {
        Some("ERROR" | "NOT_AUTHORIZED") => {
            Err(MarketError::InvalidResponse(format!("Polygon answered status {}", status.unwrap_or_default())))
        }
        _ => Ok(()),
    }
}

/// The product's sector for a company's SIC code (Standard Industrial Classification, as
/// Polygon's ticker details give it), falling back to keywords of the SIC description, and
/// to Technology (`Sector::default()`, as for a symbol added without a sector) when neither
/// says.
///
/// ```
/// use strikeline_market::Sector;
/// use strikeline_market::polygon::sector_from_sic;
///
/// assert_eq!(sector_from_sic(Some("3571"), Some("ELECTRONIC COMPUTERS")), Sector::Technology);
/// assert_eq!(sector_from_sic(Some("6021"), Some("NATIONAL COMMERCIAL BANKS")), Sector::Financial);
/// assert_eq!(sector_from_sic(None, Some("REAL ESTATE INVESTMENT TRUSTS")), Sector::RealEstate);
/// ```
pub fn sector_from_sic(code: Option<&str>, description: Option<&str>) -> Sector {
    code.and_then(|c| c.trim().parse::<u32>().ok())
        .and_then(sector_from_sic_code)
        .or_else(|| description.and_then(sector_from_sic_description))
        .unwrap_or_default()
}

fn sector_from_sic_code(code: u32) -> Option<Sector> {
    use Sector::{Communications, Consumer, Energy, Financial, Healthcare, Industrial, Materials, RealEstate, Technology, Utilities};
    let sector = match code {
        100..=999 => Consumer,                   // agriculture, forestry, fishing
        1311 | 1381..=1389 => Energy,            // crude petroleum and natural gas, oil-field services
        1000..=1499 => Materials,                // mining
        1500..=1799 => Industrial,               // construction
        2000..=2399 => Consumer,                 // food, tobacco, textiles, apparel
        2400..=2499 | 2600..=2699 => Materials,  // lumber, paper
        2500..=2599 => Consumer,                 // furniture
        2700..=2799 => Communications,           // printing and publishing
        2830..=2836 => Healthcare,               // drugs
        2840..=2844 => Consumer,                 // soaps, cosmetics
        2800..=2899 => Materials,                // chemicals
        2900..=2999 => Energy,                   // petroleum refining
        3000..=3099 | 3200..=3399 => Materials,  // rubber, plastics, glass, metals
        3100..=3199 => Consumer,                 // leather
        3570..=3579 | 3660..=3699 => Technology, // computers, communications equipment, semiconductors
        3630..=3639 | 3650..=3659 => Consumer,   // household appliances, audio and video
        3711 | 3714 | 3716 | 3751 => Consumer,   // motor vehicles, parts, motor homes, motorcycles
        3400..=3799 => Industrial,               // machinery, electrical equipment, aircraft
        3840..=3851 => Healthcare,               // medical instruments and supplies
        3800..=3899 => Technology,               // measuring and control instruments
        3900..=3999 => Consumer,                 // jewelry, toys, misc. manufacturing
        4800..=4899 => Communications,           // telephone, radio, television, cable
        4950..=4959 => Industrial,               // waste management
        4900..=4999 => Utilities,                // electric, gas, water
        4000..=4799 => Industrial,               // transportation
        5122 => Healthcare,                      // drugs wholesale
        5000..=5199 => Industrial,               // wholesale
        5200..=5999 => Consumer,                 // retail
        6324 => Healthcare,                      // hospital and medical service plans
        6500..=6553 | 6798 => RealEstate,        // real estate, REITs
        6000..=6799 => Financial,                // banks, insurance, brokers, holding companies
        7370..=7379 => Technology,               // software, data processing
        7812..=7829 | 7841 => Communications,    // motion pictures, video
        7000..=7299 | 7900..=7999 => Consumer,   // hotels, personal services, amusement
        8000..=8099 => Healthcare,               // health services
        8200..=8299 => Consumer,                 // education
        7300..=8999 => Industrial,               // business, engineering and other services
        _ => return None,
    };
    Some(sector)
}

fn sector_from_sic_description(description: &str) -> Option<Sector> {
    let d = description.to_ascii_uppercase();
    let any = |words: &[&str]| words.iter().any(|w| d.contains(w));
    let sector = if any(&["REAL ESTATE", "REIT"]) {
        Sector::RealEstate
    } else if any(&["PHARMA", "MEDIC", "HEALTH", "HOSPITAL", "BIOLOG", "SURGICAL", "DENTAL"]) {
        Sector::Healthcare
    } else if any(&["SOFTWARE", "COMPUTER", "SEMICONDUCTOR", "ELECTRONIC", "DATA PROCESSING"]) {
        Sector::Technology
    } else if any(&["BANK", "INSURANCE", "INVEST", "FINANC", "CREDIT", "BROKER", "SAVINGS"]) {
        Sector::Financial
    } else if any(&["PETROLEUM", "CRUDE", "OIL", "NATURAL GAS", "COAL"]) {
        Sector::Energy
    } else if any(&["ELECTRIC SERVICES", "GAS DISTRIBUTION", "WATER SUPPLY", "UTILIT"]) {
        Sector::Utilities
    } else if any(&["TELEPHONE", "TELEVISION", "BROADCAST", "COMMUNICATION", "RADIO", "PUBLISHING"]) {
        Sector::Communications
    } else if any(&["CHEMICAL", "METAL", "MINING", "STEEL", "PAPER", "GOLD", "LUMBER"]) {
        Sector::Materials
    } else if any(&["RETAIL", "FOOD", "BEVERAGE", "APPAREL", "RESTAURANT", "EATING", "HOTEL", "MOTOR VEHICLE"]) {
        Sector::Consumer
    } else if any(&["MACHINERY", "AIRCRAFT", "TRANSPORT", "CONSTRUCTION", "TRUCK", "RAILROAD", "SERVICES"]) {
        Sector::Industrial
    } else {
        return None;
    };
    Some(sector)
}

// ----- wire formats -----

#[derive(Deserialize)]
struct ErrorBody {
    message: Option<String>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct AggregatesPage {
    status: Option<String>,
    results: Option<Vec<Aggregate>>,
    next_url: Option<String>,
}

/// One aggregate window: `t` is the Unix millisecond start of the window (midnight New York
/// for daily bars).
#[derive(Deserialize)]
struct Aggregate {
    t: i64,
    o: f64,
    h: f64,
    l: f64,
    c: f64,
    v: f64,
}

impl Aggregate {
    fn into_bar(self) -> Result<DailyBar, MarketError> {
        let invalid = |what: &str| MarketError::InvalidResponse(format!("aggregate {what}"));
        let start = Utc.timestamp_millis_opt(self.t).single().ok_or_else(|| invalid("timestamp out of range"))?;
        let prices = [self.o, self.h, self.l, self.c];
        if !prices.iter().all(|p| p.is_finite() && *p > 0.0) {
            return Err(invalid("with a non-positive price"));
        }
        if !(self.v.is_finite() && self.v >= 0.0) {
            return Err(invalid("with a negative volume"));
        }
        Ok(DailyBar {
            date: to_new_york(start).date_naive(),
            open: self.o,
            // Adjusted figures are rounded separately; keep the bar consistent.
            high: self.h.max(self.o).max(self.c),
            low: self.l.min(self.o).min(self.c),
            close: self.c,
            // Finite and non-negative; `as` saturates at u64::MAX.
            volume: self.v.round() as u64,
        })
    }
}

#[derive(Deserialize)]
struct PreviousClose {
    status: Option<String>,
    results: Option<Vec<ForexClose>>,
}

/// A forex previous-close bar, only what the rate needs: `c` is the close (units of the
/// quote currency per unit of the base), `t` the Unix millisecond start of the day.
#[derive(Deserialize)]
struct ForexClose {
    #[serde(rename = "T")]
    ticker: Option<String>,
    c: f64,
    t: i64,
}

#[derive(Deserialize)]
struct Snapshot {
    status: Option<String>,
    tickers: Option<Vec<TickerSnapshot>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TickerSnapshot {
    ticker: String,
    day: Option<Bar>,
    prev_day: Option<Bar>,
    min: Option<Bar>,
    last_trade: Option<Trade>,
    /// Nanoseconds since the Unix epoch.
    updated: Option<i64>,
}

/// A snapshot aggregate; Polygon zeroes fields it has no data for yet (before the open).
#[derive(Deserialize, Default, Clone, Copy)]
struct Bar {
    #[serde(default)]
    o: f64,
    #[serde(default)]
    h: f64,
    #[serde(default)]
    l: f64,
    #[serde(default)]
    c: f64,
    #[serde(default)]
    v: f64,
}

#[derive(Deserialize)]
struct Trade {
    p: Option<f64>,
    /// Nanoseconds since the Unix epoch.
    t: Option<i64>,
}

fn positive(x: f64) -> Option<f64> {
    (x.is_finite() && x > 0.0).then_some(x)
}

/// An epoch timestamp in s, ms, µs or ns (Polygon mixes them), as an instant.
fn epoch_instant(value: i64) -> Option<DateTime<Utc>> {
    let nanos = match value.unsigned_abs() {
        0 => return None,
        n if n >= 100_000_000_000_000_000 => value,
        n if n >= 100_000_000_000_000 => value.checked_mul(1_000)?,
        n if n >= 100_000_000_000 => value.checked_mul(1_000_000)?,
        _ => value.checked_mul(1_000_000_000)?,
    };
    Some(Utc.timestamp_nanos(nanos))
}

impl TickerSnapshot {
    fn into_quote(self, at: DateTime<Utc>) -> Result<Option<Quote>, MarketError> {
        let day = self.day.unwrap_or_default();
        let prev = self.prev_day.unwrap_or_default();
        let min = self.min.unwrap_or_default();
        let last = self.last_trade.as_ref().and_then(|t| t.p).and_then(positive);
        let Some(price) = last.or_else(|| positive(min.c)).or_else(|| positive(day.c)).or_else(|| positive(prev.c)) else {
            // Listed but never traded: nothing to quote.
            return Ok(None);
        };
        if !(day.v.is_finite() && day.v >= 0.0) {
            return Err(MarketError::InvalidResponse(format!("snapshot of {} with a negative volume", self.ticker)));
        }
        let day_open = positive(day.o).unwrap_or(price);
        let quoted_at = self
            .updated
            .and_then(epoch_instant)
            .or_else(|| self.last_trade.as_ref().and_then(|t| t.t).and_then(epoch_instant))
            .unwrap_or(at);
        Ok(Some(Quote {
            symbol: self.ticker,
            price,
            previous_close: positive(prev.c).unwrap_or(price),
            day_open,
            day_high: positive(day.h).map_or(price.max(day_open), |h| h.max(price)),
            day_low: positive(day.l).map_or(price.min(day_open), |l| l.min(price)),
            // Finite and non-negative; `as` saturates.
            volume: day.v.round() as u64,
            at: quoted_at,
        }))
    }
}

#[derive(Deserialize)]
struct TickerDetails {
    results: Option<TickerResults>,
}

#[derive(Deserialize)]
struct TickerResults {
    name: Option<String>,
    market_cap: Option<f64>,
    sic_code: Option<String>,
    sic_description: Option<String>,
    share_class_shares_outstanding: Option<f64>,
    weighted_shares_outstanding: Option<f64>,
}

impl MarketData for PolygonClient {
    fn provider_name(&self) -> &'static str {
        "polygon"
    }

    fn quotes<'a>(&'a self, symbols: &'a [String], at: DateTime<Utc>) -> MarketFuture<'a, Vec<Quote>> {
        Box::pin(self.fetch_quotes(symbols, at))
    }

    fn daily_bars<'a>(&'a self, symbol: &'a str, from: NaiveDate, to: NaiveDate) -> MarketFuture<'a, Vec<DailyBar>> {
        Box::pin(self.fetch_daily_bars(symbol, from, to))
    }

    fn company<'a>(&'a self, symbol: &'a str) -> MarketFuture<'a, CompanyInfo> {
        Box::pin(self.fetch_company(symbol))
    }

    /// The latest previous closes whatever `at` says
    /// ([`PolygonClient::fetch_exchange_rates`]).
    fn exchange_rates<'a>(&'a self, _at: DateTime<Utc>) -> MarketFuture<'a, ExchangeRates> {
        Box::pin(self.fetch_exchange_rates())
    }

    /// The latest quotes whatever `at` says ([`PolygonClient::fetch_option_chain`]).
    fn option_chain<'a>(&'a self, symbol: &'a str, query: ChainQuery, at: DateTime<Utc>) -> MarketFuture<'a, OptionChain> {
        Box::pin(self.fetch_option_chain(symbol, query, at))
    }
}

/// A sliding one-minute window over request start times.
struct RateLimiter {
    limit: usize,
    window: Duration,
    starts: Mutex<VecDeque<tokio::time::Instant>>,
}

impl RateLimiter {
    fn per_minute(limit: u32) -> Self {
        Self { limit: usize::try_from(limit).unwrap_or(usize::MAX), window: Duration::from_secs(60), starts: Mutex::new(VecDeque::new()) }
    }

    /// Waits until a request may start, and counts it.
    async fn acquire(&self) {
        if self.limit == 0 {
            return;
        }
        loop {
            let wait = {
                let mut starts = self.starts.lock().unwrap_or_else(PoisonError::into_inner);
                let now = tokio::time::Instant::now();
                while starts.front().is_some_and(|&t| now.duration_since(t) >= self.window) {
                    starts.pop_front();
                }
                if starts.len() < self.limit {
                    starts.push_back(now);
                    return;
                }
                starts.front().map_or(Duration::ZERO, |&oldest| self.window - now.duration_since(oldest))
            };
            tracing::debug!(provider = "polygon", wait_ms = wait.as_millis(), "client-side rate limit; waiting");
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_limiter_lets_n_requests_a_minute_through() {
        let limiter = RateLimiter::per_minute(5);
        let start = tokio::time::Instant::now();
        for _ in 0..5 {
            limiter.acquire().await;
        }
        assert_eq!(start.elapsed(), Duration::ZERO);
        limiter.acquire().await; // the sixth waits for the first to leave the window
        assert_eq!(start.elapsed(), Duration::from_secs(60));
        for _ in 0..4 {
            limiter.acquire().await;
        }
        assert_eq!(start.elapsed(), Duration::from_secs(60));
        limiter.acquire().await;
        assert_eq!(start.elapsed(), Duration::from_secs(120));
    }

    #[tokio::test(start_paused = true)]
    async fn no_limit_means_no_wait() {
        let limiter = RateLimiter::per_minute(0);
        let start = tokio::time::Instant::now();
        for _ in 0..1000 {
            limiter.acquire().await;
        }
        assert_eq!(start.elapsed(), Duration::ZERO);
    }

    #[test]
    fn retry_after_reads_seconds() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(RETRY_AFTER, "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap());
        assert_eq!(retry_after(&headers), Some(Duration::ZERO));
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn epoch_units_are_recognised() {
        let t = Utc.with_ymd_and_hms(2024, 1, 4, 21, 0, 0).unwrap();
        let s = t.timestamp();
        assert_eq!(epoch_instant(s), Some(t));
        assert_eq!(epoch_instant(s * 1_000), Some(t));
        assert_eq!(epoch_instant(s * 1_000_000), Some(t));
        assert_eq!(epoch_instant(s * 1_000_000_000), Some(t));
        assert_eq!(epoch_instant(0), None);
    }

    #[test]
    fn sic_codes_map_to_sectors() {
        let cases = [
            ("3571", "ELECTRONIC COMPUTERS", Sector::Technology),
            ("7372", "SERVICES-PREPACKAGED SOFTWARE", Sector::Technology),
            ("3674", "SEMICONDUCTORS & RELATED DEVICES", Sector::Technology),
            ("5961", "RETAIL-CATALOG & MAIL-ORDER HOUSES", Sector::Consumer),
            ("3711", "MOTOR VEHICLES & PASSENGER CAR BODIES", Sector::Consumer),
            ("6021", "NATIONAL COMMERCIAL BANKS", Sector::Financial),
            ("2834", "PHARMACEUTICAL PREPARATIONS", Sector::Healthcare),
            ("6324", "HOSPITAL & MEDICAL SERVICE PLANS", Sector::Healthcare),
            ("2911", "PETROLEUM REFINING", Sector::Energy),
            ("1311", "CRUDE PETROLEUM & NATURAL GAS", Sector::Energy),
            ("4911", "ELECTRIC SERVICES", Sector::Utilities),
            ("6798", "REAL ESTATE INVESTMENT TRUSTS", Sector::RealEstate),
            ("4813", "TELEPHONE COMMUNICATIONS (NO RADIOTELEPHONE)", Sector::Communications),
            ("2810", "INDUSTRIAL INORGANIC CHEMICALS", Sector::Materials),
            ("1040", "GOLD AND SILVER ORES", Sector::Materials),
            ("3721", "AIRCRAFT", Sector::Industrial),
            ("3531", "CONSTRUCTION MACHINERY & EQUIP", Sector::Industrial),
            ("2080", "BEVERAGES", Sector::Consumer),
        ];
        for (code, description, sector) in cases {
            assert_eq!(sector_from_sic(Some(code), Some(description)), sector, "{code} {description}");
            assert_eq!(sector_from_sic(None, Some(description)), sector, "{description}");
        }
        assert_eq!(sector_from_sic(None, None), Sector::Technology);
        assert_eq!(sector_from_sic(Some("x"), Some("SOMETHING ELSE")), Sector::Technology);
    }

    #[test]
    fn the_key_stays_out_of_debug_output() {
        let config = PolygonConfig::new("sk-very-secret");
        assert!(!format!("{config:?}").contains("sk-very-secret"));
        let client = PolygonClient::new(config).unwrap();
        assert!(!format!("{client:?}").contains("sk-very-secret"));
        assert!(PolygonClient::new(PolygonConfig::new("  ")).is_err());
        let mut bad = PolygonConfig::new("k");
        bad.base_url = "ftp://example.com".to_owned();
        assert!(PolygonClient::new(bad).is_err());
    }
}
