//! A client for Alpaca's trading API (docs/execution.md): options orders, single-leg and
//! multi-leg (`order_class: mleg`), on the paper or the live endpoint, with an account's own
//! keys. Orders carry our client order id, so a retry after a lost answer finds the order
//! instead of placing it twice. Rate-limit answers (429) are waited out within a bound;
//! rejections (403 buying power, 422 terms) come back as a reason in words.
//!
//! Tested against a local fake that speaks the same HTTP API (tests/it/alpaca.rs).

use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_engine::broker::{Contract, Order, OrderType, Right, Side, TimeInForce};

use crate::foundation::clock::Clock;

pub use crate::foundation::config::{ALPACA_LIVE_URL as LIVE_URL, ALPACA_PAPER_URL as PAPER_URL};

/// How many times one request is sent while Alpaca answers 429.
const ATTEMPTS: u32 = 4;

/// Why a call did not get Alpaca's answer about the order.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AlpacaError {
    /// The keys were refused (401): the account must be connected again.
    #[error("Alpaca refused the account's keys")]
    Unauthorized,
    /// Still rate limited after every attempt; the order stays unsent and is resumed later.
    #[error("Alpaca's rate limit: try again later")]
    RateLimited,
    /// Alpaca could not be reached or answered with a server error or an answer we cannot read.
    #[error("Alpaca is unavailable: {0}")]
    Unavailable(String),
    /// No order with that id.
    #[error("Alpaca has no such order")]
    NotFound,
}

/// Whether the order opens or closes a position (Alpaca's `position_intent`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    Open,
    Close,
}

/// An order as Alpaca reports it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct AlpacaOrder {
    pub id: String,
    pub client_order_id: String,
    /// `new`, `accepted`, `pending_new`, `partially_filled`, `filled`, `canceled`, `expired`,
    /// `rejected`, …
    pub status: String,
    /// Units filled so far (a decimal string).
    pub filled_qty: String,
    /// The average net price per share of what filled (a decimal string), once anything has.
    pub filled_avg_price: Option<String>,
}

impl AlpacaOrder {
    /// Units filled so far.
    pub fn filled_units(&self) -> u32 {
        self.filled_qty.parse::<f64>().ok().filter(|q| q.is_finite() && *q >= 0.0).map_or(0, |q| q as u32)
    }

    /// The average price per share of what filled.
    pub fn average_price(&self) -> Option<f64> {
        self.filled_avg_price.as_deref().and_then(|p| p.parse::<f64>().ok()).filter(|p| p.is_finite())
    }
}

/// What Alpaca answered to an order sent.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// It holds the order (in whatever state it reports).
    Placed(AlpacaOrder),
    /// It refused the order, with its reason.
    Rejected(String),
}

/// The OCC symbol of a contract, as Alpaca names options: root, expiration (YYMMDD), C or P,
/// strike × 1000 in eight digits. `AAPL` call at $150 on 2025-03-21: `AAPL250321C00150000`.
pub fn occ_symbol(contract: &Contract) -> String {
    let right = match contract.right {
        Right::Call => 'C',
        Right::Put => 'P',
    };
    format!("{}{}{right}{:08}", contract.underlying, contract.expiration.format("%y%m%d"), contract.strike_cents * 10)
}

/// The contract an OCC symbol names, or `None` when it names none (a stock, a strike finer
/// than a cent, a date that does not exist).
#[must_use]
pub fn parse_occ(symbol: &str) -> Option<Contract> {
    let symbol = symbol.trim();
    let split = symbol.len().checked_sub(15)?;
    let (root, tail) = (symbol.get(..split)?, symbol.get(split..)?);
    if !(1..=6).contains(&root.len()) || !root.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '.') {
        return None;
    }
    let expiration = chrono::NaiveDate::parse_from_str(&format!("20{}", tail.get(..6)?), "%Y%m%d").ok()?;
    let right = match tail.get(6..7)? {
        "C" => Right::Call,
        "P" => Right::Put,
        _ => return None,
    };
    let digits = tail.get(7..)?;
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let thousandths: i64 = digits.parse().ok()?;
    (thousandths % 10 == 0).then(|| Contract { underlying: root.to_owned(), right, strike_cents: thousandths / 10, expiration })
}

/// One of Alpaca's positions (`GET /v2/positions`): quantities come as decimal strings.
#[derive(Debug, Clone, Deserialize)]
pub struct AlpacaPosition {
    pub symbol: String,
    pub qty: String,
    #[serde(default)]
    pub side: Option<String>,
    /// `us_equity`, `us_option`, `crypto`.
    #[serde(default)]
    pub asset_class: Option<String>,
}

impl AlpacaPosition {
    /// Contracts held: negative when short (Alpaca signs short quantities; a positive quantity
    /// marked short is taken as short too).
    #[must_use]
    pub fn contracts(&self) -> Option<i64> {
        let qty: f64 = self.qty.trim().parse().ok().filter(|q: &f64| q.is_finite() && q.fract() == 0.0)?;
        let n = qty as i64;
        Some(if self.side.as_deref() == Some("short") && n > 0 { -n } else { n })
    }
}

/// One of the account's activities at Alpaca (`GET /v2/account/activities/{type}`): a fee's
/// `net_amount` is negative, a decimal string.
#[derive(Debug, Clone, Deserialize)]
pub struct AlpacaActivity {
    pub id: String,
    #[serde(default)]
    pub net_amount: Option<String>,
    /// What the fee is for (`ORF`, `OCC`, `TAF`, ...), when Alpaca says.
    #[serde(default)]
    pub activity_sub_type: Option<String>,
    /// The day it was charged, when Alpaca says.
    #[serde(default)]
    pub date: Option<chrono::NaiveDate>,
}

/// Pages of activities read at most: 100 each.
const ACTIVITY_PAGES: usize = 10;

/// The account as Alpaca reports it (`GET /v2/account`): amounts as decimal strings.
#[derive(Debug, Clone, Deserialize)]
pub struct AlpacaAccount {
    pub cash: String,
    #[serde(default)]
    pub options_buying_power: Option<String>,
}

#[derive(Serialize)]
struct LegRequest {
    symbol: String,
    ratio_qty: String,
    side: &'static str,
    position_intent: &'static str,
}

#[derive(Serialize)]
struct OrderRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    symbol: Option<String>,
    qty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position_intent: Option<&'static str>,
    #[serde(rename = "type")]
    order_type: &'static str,
    time_in_force: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit_price: Option<String>,
    client_order_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    order_class: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legs: Option<Vec<LegRequest>>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Buy => "buy",
        Side::Sell => "sell",
    }
}

fn intent_name(side: Side, intent: Intent) -> &'static str {
    match (side, intent) {
        (Side::Buy, Intent::Open) => "buy_to_open",
        (Side::Sell, Intent::Open) => "sell_to_open",
        (Side::Buy, Intent::Close) => "buy_to_close",
        (Side::Sell, Intent::Close) => "sell_to_close",
    }
}

/// The request body for `order`: one leg as a plain options order, several as `mleg`.
fn request_of(order: &Order, intent: Intent) -> OrderRequest {
    let (order_type, limit_price) = match order.order_type {
        OrderType::Market => ("market", None),
        OrderType::Limit { price } => ("limit", Some(format!("{price:.2}"))),
    };
    let mut request = OrderRequest {
        symbol: None,
        qty: order.quantity.to_string(),
        side: None,
        position_intent: None,
        order_type,
        time_in_force: "day",
        limit_price,
        client_order_id: order.client_order_id.clone(),
        order_class: None,
        legs: None,
    };
    match order.legs.as_slice() {
        [leg] if leg.ratio == 1 => {
            request.symbol = Some(occ_symbol(&leg.contract));
            request.side = Some(side_name(leg.side));
            request.position_intent = Some(intent_name(leg.side, intent));
        }
        legs => {
            request.order_class = Some("mleg");
            request.legs = Some(
                legs.iter()
                    .map(|leg| LegRequest {
                        symbol: occ_symbol(&leg.contract),
                        ratio_qty: leg.ratio.to_string(),
                        side: side_name(leg.side),
                        position_intent: intent_name(leg.side, intent),
                    })
                    .collect(),
            );
        }
    }
    request
}

/// Alpaca's error body: `{"code": 40310000, "message": "insufficient buying power"}`.
#[derive(Deserialize)]
struct ErrorBody {
    message: Option<String>,
}

/// One account's connection to Alpaca.
#[derive(Clone)]
pub struct AlpacaClient {
    http: reqwest::Client,
    base: String,
    key_id: String,
    secret: String,
    /// The longest wait for a rate limit to reset before giving up on this attempt.
    max_wait: StdDuration,
    /// The one clock, for reading a reset time.
    clock: Clock,
}

impl AlpacaClient {
    /// A client for `base` (the paper or live endpoint, or a test's fake) with an account's
    /// keys; a 429 is waited out for at most `max_wait` each time.
    pub fn new(base: &str, key_id: &str, secret: &str, max_wait: StdDuration, clock: Clock) -> Result<AlpacaClient, AlpacaError> {
        let http = reqwest::Client::builder()
            .timeout(StdDuration::from_secs(15))
            .connect_timeout(StdDuration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AlpacaError::Unavailable(e.to_string()))?;
        Ok(AlpacaClient {
            http,
            base: base.trim_end_matches('/').to_owned(),
            key_id: key_id.to_owned(),
            secret: secret.to_owned(),
            max_wait,
            clock,
        })
    }

    /// Sends a request, waiting out 429s (Retry-After, or X-Ratelimit-Reset as a Unix time)
    /// up to [`ATTEMPTS`] times. The status and body of the first other answer.
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<&OrderRequest>) -> Result<(u16, String), AlpacaError> {
        let url = format!("{}{path}", self.base);
        for _ in 0..ATTEMPTS {
            let mut request =
                self.http.request(method.clone(), &url).header("APCA-API-KEY-ID", &self.key_id).header("APCA-API-SECRET-KEY", &self.secret);
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await.map_err(|e| AlpacaError::Unavailable(e.to_string()))?;
            let status = response.status().as_u16();
            if status == 429 {
                tokio::time::sleep(self.rate_limit_wait(response.headers())).await;
                continue;
            }
            let text = response.text().await.map_err(|e| AlpacaError::Unavailable(e.to_string()))?;
            return match status {
                401 => Err(AlpacaError::Unauthorized),
                404 => Err(AlpacaError::NotFound),
                500..=599 => Err(AlpacaError::Unavailable(format!("HTTP {status}"))),
                _ => Ok((status, text)),
            };
        }
        Err(AlpacaError::RateLimited)
    }

    /// How long a 429 asks to wait, within [`AlpacaClient::max_wait`].
    fn rate_limit_wait(&self, headers: &reqwest::header::HeaderMap) -> StdDuration {
        let number = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
        let asked = number("retry-after").map(StdDuration::from_secs).or_else(|| {
            let reset = number("x-ratelimit-reset")?;
            let now = u64::try_from(self.clock.now().timestamp()).ok()?;
            Some(StdDuration::from_secs(reset.saturating_sub(now)))
        });
        asked.unwrap_or(StdDuration::from_secs(1)).min(self.max_wait)
    }

    /// Sends `order`. Alpaca takes options orders for the day only: a good-till-cancelled one
    /// is refused here. An order whose client order id Alpaca already holds (an earlier send
    /// whose answer was lost) is read back rather than placed again.
    pub async fn submit(&self, order: &Order, intent: Intent) -> Result<Answer, AlpacaError> {
        if order.time_in_force == TimeInForce::GoodTillCancelled {
            return Ok(Answer::Rejected("Alpaca takes options orders for the day only.".to_owned()));
        }
        let (status, text) = self.call(reqwest::Method::POST, "/v2/orders", Some(&request_of(order, intent))).await?;
        match status {
            200 | 201 => {
                serde_json::from_str::<AlpacaOrder>(&text).map(Answer::Placed).map_err(|e| AlpacaError::Unavailable(e.to_string()))
            }
            403 | 422 => {
                let message = serde_json::from_str::<ErrorBody>(&text).ok().and_then(|b| b.message).unwrap_or(text);
                if message.contains("client_order_id must be unique") {
                    return Ok(Answer::Placed(self.by_client_order_id(&order.client_order_id).await?));
                }
                Ok(Answer::Rejected(format!("Alpaca refused it: {message}.")))
            }
            other => Err(AlpacaError::Unavailable(format!("HTTP {other}"))),
        }
    }

    /// The order Alpaca holds under our client order id.
    pub async fn by_client_order_id(&self, client_order_id: &str) -> Result<AlpacaOrder, AlpacaError> {
        let path = format!("/v2/orders:by_client_order_id?client_order_id={}", urlencode(client_order_id));
        let (status, text) = self.call(reqwest::Method::GET, &path, None).await?;
        if status != 200 {
            return Err(AlpacaError::Unavailable(format!("HTTP {status}")));
        }
        serde_json::from_str(&text).map_err(|e| AlpacaError::Unavailable(e.to_string()))
    }

    /// The account's positions at Alpaca.
    pub async fn positions(&self) -> Result<Vec<AlpacaPosition>, AlpacaError> {
        self.read("/v2/positions").await
    }

    /// The account at Alpaca: its cash and options buying power.
    pub async fn account(&self) -> Result<AlpacaAccount, AlpacaError> {
        self.read("/v2/account").await
    }

    /// The fees Alpaca charged the account (activities of type `FEE`: regulatory and clearing
    /// fees, mostly charged across a day's trades rather than per fill) after `after`, newest
    /// first, up to [`ACTIVITY_PAGES`] pages of 100.
    pub async fn fees_after(&self, after: DateTime<Utc>) -> Result<Vec<AlpacaActivity>, AlpacaError> {
        let mut fees: Vec<AlpacaActivity> = Vec::new();
        let after = urlencode(&after.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        for _ in 0..ACTIVITY_PAGES {
            let mut path = format!("/v2/account/activities/FEE?after={after}&direction=desc&page_size=100");
            if let Some(last) = fees.last() {
                path.push_str(&format!("&page_token={}", urlencode(&last.id)));
            }
            let page: Vec<AlpacaActivity> = self.read(&path).await?;
            let full = page.len() == 100;
            fees.extend(page);
            if !full {
                break;
            }
        }
        Ok(fees)
    }

    async fn read<T: serde::de::DeserializeOwned>(&self, path: &str) -> Result<T, AlpacaError> {
        let (status, text) = self.call(reqwest::Method::GET, path, None).await?;
        if status != 200 {
            return Err(AlpacaError::Unavailable(format!("HTTP {status}")));
        }
        serde_json::from_str(&text).map_err(|e| AlpacaError::Unavailable(e.to_string()))
    }

    /// Asks Alpaca to cancel its order `id` (it answers 204; the order's state then says
    /// whether it was cancelled or filled first).
    pub async fn cancel(&self, id: &str) -> Result<(), AlpacaError> {
        let (status, _) = self.call(reqwest::Method::DELETE, &format!("/v2/orders/{}", urlencode(id)), None).await?;
        match status {
            200 | 204 => Ok(()),
            // Already final: nothing to cancel.
            422 => Ok(()),
            other => Err(AlpacaError::Unavailable(format!("HTTP {other}"))),
        }
    }
}

/// Percent-encodes what is not unreserved (ids are ours or Alpaca's UUIDs; this keeps a
/// stray character from changing the path).
fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use strikeline_engine::broker::Leg;

    fn contract(right: Right, strike_cents: i64) -> Contract {
        Contract { underlying: "AAPL".into(), right, strike_cents, expiration: NaiveDate::from_ymd_opt(2025, 3, 21).expect("date") }
    }

    #[test]
    fn contracts_are_named_by_their_occ_symbol() {
        assert_eq!(occ_symbol(&contract(Right::Call, 15_000)), "AAPL250321C00150000");
        assert_eq!(occ_symbol(&contract(Right::Put, 1_250)), "AAPL250321P00012500");
        for c in
            [contract(Right::Call, 15_000), contract(Right::Put, 1_250), Contract { underlying: "F".into(), ..contract(Right::Put, 5) }]
        {
            assert_eq!(parse_occ(&occ_symbol(&c)), Some(c.clone()), "read back");
        }
        // A stock, a strike finer than a cent, a date that does not exist, a lower-case root.
        for other in ["AAPL", "AAPL250321C00150005", "AAPL250231C00150000", "aapl250321C00150000", "AAPL250321X00150000", "250321C00150000"]
        {
            assert_eq!(parse_occ(other), None, "{other}");
        }
        let short = AlpacaPosition { symbol: "X".into(), qty: "2".into(), side: Some("short".into()), asset_class: None };
        assert_eq!(short.contracts(), Some(-2));
        let signed = AlpacaPosition { qty: "-3".into(), ..short.clone() };
        assert_eq!(signed.contracts(), Some(-3));
        assert_eq!(AlpacaPosition { qty: "1.5".into(), ..short }.contracts(), None);
    }

    #[test]
    fn one_leg_is_a_plain_order_and_several_are_mleg() {
        let day = NaiveDate::from_ymd_opt(2025, 3, 1).expect("date");
        let leg = |right, strike, side| Leg { contract: contract(right, strike), side, ratio: 1 };
        let single =
            Order::new("signal-1", vec![leg(Right::Call, 15_000, Side::Buy)], 2, OrderType::Market, TimeInForce::Day, day).expect("order");
        let body = serde_json::to_value(request_of(&single, Intent::Open)).expect("json");
        assert_eq!(
            body,
            serde_json::json!({"symbol": "AAPL250321C00150000", "qty": "2", "side": "buy", "position_intent": "buy_to_open",
                               "type": "market", "time_in_force": "day", "client_order_id": "signal-1"})
        );
        let spread = Order::new(
            "close-7",
            vec![leg(Right::Call, 15_000, Side::Sell), leg(Right::Put, 15_000, Side::Sell)],
            3,
            OrderType::Limit { price: -4.5 },
            TimeInForce::Day,
            day,
        )
        .expect("order");
        let body = serde_json::to_value(request_of(&spread, Intent::Close)).expect("json");
        assert_eq!(body["order_class"], "mleg");
        assert_eq!(body["limit_price"], "-4.50");
        assert_eq!(
            body["legs"][1],
            serde_json::json!({"symbol": "AAPL250321P00150000", "ratio_qty": "1", "side": "sell", "position_intent": "sell_to_close"})
        );
        assert!(body.get("symbol").is_none());
    }
}
