//! In-app notifications: written for the events users care about (new signals matching
//! their preferences, positions closed at target, stop or expiry, price alerts, billing), and
//! announced on the event stream so an open bell updates at once.

use chrono::{DateTime, Utc};
use strikeline_store::notifications::{self as store, Notification};

use crate::foundation::error::Result;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{NotificationKind, WebhookEventType};
use crate::services::webhooks::{Audience, Event, emit, signal_data};

/// A notification to write.
pub struct Note {
    pub user_id: String,
    pub kind: NotificationKind,
    pub title: String,
    pub body: String,
    pub link: Option<&'static str>,
}

/// Writes `notes` in one transaction and tells open streams.
pub async fn notify(state: &AppState, notes: Vec<Note>, now: DateTime<Utc>) -> Result<usize> {
    let rows: Vec<Notification> = notes
        .into_iter()
        .map(|n| Notification {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: n.user_id,
            kind: n.kind.as_str().to_owned(),
            title: n.title.chars().take(120).collect(),
            body: n.body.chars().take(500).collect(),
            link: n.link.map(str::to_owned),
            read_at: None,
            created_at: now,
        })
        .collect();
    store::insert_many(&state.db, &rows).await?;
    if !rows.is_empty() {
        state.events.publish(crate::foundation::events::Topic::Notifications);
    }
    // Each user read once; a notification whose user is gone goes nowhere else.
    let mut users = std::collections::HashMap::new();
    for row in &rows {
        if !users.contains_key(&row.user_id) {
            let user = strikeline_store::users::find_by_id(&state.db, &row.user_id).await?;
            users.insert(row.user_id.clone(), user);
        }
    }
    let addressed: Vec<(&Notification, &strikeline_store::users::UserRecord)> =
        rows.iter().filter_map(|row| users.get(&row.user_id).and_then(Option::as_ref).map(|user| (row, user))).collect();
    email(state, &addressed, now).await?;
    super::pushing::queue(state, &addressed, now).await?;
    super::texting::queue(state, &addressed, now).await?;
    Ok(rows.len())
}

/// Queues each notification as an email to users who have email notifications on.
async fn email(state: &AppState, addressed: &[(&Notification, &strikeline_store::users::UserRecord)], now: DateTime<Utc>) -> Result<()> {
    for (row, user) in addressed {
        super::mailing::queue(state, user, super::mailing::MailingList::All, &row.kind, &row.title, &row.body, now).await?;
    }
    Ok(())
}

/// A signal is high risk when its option's chance of profit at issue (the risk-neutral
/// probability the pricing model stored, which the track record calibrates) is under this:
/// fewer than three in ten such options end in profit.
pub const HIGH_RISK_PROBABILITY: f64 = 0.30;

/// The "High-Risk Signal Alerts" note for one user: the new signals they can see whose chance
/// of profit at issue is under [`HIGH_RISK_PROBABILITY`], the least likely first; `None` when
/// there are none.
fn high_risk_note<'a>(user_id: &str, visible: impl Iterator<Item = &'a strikeline_store::signals::SignalRow>) -> Option<Note> {
    let mut risky: Vec<(&str, &str, f64)> = visible
        .filter_map(|s| s.issue_probability.filter(|p| *p < HIGH_RISK_PROBABILITY).map(|p| (s.symbol.as_str(), s.signal_type.as_str(), p)))
        .collect();
    risky.sort_by(|a, b| a.2.total_cmp(&b.2));
    let (symbol, kind, probability) = *risky.first()?;
    let chance = format!("{:.0}%", probability * 100.0);
    Some(Note {
        user_id: user_id.to_owned(),
        kind: NotificationKind::NewSignals,
        title: if risky.len() == 1 { "1 new high-risk signal".to_owned() } else { format!("{} new high-risk signals", risky.len()) },
        body: if risky.len() == 1 {
            format!("{symbol} {kind}: a {chance} chance of profit at issue.")
        } else {
            format!("Lowest: {symbol} {kind}, a {chance} chance of profit at issue.")
        },
        link: Some("/signals"),
    })
}

/// Announces newly issued signals: `new_signal` webhooks to every subscribed endpoint whose
/// owner's plan shows them, a notification to each user whose alerts are on and whose
/// preferred strategies and plan take some of the signals just issued (`issued` ids) how many,
/// and one to each user with high-risk alerts on who can see a high-risk one among them
/// ([`HIGH_RISK_PROBABILITY`]): at most one of each per user per issuing run.
pub async fn new_signals(state: &AppState, issued: &[String], now: DateTime<Utc>) -> Result<usize> {
    use std::collections::HashSet;
    if issued.is_empty() {
        return Ok(0);
    }
    let ids: HashSet<&str> = issued.iter().map(String::as_str).collect();
    let fresh: Vec<_> =
        strikeline_store::signals::active_automated(&state.db).await?.into_iter().filter(|r| ids.contains(r.signal.id.as_str())).collect();
    let events: Vec<Event> = fresh
        .iter()
        .map(|r| Event {
            event_type: WebhookEventType::NewSignal,
            audience: Audience::Signal { day: r.signal.issued_on, rank: r.day_rank },
            data: signal_data(&r.signal),
        })
        .collect();
    emit(state, &events, now).await?;
    let Some(since) = fresh.iter().map(|r| r.signal.issued_on).min() else { return Ok(0) };
    let viewers = crate::services::visibility::Viewers::since(state, since).await?;
    let mut notes = Vec::new();
    for user in strikeline_store::users::all(&state.db).await? {
        let viewer = viewers.of(&user, now);
        if user.high_risk_alerts {
            notes.extend(high_risk_note(&user.id, fresh.iter().filter(|r| viewer.unlocks(&r.signal, r.day_rank)).map(|r| &r.signal)));
        }
        if !user.signal_alerts {
            continue;
        }
        let preferred: Vec<crate::foundation::vocab::StrategyName> =
            user.preferred_strategies.split(',').filter_map(|s| s.parse().ok()).collect();
        let matching: Vec<&str> = fresh
            .iter()
            .filter(|r| viewer.unlocks(&r.signal, r.day_rank))
            .filter(|r| {
                <crate::foundation::vocab::StrategyName as crate::foundation::vocab::Vocabulary>::exact(&r.signal.strategy)
                    .is_ok_and(|s| preferred.contains(&s))
            })
            .map(|r| r.signal.symbol.as_str())
            .collect();
        if matching.is_empty() {
            continue;
        }
        let count = matching.len();
        let symbols = first_five(&matching);
        notes.push(Note {
            user_id: user.id.clone(),
            kind: NotificationKind::NewSignals,
            title: if count == 1 {
                "1 new signal matches your preferences".to_owned()
            } else {
                format!("{count} new signals match your preferences")
            },
            body: format!("New: {symbols}."),
            link: Some("/signals"),
        });
    }
    notify(state, notes, now).await
}

/// Announces signals just issued by custom strategies, to their owners alone: a `new_signal`
/// webhook to each of the owner's subscribed endpoints, and, when their signal alerts are on,
/// one notification per owner naming the rules that fired and where. `issued` pairs each
/// stored signal with the name of the strategy that issued it.
pub async fn custom_signals(
    state: &AppState,
    issued: &[(&strikeline_store::signals::SignalRow, &str)],
    now: DateTime<Utc>,
) -> Result<usize> {
    use std::collections::BTreeMap;
    let events: Vec<Event> = issued
        .iter()
        .filter_map(|(row, _)| {
            let owner = row.owner_id.as_deref()?;
            Some(Event { event_type: WebhookEventType::NewSignal, audience: Audience::Owner(owner), data: signal_data(row) })
        })
        .collect();
    emit(state, &events, now).await?;
    // owner → rule name → symbols, in a stable order.
    let mut fired: BTreeMap<&str, BTreeMap<&str, Vec<&str>>> = BTreeMap::new();
    for (row, name) in issued {
        if let Some(owner) = row.owner_id.as_deref() {
            fired.entry(owner).or_default().entry(name).or_default().push(row.symbol.as_str());
        }
    }
    let mut notes = Vec::new();
    for (owner, rules) in fired {
        let Some(user) = strikeline_store::users::find_by_id(&state.db, owner).await? else { continue };
        if !user.signal_alerts {
            continue;
        }
        let count: usize = rules.values().map(Vec::len).sum();
        let body = rules.iter().map(|(name, symbols)| format!("{name}: {}", first_five(symbols))).collect::<Vec<_>>().join("; ");
        notes.push(Note {
            user_id: owner.to_owned(),
            kind: NotificationKind::NewSignals,
            title: if count == 1 {
                "Your custom strategy issued 1 new signal".to_owned()
            } else {
                format!("Your custom strategies issued {count} new signals")
            },
            body: format!("{body}."),
            link: Some("/signals"),
        });
    }
    notify(state, notes, now).await
}

/// Up to five symbols, comma-separated, with ", …" when there were more.
fn first_five(symbols: &[&str]) -> String {
    let shown = symbols.iter().take(5).copied().collect::<Vec<_>>().join(", ");
    if symbols.len() > 5 { format!("{shown}, …") } else { shown }
}
