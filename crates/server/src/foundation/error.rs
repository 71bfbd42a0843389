//! The one application error, answered one way: RFC 9457 problem details
//! (`application/problem+json`).
//!
//! Handlers return [`Result<T>`]. Store errors convert with `?`; validation collects
//! [`FieldError`]s. A 500 never shows its cause: the cause is attached to the response's
//! extensions and logged by [`crate::http::log_server_errors`].

use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// Result type of handlers and services.
pub type Result<T, E = AppError> = std::result::Result<T, E>;

/// One field at fault and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// The request field, in the request's own spelling (`email`, `firstName`).
    pub field: String,
    /// A sentence a user can act on.
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into() }
    }
}

/// An RFC 9457 problem details body.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI reference naming the kind of problem; `about:blank` when the status says it all.
    #[serde(rename = "type")]
    pub kind: String,
    /// Short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What happened this time, for a person to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Fields at fault, when the problem is with the request's content.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// The request's id (also in `X-Request-Id` and in the server's log lines), to quote
    /// when reporting the problem: every problem answered while [`REQUEST_ID`] is set says it.
    #[serde(rename = "requestId", skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The body is not JSON, or not a JSON document at all.
    #[error("{0}")]
    MalformedBody(String),
    /// The request is well-formed but some fields are invalid.
    #[error("validation failed")]
    Validation(Vec<FieldError>),
    #[error("{0}")]
    Unauthorized(String),
    /// The payment provider declined a payment; the detail is its message.
    #[error("{0}")]
    PaymentDeclined(String),
    /// A public API request without a usable bearer key (answered with
    /// `WWW-Authenticate: Bearer`).
    #[error("{0}")]
    BadApiKey(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("not found")]
    NotFound,
    /// A uniqueness conflict on one field.
    #[error("{}", .0.message)]
    Conflict(FieldError),
    /// What the request needs is not there yet (a symbol not priced yet): 409, to try again
    /// later, not a server fault.
    #[error("not ready: {0}")]
    NotReady(String),
    #[error("request body too large")]
    PayloadTooLarge,
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// A limit was reached; `limit` is the policy's state when the limiter refused.
    #[error("{detail}")]
    TooManyRequests { detail: String, retry_after_secs: u64, limit: Option<crate::foundation::limits::RateLimit> },
    /// A dependency cannot answer now. The detail is shown to users: never put an upstream
    /// URL or an OS error in it (see [`AppError::upstream`]).
    #[error("service unavailable: {0}")]
    Unavailable(String),
    /// Needs a confirmed email address (API keys, webhooks): 403 with its own problem type,
    /// `/docs/errors#address-not-confirmed`.
    #[error("address not confirmed")]
    AddressNotConfirmed,
    /// The database cannot be reached (its connections broke or cannot be made): 503, and the
    /// breaker refuses what follows until it answers again.
    #[error("database unreachable")]
    DatabaseUnreachable,
    /// Bounded work (password hashing, backtests) is at capacity; try again shortly.
    #[error("busy")]
    Busy { retry_after_secs: u64 },
    /// Anything unexpected. The cause is logged, never sent.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// What a 503 for an unavailable dependency asks clients to wait before trying again.
pub const UNAVAILABLE_RETRY_SECS: u64 = 2;

/// The cause of a 500, carried in the response extensions for logging.
#[derive(Clone, Debug)]
pub struct InternalCause(pub Arc<String>);

impl AppError {
    /// A validation failure on a single field.
    pub fn field(field: &str, message: &str) -> Self {
        AppError::Validation(vec![FieldError::new(field, message)])
    }

    /// A dependency failed (market data, a vendor): the cause goes to the log, the user reads
    /// a plain sentence without addresses or OS errors.
    pub fn upstream(what: &str, cause: impl std::fmt::Display) -> Self {
        tracing::warn!(error = %cause, "{what} unavailable");
        AppError::Unavailable(format!("{what} is unavailable right now. Please try again shortly."))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::MalformedBody(_) => StatusCode::BAD_REQUEST,
            AppError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Unauthorized(_) | AppError::BadApiKey(_) => StatusCode::UNAUTHORIZED,
            AppError::PaymentDeclined(_) => StatusCode::PAYMENT_REQUIRED,
            AppError::Forbidden(_) | AppError::AddressNotConfirmed => StatusCode::FORBIDDEN,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::Conflict(_) | AppError::NotReady(_) => StatusCode::CONFLICT,
            AppError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable(_) | AppError::DatabaseUnreachable | AppError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn problem(&self) -> Problem {
        let status = self.status();
        let mut problem = Problem::for_status(status);
        match self {
            AppError::MalformedBody(detail) => {
                problem.kind = "/docs/errors#malformed-body".into();
                problem.title = "Malformed request body".into();
                problem.detail = Some(detail.clone());
            }
            AppError::Validation(errors) => {
                problem.kind = "/docs/errors#validation".into();
                problem.title = "Invalid request".into();
                problem.detail = Some(match errors.as_slice() {
                    [one] => one.message.clone(),
                    _ => "Some fields are invalid.".into(),
                });
                problem.errors = errors.clone();
            }
            AppError::Conflict(error) => {
                problem.kind = "/docs/errors#conflict".into();
                problem.title = "Already taken".into();
                problem.detail = Some(error.message.clone());
                problem.errors = vec![error.clone()];
            }
            AppError::NotReady(detail) => {
                problem.kind = "/docs/errors#not-ready".into();
                problem.title = "Not ready yet".into();
                problem.detail = Some(detail.clone());
            }
            AppError::PaymentDeclined(detail) => {
                problem.kind = "/docs/errors#payment-failed".into();
                problem.title = "Payment Failed".into();
                problem.detail = Some(detail.clone());
            }
            AppError::Unauthorized(detail)
            | AppError::BadApiKey(detail)
            | AppError::Forbidden(detail)
            | AppError::UnsupportedMediaType(detail)
            | AppError::Unavailable(detail) => problem.detail = Some(detail.clone()),
            AppError::TooManyRequests { detail, .. } => problem.detail = Some(detail.clone()),
            AppError::Busy { retry_after_secs } => {
                problem.detail = Some(format!("The server is busy. Try again in {retry_after_secs} second(s)."));
            }
            AppError::AddressNotConfirmed => {
                problem.kind = "/docs/errors#address-not-confirmed".into();
                problem.title = "Address not confirmed".into();
                problem.detail = Some(crate::foundation::entitlements::CONFIRM_ADDRESS_FIRST.into());
            }
            AppError::DatabaseUnreachable => {
                problem.detail = Some("The database is unavailable for a moment. Please try again.".into());
            }
            AppError::PayloadTooLarge => problem.detail = Some("The request body is larger than 1 MiB.".into()),
            AppError::NotFound => problem.detail = Some("The requested resource does not exist.".into()),
            AppError::Internal(_) => {
                problem.detail = Some("Something went wrong on our side. Please try again.".into());
            }
        }
        problem
    }
}

impl Problem {
    /// A plain problem for a status, titled with its reason phrase.
    pub fn for_status(status: StatusCode) -> Problem {
        Problem {
            kind: "about:blank".into(),
            title: status.canonical_reason().unwrap_or("Error").into(),
            status: status.as_u16(),
            detail: None,
            errors: Vec::new(),
            request_id: None,
        }
    }
}

tokio::task_local! {
    /// The id of the request being answered (set by `http::observe::request_id` around each
    /// request), which every problem it answers names.
    pub static REQUEST_ID: String;
}

impl IntoResponse for Problem {
    fn into_response(mut self) -> Response {
        if self.request_id.is_none() {
            self.request_id = REQUEST_ID.try_with(Clone::clone).ok();
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self).unwrap_or_default();
        let mut response = (status, body).into_response();
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        response
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut response = self.problem().into_response();
        match &self {
            AppError::TooManyRequests { retry_after_secs, limit, .. } => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs.max(&1).to_owned()));
                if let Some(limit) = limit {
                    crate::foundation::limits::append_headers(response.headers_mut(), limit);
                }
            }
            AppError::Busy { retry_after_secs } => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs.max(&1).to_owned()));
            }
            AppError::Unavailable(_) => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_SECS));
            }
            AppError::DatabaseUnreachable => {
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_SECS));
                response.extensions_mut().insert(crate::foundation::breaker::DatabaseUnreachable);
            }
            AppError::Unauthorized(_) => {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Cookie"));
            }
            AppError::BadApiKey(_) => {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"strikeline\""));
            }
            AppError::Internal(cause) => {
                response.extensions_mut().insert(InternalCause(Arc::new(format!("{cause:#}"))));
            }
            _ => {}
        }
        response
    }
}

impl From<strikeline_store::StoreError> for AppError {
    fn from(err: strikeline_store::StoreError) -> Self {
        use strikeline_store::StoreError;
        match err {
            StoreError::NotFound => AppError::NotFound,
            StoreError::Conflict(field) => AppError::Conflict(FieldError::new(field, format!("This {field} is already taken"))),
            // A broken pooled connection, a restart, a lost deadlock: nothing wrong with the
            // request, so 503 with Retry-After, never a 500.
            transient if transient.is_transient() => {
                tracing::warn!(error = %transient, "database unavailable for a moment");
                if transient.is_connection_failure() {
                    AppError::DatabaseUnreachable
                } else {
                    AppError::Unavailable("The database is unavailable for a moment. Please try again.".into())
                }
            }
            other => AppError::Internal(other.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_json(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.expect("body");
        serde_json::from_slice(&bytes).expect("json")
    }

    #[tokio::test]
    async fn a_500_hides_its_cause_but_keeps_it_for_the_log() {
        let response = AppError::Internal(anyhow::anyhow!("password=hunter2 in connection string")).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(response.extensions().get::<InternalCause>().is_some());
        let body = body_json(response).await;
        assert!(!body.to_string().contains("hunter2"));
        assert_eq!(body["status"], 500);
    }

    #[tokio::test]
    async fn validation_names_fields_and_uses_problem_json() {
        let response = AppError::field("email", "Invalid email address").into_response();
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/problem+json");
        let body = body_json(response).await;
        assert_eq!(body["status"], 422);
        assert_eq!(body["errors"][0]["field"], "email");
        assert_eq!(body["detail"], "Invalid email address");
    }

    #[tokio::test]
    async fn an_upstream_failure_names_the_service_but_not_its_address_or_error() {
        let response = AppError::upstream("Market data", "GET https://api.polygon.io/v2?apiKey=s3cret: connection refused (os error 111)")
            .into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = body_json(response).await.to_string();
        assert!(body.contains("Market data is unavailable"), "{body}");
        assert!(!body.contains("polygon") && !body.contains("os error") && !body.contains("s3cret"), "{body}");
    }

    #[tokio::test]
    async fn too_many_requests_says_when_to_retry() {
        let response = AppError::TooManyRequests { detail: "slow down".into(), retry_after_secs: 42, limit: None }.into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(response.headers()[header::RETRY_AFTER], "42");
    }
}
