//! Pages of the signal list, assembled from a shared window of the newest automated signals
//! rendered once for everyone, and merged with the viewer's own signals.
//!
//! Every open dashboard polls the first page, and the automated signals on it are the same
//! for every viewer; only whether their plan locks each one differs (the stored day rank
//! against the quota left after their own signals that day). So the window keeps the newest
//! [`WINDOW`] automated signals with their JSON for both cases ([`crate::foundation::cache::SignalWindow`],
//! dropped on any change notice like the other shared figures), and a page costs one small
//! read: the viewer's own signals since the window's first day. A page the window cannot
//! answer exactly (a filter, a cursor past the window, a viewer with very many signals of
//! their own) is read from the database as before, and the two give the same bytes (tested).

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Days, NaiveDate, Utc};
use strikeline_store::signals::{self as store, ListPosition, RankedSignal, SignalFilter, SignalRow};
use strikeline_store::users::UserRecord;

use super::dto::Signal;
use super::filter::encode_cursor;
use crate::foundation::cache::{RenderedSignal, SignalWindow};
use crate::foundation::error::{AppError, Result};
use crate::foundation::state::AppState;
use crate::services::visibility::{Viewer, ranked_for};

/// Automated signals the window holds: ten pages of the default size.
pub const WINDOW: i64 = 500;
/// Own signals since the window's first day beyond which a viewer's pages are read from the
/// database instead.
const OWN_CAP: i64 = 500;

/// `limit` signals after `filter.after` (one page of `GET /api/signals`), as the JSON of a
/// [`super::SignalPage`].
pub async fn page_json(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: DateTime<Utc>) -> Result<String> {
    if let Some(body) = from_window(state, user, filter, now).await? {
        return Ok(body);
    }
    from_database(state, user, filter, now).await
}

/// The page read from the database (every filter; any depth).
pub async fn from_database(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: DateTime<Utc>) -> Result<String> {
    let page = usize::try_from(filter.limit).unwrap_or(0);
    // One more than the page tells whether another page follows.
    let probe = SignalFilter { limit: filter.limit + 1, ..filter.clone() };
    let mut rows = ranked_for(state, user, &probe, now).await?;
    let more = rows.len() > page;
    rows.truncate(page);
    let next = rows.last().filter(|_| more).map(|(row, _)| position_of(row));
    let mut signals = Vec::with_capacity(rows.len());
    for (row, locked) in rows {
        signals.push(to_json(&Signal::from_row(row, locked)?)?);
    }
    Ok(assemble(signals.iter().map(String::as_str), next.as_ref()))
}

/// The page from the shared window; `None` when the window cannot answer it exactly.
pub async fn from_window(state: &AppState, user: &UserRecord, filter: &SignalFilter, now: DateTime<Utc>) -> Result<Option<String>> {
    if !unfiltered(filter) {
        return Ok(None);
    }
    let window = window(state).await?;
    let Some(oldest) = window.signals.last() else { return Ok(None) };
    // A day's margin before the window's first day: own signals are counted per issuing day.
    let since = oldest.issued_on.checked_sub_days(Days::new(1)).unwrap_or(oldest.issued_on);
    let own = store::own_since(&state.db, &user.id, since, OWN_CAP + 1).await?;
    if i64::try_from(own.len()).unwrap_or(i64::MAX) > OWN_CAP {
        return Ok(None);
    }
    let mut own_per_day: HashMap<NaiveDate, i64> = HashMap::new();
    for row in own.iter().filter(|r| r.counts_against_quota()) {
        *own_per_day.entry(row.issued_on).or_default() += 1;
    }
    // Only what is at or after the window's oldest signal can be placed exactly.
    let floor = (oldest.created_at, oldest.id.as_str());
    let after = |at: DateTime<Utc>, id: &str| filter.after.as_ref().is_none_or(|c| (at, id) < (c.created_at, c.id.as_str()));
    let mut own: Vec<SignalRow> =
        own.into_iter().filter(|r| (r.created_at, r.id.as_str()) >= floor && after(r.created_at, &r.id)).collect();
    own.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    let mut shared = window.signals.iter().filter(|s| after(s.created_at, &s.id)).peekable();
    let mut own = own.into_iter().peekable();

    let page = usize::try_from(filter.limit).unwrap_or(0);
    let viewer = Viewer::with_counts(user, own_per_day, now);
    let mut picked: Vec<Picked> = Vec::with_capacity(page + 1);
    while picked.len() <= page {
        let take_own = match (shared.peek(), own.peek()) {
            (Some(s), Some(o)) => (o.created_at, o.id.as_str()) > (s.created_at, s.id.as_str()),
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (None, None) => break,
        };
        if take_own {
            if let Some(row) = own.next() {
                // The viewer's own signals are never locked.
                picked.push(Picked::Own(position_of(&row), to_json(&Signal::from_row(row, false)?)?));
            }
        } else if let Some(s) = shared.next() {
            let locked = !viewer.unlocks_rank(s.issued_on, s.day_rank);
            picked.push(Picked::Shared(s, locked));
        }
    }
    if picked.len() <= page {
        // The window ran out before the page did: older signals may belong on it.
        return Ok(None);
    }
    picked.truncate(page);
    let next = picked.last().map(Picked::position);
    let parts = picked.iter().map(|item| match item {
        Picked::Shared(s, true) => &*s.locked,
        Picked::Shared(s, false) => &*s.open,
        Picked::Own(_, json) => json.as_str(),
    });
    Ok(Some(assemble(parts, next.as_ref())))
}

/// A signal placed on a page: one of the window's (and whether the viewer's plan locks it), or
/// one of the viewer's own, rendered.
enum Picked<'a> {
    Shared(&'a RenderedSignal, bool),
    Own(ListPosition, String),
}

impl Picked<'_> {
    fn position(&self) -> ListPosition {
        match self {
            Picked::Shared(s, _) => ListPosition { created_at: s.created_at, id: s.id.clone() },
            Picked::Own(position, _) => position.clone(),
        }
    }
}

fn position_of(row: &SignalRow) -> ListPosition {
    ListPosition { created_at: row.created_at, id: row.id.clone() }
}

/// Whether a page is the plain list: no filter but where it starts and how long it is.
fn unfiltered(f: &SignalFilter) -> bool {
    let SignalFilter {
        symbol_prefix,
        strategy,
        signal_type,
        status,
        cost_above_cents,
        cost_at_most_cents,
        confidence_min,
        confidence_max,
        after: _,
        limit: _,
    } = f;
    symbol_prefix.is_none()
        && strategy.is_none()
        && signal_type.is_none()
        && status.is_none()
        && cost_above_cents.is_none()
        && cost_at_most_cents.is_none()
        && confidence_min.is_none()
        && confidence_max.is_none()
}

/// The window, from the cache: at most [`crate::foundation::cache::MAX_AGE`] old and never older than a
/// change notice.
async fn window(state: &AppState) -> Result<Arc<SignalWindow>> {
    state
        .caches
        .signal_window
        .get(&state.events, || async {
            let newest = SignalFilter { limit: WINDOW, ..SignalFilter::default() };
            let rows = store::list(&state.db, None, &newest).await?;
            Ok(SignalWindow { signals: rows.into_iter().map(render).collect::<Result<_>>()? })
        })
        .await
}

fn render(ranked: RankedSignal) -> Result<RenderedSignal> {
    let RankedSignal { signal: row, day_rank, .. } = ranked;
    let open = to_json(&Signal::from_row(row.clone(), false)?)?.into_boxed_str();
    let locked = to_json(&Signal::from_row(row.clone(), true)?)?.into_boxed_str();
    Ok(RenderedSignal { created_at: row.created_at, id: row.id, issued_on: row.issued_on, day_rank, open, locked })
}

fn to_json(signal: &Signal) -> Result<String> {
    serde_json::to_string(signal).map_err(|e| AppError::Internal(e.into()))
}

/// `{"signals":[…],"nextCursor":…}` from the signals' JSON, as serde writes a `SignalPage`.
fn assemble<'a>(signals: impl Iterator<Item = &'a str>, next: Option<&ListPosition>) -> String {
    let mut body = String::with_capacity(16 * 1024);
    body.push_str("{\"signals\":[");
    for (i, json) in signals.enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(json);
    }
    body.push_str("],\"nextCursor\":");
    match next {
        // A cursor is URL-safe base64: nothing in it needs escaping.
        Some(position) => {
            body.push('"');
            body.push_str(&encode_cursor(position));
            body.push('"');
        }
        None => body.push_str("null"),
    }
    body.push('}');
    body
}
