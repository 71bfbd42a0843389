//! Plans bought and billed: starting a subscription (`POST /api/create-subscription`), the
//! built-in test provider's card form, the subscription as it stands, cancel, resume, change
//! of plan, and the billing history with each invoice downloadable. docs/billing.md.

use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::billing as store;
use strikeline_store::users::{self, UserRecord};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::audit::Origin;
use crate::foundation::entitlements::{PaidPlan, Plan};
use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::subscription::{Subscription, price_cents};
use crate::foundation::vocab::{BillingInterval, InvoiceStatus, PaymentProvider, SubscriptionStatus, stored};
use crate::services::billing::{self as service, CardDetails};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_subscription))
        .routes(routes!(pay_with_test_card))
        .routes(routes!(subscription))
        .routes(routes!(cancel))
        .routes(routes!(resume))
        .routes(routes!(change))
        .routes(routes!(change_preview))
        .routes(routes!(invoices))
        .routes(routes!(download_invoice))
        .routes(routes!(stripe_webhook))
        .routes(routes!(run_schedule_at))
}

/// `POST /api/admin/billing/run`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleRun {
    /// Move the server's clock to this time (now or later, at most ten years ahead) and run the
    /// billing schedule then.
    pub at: DateTime<Utc>,
}

/// What a schedule run changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduleReceipt {
    pub changed: usize,
    /// The server's time after the move.
    pub now: DateTime<Utc>,
}

/// The longest move the test clock makes in one step.
const TEST_CLOCK_REACH_DAYS: i64 = 3653;

/// The test clock (administrators; only with the test provider and `billing.test_clock`): moves
/// the server's one clock forward to `at`, as if that much time had passed, and runs the billing
/// schedule at once, so renewals, declines, grace periods and cancellations can be seen end to
/// end without waiting a month. Everything else that reads the clock (sessions, limits, the
/// market) sees the new time too: it is the same clock.
#[utoipa::path(
    post, path = "/api/admin/billing/run", tag = "admin",
    request_body = ScheduleRun,
    responses(
        (status = 200, body = ScheduleReceipt),
        (status = 403, description = "Not an administrator", body = Problem),
        (status = 404, description = "The test clock is off", body = Problem),
        (status = 422, description = "`at` is in the past, or more than ten years ahead", body = Problem),
    )
)]
async fn run_schedule_at(
    State(state): State<AppState>,
    crate::foundation::session::AdminUser(admin): crate::foundation::session::AdminUser,
    origin: Origin,
    ApiJson(run): ApiJson<ScheduleRun>,
) -> Result<axum::Json<ScheduleReceipt>> {
    let billing = &state.config.billing;
    if !billing.test_clock || billing.provider != crate::foundation::config::PaymentProviderKind::Test {
        return Err(AppError::NotFound);
    }
    let before = state.clock.now();
    if run.at < before - chrono::Duration::minutes(1) {
        return Err(AppError::field("at", "The test clock only moves forward"));
    }
    if run.at > before + chrono::Duration::days(TEST_CLOCK_REACH_DAYS) {
        return Err(AppError::field("at", "The test clock moves at most ten years at a time"));
    }
    crate::foundation::audit::record(
        &state,
        Some(&admin.id),
        Some(&admin.id),
        crate::foundation::vocab::AuditAction::AdminAction,
        Some(format!("test clock moved from {before} to {}", run.at)),
        &origin,
        before,
    )
    .await?;
    if run.at > before {
        state.clock.advance(run.at - before);
    }
    let now = state.clock.now();
    let changed = service::run_due(&state, now).await?;
    Ok(axum::Json(ScheduleReceipt { changed, now }))
}

/// What a webhook delivery did.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookReceipt {
    pub received: bool,
    /// `applied`, `duplicate` (delivered before: nothing changes twice) or `ignored`.
    pub outcome: String,
}

/// Stripe's webhook endpoint (configure it in Stripe's dashboard for `customer.subscription.*`
/// and `invoice.paid`/`invoice.payment_failed`). The `Stripe-Signature` is checked against
/// `billing.stripe_webhook_secret` within the tolerance window; each event is applied once.
#[utoipa::path(
    post, path = "/api/billing/stripe/webhook", tag = "billing",
    request_body(content = String, description = "The event, exactly as Stripe sent it", content_type = "application/json"),
    params(("Stripe-Signature" = String, Header, description = "t=<timestamp>,v1=<HMAC-SHA256>")),
    responses(
        (status = 200, body = WebhookReceipt),
        (status = 400, description = "A missing, forged or stale signature, or not an event; nothing changes", body = Problem),
        (status = 404, description = "Stripe is not the configured provider", body = Problem),
    )
)]
async fn stripe_webhook(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Result<axum::Json<WebhookReceipt>> {
    if state.config.billing.provider != crate::foundation::config::PaymentProviderKind::Stripe {
        return Err(AppError::NotFound);
    }
    let signature = headers.get("stripe-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let outcome = service::stripe_webhook(&state, &body, signature, state.clock.now()).await?;
    let outcome = match outcome {
        service::WebhookOutcome::Applied => "applied",
        service::WebhookOutcome::Duplicate => "duplicate",
        service::WebhookOutcome::Ignored => "ignored",
    };
    Ok(axum::Json(WebhookReceipt { received: true, outcome: outcome.to_owned() }))
}

/// `POST /api/create-subscription` and `POST /api/billing/change`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanChoice {
    pub plan: PaidPlan,
    /// `monthly` or `yearly`.
    pub billing: BillingInterval,
}

/// A subscription being bought: what the payment form confirms.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutView {
    pub client_secret: String,
    /// `test`: the built-in test provider's card form (`POST /api/billing/test-provider/pay`);
    /// `stripe`: confirm `clientSecret` with Stripe's Payment Element.
    pub provider: PaymentProvider,
    /// Stripe's publishable key, from the server's configuration (`stripe` only).
    pub publishable_key: Option<String>,
    pub plan: Plan,
    pub billing: BillingInterval,
    /// What the first payment is, in US cents.
    #[schema(example = 143000)]
    pub amount_cents: i64,
    #[schema(example = "usd")]
    pub currency: String,
}

/// The test provider's card form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestCardPayment {
    pub client_secret: String,
    #[schema(example = "4242 4242 4242 4242")]
    pub card_number: String,
    #[schema(example = 12)]
    pub exp_month: u32,
    #[schema(example = 2030)]
    pub exp_year: u32,
    #[schema(example = "123")]
    pub cvc: String,
}

/// The card on file.
#[derive(Debug, Serialize, ToSchema)]
pub struct CardView {
    pub brand: String,
    pub last4: String,
}

/// The next charge.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NextBilling {
    pub date: DateTime<Utc>,
    /// US cents, after any credit.
    pub amount_cents: i64,
}

/// The subscription as it stands now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionView {
    /// The plan in force now.
    pub plan: Plan,
    pub status: SubscriptionStatus,
    /// How the plan is billed; `null` for a trial, Free, or a plan set by an operator.
    pub billing: Option<BillingInterval>,
    /// The end of the trial or of the paid period.
    pub current_period_end: Option<DateTime<Utc>>,
    /// Cancelled: the plan stays until `currentPeriodEnd`, then Free.
    pub cancel_at_period_end: bool,
    /// Days left of the trial, counting today.
    pub trial_days_left: Option<i64>,
    /// Past due: the plan is kept until then unless a payment succeeds.
    pub grace_ends_at: Option<DateTime<Utc>>,
    pub next_billing: Option<NextBilling>,
    pub card: Option<CardView>,
    /// Credit taken off the next invoice, US cents.
    pub credit_cents: i64,
    /// Who bills the account, once it has paid.
    pub provider: Option<PaymentProvider>,
}

impl SubscriptionView {
    fn of(user: &UserRecord, now: DateTime<Utc>) -> SubscriptionView {
        let sub = Subscription::of(user).settled(now);
        let trial_days_left = (sub.status == SubscriptionStatus::Trialing)
            .then(|| sub.period_end.map(|end| (end - now).num_seconds().max(0).div_euclid(86_400) + 1))
            .flatten();
        let next_billing = match (sub.interval, sub.period_end) {
            (Some(interval), Some(date)) if sub.is_paid() && !sub.cancel_at_period_end => {
                Some(NextBilling { date, amount_cents: (price_cents(sub.plan, interval) - user.credit_cents).max(0) })
            }
            _ => None,
        };
        let card = match (&user.card_brand, &user.card_last4) {
            (Some(brand), Some(last4)) => Some(CardView { brand: brand.clone(), last4: last4.clone() }),
            _ => None,
        };
        SubscriptionView {
            plan: sub.plan,
            status: sub.status,
            billing: sub.interval,
            current_period_end: sub.period_end,
            cancel_at_period_end: sub.cancel_at_period_end,
            trial_days_left,
            grace_ends_at: sub.grace_ends_at,
            next_billing,
            card,
            credit_cents: user.credit_cents,
            provider: provider_of(user),
        }
    }
}

/// Who bills `user`, once they have paid.
fn provider_of(user: &UserRecord) -> Option<PaymentProvider> {
    user.payment_provider.as_deref().and_then(|p| <PaymentProvider as crate::foundation::vocab::Vocabulary>::exact(p).ok())
}

/// One invoice of the billing history.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceView {
    #[schema(format = "uuid")]
    pub id: String,
    #[schema(example = "SL-20261125-1A2B3C4D")]
    pub number: String,
    pub description: String,
    pub plan: Plan,
    pub billing: BillingInterval,
    /// Charged, US cents.
    pub amount_cents: i64,
    /// Credit taken off, US cents.
    pub credit_applied_cents: i64,
    pub currency: String,
    pub status: InvoiceStatus,
    pub failure_message: Option<String>,
    pub period_start: DateTime<Utc>,
    pub period_end: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

impl InvoiceView {
    fn of(i: store::Invoice) -> Result<InvoiceView> {
        let what = format!("invoice {}", i.id);
        Ok(InvoiceView {
            plan: Plan::from_id(&i.plan).ok_or_else(|| AppError::Internal(anyhow::anyhow!("{what}: unknown plan {:?}", i.plan)))?,
            billing: stored(&i.billing_interval, &what)?,
            id: i.id,
            number: i.number,
            description: i.description,
            amount_cents: i.amount_cents,
            credit_applied_cents: i.credit_applied_cents,
            currency: i.currency,
            status: stored(&i.status, &what)?,
            failure_message: i.failure_message,
            period_start: i.period_start,
            period_end: i.period_end,
            created_at: i.created_at,
        })
    }
}

async fn reread(state: &AppState, user_id: &str, now: DateTime<Utc>) -> Result<axum::Json<SubscriptionView>> {
    let user = users::find_by_id(&state.db, user_id).await?.ok_or(AppError::NotFound)?;
    Ok(axum::Json(SubscriptionView::of(&user, now)))
}

/// Starts buying a plan: the client secret the payment form confirms (the same one again
/// within a day for the same plan and billing, so reloading the payment page is safe). An
/// account has one open checkout: a new one voids the one before, which can then no longer be
/// paid. An account that already pays changes its plan instead (409).
#[utoipa::path(
    post, path = "/api/create-subscription", tag = "billing",
    request_body = PlanChoice,
    responses(
        (status = 200, body = CheckoutView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 409, description = "Already on a paid plan", body = Problem),
        (status = 422, description = "`plan` or `billing` unknown", body = Problem),
        (status = 429, description = "Too many payment attempts; see Retry-After", body = Problem),
    )
)]
async fn create_subscription(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(choice): ApiJson<PlanChoice>,
) -> Result<(limits::RateLimit, axum::Json<CheckoutView>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::PAYMENT, &user.id, now).await?;
    let started = service::start_checkout(&state, &user, choice.plan.into(), choice.billing, now).await?;
    Ok((
        limit,
        axum::Json(CheckoutView {
            client_secret: started.client_secret,
            provider: stored(started.provider, "checkout provider")?,
            publishable_key: (started.provider == service::STRIPE).then(|| state.config.billing.stripe_publishable_key.clone()).flatten(),
            plan: started.plan,
            billing: started.interval,
            amount_cents: started.amount_cents,
            currency: "usd".to_owned(),
        }),
    ))
}

/// The built-in test provider's payment: the card confirms the checkout. Only test cards are
/// taken (docs/billing.md): 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined with
/// the provider's message (402 'Payment Failed'), and nothing changes.
#[utoipa::path(
    post, path = "/api/billing/test-provider/pay", tag = "billing",
    request_body = TestCardPayment,
    responses(
        (status = 200, description = "Paid: the plan is in force", body = SubscriptionView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 402, description = "Payment Failed: the provider's message", body = Problem),
        (status = 409, description = "Already paid, replaced by a newer checkout, expired, or the account already pays: nothing is charged", body = Problem),
        (status = 422, description = "A card field, or the client secret, is not valid", body = Problem),
        (status = 429, description = "Too many payment attempts; see Retry-After", body = Problem),
    )
)]
async fn pay_with_test_card(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    ApiJson(payment): ApiJson<TestCardPayment>,
) -> Result<(limits::RateLimit, axum::Json<SubscriptionView>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::PAYMENT, &user.id, now).await?;
    let card = CardDetails { number: payment.card_number, exp_month: payment.exp_month, exp_year: payment.exp_year, cvc: payment.cvc };
    service::pay_with_test_card(&state, &user, &payment.client_secret, &card, &origin, now).await?;
    Ok((limit, reread(&state, &user.id, now).await?))
}

/// The signed-in user's subscription: plan, status, period, trial days, next charge, card.
#[utoipa::path(
    get, path = "/api/billing/subscription", tag = "billing",
    responses((status = 200, body = SubscriptionView), (status = 401, description = "Not signed in", body = Problem))
)]
async fn subscription(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> axum::Json<SubscriptionView> {
    axum::Json(SubscriptionView::of(&user, state.clock.now()))
}

/// Cancels at the end of the paid period: the plan stays until then, then Free.
#[utoipa::path(
    post, path = "/api/billing/cancel", tag = "billing",
    responses(
        (status = 200, body = SubscriptionView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 409, description = "No paid subscription, or already cancelled", body = Problem),
    )
)]
async fn cancel(State(state): State<AppState>, CurrentUser(user): CurrentUser, origin: Origin) -> Result<axum::Json<SubscriptionView>> {
    let now = state.clock.now();
    service::cancel(&state, &user, &origin, now).await?;
    reread(&state, &user.id, now).await
}

/// Takes back a cancellation before the period ends: the subscription renews again.
#[utoipa::path(
    post, path = "/api/billing/resume", tag = "billing",
    responses(
        (status = 200, body = SubscriptionView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 409, description = "Not cancelled, or the period is over", body = Problem),
    )
)]
async fn resume(State(state): State<AppState>, CurrentUser(user): CurrentUser, origin: Origin) -> Result<axum::Json<SubscriptionView>> {
    let now = state.clock.now();
    service::resume(&state, &user, &origin, now).await?;
    reread(&state, &user.id, now).await
}

/// Changes a paid plan (Pro ↔ Premium, monthly ↔ yearly), prorated: the difference for the
/// rest of the period is charged now to the card on file; a credit goes to the next invoice.
/// Past due (or with the period over), what is owed is collected first; if that is declined,
/// 402 and nothing changes.
#[utoipa::path(
    post, path = "/api/billing/change", tag = "billing",
    request_body = PlanChoice,
    responses(
        (status = 200, body = SubscriptionView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 402, description = "Payment Failed: the card on file was declined", body = Problem),
        (status = 409, description = "No paid subscription to change, or it changed meanwhile", body = Problem),
        (status = 422, description = "`plan` is the current plan", body = Problem),
        (status = 429, description = "Too many payment attempts; see Retry-After", body = Problem),
    )
)]
async fn change(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    ApiJson(choice): ApiJson<PlanChoice>,
) -> Result<(limits::RateLimit, axum::Json<SubscriptionView>)> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::PAYMENT, &user.id, now).await?;
    service::change_plan(&state, &user, choice.plan.into(), choice.billing, &origin, now).await?;
    Ok((limit, reread(&state, &user.id, now).await?))
}

/// `GET /api/billing/change/preview`: the plan a change would move to.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PlanChangeQuery {
    plan: PaidPlan,
    /// `monthly` or `yearly`.
    billing: BillingInterval,
}

/// What a change of plan would charge or credit, today and from the next period: the figures
/// `POST /api/billing/change` charges, from the same computation. US cents.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanChangePreview {
    pub plan: Plan,
    pub billing: BillingInterval,
    /// Owed first when the account is past due or its period has ended: the renewal of the
    /// current plan, collected before the change (0 otherwise).
    pub owed_first_cents: i64,
    /// The new plan for the rest of the period (a whole new period when the interval
    /// changes), less the unused part of what was paid; never negative.
    pub prorated_cents: i64,
    /// Credit on account used today.
    pub credit_applied_cents: i64,
    /// Charged to the card today, in all: `owedFirstCents` plus the change less the credit.
    pub charged_today_cents: i64,
    /// Credit kept for the next invoices afterwards.
    pub credit_after_cents: i64,
    /// The period the new plan runs in (a new one from today when the interval changes).
    pub period_start: DateTime<Utc>,
    pub period_end: DateTime<Utc>,
    /// What the first renewal of the new plan charges, at `periodEnd`, after the credit kept.
    pub next_charge_cents: i64,
    /// The price of the new plan per period, before any credit.
    pub price_cents: i64,
    /// Who will bill it. With `stripe`, Stripe prorates the change by the same rule and its
    /// invoice is final.
    pub provider: PaymentProvider,
}

/// What changing to `plan` billed `billing` would charge or credit today and from the next
/// period, computed by the code that charges it. Nothing changes.
#[utoipa::path(
    get, path = "/api/billing/change/preview", tag = "billing",
    params(PlanChangeQuery),
    responses(
        (status = 200, body = PlanChangePreview),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 409, description = "No paid subscription to change", body = Problem),
        (status = 422, description = "`plan` or `billing` is not valid, or is the current plan", body = Problem),
    )
)]
async fn change_preview(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    RawQuery(query): RawQuery,
) -> Result<axum::Json<PlanChangePreview>> {
    let choice: PlanChangeQuery = crate::foundation::extract::parse_query(query.as_deref())?;
    let now = state.clock.now();
    let current = Subscription::of(&user).settled(now);
    let plan = Plan::from(choice.plan);
    let q = service::quote::change(&current, &store::BillingState::of(&user), plan, choice.billing, now)?;
    Ok(axum::Json(PlanChangePreview {
        plan,
        billing: choice.billing,
        owed_first_cents: q.owed_first.map_or(0, |r| r.charged),
        prorated_cents: q.prorated,
        credit_applied_cents: q.credit_applied,
        charged_today_cents: q.charged_today(),
        credit_after_cents: q.credit_after,
        period_start: q.start,
        period_end: q.end,
        next_charge_cents: q.next_charge,
        price_cents: price_cents(plan, choice.billing),
        // An account that has not paid yet would pay through the built-in provider.
        provider: provider_of(&user).unwrap_or(PaymentProvider::Test),
    }))
}

/// The billing history, newest first.
#[utoipa::path(
    get, path = "/api/billing/invoices", tag = "billing",
    responses((status = 200, body = Vec<InvoiceView>), (status = 401, description = "Not signed in", body = Problem))
)]
async fn invoices(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<InvoiceView>>> {
    let list = store::invoices(&state.db, &user.id).await?;
    Ok(axum::Json(list.into_iter().map(InvoiceView::of).collect::<Result<_>>()?))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One invoice as a printable HTML document (saved as a file; print it to PDF).
#[utoipa::path(
    get, path = "/api/billing/invoices/{id}", tag = "billing",
    params(("id" = String, Path, description = "The invoice's id")),
    responses(
        (status = 200, description = "The invoice as a self-contained HTML file", content_type = "text/html", body = String),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such invoice of yours", body = Problem),
    )
)]
async fn download_invoice(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<impl IntoResponse> {
    let invoice = store::invoice(&state.db, &user.id, &id).await?.ok_or(AppError::NotFound)?;
    let name = [user.first_name.as_deref(), user.last_name.as_deref()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    let status = if invoice.status == "paid" { "Paid" } else { "Payment failed" };
    let credit = if invoice.credit_applied_cents > 0 {
        format!("<tr><td>Credit applied</td><td class=n>−{}</td></tr>", crate::foundation::money::usd(invoice.credit_applied_cents))
    } else {
        String::new()
    };
    let html = format!(
        "<!doctype html><html lang=en><meta charset=utf-8><title>Invoice {number}</title>\
         <style>body{{font:14px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;color:#111}}table{{width:100%;border-collapse:collapse}}\
         td{{padding:.4rem 0;border-bottom:1px solid #ddd}}.n{{text-align:right}}h1{{font-size:1.4rem}}</style>\
         <h1>Strikeline invoice {number}</h1><p>{status} · issued {issued}</p>\
         <p>Billed to {name} &lt;{email}&gt;</p>\
         <table><tr><td>{description}<br><small>{start} – {end}</small></td><td class=n>{gross}</td></tr>{credit}\
         <tr><td><strong>Total ({currency})</strong></td><td class=n><strong>{total}</strong></td></tr></table>\
         <p><small>Paid through the {provider} payment provider{reference}. Prices in US dollars.</small></p></html>",
        number = escape(&invoice.number),
        issued = invoice.created_at.format("%Y-%m-%d"),
        name = escape(&name),
        email = escape(&user.email),
        description = escape(&invoice.description),
        start = invoice.period_start.format("%Y-%m-%d"),
        end = invoice.period_end.format("%Y-%m-%d"),
        gross = crate::foundation::money::usd(invoice.amount_cents + invoice.credit_applied_cents),
        total = crate::foundation::money::usd(invoice.amount_cents),
        currency = escape(&invoice.currency.to_uppercase()),
        provider = if invoice.provider == service::TEST_PROVIDER { "built-in test" } else { "Stripe" },
        reference = invoice.provider_ref.as_deref().map(|r| format!(", reference {}", escape(r))).unwrap_or_default(),
    );
    let disposition = format!(
        "attachment; filename=\"strikeline-invoice-{}.html\"",
        invoice.number.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "")
    );
    Ok((StatusCode::OK, [(header::CONTENT_TYPE, "text/html; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, disposition)], html))
}
