//! Text messages (`services::texting`): the signed-in user's phone, its verification code, the
//! kinds texted and the quiet hours; and the SMS provider's inbound webhook, where STOP and
//! START arrive. Setting a number is Pro and up through the one entitlement check; reading,
//! changing the preferences and removing the number are for every plan.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::sms::{self as store, SmsPhone};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::NotificationKind;
use crate::services::texting;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_sms))
        .routes(routes!(set_sms_phone, delete_sms_phone))
        .routes(routes!(verify_sms_phone))
        .routes(routes!(set_sms_preferences))
        .routes(routes!(twilio_inbound))
}

/// Quiet hours, New York time ("22:00" to "07:00" runs past midnight).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuietHours {
    /// `HH:MM`, 24-hour.
    #[schema(example = "22:00", pattern = r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub start: String,
    #[schema(example = "07:00", pattern = r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub end: String,
}

/// `GET /api/sms`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmsSettings {
    /// Texts reach phones on this deployment (an SMS provider is configured).
    pub offered: bool,
    /// The number, E.164; `null` when none is set.
    pub phone: Option<String>,
    pub verified: bool,
    /// A code was sent and not yet used.
    pub code_pending: bool,
    /// The number answered STOP; START (texted to the same sender) turns texts on again.
    pub opted_out: bool,
    /// The kinds texted, in the vocabulary's order.
    pub events: Vec<NotificationKind>,
    /// `null`: none.
    pub quiet_hours: Option<QuietHours>,
    pub verified_at: Option<DateTime<Utc>>,
}

impl SmsSettings {
    fn of(state: &AppState, phone: Option<&SmsPhone>, now: DateTime<Utc>) -> SmsSettings {
        SmsSettings {
            offered: state.config.sms.sends(),
            phone: phone.map(|p| p.phone.clone()),
            verified: phone.is_some_and(|p| p.verified_at.is_some()),
            code_pending: phone.is_some_and(|p| p.code_hash.is_some() && p.code_expires_at.is_some_and(|at| at > now)),
            opted_out: phone.is_some_and(|p| p.opted_out_at.is_some()),
            events: phone.map(texting::chosen).unwrap_or_else(|| vec![NotificationKind::PositionClosed, NotificationKind::PriceAlert]),
            quiet_hours: phone
                .and_then(|p| p.quiet_start_minute.zip(p.quiet_end_minute))
                .map(|(start, end)| QuietHours { start: texting::clock(start), end: texting::clock(end) }),
            verified_at: phone.and_then(|p| p.verified_at),
        }
    }
}

async fn current(state: &AppState, user_id: &str, now: DateTime<Utc>) -> Result<SmsSettings> {
    Ok(SmsSettings::of(state, store::get(&state.db, user_id).await?.as_ref(), now))
}

/// The signed-in user's text-message settings.
#[utoipa::path(
    get, path = "/api/sms", tag = "notifications",
    responses((status = 200, body = SmsSettings), (status = 401, description = "Not signed in", body = Problem))
)]
async fn get_sms(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<SmsSettings>> {
    Ok(axum::Json(current(&state, &user.id, state.clock.now()).await?))
}

/// `PUT /api/sms/phone`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SmsPhoneInput {
    /// International form: `+`, the country code and the number (spaces, dashes and brackets
    /// are allowed).
    #[schema(example = "+1 202 555 0143", max_length = 32)]
    pub phone: String,
}

/// Sets the number texts go to and texts it a six-digit code (Pro and up; five codes an hour).
/// The number is unverified until the code comes back.
#[utoipa::path(
    put, path = "/api/sms/phone", tag = "notifications",
    request_body = SmsPhoneInput,
    responses(
        (status = 202, description = "The code is on its way", body = SmsSettings),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "The plan does not include text messages", body = Problem),
        (status = 422, description = "Not a number in international form; `errors` names `phone`", body = Problem),
        (status = 429, description = "Too many codes this hour", body = Problem),
    )
)]
async fn set_sms_phone(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(body): ApiJson<SmsPhoneInput>,
) -> Result<(StatusCode, axum::Json<SmsSettings>)> {
    let now = state.clock.now();
    if body.phone.len() > 32 {
        return Err(AppError::field("phone", "At most 32 characters."));
    }
    texting::request_code(&state, &user, &body.phone, now).await?;
    Ok((StatusCode::ACCEPTED, axum::Json(current(&state, &user.id, now).await?)))
}

/// Forgets the number: nothing more is texted.
#[utoipa::path(
    delete, path = "/api/sms/phone", tag = "notifications",
    responses((status = 204, description = "Removed (or there was none)"), (status = 401, description = "Not signed in", body = Problem))
)]
async fn delete_sms_phone(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<StatusCode> {
    store::delete(&state.db, &user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/sms/phone/verify`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SmsCodeInput {
    /// The six digits texted.
    #[schema(example = "482913", pattern = "^[0-9]{6}$")]
    pub code: String,
}

/// Checks the code texted to the number: right, and the number is verified. Five wrong tries use
/// a code up.
#[utoipa::path(
    post, path = "/api/sms/phone/verify", tag = "notifications",
    request_body = SmsCodeInput,
    responses(
        (status = 200, body = SmsSettings),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 422, description = "Wrong, run out or used up; `errors` names `code`", body = Problem),
    )
)]
async fn verify_sms_phone(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(body): ApiJson<SmsCodeInput>,
) -> Result<axum::Json<SmsSettings>> {
    let now = state.clock.now();
    texting::verify(&state, &user, &body.code, now).await?;
    Ok(axum::Json(current(&state, &user.id, now).await?))
}

/// `PUT /api/sms/preferences`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SmsPreferencesInput {
    /// Every kind to text (the whole set); `[]` texts nothing.
    pub events: Vec<NotificationKind>,
    /// `null` or absent: no quiet hours.
    #[serde(default)]
    pub quiet_hours: Option<QuietHours>,
}

/// Saves the kinds texted and the quiet hours (a number must be set first).
#[utoipa::path(
    put, path = "/api/sms/preferences", tag = "notifications",
    request_body = SmsPreferencesInput,
    responses(
        (status = 200, body = SmsSettings),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No number is set", body = Problem),
        (status = 422, description = "A time is not HH:MM, or start equals end; `errors` names it", body = Problem),
    )
)]
async fn set_sms_preferences(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(body): ApiJson<SmsPreferencesInput>,
) -> Result<axum::Json<SmsSettings>> {
    let now = state.clock.now();
    let quiet = match &body.quiet_hours {
        None => None,
        Some(q) => {
            let mut errors = Vec::new();
            let start = texting::parse_clock(&q.start);
            let end = texting::parse_clock(&q.end);
            if start.is_none() {
                errors.push(crate::foundation::error::FieldError::new("quietHours.start", "A time of day as HH:MM, e.g. 22:00."));
            }
            if end.is_none() {
                errors.push(crate::foundation::error::FieldError::new("quietHours.end", "A time of day as HH:MM, e.g. 07:00."));
            }
            match (start, end) {
                (Some(start), Some(end)) if start != end => Some((start, end)),
                (Some(_), Some(_)) => {
                    return Err(AppError::field("quietHours.end", "The quiet hours must end at another time than they start."));
                }
                _ => return Err(AppError::Validation(errors)),
            }
        }
    };
    let events = NotificationKind::set_to_stored(&body.events);
    store::set_preferences(&state.db, &user.id, &events, quiet, now).await?;
    Ok(axum::Json(current(&state, &user.id, now).await?))
}

/// The SMS provider's inbound webhook (Twilio's form post, signed with the account's auth token
/// in `X-Twilio-Signature`): STOP opts the sending number out of every text, START back in.
/// Answers empty TwiML.
#[utoipa::path(
    post, path = "/api/sms/twilio/inbound", tag = "notifications",
    request_body(content = String, content_type = "application/x-www-form-urlencoded", description = "Twilio's message parameters (From, Body, …)"),
    responses(
        (status = 200, description = "Empty TwiML", content_type = "text/xml", body = String),
        (status = 403, description = "Not signed by the configured account, or SMS is not configured", body = Problem),
    )
)]
async fn twilio_inbound(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Result<impl IntoResponse> {
    let Some(token) = state.config.sms.twilio_auth_token.as_ref().filter(|_| state.config.sms.sends()) else {
        return Err(AppError::Forbidden("Text messages are not configured on this server.".into()));
    };
    let params: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
    let signature = headers.get("x-twilio-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !texting::signature_valid(token.expose(), &texting::inbound_url(&state), &params, signature) {
        return Err(AppError::Forbidden("The request is not signed by the configured SMS account.".into()));
    }
    texting::inbound(&state, &params, state.clock.now()).await?;
    Ok(([(header::CONTENT_TYPE, "text/xml")], "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response/>"))
}
