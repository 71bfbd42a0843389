//! Stripe, over its REST API (form-encoded requests, bearer secret key, pinned API version):
//! customers, subscriptions created `default_incomplete` so the Payment Element confirms the
//! first payment by client secret, updates for cancel, resume and change of price, and the
//! `Stripe-Signature` check of webhooks. Every write carries an idempotency key, so a retried
//! request (after a timeout, a 429 or a 5xx) is applied by Stripe once.

use std::time::Duration as StdDuration;

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

use crate::foundation::config::BillingConfig;
use crate::foundation::error::{AppError, Result};

/// The API version requests are made against (the shapes read here are that version's).
pub const API_VERSION: &str = "2024-06-20";
const ATTEMPTS: u32 = 3;

/// A Stripe API client.
#[derive(Clone)]
pub struct StripeClient {
    http: reqwest::Client,
    base: String,
    secret_key: String,
}

impl std::fmt::Debug for StripeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeClient").field("base", &self.base).finish_non_exhaustive()
    }
}

/// The parts of a Stripe subscription billing follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StripeSubscription {
    pub id: String,
    pub customer: String,
    /// `incomplete`, `active`, `past_due`, `canceled`, …
    pub status: String,
    pub current_period_start: i64,
    pub current_period_end: i64,
    pub cancel_at_period_end: bool,
    /// The subscription item whose price is the plan.
    pub item_id: String,
    pub price_id: String,
    /// The default payment method's card, when expanded.
    pub card: Option<(String, String)>,
    /// The latest invoice, when expanded.
    pub latest_invoice: Option<StripeInvoice>,
}

/// The parts of a Stripe invoice billing follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StripeInvoice {
    pub id: String,
    /// `draft`, `open`, `paid`, `void`, `uncollectible`.
    pub status: String,
    pub amount_paid: i64,
    pub amount_due: i64,
}

impl StripeInvoice {
    fn from_json(v: &Value) -> Option<StripeInvoice> {
        Some(StripeInvoice {
            id: text(v, "id")?,
            status: text(v, "status")?,
            amount_paid: v.get("amount_paid").and_then(Value::as_i64).unwrap_or(0),
            amount_due: v.get("amount_due").and_then(Value::as_i64).unwrap_or(0),
        })
    }
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

impl StripeSubscription {
    /// Reads a subscription object; `None` when a field billing needs is missing.
    pub fn from_json(v: &Value) -> Option<StripeSubscription> {
        let item = v.get("items")?.get("data")?.get(0)?;
        let customer = match v.get("customer")? {
            Value::String(id) => id.clone(),
            other => text(other, "id")?,
        };
        let card = v.get("default_payment_method").and_then(|pm| pm.get("card")).and_then(|c| Some((text(c, "brand")?, text(c, "last4")?)));
        Some(StripeSubscription {
            id: text(v, "id")?,
            customer,
            status: text(v, "status")?,
            current_period_start: v.get("current_period_start")?.as_i64()?,
            current_period_end: v.get("current_period_end")?.as_i64()?,
            cancel_at_period_end: v.get("cancel_at_period_end")?.as_bool()?,
            item_id: text(item, "id")?,
            price_id: text(item.get("price")?, "id")?,
            card,
            latest_invoice: v.get("latest_invoice").filter(|i| i.is_object()).and_then(StripeInvoice::from_json),
        })
    }

    /// Whether Stripe bills it (or is still trying to): not ended and not waiting for its first
    /// payment.
    pub fn is_live(&self) -> bool {
        matches!(self.status.as_str(), "active" | "trialing" | "past_due" | "unpaid")
    }
}

impl StripeClient {
    pub fn new(config: &BillingConfig) -> Result<StripeClient> {
        let secret_key = config.stripe_secret_key.as_ref().map(|k| k.expose().clone()).unwrap_or_default();
        let http = reqwest::Client::builder()
            .timeout(StdDuration::from_secs(15))
            .connect_timeout(StdDuration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AppError::Internal(e.into()))?;
        Ok(StripeClient { http, base: config.stripe_base_url.trim_end_matches('/').to_owned(), secret_key })
    }

    async fn send(&self, method: reqwest::Method, path: &str, form: &[(&str, String)], idempotency_key: Option<&str>) -> Result<Value> {
        let url = format!("{}{path}", self.base);
        let mut last = String::new();
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(StdDuration::from_millis(200 * 2u64.pow(attempt))).await;
            }
            let mut request = self.http.request(method.clone(), &url).bearer_auth(&self.secret_key).header("Stripe-Version", API_VERSION);
            if let Some(key) = idempotency_key {
                request = request.header("Idempotency-Key", key);
            }
            if !form.is_empty() {
                request = request.form(form);
            }
            let response = match request.send().await {
                Ok(r) => r,
                Err(e) => {
                    last = format!("{path}: {e}");
                    continue;
                }
            };
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if status.is_success() {
                return Ok(body);
            }
            let message = body.get("error").and_then(|e| text(e, "message")).unwrap_or_else(|| status.to_string());
            if status.as_u16() == 402 || body.get("error").and_then(|e| text(e, "type")).as_deref() == Some("card_error") {
                return Err(AppError::PaymentDeclined(message));
            }
            if status.as_u16() == 429 || status.is_server_error() {
                last = format!("{path}: {status} {message}");
                continue;
            }
            return Err(AppError::upstream("Payments", format!("{path}: {status} {message}")));
        }
        Err(AppError::upstream("Payments", last))
    }

    /// Creates the customer of a user (idempotent per user).
    pub async fn create_customer(&self, user_id: &str, email: &str) -> Result<String> {
        let form = [("email", email.to_owned()), ("metadata[user_id]", user_id.to_owned())];
        let body = self.send(reqwest::Method::POST, "/v1/customers", &form, Some(&format!("customer-{user_id}"))).await?;
        text(&body, "id").ok_or_else(|| AppError::upstream("Payments", "customer without an id"))
    }

    /// Creates an incomplete subscription to `price` and answers its id and the client secret
    /// the Payment Element confirms (idempotent per checkout).
    pub async fn create_subscription(&self, customer: &str, price: &str, checkout_id: &str) -> Result<(String, String)> {
        let form = [
            ("customer", customer.to_owned()),
            ("items[0][price]", price.to_owned()),
            ("payment_behavior", "default_incomplete".to_owned()),
            ("payment_settings[save_default_payment_method]", "on_subscription".to_owned()),
            ("expand[0]", "latest_invoice.payment_intent".to_owned()),
            ("metadata[checkout_id]", checkout_id.to_owned()),
        ];
        let body = self.send(reqwest::Method::POST, "/v1/subscriptions", &form, Some(&format!("checkout-{checkout_id}"))).await?;
        let id = text(&body, "id");
        let secret = body.get("latest_invoice").and_then(|i| i.get("payment_intent")).and_then(|p| text(p, "client_secret"));
        match (id, secret) {
            (Some(id), Some(secret)) => Ok((id, secret)),
            _ => Err(AppError::upstream("Payments", "subscription without a client secret")),
        }
    }

    /// The subscription as Stripe has it now (its card and latest invoice expanded).
    pub async fn subscription(&self, id: &str) -> Result<StripeSubscription> {
        let path = format!("/v1/subscriptions/{id}?expand[]=default_payment_method&expand[]=latest_invoice");
        let body = self.send(reqwest::Method::GET, &path, &[], None).await?;
        StripeSubscription::from_json(&body).ok_or_else(|| AppError::upstream("Payments", "unreadable subscription"))
    }

    /// Sets or clears cancellation at the period end.
    pub async fn set_cancel_at_period_end(&self, id: &str, cancel: bool, idempotency_key: &str) -> Result<StripeSubscription> {
        let form = [("cancel_at_period_end", cancel.to_string()), ("expand[0]", "default_payment_method".to_owned())];
        let body = self.send(reqwest::Method::POST, &format!("/v1/subscriptions/{id}"), &form, Some(idempotency_key)).await?;
        StripeSubscription::from_json(&body).ok_or_else(|| AppError::upstream("Payments", "unreadable subscription"))
    }

    /// Cancels a subscription at once (`DELETE /v1/subscriptions/{id}`): an incomplete one
    /// can no longer be paid, an active one is billed no more.
    pub async fn cancel(&self, id: &str, idempotency_key: &str) -> Result<StripeSubscription> {
        let body = self.send(reqwest::Method::DELETE, &format!("/v1/subscriptions/{id}"), &[], Some(idempotency_key)).await?;
        StripeSubscription::from_json(&body).ok_or_else(|| AppError::upstream("Payments", "unreadable subscription"))
    }

    /// Credits `cents` to the customer's balance, which Stripe takes off their next invoices.
    pub async fn credit(&self, customer: &str, cents: i64, description: &str, idempotency_key: &str) -> Result<()> {
        let form = [("amount", (-cents).to_string()), ("currency", "usd".to_owned()), ("description", description.to_owned())];
        self.send(reqwest::Method::POST, &format!("/v1/customers/{customer}/balance_transactions"), &form, Some(idempotency_key)).await?;
        Ok(())
    }

    /// Pays an open invoice with the customer's default payment method (a decline is 402 with
    /// Stripe's message).
    pub async fn pay_invoice(&self, id: &str, idempotency_key: &str) -> Result<()> {
        self.send(reqwest::Method::POST, &format!("/v1/invoices/{id}/pay"), &[], Some(idempotency_key)).await?;
        Ok(())
    }

    /// Moves the subscription to `price`, prorated and invoiced at once (a declined charge is
    /// 402 with Stripe's message; `error_if_incomplete` leaves the subscription as it was).
    pub async fn change_price(&self, sub: &StripeSubscription, price: &str, idempotency_key: &str) -> Result<StripeSubscription> {
        let form = [
            ("items[0][id]", sub.item_id.clone()),
            ("items[0][price]", price.to_owned()),
            ("proration_behavior", "always_invoice".to_owned()),
            ("payment_behavior", "error_if_incomplete".to_owned()),
            ("cancel_at_period_end", "false".to_owned()),
            ("expand[0]", "default_payment_method".to_owned()),
        ];
        let body = self.send(reqwest::Method::POST, &format!("/v1/subscriptions/{}", sub.id), &form, Some(idempotency_key)).await?;
        StripeSubscription::from_json(&body).ok_or_else(|| AppError::upstream("Payments", "unreadable subscription"))
    }
}

/// Why a webhook is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    #[error("The Stripe-Signature header is missing or malformed.")]
    Malformed,
    #[error("The signature does not match.")]
    Mismatch,
    #[error("The signed timestamp is outside the tolerance window.")]
    Stale,
}

/// The `v1` signature of `payload` signed at `timestamp` with `secret`: hex HMAC-SHA256 of
/// `"{timestamp}.{payload}"`.
pub fn sign(payload: &[u8], timestamp: i64, secret: &str) -> String {
    mac(payload, timestamp, secret).iter().map(|b| format!("{b:02x}")).collect()
}

/// HMAC-SHA256 of `"{timestamp}.{payload}"` keyed by `secret`.
fn mac(payload: &[u8], timestamp: i64, secret: &str) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(payload);
    mac.finalize().into_bytes().to_vec()
}

/// Checks `Stripe-Signature` (`t=…,v1=…[,v1=…]`) the way Stripe documents: any `v1` matching
/// in constant time, and `t` within `tolerance` seconds of `now`.
pub fn verify(payload: &[u8], header: &str, secret: &str, now: i64, tolerance: i64) -> Result<(), WebhookError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", v)) => signatures.push(v.to_owned()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(WebhookError::Malformed)?;
    if signatures.is_empty() {
        return Err(WebhookError::Malformed);
    }
    let expected = mac(payload, timestamp, secret);
    let matches = signatures.iter().any(|hex| {
        let bytes: Option<Vec<u8>> =
            (0..hex.len()).step_by(2).map(|i| hex.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok())).collect();
        bytes.is_some_and(|b| b.len() == expected.len() && b.iter().zip(expected.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0)
    });
    if !matches {
        return Err(WebhookError::Mismatch);
    }
    if (now - timestamp).abs() > tolerance {
        return Err(WebhookError::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_within_the_window_only() {
        let payload = br#"{"id":"evt_1","type":"invoice.paid"}"#;
        let secret = "whsec_test";
        let good = format!("t=1700000000,v1={}", sign(payload, 1_700_000_000, secret));
        assert_eq!(verify(payload, &good, secret, 1_700_000_100, 300), Ok(()));
        assert_eq!(verify(payload, &good, secret, 1_700_000_301, 300), Err(WebhookError::Stale));
        assert_eq!(verify(b"{}", &good, secret, 1_700_000_100, 300), Err(WebhookError::Mismatch));
        assert_eq!(verify(payload, &good, "whsec_other", 1_700_000_100, 300), Err(WebhookError::Mismatch));
        let rotated = format!("t=1700000000,v1=00,v1={}", sign(payload, 1_700_000_000, secret));
        assert_eq!(verify(payload, &rotated, secret, 1_700_000_000, 300), Ok(()), "any v1 may match");
        for bad in ["", "t=abc,v1=00", "v1=00", "t=1700000000", "t=1700000000,v0=ab"] {
            assert_eq!(verify(payload, bad, secret, 1_700_000_000, 300), Err(WebhookError::Malformed), "{bad}");
        }
    }

    #[test]
    fn a_subscription_object_is_read() {
        let v = serde_json::json!({
            "id": "sub_1", "customer": "cus_1", "status": "active", "current_period_start": 1, "current_period_end": 2,
            "cancel_at_period_end": false, "items": {"data": [{"id": "si_1", "price": {"id": "price_pro_m"}}]},
            "default_payment_method": {"card": {"brand": "visa", "last4": "4242"}}
        });
        let sub = StripeSubscription::from_json(&v).expect("read");
        assert_eq!((sub.item_id.as_str(), sub.price_id.as_str(), sub.card), ("si_1", "price_pro_m", Some(("visa".into(), "4242".into()))));
        assert!(StripeSubscription::from_json(&serde_json::json!({"id": "sub_1"})).is_none());
    }
}
