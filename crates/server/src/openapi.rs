//! The OpenAPI 3.1 document, generated from the handlers' annotations.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Strikeline API",
        description = "Options signals, portfolios and backtests for US equities. Errors are RFC 9457 problem details (application/problem+json).",
        version = "0.1.0"
    ),
    tags(
        (name = "auth", description = "Accounts and sessions"),
        (name = "public", description = "Plans, live platform figures and the public site's forms"),
        (name = "signals", description = "Signals, dashboard figures and live updates"),
        (name = "market", description = "The shared watchlist, quotes and history"),
        (name = "automation", description = "The scheduler that keeps signals current"),
        (name = "portfolio", description = "Manual and automated positions and the portfolio analysis"),
        (name = "backtest", description = "Backtests of the live strategies over stored history"),
        (name = "orders", description = "A trading account's orders: what the automation sent to the broker (the paper broker by default), where each stands and its fills (docs/execution.md)"),
        (name = "accounts", description = "A user's trading accounts: each with its own capital, preferences, automation, positions and history; one is current (Premium holds up to ten; docs/accounts.md)"),
        (name = "custom-strategies", description = "A user's own strategies: rules over the indicators, what they open and how they close; saved, judged on today's bars and backtested (Premium; docs/strategies.md §11)"),
        (name = "strategy-builder", description = "Multi-leg positions analysed at expiry and before, and the named templates (Premium; docs/strategy-builder.md)"),
        (name = "billing", description = "Buying, changing and cancelling a plan; the billing history (docs/billing.md)"),
        (name = "reports", description = "PDF reports of the portfolio, a backtest and the track record, and the account's own brand on them (white-label, Premium; docs/reports.md)"),
        (name = "notifications", description = "The bell: notifications, read and unread"),
        (name = "webhooks", description = "Your outbound webhook endpoints and their delivery logs (Settings › API Keys); docs/notifications.md"),
        (name = "ai", description = "AI recommendations from your own book, signals and news (docs/news.md)"),
        (name = "news", description = "Market news with sentiment and its AI analysis (docs/news.md)"),
        (name = "email", description = "One-click unsubscribe and the administrators' view of the email outbox"),
        (name = "api-keys", description = "Your public API keys (Settings › API Keys)"),
        (name = "public-api", description = "The public REST API under /api/v1: send an API key as `Authorization: Bearer <key>`. Read keys may GET; write and admin keys may also create. Every answer reports the plan's hourly quota (Free 100, Pro 1,000, Premium 5,000; Free keys read only) and the endpoint's per-minute limit in `RateLimit-Policy`/`RateLimit`; beyond either the answer is 429 with `Retry-After`."),
        (name = "admin", description = "Administrators only"),
        (name = "operations", description = "Health and readiness")
    ),
    components(schemas(crate::foundation::error::Problem, crate::foundation::error::FieldError)),
    modifiers(&ApiKeyScheme)
)]
pub struct ApiDoc;

/// Declares the bearer scheme `/api/v1` operations name (`security(("api_key" = []))`).
struct ApiKeyScheme;

impl utoipa::Modify for ApiKeyScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("slk_…")
                    .description(Some("An API key from Settings › API Keys, sent as `Authorization: Bearer <key>`."))
                    .build(),
            ),
        );
    }
}

/// The document as pretty JSON (what `strikeline openapi` prints and `docs/openapi.json` holds).
pub fn document_json() -> String {
    let (_, doc) = crate::http::api().split_for_parts();
    let doc = finish(doc);
    let mut json = serde_json::to_string_pretty(&doc).unwrap_or_default();
    json.push('\n');
    json
}

/// The finished document: every answer whose body is a [`Problem`](crate::foundation::error::Problem) is
/// described as `application/problem+json`, which is what the server sends, whatever content
/// type an annotation left as the default.
pub fn finish(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::openapi::RefOr;
    const JSON: &str = "application/json";
    const PROBLEM: &str = "application/problem+json";
    for item in doc.paths.paths.values_mut() {
        let operations = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
        for operation in operations.into_iter().flatten() {
            for response in operation.responses.responses.values_mut() {
                let RefOr::T(response) = response else { continue };
                let is_problem = response
                    .content
                    .get(JSON)
                    .and_then(|c| c.schema.as_ref())
                    .is_some_and(|schema| matches!(schema, RefOr::Ref(r) if r.ref_location.ends_with("/Problem")));
                if is_problem && let Some(content) = response.content.shift_remove(JSON) {
                    response.content.insert(PROBLEM.to_owned(), content);
                }
            }
        }
        if let Some(post) = item.post.as_mut() {
            post.parameters.get_or_insert_with(Vec::new).push(idempotency_key());
            // What the header itself can answer, on every POST.
            for (status, description) in [
                ("422", "Invalid request, or an `Idempotency-Key` that is malformed or was sent with a different request"),
                (
                    "409",
                    "The first request with this `Idempotency-Key` is still being answered (see Retry-After), or its outcome is unknown",
                ),
            ] {
                post.responses.responses.entry(status.to_owned()).or_insert_with(|| RefOr::T(problem_response(description)));
            }
        }
    }
    doc
}

/// A problem+json answer described by `description`.
fn problem_response(description: &str) -> utoipa::openapi::Response {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build())
        .build()
}

/// The `Idempotency-Key` header every POST takes (`http::idempotency`).
fn idempotency_key() -> utoipa::openapi::path::Parameter {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::{ObjectBuilder, Required, Type};
    ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Makes a retry safe: the same key with the same request within 24 hours answers the first answer again \
             (with `Idempotent-Replayed: true`) instead of doing it twice; the same key with another request is 422. \
             1–255 visible ASCII characters, e.g. a UUID; scoped to the session or API key.",
        ))
        .schema(Some(
            ObjectBuilder::new().schema_type(Type::String).min_length(Some(1)).max_length(Some(255)).pattern(Some("^[!-~]{1,255}$")),
        ))
        .build()
}
