//! Automation: the scheduler that keeps prices and signals current on the exchange calendar,
//! and its endpoints. Running or stopped is stored, so it survives a restart; exactly one
//! instance (the holder of the `scheduler` lease) runs the jobs when several share a database.

pub mod schedule;

use std::time::Duration as StdDuration;

use axum::extract::State;
use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use strikeline_store::automation as store;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{AdminUser, CurrentUser};
use crate::error::Result;
use crate::events::Topic;
use crate::limits;
use crate::state::AppState;
use schedule::{Job, NextSchedules, Schedule};

const RUNNING_KEY: &str = "running";
const LEASE: &str = "scheduler";

/// Whether automation runs, and when each job runs next.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationStatus {
    pub is_running: bool,
    /// Whether the exchange's regular session is open now.
    pub market_open: bool,
    /// When a job last ran.
    pub last_run_at: Option<DateTime<Utc>>,
    pub next_schedules: NextSchedules,
}

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// This instance held the lease.
    pub leader: bool,
    pub ran: Vec<Job>,
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(start))
        .routes(routes!(stop))
        .routes(routes!(manual_update))
}

/// Whether automation is running (stored; the configured default until someone changes it).
pub async fn is_running(state: &AppState) -> Result<bool> {
    Ok(match store::get(&state.db, RUNNING_KEY).await? {
        Some(value) => value == "true",
        None => state.config.schedule.start_running,
    })
}

async fn last_run(state: &AppState, job: Job) -> Result<Option<DateTime<Utc>>> {
    Ok(store::get(&state.db, job.key()).await?.and_then(|v| DateTime::parse_from_rfc3339(&v).ok()).map(|t| t.with_timezone(&Utc)))
}

/// The status at `now`.
pub async fn current_status(state: &AppState, now: DateTime<Utc>) -> Result<AutomationStatus> {
    let mut last = Vec::with_capacity(Job::ALL.len());
    for job in Job::ALL {
        last.push((job, last_run(state, job).await?));
    }
    let schedule = Schedule { calendar: &state.market.calendar, config: &state.config.schedule };
    let lookup = |job: Job| last.iter().find(|(j, _)| *j == job).and_then(|(_, t)| *t);
    Ok(AutomationStatus {
        is_running: is_running(state).await?,
        market_open: state.market.calendar.is_open(now),
        last_run_at: last.iter().filter_map(|(_, t)| *t).max(),
        next_schedules: schedule.next_schedules(now, lookup),
    })
}

/// Runs every job due at `now` if automation is running and this instance holds (or takes)
/// the scheduler lease. The background loop calls this; tests call it with a chosen `now`.
pub async fn tick(state: &AppState, now: DateTime<Utc>) -> Result<TickReport> {
    let mut report = TickReport::default();
    let lease_for = Duration::seconds(i64::try_from(state.config.schedule.tick_seconds).unwrap_or(60) * 3);
    report.leader = store::acquire_lease(&state.db, LEASE, &state.instance_id, now, now + lease_for).await?;
    if !report.leader || !is_running(state).await? {
        return Ok(report);
    }
    let schedule = Schedule { calendar: &state.market.calendar, config: &state.config.schedule };
    for job in Job::ALL {
        if schedule.is_due(job, now, last_run(state, job).await?) {
            crate::desk::run_job(state, job, now).await?;
            store::set(&state.db, job.key(), &now.to_rfc3339(), now).await?;
            report.ran.push(job);
        }
    }
    if !report.ran.is_empty() {
        state.events.publish(Topic::Automation);
    }
    Ok(report)
}

/// The background loop: one tick every `schedule.tick_seconds` until the task is dropped.
pub async fn run_forever(state: AppState) {
    let mut every = tokio::time::interval(StdDuration::from_secs(state.config.schedule.tick_seconds));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match tick(&state, crate::now()).await {
            Ok(report) if !report.ran.is_empty() => tracing::info!(jobs = ?report.ran, "automation ran"),
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "automation tick failed"),
        }
    }
}

/// Gives the lease up (on shutdown), so another instance can take over at once.
pub async fn release(state: &AppState) {
    if let Err(err) = store::release_lease(&state.db, LEASE, &state.instance_id).await {
        tracing::debug!(error = %err, "releasing the scheduler lease failed");
    }
}

/// Whether automation runs and when each job runs next. Pages poll this every 30 s.
#[utoipa::path(
    get, path = "/api/automation/status", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 401, description = "Not signed in", body = crate::error::Problem))
)]
async fn status(State(state): State<AppState>, _user: CurrentUser) -> Result<axum::Json<AutomationStatus>> {
    Ok(axum::Json(current_status(&state, crate::now()).await?))
}

async fn set_running(state: &AppState, running: bool) -> Result<AutomationStatus> {
    let now = crate::now();
    store::set(&state.db, RUNNING_KEY, if running { "true" } else { "false" }, now).await?;
    state.events.publish(Topic::Automation);
    current_status(state, now).await
}

/// Starts automation (administrators only). Idempotent.
#[utoipa::path(
    post, path = "/api/automation/start", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 403, description = "Not an administrator", body = crate::error::Problem))
)]
async fn start(State(state): State<AppState>, _admin: AdminUser) -> Result<axum::Json<AutomationStatus>> {
    Ok(axum::Json(set_running(&state, true).await?))
}

/// Stops automation (administrators only): no job runs until it is started again. Idempotent.
#[utoipa::path(
    post, path = "/api/automation/stop", tag = "automation",
    responses((status = 200, body = AutomationStatus), (status = 403, description = "Not an administrator", body = crate::error::Problem))
)]
async fn stop(State(state): State<AppState>, _admin: AdminUser) -> Result<axum::Json<AutomationStatus>> {
    Ok(axum::Json(set_running(&state, false).await?))
}

/// Runs a manual update now (quotes, marks, new signals, figures), whether automation is running
/// or not. Any user; 12 per hour each.
#[utoipa::path(
    post, path = "/api/automation/update", tag = "automation",
    responses(
        (status = 200, body = AutomationStatus),
        (status = 429, description = "Too many manual updates; see Retry-After", body = crate::error::Problem),
    )
)]
async fn manual_update(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<(limits::RateLimit, axum::Json<AutomationStatus>)> {
    let now = crate::now();
    let limit = limits::hit(&state, limits::AUTOMATION_UPDATE, &user.id, now).await?;
    crate::desk::update_now(&state, now).await?;
    Ok((limit, axum::Json(current_status(&state, now).await?)))
}
