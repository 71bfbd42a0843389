//! The accept loop: HTTP/1.1 over TCP with the defences axum's default `serve` lacks.
//!
//! - A client must finish sending a request's headers within `header_read_seconds` (slowloris).
//! - Per client address (the address after the trusted proxy hops, as [`ClientIp`] reads it), at
//!   most `connections_per_address` requests are in progress at once, and, counted apart, at most
//!   as many event streams (`GET /api/events`, which are also bounded per account). Beyond either,
//!   the request is answered 429. This is decided once a request's headers are read, because
//!   behind a reverse proxy that is when the client's address is known; one proxy's connections
//!   carry many clients, and one client at its bound must not refuse the others.
//! - With no proxy configured (`proxy_hops = 0`) the peer is the client and the cheap bound at
//!   the door stays: a peer holds at most `connections_per_address` connections, plus
//!   [`PROBE_SPARE`] more on which only `/healthz` and `/readyz` are answered (any other
//!   request closes such a connection unanswered); a connection beyond those is closed as soon
//!   as it is accepted. With `proxy_hops > 0` every peer is one of the trusted proxies (the
//!   server must be reachable only through them) and is exempt from the bound at the door.
//! - `/healthz` and `/readyz` are never refused by a per-address bound.
//!
//! [`ClientIp`]: crate::foundation::extract::ClientIp

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, Method, Request, header};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::foundation::capacity::{Counted, Counts};
use crate::foundation::config::Config;
use crate::foundation::error::AppError;
use crate::foundation::extract::client_address;

/// How long shutdown waits for open connections (event streams never end on their own).
const DRAIN: Duration = Duration::from_secs(5);

/// Connections a peer may open beyond its cap (no proxy configured) that serve health probes
/// only, so a probe from an address at its cap is still answered.
pub const PROBE_SPARE: usize = 4;

/// The paths no per-address bound refuses.
const PROBES: [&str; 2] = ["/healthz", "/readyz"];

/// The event stream's path, counted apart from other requests.
const EVENTS: &str = "/api/events";

/// The per-client-address bounds, decided once a request's headers are read.
#[derive(Debug)]
struct PerAddress {
    requests: Counts<IpAddr>,
    streams: Counts<IpAddr>,
    max: usize,
    proxy_hops: usize,
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish
/// (for at most a few seconds).
pub async fn serve(listener: TcpListener, app: Router, config: &Config, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
    let capacity = &config.capacity;
    let behind_proxies = config.proxy_hops > 0;
    let open: Counts<IpAddr> = Counts::default();
    let spare: Counts<IpAddr> = Counts::default();
    let per_address = Arc::new(PerAddress {
        requests: Counts::default(),
        streams: Counts::default(),
        max: capacity.connections_per_address,
        proxy_hops: config.proxy_hops,
    });
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(capacity.header_read_seconds)).keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer): (_, SocketAddr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(err) => {
                    // Out of file descriptors and the like: pause instead of spinning.
                    tracing::warn!(error = %err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // The bound at the door: for a peer that is the client itself; a trusted proxy is exempt.
        let (place, probes_only) = if behind_proxies {
            (None, false)
        } else if let Some(place) = open.take(&peer.ip(), capacity.connections_per_address) {
            (Some(place), false)
        } else if let Some(place) = spare.take(&peer.ip(), PROBE_SPARE) {
            (Some(place), true)
        } else {
            tracing::debug!(ip = %peer.ip(), "connection refused: too many open from this address");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (app, per_address) = (app.clone(), per_address.clone());
        let service =
            tower::service_fn(move |request: Request<Incoming>| handle(app.clone(), per_address.clone(), peer, probes_only, request));
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        tokio::spawn(async move {
            let _place = place;
            if let Err(err) = connection.await {
                tracing::debug!(error = %err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown()).await.is_err() {
        tracing::debug!("closing connections still open after the drain period");
    }
    Ok(())
}

/// One request on a connection from `peer`. An error closes the connection unanswered.
async fn handle(
    app: Router,
    per_address: Arc<PerAddress>,
    peer: SocketAddr,
    probes_only: bool,
    mut request: Request<Incoming>,
) -> std::io::Result<Response> {
    request.extensions_mut().insert(ConnectInfo(peer));
    let path = request.uri().path();
    if PROBES.contains(&path) {
        return Ok(app.oneshot(request).await.unwrap_or_else(|never| match never {}));
    }
    if probes_only {
        tracing::debug!(ip = %peer.ip(), "connection closed: beyond this address's cap, and not a health probe");
        return Err(std::io::Error::other("too many connections from this address"));
    }
    let is_stream = request.method() == Method::GET && path == EVENTS;
    let client = client_of(peer.ip(), request.headers(), per_address.proxy_hops);
    let counts = if is_stream { &per_address.streams } else { &per_address.requests };
    let Some(held) = counts.take(&client, per_address.max) else {
        tracing::debug!(ip = %client, stream = is_stream, "request refused: too many in progress from this address");
        return Ok(too_many(is_stream, per_address.max));
    };
    let response = app.oneshot(request).await.unwrap_or_else(|never| match never {});
    Ok(response.map(|body| hold_until_sent(body, held)))
}

/// The client's address as [`ClientIp`](crate::foundation::extract::ClientIp) reads it.
fn client_of(peer: IpAddr, headers: &HeaderMap, proxy_hops: usize) -> IpAddr {
    let forwarded: Vec<&str> = headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
    client_address(peer, &forwarded, proxy_hops)
}

/// `body`, holding `held` until the body is sent or dropped (an event stream's lifetime).
fn hold_until_sent(body: Body, held: Counted<IpAddr>) -> Body {
    Body::new(body.map_frame(move |frame| {
        let _held = &held;
        frame
    }))
}

/// The 429 for a client address at its bound.
fn too_many(is_stream: bool, max: usize) -> Response {
    let detail = if is_stream {
        format!("At most {max} live-update streams from one address; close another tab.")
    } else {
        format!("At most {max} requests in progress from one address; try again in a moment.")
    };
    let mut response = AppError::TooManyRequests { detail, retry_after_secs: if is_stream { 15 } else { 1 }, limit: None }.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_behind_a_trusted_proxy_is_the_forwarded_address() {
        let peer: IpAddr = "10.0.0.2".parse().expect("ip");
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static("203.0.113.9"));
        assert_eq!(client_of(peer, &headers, 0), peer, "no proxies: the peer, whatever the header says");
        assert_eq!(client_of(peer, &headers, 1), "203.0.113.9".parse::<IpAddr>().expect("ip"));
    }

    #[tokio::test]
    async fn a_held_place_is_given_back_when_the_body_is_done() {
        let counts: Counts<IpAddr> = Counts::default();
        let ip: IpAddr = "203.0.113.9".parse().expect("ip");
        let held = counts.take(&ip, 1).expect("a place");
        let body = hold_until_sent(Body::from("hello"), held);
        assert!(counts.take(&ip, 1).is_none(), "held while the body is unsent");
        let bytes = body.collect().await.expect("body").to_bytes();
        assert_eq!(&bytes[..], b"hello");
        assert!(counts.take(&ip, 1).is_some(), "given back once the body is dropped");
    }
}
