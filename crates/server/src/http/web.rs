//! The built web app: files from `web_dir`, and `index.html` for every other (app) route.

use std::path::Path;

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{MethodRouter, get_service};
use tower_http::services::{ServeDir, ServeFile};

pub fn service(web_dir: &Path) -> MethodRouter {
    let index = web_dir.join("index.html");
    if !index.exists() {
        tracing::warn!(dir = %web_dir.display(), "the web app is not built here; run `make build` (API still served)");
    }
    let files = ServeDir::new(web_dir).append_index_html_on_directories(false).fallback(ServeFile::new(index));
    get_service(files).layer(middleware::from_fn(cache_policy))
}

/// Hashed assets never change; everything else (index.html) is revalidated every time.
async fn cache_policy(request: Request, next: Next) -> Response {
    let immutable = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let value = if immutable && response.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}
