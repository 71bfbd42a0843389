//! Email seen from outside: the one-click unsubscribe every message links to (RFC 8058: mail
//! clients POST to the `List-Unsubscribe` address; a person opening it gets a page with one
//! button, so link scanners that only GET change nothing), and the administrators' view of
//! the outbox.

use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::Result;
use crate::foundation::session::AdminUser;
use crate::foundation::state::AppState;
use crate::services::mailing::{self, Email, MailingList};

/// Messages the administrators' view lists.
const ADMIN_LIST_LENGTH: u32 = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(unsubscribe_page, unsubscribe)).routes(routes!(outbox))
}

/// The link's query.
#[derive(Debug, Deserialize, IntoParams)]
pub struct UnsubscribeQuery {
    /// The token from the email's `List-Unsubscribe` address.
    #[serde(default)]
    pub token: String,
}

/// Tokens are URL-safe base64; anything else is not one of ours (and never reaches a page).
fn clean(token: &str) -> Option<&str> {
    (!token.is_empty() && token.len() <= 128 && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')).then_some(token)
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title} · Strikeline</title><style>body{{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}}\
         button{{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:1px solid #888;cursor:pointer}}</style></head>\
         <body><main><h1>{title}</h1>{body}</main></body></html>"
    );
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// The page an unsubscribe link opens: one button that confirms (nothing changes on GET).
#[utoipa::path(
    get, path = "/api/email/unsubscribe", tag = "email",
    params(UnsubscribeQuery),
    responses(
        (status = 200, description = "A page with one button to confirm", content_type = "text/html", body = String),
        (status = 404, description = "Not a valid unsubscribe link", content_type = "text/html", body = String),
    )
)]
async fn unsubscribe_page(Query(query): Query<UnsubscribeQuery>) -> Response {
    match clean(&query.token) {
        Some(token) => page(
            StatusCode::OK,
            "Unsubscribe",
            &format!(
                "<p>Stop these emails from Strikeline? You can switch them on again under Settings › Notifications.</p>\
                 <form method=\"post\" action=\"/api/email/unsubscribe?token={token}\"><button type=\"submit\">Unsubscribe</button></form>"
            ),
        ),
        None => page(
            StatusCode::NOT_FOUND,
            "Link not valid",
            "<p>This unsubscribe link is not valid. Change your email settings under Settings › Notifications.</p>",
        ),
    }
}

/// One-click unsubscribe (RFC 8058): turns off the emails the link's message belongs to, the
/// daily portfolio summary or all notification emails. Any body (`List-Unsubscribe=One-Click`)
/// is accepted; no sign-in is needed, the token is the authority.
#[utoipa::path(
    post, path = "/api/email/unsubscribe", tag = "email",
    params(UnsubscribeQuery),
    responses(
        (status = 200, description = "Unsubscribed", content_type = "text/html", body = String),
        (status = 404, description = "Not a valid unsubscribe link", content_type = "text/html", body = String),
    )
)]
async fn unsubscribe(State(state): State<AppState>, Query(query): Query<UnsubscribeQuery>) -> Result<Response> {
    let list = match clean(&query.token) {
        Some(token) => mailing::unsubscribe(&state, token, state.clock.now()).await?,
        None => None,
    };
    Ok(match list {
        Some(MailingList::PortfolioSummary) => {
            page(StatusCode::OK, "Unsubscribed", "<p>You will no longer get the daily portfolio summary.</p>")
        }
        Some(MailingList::MonthlyReport) => {
            page(StatusCode::OK, "Unsubscribed", "<p>You will no longer get the monthly portfolio report by email.</p>")
        }
        Some(MailingList::All) => {
            page(StatusCode::OK, "Unsubscribed", "<p>You will no longer get notification emails from Strikeline.</p>")
        }
        Some(MailingList::Account) | None => page(
            StatusCode::NOT_FOUND,
            "Link not valid",
            "<p>This unsubscribe link is not valid. Change your email settings under Settings › Notifications.</p>",
        ),
    })
}

/// An email in the outbox, as administrators see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxEmail {
    pub id: String,
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The notification kind or `portfolio_summary`.
    pub topic: String,
    pub unsubscribe_url: String,
    /// The names of the files sent with it.
    pub attachments: Vec<String>,
    /// `pending`, `delivered` (with the outbox transport: kept here, nothing sent) or `failed`.
    pub status: crate::foundation::vocab::DeliveryStatus,
    pub attempts: i32,
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
}

/// The newest 200 emails in the outbox (administrators). With the built-in outbox transport
/// this is where email goes: nothing leaves the machine.
#[utoipa::path(
    get, path = "/api/admin/emails", tag = "email",
    responses(
        (status = 200, body = Vec<OutboxEmail>),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 403, description = "Not an administrator", body = crate::foundation::error::Problem),
    )
)]
async fn outbox(State(state): State<AppState>, AdminUser(_admin): AdminUser) -> Result<axum::Json<Vec<OutboxEmail>>> {
    let messages = strikeline_store::outbox::newest(&state.db, mailing::CHANNEL, ADMIN_LIST_LENGTH).await?;
    let emails = messages
        .into_iter()
        .filter_map(|m| {
            let email: Email = serde_json::from_str(&m.payload).ok()?;
            let status = crate::foundation::vocab::stored(&m.status, format_args!("outbox message {}", m.id)).ok()?;
            Some(OutboxEmail {
                id: m.id,
                to: email.to,
                subject: email.subject,
                text: email.text,
                topic: m.topic,
                unsubscribe_url: email.unsubscribe_url,
                attachments: email.attachments.into_iter().map(|a| a.file_name).collect(),
                status,
                attempts: m.attempts,
                last_error: m.last_error,
                created_at: m.created_at,
                delivered_at: m.delivered_at,
            })
        })
        .collect();
    Ok(axum::Json(emails))
}
