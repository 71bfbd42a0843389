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
    // The build writes `name.br` and `name.gz` beside each text file (web/vite.config.ts); a
    // browser that accepts one gets it as it is, and the compression layer leaves it alone.
    let index = ServeFile::new(index).precompressed_br().precompressed_gzip();
    let files = ServeDir::new(web_dir).append_index_html_on_directories(false).precompressed_br().precompressed_gzip().fallback(index);
    get_service(files).layer(middleware::from_fn(cache_policy))
}

/// Hashed assets never change; everything else (index.html) is revalidated every time. Every
/// answer varies with Accept-Encoding.
async fn cache_policy(request: Request, next: Next) -> Response {
    let immutable = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let value = if immutable && response.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    // Whether a precompressed file was sent depends on Accept-Encoding: caches must key on it.
    let varies = headers.get_all(header::VARY).iter().any(|v| v.to_str().is_ok_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
    if !varies {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}
