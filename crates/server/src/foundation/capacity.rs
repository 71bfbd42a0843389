//! How much expensive work the server takes on at once: password hashes, backtests and
//! recomputations, and open event streams. Each is bounded so that a flood of requests is
//! answered 429/503 with `Retry-After` instead of exhausting memory or starving other routes.
//! These bounds are per process; the limiter (`limits`) is what holds across instances.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast};

use crate::foundation::config::CapacityConfig;
use crate::foundation::error::{AppError, Result};

/// A semaphore with a bounded queue: `permits` holders at once, at most `queue` waiting.
#[derive(Debug)]
pub struct Gate {
    semaphore: Arc<Semaphore>,
    /// Holders plus waiters.
    in_flight: AtomicUsize,
    running: AtomicUsize,
    peak: AtomicUsize,
    permits: usize,
    queue: usize,
}

/// A place in a [`Gate`]; frees it when dropped.
#[derive(Debug)]
pub struct GatePermit {
    _permit: OwnedSemaphorePermit,
    gate: Arc<Gate>,
}

impl Drop for GatePermit {
    fn drop(&mut self) {
        self.gate.running.fetch_sub(1, Ordering::SeqCst);
        self.gate.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Gate {
    pub fn new(permits: usize, queue: usize) -> Arc<Gate> {
        Arc::new(Gate {
            semaphore: Arc::new(Semaphore::new(permits)),
            in_flight: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            permits,
            queue,
        })
    }

    /// Waits up to `max_wait` for a place; a full queue or a long wait is [`AppError::Busy`].
    pub async fn enter(self: &Arc<Self>, max_wait: Duration) -> Result<GatePermit> {
        let busy = || AppError::Busy { retry_after_secs: max_wait.as_secs().clamp(1, 30) };
        if self.in_flight.fetch_add(1, Ordering::SeqCst) >= self.permits + self.queue {
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err(busy());
        }
        match tokio::time::timeout(max_wait, self.semaphore.clone().acquire_owned()).await {
            Ok(Ok(permit)) => {
                let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
                self.peak.fetch_max(now, Ordering::SeqCst);
                Ok(GatePermit { _permit: permit, gate: self.clone() })
            }
            _ => {
                self.in_flight.fetch_sub(1, Ordering::SeqCst);
                Err(busy())
            }
        }
    }

    /// The most holders there have been at once (for tests and metrics).
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }
}

/// Longest a sign-in or registration waits for a password hash before 503.
const HASH_WAIT: Duration = Duration::from_secs(5);
/// Longest a backtest waits for a free slot before 503.
const HEAVY_WAIT: Duration = Duration::from_secs(2);

/// A job for the hashing threads.
type HashJob = Box<dyn FnOnce() + Send>;

/// Dedicated threads for password hashing, as many as may hash at once. Each argon2id hash
/// allocates 19 MiB; on the shared blocking pool every new thread would get (and keep) its own
/// allocator arena, so memory would grow with the number of threads that ever hashed. Two
/// long-lived threads keep it at two hashes' worth.
struct HashThreads {
    jobs: Mutex<std::sync::mpsc::Sender<HashJob>>,
}

impl std::fmt::Debug for HashThreads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HashThreads")
    }
}

impl HashThreads {
    fn start(threads: usize) -> HashThreads {
        let (sender, receiver) = std::sync::mpsc::channel::<HashJob>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..threads {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new().name(format!("password-hash-{n}")).spawn(move || {
                loop {
                    let job = {
                        let guard = receiver.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        guard.recv()
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                }
            });
            if let Err(err) = spawned {
                tracing::error!(error = %err, "could not start a password-hashing thread");
            }
        }
        HashThreads { jobs: Mutex::new(sender) }
    }

    /// Runs `work` on a hashing thread and waits for its answer.
    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: HashJob = Box::new(move || {
            let _ = tx.send(work());
        });
        self.jobs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(job)
            .map_err(|_| AppError::Internal(anyhow::anyhow!("the password-hashing threads have stopped")))?;
        rx.await.map_err(|_| AppError::Internal(anyhow::anyhow!("a password-hashing job was dropped")))
    }
}

/// The server's bounded resources.
#[derive(Debug)]
pub struct Capacity {
    pub hashing: Arc<Gate>,
    hash_threads: HashThreads,
    heavy: Arc<Gate>,
    heavy_per_user: usize,
    heavy_by_user: Counts<String>,
    pub heavy_job_time: Duration,
    streams_per_user: usize,
    streams_by_user: Counts<String>,
    /// Session ids that just signed out: their event streams end.
    pub ended_sessions: broadcast::Sender<String>,
    /// Refuses requests at once while the database is unreachable.
    pub database: Arc<crate::foundation::breaker::DatabaseBreaker>,
    /// Set when the process begins to shut down: open event streams say goodbye and end.
    pub shutting_down: tokio::sync::watch::Sender<bool>,
    /// Set on SIGTERM for `drain_seconds` before shutting down: `/readyz` answers 503.
    pub draining: AtomicBool,
}

impl Capacity {
    /// Live-event streams open in this process.
    pub fn open_streams(&self) -> usize {
        self.streams_by_user.total()
    }

    pub fn new(config: &CapacityConfig) -> Capacity {
        Capacity {
            hashing: Gate::new(config.password_hashes, config.password_queue),
            hash_threads: HashThreads::start(config.password_hashes),
            heavy: Gate::new(config.heavy_jobs, config.heavy_jobs),
            heavy_per_user: config.heavy_jobs_per_user,
            heavy_by_user: Counts::default(),
            heavy_job_time: Duration::from_secs(config.heavy_job_seconds),
            streams_per_user: config.event_streams_per_user,
            streams_by_user: Counts::default(),
            ended_sessions: broadcast::channel(64).0,
            database: Arc::default(),
            shutting_down: tokio::sync::watch::channel(false).0,
            draining: AtomicBool::new(false),
        }
    }

    /// Runs a password hash or check on the hashing threads, at most the configured number
    /// at once; the rest wait in a bounded queue or are refused with 503.
    pub async fn hash<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        let _permit = self.hashing.enter(HASH_WAIT).await?;
        self.hash_threads.run(work).await
    }

    /// A slot for one heavy job of `user`: 429 when the user already runs their share, 503
    /// when the server is at capacity.
    pub async fn heavy_slot(&self, user: &str) -> Result<HeavySlot> {
        let user_slot = self.heavy_by_user.take(&user.to_owned(), self.heavy_per_user).ok_or_else(|| AppError::TooManyRequests {
            detail: "A backtest of yours is still running. Try again when it has finished.".into(),
            retry_after_secs: 5,
            limit: None,
        })?;
        let permit = self.heavy.enter(HEAVY_WAIT).await?;
        Ok(HeavySlot { _permit: permit, _user: user_slot, cancel: Arc::new(AtomicBool::new(false)) })
    }

    /// A place for one more event stream of `user`, or 429 when they have the most open.
    pub fn stream_slot(&self, user: &str) -> Result<Counted> {
        self.streams_by_user.take(&user.to_owned(), self.streams_per_user).ok_or_else(|| AppError::TooManyRequests {
            detail: format!("At most {} live-update streams per account; close another tab.", self.streams_per_user),
            retry_after_secs: 15,
            limit: None,
        })
    }
}

/// A running heavy job's place. Its `cancel` flag is raised when the request ends or times
/// out, so work that checks it stops early.
#[derive(Debug)]
pub struct HeavySlot {
    _permit: GatePermit,
    _user: Counted,
    pub cancel: Arc<AtomicBool>,
}

impl Drop for HeavySlot {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}

/// Counts of something held per key (a user's streams, an address's connections), each
/// bounded; a unit is given back when its [`Counted`] is dropped.
#[derive(Debug)]
pub struct Counts<K: Eq + Hash + Clone>(Arc<Mutex<HashMap<K, usize>>>);

impl<K: Eq + Hash + Clone> Default for Counts<K> {
    fn default() -> Self {
        Counts(Arc::default())
    }
}

impl<K: Eq + Hash + Clone> Counts<K> {
    /// Every unit held, over all keys.
    pub fn total(&self) -> usize {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).values().sum()
    }

    /// One more unit for `key`, or `None` when it already holds `max`.
    pub fn take(&self, key: &K, max: usize) -> Option<Counted<K>> {
        let mut map = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = map.entry(key.clone()).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Counted { counts: self.0.clone(), key: key.clone() })
    }
}

/// One unit of a [`Counts`]; gives it back when dropped.
#[derive(Debug)]
pub struct Counted<K: Eq + Hash + Clone = String> {
    counts: Arc<Mutex<HashMap<K, usize>>>,
    key: K,
}

impl<K: Eq + Hash + Clone> Drop for Counted<K> {
    fn drop(&mut self) {
        let mut map = self.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = map.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_gate_admits_its_permits_queues_a_few_and_refuses_the_rest() {
        let gate = Gate::new(2, 1);
        let a = gate.enter(Duration::from_millis(10)).await.expect("first");
        let _b = gate.enter(Duration::from_millis(10)).await.expect("second");
        // The third waits in the queue and times out; a fourth finds the queue full at once.
        let waiting = gate.enter(Duration::from_millis(50));
        let refused = gate.enter(Duration::from_millis(50));
        let (waited, refused) = tokio::join!(waiting, refused);
        assert!(matches!(refused, Err(AppError::Busy { .. })));
        assert!(matches!(waited, Err(AppError::Busy { .. })));
        drop(a);
        assert!(gate.enter(Duration::from_millis(10)).await.is_ok(), "a freed place is reusable");
        assert_eq!(gate.peak(), 2);
    }

    #[test]
    fn per_user_counts_give_their_unit_back() {
        let counts = Counts::default();
        let (u, v) = ("u".to_owned(), "v".to_owned());
        let one = counts.take(&u, 1).expect("first");
        assert!(counts.take(&u, 1).is_none());
        assert!(counts.take(&v, 1).is_some(), "other users are not affected");
        drop(one);
        assert!(counts.take(&u, 1).is_some());
    }
}
