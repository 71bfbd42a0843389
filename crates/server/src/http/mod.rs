//! The HTTP application: feature routers merged in one place, and the layers around them.

mod etag;
pub mod idempotency;
mod middleware;
pub mod observe;
pub mod serve;
mod web;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::routing::{any, get};
use tower_http::CompressionLevel;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::foundation::error::AppError;
use crate::foundation::state::AppState;
use crate::{
    handlers::ai, handlers::api_keys, handlers::auth, handlers::automation, handlers::backtest, handlers::billing,
    handlers::custom_strategies, handlers::email, handlers::health, handlers::live, handlers::news, handlers::notifications,
    handlers::options, handlers::orders, handlers::portfolio, handlers::push, handlers::reports, handlers::signals, handlers::site,
    handlers::sms, handlers::stocks, handlers::structures, handlers::track_record, handlers::trading_accounts, handlers::webhooks, openapi,
};

pub use middleware::log_server_errors;

/// Largest request body accepted.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The Content-Security-Policy the web app runs under. Radix positions popovers with inline
/// `style` attributes, hence `'unsafe-inline'` for styles only; no inline scripts. Images may
/// come from any https host: news items show their feed's pictures (an image cannot run code;
/// the page hides one that fails to load).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; \
    base-uri 'self'; form-action 'self'; object-src 'none'";

/// The Content-Security-Policy for `config`: [`CONTENT_SECURITY_POLICY`], plus Stripe.js's
/// script, frames and API when Stripe takes payments (its Payment Element runs on /subscribe).
pub fn content_security_policy(config: &crate::foundation::config::Config) -> String {
    if config.billing.provider != crate::foundation::config::PaymentProviderKind::Stripe {
        return CONTENT_SECURITY_POLICY.to_owned();
    }
    CONTENT_SECURITY_POLICY
        .replace("script-src 'self'", "script-src 'self' https://js.stripe.com")
        .replace("connect-src 'self'", "connect-src 'self' https://api.stripe.com")
        .replace("frame-ancestors 'none'", "frame-src https://js.stripe.com https://hooks.stripe.com; frame-ancestors 'none'")
}

/// Every `/api` route with its OpenAPI description.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .merge(auth::router())
        .merge(site::router())
        .merge(track_record::router())
        .merge(signals::router())
        .merge(live::router())
        .merge(stocks::router())
        .merge(options::router())
        .merge(automation::router())
        .merge(portfolio::router())
        .merge(backtest::router())
        .merge(structures::router())
        .merge(custom_strategies::router())
        .merge(trading_accounts::router())
        .merge(orders::router())
        .merge(health::router())
        .merge(api_keys::router())
        .merge(billing::router())
        .merge(notifications::router())
        .merge(push::router())
        .merge(reports::router())
        .merge(sms::router())
        .merge(webhooks::router())
        .merge(email::router())
        .merge(news::router())
        .merge(ai::router())
}

/// The whole application for `state`.
pub fn router(state: AppState) -> Router {
    let (api, doc) = api().split_for_parts();
    let mut doc = openapi::finish(doc);
    // The served document says where this instance's prices come from.
    let source = serde_json::to_value(state.config.market.provider).unwrap_or_default();
    let mut extensions = doc.info.extensions.take().unwrap_or_default();
    extensions.insert("x-market-data".to_owned(), source);
    doc.info.extensions = Some(extensions);
    let doc_json = serde_json::to_string(&doc).unwrap_or_default();
    let web_dir = state.config.web_dir.clone();
    let state_config = state.config.clone();

    let app = Router::new()
        .merge(api)
        .route(
            "/api/openapi.json",
            get(move || {
                let body = doc_json.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route("/api/{*rest}", any(api_not_found))
        .route("/metrics", get(observe::metrics))
        .fallback_service(web::service(&web_dir))
        .layer(axum::middleware::from_fn_with_state(state.clone(), idempotency::idempotent_posts))
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::same_origin_writes))
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::database_breaker))
        .layer(axum::middleware::from_fn_with_state(state.clone(), observe::record))
        .with_state(state);

    layers(app, &state_config)
}

/// The layers around every route: body limit, compression, the request timeout (answered
/// 408 problem+json), error shaping, panic catching, caching and security headers.
pub fn layers(app: Router, config: &crate::foundation::config::Config) -> Router {
    let request_time = Duration::from_secs(config.capacity.request_seconds);
    let hsts = config.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    app.layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(middleware::limit_body))
        .layer(axum::middleware::from_fn(etag::conditional_get))
        .layer(compression())
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request_time))
        .layer(axum::middleware::from_fn(middleware::problem_for_bare_errors))
        .layer(axum::middleware::from_fn(log_server_errors))
        .layer(CatchPanicLayer::custom(middleware::panic_to_problem))
        .layer(axum::middleware::from_fn(middleware::no_store_api))
        .layer(tower::util::option_layer(hsts.then(|| security_header("strict-transport-security", "max-age=63072000; includeSubDomains"))))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("content-security-policy"),
            HeaderValue::from_str(&content_security_policy(config)).unwrap_or(HeaderValue::from_static(CONTENT_SECURITY_POLICY)),
        ))
        .layer(security_header("x-content-type-options", "nosniff"))
        .layer(security_header("referrer-policy", "strict-origin-when-cross-origin"))
        .layer(security_header("x-frame-options", "DENY"))
        .layer(security_header("cross-origin-opener-policy", "same-origin"))
        .layer(security_header("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=(self)"))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &axum::http::Request<axum::body::Body>| {
            tracing::info_span!(
                "request",
                method = %request.method(),
                uri = %request.uri(),
                request_id = %observe::id_of(request.headers()),
            )
        }))
        .layer(axum::middleware::from_fn(observe::request_id))
}

/// Answers above [`COMPRESS_ABOVE`] bytes go out gzip- or brotli-compressed when the client
/// accepts it, at the fastest level: on one core the CPU is worth more than the last bytes.
fn compression() -> CompressionLayer<impl Predicate> {
    let worth_it = SizeAbove::new(COMPRESS_ABOVE).and(NotForContentType::GRPC).and(NotForContentType::IMAGES).and(NotForContentType::SSE);
    CompressionLayer::new().quality(CompressionLevel::Fastest).compress_when(worth_it)
}

/// Bodies smaller than this go out as they are.
pub const COMPRESS_ABOVE: u16 = 1024;

fn security_header(name: &'static str, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(HeaderName::from_static(name), HeaderValue::from_static(value))
}

async fn api_not_found() -> AppError {
    AppError::NotFound
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    #[test]
    fn stripe_js_is_allowed_only_when_stripe_takes_payments() {
        let mut config = crate::foundation::config::Config::default();
        assert_eq!(content_security_policy(&config), CONTENT_SECURITY_POLICY);
        config.billing.provider = crate::foundation::config::PaymentProviderKind::Stripe;
        let csp = content_security_policy(&config);
        assert!(
            csp.contains("script-src 'self' https://js.stripe.com;")
                && csp.contains("frame-src https://js.stripe.com https://hooks.stripe.com;")
        );
        assert!(csp.contains("connect-src 'self' https://api.stripe.com;") && csp.contains("frame-ancestors 'none'"));
    }

    #[tokio::test]
    async fn a_request_that_runs_out_of_time_is_a_408_problem() {
        let mut config = crate::foundation::config::Config::default();
        config.capacity.request_seconds = 1;
        let slow = Router::new().route(
            "/api/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(3)).await;
                "late"
            }),
        );
        let request = axum::http::Request::builder().uri("/api/slow").body(axum::body::Body::empty()).expect("request");
        let response = layers(slow, &config).oneshot(request).await.expect("response");
        assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/problem+json");
        assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    }
}
