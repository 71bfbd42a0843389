//! Scheduling: the jobs that keep prices, signals and portfolios current on the exchange
//! calendar, when each is due, and the lease that makes exactly one instance run them.
//! Running or stopped is stored, so it survives a restart.

pub mod schedule;

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use strikeline_store::automation as store;
use utoipa::ToSchema;

use super::execution::automated::execute as execute_automated_orders;
use super::figures::take_snapshot;
use super::implied_volatility::Reach;
use super::market_refresh::{catch_up_history, ensure_universe, refresh_prices};
use super::portfolio_settlement::settle_positions;
use super::portfolio_valuation::snapshot_all;
use super::signal_issuing::{issue_signals, mark_signals, replay::replay_recent};
use crate::foundation::error::Result;
use crate::foundation::events::Topic;
use crate::foundation::state::AppState;
use schedule::{Job, NextSchedules, Schedule};

const RUNNING_KEY: &str = "running";
const LEASE: &str = "scheduler";

/// Whether automation runs, and when each job runs next.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationStatus {
    pub is_running: bool,
    /// The administrator's kill switch: while on, no order is sent for any account.
    pub orders_halted: bool,
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

/// Starts or stops automation (stored) and tells open pages; the status afterwards.
pub async fn set_running(state: &AppState, running: bool, now: DateTime<Utc>) -> Result<AutomationStatus> {
    store::set(&state.db, RUNNING_KEY, if running { "true" } else { "false" }, now).await?;
    state.events.publish(Topic::Automation);
    current_status(state, now).await
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
        orders_halted: super::execution::halted(state).await?,
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
    if !report.leader {
        return Ok(report);
    }
    // The track record's hourly signed head, whether or not automation is running.
    super::track_record::sign_head_if_due(state, now).await?;
    if !is_running(state).await? {
        return Ok(report);
    }
    let schedule = Schedule { calendar: &state.market.calendar, config: &state.config.schedule };
    for job in Job::ALL {
        if schedule.is_due(job, now, last_run(state, job).await?) {
            let started = std::time::Instant::now();
            let ran = run_job(state, job, now).await;
            state.metrics.job(job.key().trim_start_matches("last:"), ran.is_ok(), started.elapsed().as_secs_f64());
            ran?;
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
    // The implied-volatility history back-filled once, now that the server is serving.
    if let Err(err) = super::implied_volatility::record_due(&state, state.clock.now(), Reach::Backfill).await {
        tracing::warn!(error = %err, "implied-volatility back-fill failed");
    }
    let mut every = tokio::time::interval(StdDuration::from_secs(state.config.schedule.tick_seconds));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        match tick(&state, state.clock.now()).await {
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

/// Prepares a deployment: the default watchlist on first start, history caught up, recent
/// signals replayed (first start only), then prices, marks and signals brought to `now`.
pub async fn bootstrap(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    // One instance at a time does first-start work: instances started together over one
    // database queue on a lease, and each later one finds the work done (the history is
    // there, the replay sees signals and skips) instead of doing it twice.
    let mut waited = StdDuration::ZERO;
    loop {
        let at = state.clock.now();
        if store::acquire_lease(&state.db, FIRST_START_LEASE, &state.instance_id, at, at + FIRST_START_HOLD).await? {
            break;
        }
        if waited >= FIRST_START_WAIT {
            // The holder may have died mid-way; its lease expires and a later start retries.
            tracing::warn!("another instance is still doing first-start work; serving without waiting longer");
            return Ok(());
        }
        tokio::time::sleep(FIRST_START_POLL).await;
        waited += FIRST_START_POLL;
    }
    let now = now.max(state.clock.now());
    // Held in short terms renewed while the work runs, so a start killed mid-way (kill -9,
    // a crash) holds up the next start for one term, not for the whole work's length.
    let renewing = {
        let state = state.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(FIRST_START_RENEW).await;
                let at = state.clock.now();
                if let Err(err) = store::acquire_lease(&state.db, FIRST_START_LEASE, &state.instance_id, at, at + FIRST_START_HOLD).await {
                    tracing::warn!(error = %err, "renewing the first-start lease failed");
                }
            }
        })
    };
    let outcome = first_start(state, now).await;
    renewing.abort();
    store::release_lease(&state.db, FIRST_START_LEASE, &state.instance_id).await?;
    outcome
}

/// The lease first-start work is done under.
const FIRST_START_LEASE: &str = "first_start";
/// One term of it: a start that dies frees it when this runs out.
const FIRST_START_HOLD: Duration = Duration::seconds(30);
/// How often a running first start renews its term.
const FIRST_START_RENEW: StdDuration = StdDuration::from_secs(10);
/// How long an instance waits for another's first start before serving anyway.
const FIRST_START_WAIT: StdDuration = StdDuration::from_secs(20 * 60);
const FIRST_START_POLL: StdDuration = StdDuration::from_millis(250);

async fn first_start(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    ensure_universe(state, now).await?;
    catch_up_history(state, now).await?;
    super::implied_volatility::record_due(state, now, Reach::Start).await?;
    replay_recent(state, now).await?;
    update_now(state, now).await?;
    // The key on first start, and a head over what the start logged.
    super::track_record::sign_head(state, now).await?;
    // News last: its analyses read the signals and indicators just brought up to date.
    super::news::refresh(state, now).await?;
    Ok(())
}

/// Everything a manual update does: quotes, marks, new signals and today's figures.
pub async fn update_now(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    let quotes = refresh_prices(state, now).await?;
    mark_signals(state, &quotes, now).await?;
    let issued = issue_signals(state, &quotes, now).await?;
    super::notifying::new_signals(state, &issued, now).await?;
    settle_positions(state, now).await?;
    execute_automated_orders(state, now).await?;
    take_snapshot(state, now).await?;
    snapshot_all(state, now).await?;
    for topic in [Topic::Prices, Topic::Signals, Topic::Stats] {
        state.events.publish(topic);
    }
    Ok(())
}

/// Runs one scheduler job at `now`.
pub async fn run_job(state: &AppState, job: Job, now: DateTime<Utc>) -> Result<()> {
    match job {
        Job::PreMarket => {
            catch_up_history(state, now).await?;
            refresh_prices(state, now).await?;
            state.events.publish(Topic::Prices);
            // Before the month's first session: last month's reports, as the month closed.
            match super::reporting::monthly::queue_due(state, now).await {
                Ok(0) => {}
                Ok(queued) => tracing::info!(queued, "monthly reports queued"),
                Err(err) => tracing::warn!(error = %err, "monthly reports failed"),
            }
        }
        Job::Weekend => {
            catch_up_history(state, now).await?;
            super::implied_volatility::record_due(state, now, Reach::Backfill).await?;
            refresh_prices(state, now).await?;
            state.events.publish(Topic::Prices);
            // The predictive model retrained on the week's history; a failure (history too
            // short) leaves the last model in place.
            if let Err(err) = super::predicting::train(state, now).await {
                tracing::warn!(error = %err, "weekly model training failed");
            }
        }
        Job::SignalUpdates => {
            let quotes = refresh_prices(state, now).await?;
            mark_signals(state, &quotes, now).await?;
            settle_positions(state, now).await?;
            super::execution::cancel_overdue(state, now).await?;
            super::execution::remote::poll_standing(state, now).await?;
            state.events.publish(Topic::Prices);
            state.events.publish(Topic::Signals);
        }
        Job::NewSignals => {
            let quotes = refresh_prices(state, now).await?;
            let issued = issue_signals(state, &quotes, now).await?;
            super::notifying::new_signals(state, &issued, now).await?;
            execute_automated_orders(state, now).await?;
            state.events.publish(Topic::Signals);
        }
        Job::PortfolioStats => {
            // Renewals and lapsed subscriptions first, so the figures count the plans in force.
            super::billing::run_due(state, now).await?;
            news_refresh(state, now).await;
            take_snapshot(state, now).await?;
            snapshot_all(state, now).await?;
            state.events.publish(Topic::Stats);
        }
        Job::EndOfDay => {
            catch_up_history(state, now).await?;
            super::implied_volatility::record_due(state, now, Reach::LastSession).await?;
            let quotes = refresh_prices(state, now).await?;
            mark_signals(state, &quotes, now).await?;
            settle_positions(state, now).await?;
            // Accounts connected to Alpaca checked against it; their owners told of differences.
            super::execution::reconciliation::daily(state, now).await?;
            take_snapshot(state, now).await?;
            snapshot_all(state, now).await?;
            news_refresh(state, now).await;
            super::summaries::daily_summaries(state, now).await?;
            for topic in [Topic::Prices, Topic::Signals, Topic::Stats] {
                state.events.publish(topic);
            }
        }
    }
    Ok(())
}

/// Refreshes the news; a failure (a feed's, say) is logged and leaves the job's other work done.
async fn news_refresh(state: &AppState, now: DateTime<Utc>) {
    match super::news::refresh(state, now).await {
        Ok(done) if done.articles + done.notes > 0 => tracing::info!(articles = done.articles, notes = done.notes, "news refreshed"),
        Ok(_) => {}
        Err(err) => tracing::warn!(error = %err, "news refresh failed"),
    }
}
