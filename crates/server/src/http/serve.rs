//! The accept loop: HTTP/1.1 over TCP with the defences axum's default `serve` lacks. A client
//! must finish sending a request's headers within `header_read_seconds` (slowloris), and one
//! address may hold at most `connections_per_address` open connections; a connection beyond
//! that is closed as soon as it is accepted.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::foundation::capacity::Counts;
use crate::foundation::config::CapacityConfig;

/// How long shutdown waits for open connections (event streams never end on their own).
const DRAIN: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `shutdown` completes, then lets open requests finish
/// (for at most a few seconds).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    capacity: &CapacityConfig,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let open: Counts<IpAddr> = Counts::default();
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
        let Some(place) = open.take(&peer.ip(), capacity.connections_per_address) else {
            tracing::debug!(ip = %peer.ip(), "connection refused: too many open from this address");
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = app.clone().map_request(move |mut request: axum::extract::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request
        });
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
