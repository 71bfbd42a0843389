//! What `/metrics` reports, in the Prometheus text format (version 0.0.4): requests by route,
//! method and status with latency histograms; scheduled job runs and durations; limiter
//! refusals; and, read when scraped, the database pool, the outbox's backlog and the open
//! event streams. Counted per process: Prometheus scrapes each instance.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// Upper bounds of the latency buckets, seconds.
const BUCKETS: [f64; 12] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

#[derive(Clone, Debug, Default)]
struct Histogram {
    /// Observations at or under each bound (not cumulative; summed when written).
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        if let Some(i) = BUCKETS.iter().position(|bound| seconds <= *bound) {
            self.buckets[i] += 1;
        }
        self.count += 1;
        self.sum += seconds;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        for (bound, n) in BUCKETS.iter().zip(self.buckets) {
            cumulative += n;
            let _ = writeln!(out, "{name}_bucket{{{labels},le=\"{bound}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels},le=\"+Inf\"}} {}", self.count);
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// The counters, kept for the life of the process.
#[derive(Debug, Default)]
pub struct Metrics {
    /// (route, method, status) → latency.
    requests: Mutex<BTreeMap<(String, String, u16), Histogram>>,
    /// (job, outcome) → duration.
    jobs: Mutex<BTreeMap<(String, &'static str), Histogram>>,
    /// policy → refusals.
    refusals: Mutex<BTreeMap<String, u64>>,
}

/// Figures read when scraped.
#[derive(Debug, Default)]
pub struct Gauges {
    pub pool_connections: u32,
    pub pool_idle: u32,
    pub pool_max: u32,
    /// channel → (messages waiting, age of the oldest in seconds).
    pub outbox: Vec<(String, i64, f64)>,
    pub event_streams: usize,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A label value with `\`, `"` and newlines escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

impl Metrics {
    /// One answered request: `route` is the matched route's pattern (`/api/signals/{id}`), never
    /// the raw path, so the label set stays bounded.
    pub fn request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        lock(&self.requests).entry((route.to_owned(), method.to_owned(), status)).or_default().observe(seconds);
    }

    /// One run of a scheduled job.
    pub fn job(&self, job: &str, ok: bool, seconds: f64) {
        lock(&self.jobs).entry((job.to_owned(), if ok { "ok" } else { "error" })).or_default().observe(seconds);
    }

    /// One request the limiter refused under `policy`.
    pub fn refused(&self, policy: &str) {
        *lock(&self.refusals).entry(policy.to_owned()).or_default() += 1;
    }

    /// Everything, in the Prometheus text format.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::with_capacity(8 * 1024);
        out.push_str("# HELP strikeline_http_requests_total Requests answered, by route, method and status.\n");
        out.push_str("# TYPE strikeline_http_requests_total counter\n");
        let requests = lock(&self.requests).clone();
        for ((route, method, status), h) in &requests {
            let _ = writeln!(
                out,
                "strikeline_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {}",
                escape(route),
                h.count
            );
        }
        out.push_str("# HELP strikeline_http_request_duration_seconds Time to answer, by route, method and status.\n");
        out.push_str("# TYPE strikeline_http_request_duration_seconds histogram\n");
        for ((route, method, status), h) in &requests {
            let labels = format!("route=\"{}\",method=\"{method}\",status=\"{status}\"", escape(route));
            h.write(&mut out, "strikeline_http_request_duration_seconds", &labels);
        }
        out.push_str("# HELP strikeline_job_duration_seconds Scheduled job runs and their durations, by job and outcome.\n");
        out.push_str("# TYPE strikeline_job_duration_seconds histogram\n");
        for ((job, outcome), h) in lock(&self.jobs).iter() {
            h.write(&mut out, "strikeline_job_duration_seconds", &format!("job=\"{}\",outcome=\"{outcome}\"", escape(job)));
        }
        out.push_str("# HELP strikeline_limiter_refusals_total Requests the shared limiter refused, by policy.\n");
        out.push_str("# TYPE strikeline_limiter_refusals_total counter\n");
        for (policy, n) in lock(&self.refusals).iter() {
            let _ = writeln!(out, "strikeline_limiter_refusals_total{{policy=\"{}\"}} {n}", escape(policy));
        }
        out.push_str("# HELP strikeline_db_pool_connections Database connections open in this process's pool, by state.\n");
        out.push_str("# TYPE strikeline_db_pool_connections gauge\n");
        let busy = gauges.pool_connections.saturating_sub(gauges.pool_idle);
        let _ = writeln!(out, "strikeline_db_pool_connections{{state=\"idle\"}} {}", gauges.pool_idle);
        let _ = writeln!(out, "strikeline_db_pool_connections{{state=\"in_use\"}} {busy}");
        out.push_str("# HELP strikeline_db_pool_max_connections The pool's bound.\n");
        out.push_str("# TYPE strikeline_db_pool_max_connections gauge\n");
        let _ = writeln!(out, "strikeline_db_pool_max_connections {}", gauges.pool_max);
        out.push_str("# HELP strikeline_outbox_pending Messages waiting to be delivered, by channel.\n");
        out.push_str("# TYPE strikeline_outbox_pending gauge\n");
        for (channel, n, _) in &gauges.outbox {
            let _ = writeln!(out, "strikeline_outbox_pending{{channel=\"{}\"}} {n}", escape(channel));
        }
        out.push_str("# HELP strikeline_outbox_oldest_age_seconds Age of the oldest waiting message, by channel.\n");
        out.push_str("# TYPE strikeline_outbox_oldest_age_seconds gauge\n");
        for (channel, _, age) in &gauges.outbox {
            let _ = writeln!(out, "strikeline_outbox_oldest_age_seconds{{channel=\"{}\"}} {age}", escape(channel));
        }
        out.push_str("# HELP strikeline_event_streams Live-event streams open on this instance.\n");
        out.push_str("# TYPE strikeline_event_streams gauge\n");
        let _ = writeln!(out, "strikeline_event_streams {}", gauges.event_streams);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_are_cumulative_and_labels_escaped() {
        let m = Metrics::default();
        m.request("/api/signals/{id}", "GET", 200, 0.003);
        m.request("/api/signals/{id}", "GET", 200, 0.2);
        m.request("/api/signals/{id}", "GET", 200, 30.0);
        m.refused("api \"hour\"");
        let text = m.render(&Gauges::default());
        assert!(text.contains("strikeline_http_requests_total{route=\"/api/signals/{id}\",method=\"GET\",status=\"200\"} 3"), "{text}");
        let bucket = |le: &str| {
            format!(
                "strikeline_http_request_duration_seconds_bucket{{route=\"/api/signals/{{id}}\",method=\"GET\",status=\"200\",le=\"{le}\"}} "
            )
        };
        assert!(text.contains(&format!("{}0\n", bucket("0.001"))));
        assert!(text.contains(&format!("{}1\n", bucket("0.005"))));
        assert!(text.contains(&format!("{}2\n", bucket("0.25"))));
        assert!(text.contains(&format!("{}2\n", bucket("10"))), "beyond the last bound only +Inf counts it");
        assert!(text.contains(&format!("{}3\n", bucket("+Inf"))));
        assert!(text.contains("strikeline_limiter_refusals_total{policy=\"api \\\"hour\\\"\"} 1"));
    }
}
