//! The public site's server side: live platform figures, the contact form, the newsletter,
//! and the administrators' view of what visitors sent.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::inbox::{self, ContactMessage};
use strikeline_store::users;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::{ApiJson, ClientIp};
use crate::foundation::input::parse_email;
use crate::foundation::limits;
use crate::foundation::plans;
use crate::foundation::session::AdminUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{ContactSource, stored};

/// A win rate is shown only over at least this many closed signals.
const WIN_RATE_MINIMUM_SAMPLE: i64 = 30;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_plans))
        .routes(routes!(public_stats))
        .routes(routes!(contact))
        .routes(routes!(newsletter))
        .routes(routes!(admin_messages))
}

/// A count over a stated period.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PeriodCount {
    pub count: i64,
    pub period_days: i64,
}

/// The win rate of closed signals, or `null` when too few closed to say.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WinRate {
    /// Percent of closed signals that made money, 0–100; `null` below `minimumSample`.
    pub value: Option<f64>,
    pub closed_signals: i64,
    pub period_days: i64,
    pub minimum_sample: i64,
}

/// The notional the live signals of a period analysed: one contract (100 shares) of the
/// underlying at issue, per signal.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VolumeAnalysed {
    /// Dollars.
    pub notional: f64,
    pub signals: i64,
    pub period_days: i64,
}

/// Live platform figures for the public pages, each with its period.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicStats {
    pub generated_at: DateTime<Utc>,
    pub registered_users: i64,
    pub signals_issued: PeriodCount,
    pub volume_analysed: VolumeAnalysed,
    pub win_rate: WinRate,
    pub symbols_covered: i64,
    pub signal_refresh_seconds: u64,
    pub price_refresh_seconds: u64,
    /// Where the prices come from: `simulated` (the seeded simulated market: no broker shows
    /// these prices) or `polygon` (Polygon.io).
    pub market_data: crate::foundation::config::MarketProvider,
}

/// Live platform figures: users, live signals issued, win rate of closed live signals (after
/// their stated costs), coverage and data freshness. Replayed signals never count. Figures
/// that need more data than there is say so.
#[utoipa::path(get, path = "/api/public/stats", tag = "public", responses((status = 200, body = PublicStats)))]
async fn public_stats(State(state): State<AppState>) -> Result<axum::Json<PublicStats>> {
    let registered_users = users::count(&state.db).await?;
    let now = state.clock.now();
    // Live signals only: those replayed at first start or stored before the track record never
    // count in a published figure.
    let live = strikeline_store::signals::issued_by_provenance(&state.db, now - Duration::days(30))
        .await?
        .into_iter()
        .find(|f| f.provenance == crate::foundation::vocab::Provenance::Live.as_str())
        .unwrap_or_default();
    let figures = strikeline_store::signals::figures(&state.db, now - Duration::days(90)).await?;
    let (closed, wins) = (figures.closed, figures.winners);
    let symbols = strikeline_store::market::count_stocks(&state.db).await?;
    let value = (closed >= WIN_RATE_MINIMUM_SAMPLE).then(|| wins as f64 * 100.0 / closed as f64);
    Ok(axum::Json(PublicStats {
        generated_at: now,
        registered_users,
        signals_issued: PeriodCount { count: live.issued, period_days: 30 },
        volume_analysed: VolumeAnalysed {
            // One contract (100 shares) of the underlying at issue, per live signal.
            notional: crate::foundation::money::dollars(live.underlying_cents) * 100.0,
            signals: live.issued,
            period_days: 30,
        },
        win_rate: WinRate { value, closed_signals: closed, period_days: 90, minimum_sample: WIN_RATE_MINIMUM_SAMPLE },
        symbols_covered: symbols,
        signal_refresh_seconds: state.config.schedule.signal_refresh_seconds,
        price_refresh_seconds: state.config.schedule.price_refresh_seconds,
        market_data: state.config.market.provider,
    }))
}

/// `POST /api/contact`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactRequest {
    /// 1–100 characters, not only spaces, no control characters.
    #[schema(
        min_length = 1,
        max_length = 100,
        pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$"
    )]
    pub name: String,
    #[schema(schema_with = crate::foundation::input::email_schema)]
    pub email: String,
    /// Up to 100 characters, no control characters.
    #[serde(default)]
    #[schema(max_length = 100, pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$")]
    pub company: Option<String>,
    /// Up to 200 characters, no control characters; required from the help page.
    #[serde(default)]
    #[schema(max_length = 200, pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$")]
    pub subject: Option<String>,
    /// 1–5000 characters, not only spaces, no control characters but tabs and line breaks.
    #[schema(
        min_length = 1,
        max_length = 5000,
        pattern = r"^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]*$"
    )]
    pub message: String,
    pub source: ContactSource,
}

/// A message was received.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactReceipt {
    pub id: String,
    pub received: bool,
}

/// Trims `value` and checks its length; `None` for blank optional text.
fn text(field: &str, value: Option<String>, max: usize, required: bool, errors: &mut Vec<FieldError>) -> Option<String> {
    let value = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    match &value {
        None if required => errors.push(FieldError::new(field, "This field is required")),
        Some(v) if v.chars().count() > max => errors.push(FieldError::new(field, format!("At most {max} characters"))),
        Some(v) if crate::foundation::input::has_control_characters(v) => {
            errors.push(FieldError::new(field, "Control characters are not allowed"));
        }
        _ => {}
    }
    value
}

/// Send a message to the team. Stored before answering; the same message from the same email
/// within 24 hours is stored once (answer 200 with the first id).
#[utoipa::path(
    post, path = "/api/contact", tag = "public",
    request_body = ContactRequest,
    responses(
        (status = 201, description = "Stored", body = ContactReceipt),
        (status = 200, description = "Already received (repeat)", body = ContactReceipt),
        (status = 422, description = "Invalid fields", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many messages from this address; see Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn contact(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<ContactRequest>,
) -> Result<(StatusCode, Option<limits::RateLimit>, axum::Json<ContactReceipt>)> {
    let mut errors = Vec::new();
    let name = text("name", Some(body.name), 100, true, &mut errors);
    let email = parse_email(&body.email).map_err(|e| errors.push(e)).ok();
    let company = text("company", body.company, 100, false, &mut errors);
    let subject = text("subject", body.subject, 200, body.source == ContactSource::Help, &mut errors);
    let message = text("message", Some(body.message), 5000, true, &mut errors);
    let (Some(name), Some(email), Some(message), true) = (name, email, message, errors.is_empty()) else {
        return Err(AppError::Validation(errors));
    };
    let now = state.clock.now();
    if let Some(id) = inbox::find_duplicate_contact(&state.db, &email, &message, now - Duration::hours(24)).await? {
        return Ok((StatusCode::OK, None, axum::Json(ContactReceipt { id, received: true })));
    }
    let limit = limits::hit(&state, limits::CONTACT, &ip.to_string(), now).await?;
    let record = ContactMessage {
        id: uuid::Uuid::new_v4().to_string(),
        name,
        email,
        company,
        subject,
        message,
        source: body.source.as_str().to_owned(),
        ip: ip.to_string(),
        created_at: now,
    };
    inbox::insert_contact(&state.db, &record).await?;
    tracing::info!(id = %record.id, source = %record.source, "contact message received");
    Ok((StatusCode::CREATED, Some(limit), axum::Json(ContactReceipt { id: record.id, received: true })))
}

/// `POST /api/newsletter`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterRequest {
    #[schema(schema_with = crate::foundation::input::email_schema)]
    pub email: String,
}

/// Subscription state after the request.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewsletterReceipt {
    pub subscribed: bool,
}

/// Subscribe an email to the newsletter. Subscribing again is harmless (200).
#[utoipa::path(
    post, path = "/api/newsletter", tag = "public",
    request_body = NewsletterRequest,
    responses(
        (status = 201, description = "Subscribed", body = NewsletterReceipt),
        (status = 200, description = "Already subscribed", body = NewsletterReceipt),
        (status = 422, description = "Invalid email", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many sign-ups from this address", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn newsletter(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<NewsletterRequest>,
) -> Result<(StatusCode, limits::RateLimit, axum::Json<NewsletterReceipt>)> {
    let email = parse_email(&body.email).map_err(|e| AppError::Validation(vec![e]))?;
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::NEWSLETTER, &ip.to_string(), now).await?;
    let created = inbox::subscribe(&state.db, &email, &ip.to_string(), now).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, limit, axum::Json(NewsletterReceipt { subscribed: true })))
}

/// A stored contact message, for administrators.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessageView {
    pub id: String,
    pub name: String,
    pub email: String,
    pub company: Option<String>,
    pub subject: Option<String>,
    pub message: String,
    pub source: ContactSource,
    pub created_at: DateTime<Utc>,
}

/// A newsletter subscriber, for administrators.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriberView {
    pub email: String,
    pub created_at: DateTime<Utc>,
}

/// What visitors sent, newest first (latest 500 of each).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminInbox {
    pub contact_messages: Vec<ContactMessageView>,
    pub newsletter_subscribers: Vec<SubscriberView>,
}

/// Contact messages and newsletter subscribers. Administrators only.
#[utoipa::path(
    get, path = "/api/admin/messages", tag = "admin",
    responses(
        (status = 200, body = AdminInbox),
        (status = 401, description = "Not signed in", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an administrator", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn admin_messages(State(state): State<AppState>, _admin: AdminUser) -> Result<axum::Json<AdminInbox>> {
    let contact_messages = inbox::recent_contacts(&state.db, 500)
        .await?
        .into_iter()
        .map(|m| {
            Ok(ContactMessageView {
                source: stored(&m.source, format_args!("contact message {}", m.id))?,
                id: m.id,
                name: m.name,
                email: m.email,
                company: m.company,
                subject: m.subject,
                message: m.message,
                created_at: m.created_at,
            })
        })
        .collect::<Result<_>>()?;
    let newsletter_subscribers = inbox::recent_subscribers(&state.db, 500)
        .await?
        .into_iter()
        .map(|s| SubscriberView { email: s.email, created_at: s.created_at })
        .collect();
    Ok(axum::Json(AdminInbox { contact_messages, newsletter_subscribers }))
}

/// The plans for sale, with prices, limits and features.
#[utoipa::path(get, path = "/api/plans", tag = "public", responses((status = 200, body = plans::PlanCatalogue)))]
async fn list_plans(State(state): State<AppState>) -> axum::Json<plans::PlanCatalogue> {
    axum::Json(plans::catalogue_for(&state.config.support, state.config.sms.sends()))
}
