//! The Strikeline server: configuration, the HTTP application and the `strikeline` command.

pub mod cli;
pub mod foundation;
pub mod handlers;
pub mod http;
pub mod openapi;
pub mod services;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use strikeline_store::{Db, rate_limits, sessions};
use tokio::net::TcpListener;

use crate::foundation::config::Config;
use crate::foundation::state::AppState;
use crate::foundation::{capacity, clock, events, limits, market};
use crate::handlers::auth::password;

/// Connects to the configured database and applies migrations.
pub async fn open_database(config: &Config) -> anyhow::Result<Db> {
    let url = config.database_url();
    if url.starts_with("sqlite:") && config.database_url.is_none() {
        std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating data directory {}", config.data_dir.display()))?;
    }
    let db = Db::connect(&url).await.with_context(|| format!("connecting to {}", strikeline_store::redact(&url)))?;
    db.migrate().await.context("applying migrations")?;
    Ok(db)
}

/// The application state over `db` and `market`, with in-process events and the database's
/// limiter buckets: for command-line tools that compute on the database without serving.
pub fn state_on(db: Db, config: Config, market: Arc<market::Market>) -> AppState {
    let clock = clock::Clock::from_start(config.clock_start);
    AppState {
        capacity: Arc::new(capacity::Capacity::new(&config.capacity)),
        buckets: limits::Buckets::Database,
        events: events::Events::in_process(clock.clone()),
        clock,
        db,
        config: Arc::new(config),
        market,
        instance_id: uuid::Uuid::new_v4().to_string(),
        caches: Arc::default(),
        metrics: Arc::default(),
    }
}

/// The application state without a listener or start-up work, for command-line tools that
/// read the database and the market (e.g. `strikeline backtest`).
pub async fn offline_state(config: Config) -> anyhow::Result<AppState> {
    let db = open_database(&config).await?;
    let market = Arc::new(market::Market::from_config(&config)?);
    let buckets = limiter_buckets(&config).await?;
    Ok(AppState { buckets, ..state_on(db, config, market) })
}

/// The limiter's buckets: in Redis when `redis_url` is configured (which must answer now),
/// else in the database.
async fn limiter_buckets(config: &Config) -> anyhow::Result<limits::Buckets> {
    match &config.redis_url {
        None => Ok(limits::Buckets::Database),
        Some(url) => {
            let redis = limits::redis::RedisBuckets::connect(url.expose(), &config.redis_prefix)
                .await
                .with_context(|| format!("connecting to Redis at {}", strikeline_store::redact(url.expose())))?;
            Ok(limits::Buckets::Redis(redis))
        }
    }
}

/// A running server: its address and a way to wait for it.
pub struct Server {
    pub addr: SocketAddr,
    pub state: AppState,
    listener: TcpListener,
}

impl Server {
    /// Opens the database, migrates and binds the listener (port 0 picks a free port).
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        let db = open_database(&config).await?;
        let listener =
            TcpListener::bind((config.host, config.port)).await.with_context(|| format!("binding {}:{}", config.host, config.port))?;
        let addr = listener.local_addr()?;
        // The port in use (port 0 picks one): links in emails point at it when no public URL is set.
        let config = Config { port: addr.port(), ..config };
        let market = Arc::new(market::Market::from_config(&config)?);
        let buckets = limiter_buckets(&config).await?;
        let state = state_on(db.clone(), config, market);
        let state = AppState { buckets, events: events::Events::for_database(&db, state.clock.clone()), ..state };
        // A provider that cannot answer now must not keep the site down: log and go on.
        if let Err(err) = services::scheduling::bootstrap(&state, state.clock.now()).await {
            tracing::warn!(error = %err, "market bootstrap incomplete; the scheduler will retry");
        }
        // The Web Push (VAPID) key, generated at first start; every instance reads the same one.
        if let Err(err) = services::pushing::vapid(&state).await {
            tracing::warn!(error = %err, "Web Push key not ready; it is made at first use");
        }
        Ok(Server { addr, state, listener })
    }

    /// Serves until `shutdown` completes, then finishes in-flight requests.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let sweeper = tokio::spawn(sweep_expired(self.state.clone()));
        let scheduler = self.state.config.schedule.background.then(|| tokio::spawn(services::scheduling::run_forever(self.state.clone())));
        let outbox = self.state.config.schedule.background.then(|| tokio::spawn(services::delivering::run_forever(self.state.clone())));
        let app = http::router(self.state.clone());
        // The dummy hash for unknown accounts, made now on a hashing thread.
        let capacity = self.state.capacity.clone();
        tokio::spawn(async move { capacity.hash(password::prepare).await });
        // On the signal, first a drain (readiness fails, everything else is served) so a load
        // balancer stops sending new requests; then open event streams end with a goodbye and
        // the listener closes.
        let capacity = self.state.capacity.clone();
        let drain = Duration::from_secs(self.state.config.drain_seconds);
        let shutdown = async move {
            shutdown.await;
            if !drain.is_zero() {
                capacity.draining.store(true, std::sync::atomic::Ordering::SeqCst);
                tracing::info!(seconds = drain.as_secs(), "draining: /readyz answers 503 until the listener closes");
                tokio::time::sleep(drain).await;
            }
            capacity.shutting_down.send_replace(true);
        };
        http::serve::serve(self.listener, app, &self.state.config, shutdown).await?;
        sweeper.abort();
        for task in [scheduler, outbox].into_iter().flatten() {
            task.abort();
        }
        services::scheduling::release(&self.state).await;
        self.state.db.close().await;
        Ok(())
    }
}

/// Removes expired sessions, spent rate-limit buckets and old idempotency keys every few
/// minutes, and, every hour, what the retention periods have run out on (whether or not
/// automation runs).
async fn sweep_expired(state: AppState) {
    let mut tick = tokio::time::interval(Duration::from_secs(300));
    // Retention first runs five minutes after start (then hourly): a start-up is busy enough,
    // and on SQLite its write transactions would contend with the first requests.
    let mut last_retention = state.clock.now() - chrono::Duration::minutes(55);
    loop {
        tick.tick().await;
        let now = state.clock.now();
        if now - last_retention >= chrono::Duration::hours(1) {
            match services::retention::enforce(&state, now).await {
                Ok(_) => last_retention = now,
                Err(err) => tracing::warn!(error = %err, "enforcing the retention periods failed"),
            }
        }
        // A bucket whose time has passed acts as empty; back-off buckets are kept an hour more.
        let horizon = now.timestamp_millis() - limits::LOGIN_BACKOFF.forget_ms;
        let swept = async {
            let s = sessions::delete_expired(&state.db, now).await?;
            let f = rate_limits::delete_stale(&state.db, horizon).await?;
            strikeline_store::idempotency::prune(&state.db, now - chrono::Duration::hours(strikeline_store::idempotency::KEEP_HOURS))
                .await?;
            Ok::<_, strikeline_store::StoreError>((s, f))
        };
        match swept.await {
            Ok((0, 0)) => {}
            Ok((s, f)) => tracing::debug!(sessions = s, failures = f, "swept expired rows"),
            Err(err) => tracing::warn!(error = %err, "sweeping expired rows failed"),
        }
    }
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
