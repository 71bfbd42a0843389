//! Signals: automated issuing without duplicates, the on-demand quota under concurrency, the
//! ranked and filtered list, and marks that never touch an ended signal.

use std::collections::BTreeMap;

use chrono::Duration;
use strikeline_store::Db;
use strikeline_store::signals::{self, ListPosition, SignalFilter, SignalMark};

use crate::common::{day, signal, t0, user};

crate::on_both_engines!(
    one_active_automated_signal_per_symbol_and_strategy,
    the_on_demand_quota_holds_under_concurrent_requests,
    the_list_ranks_a_days_automated_signals_and_filters_after_ranking,
    an_ended_signal_is_never_marked_again,
    pages_follow_each_other_without_gaps_or_repeats,
    a_later_stronger_signal_reranks_its_day,
    the_schema_refuses_values_the_engine_never_writes,
    a_custom_strategy_has_one_active_signal_per_symbol_outside_the_quota,
);

fn close(id: &str, status: &str, reason: &str, option_cents: i64, at: chrono::DateTime<chrono::Utc>) -> SignalMark {
    SignalMark {
        id: id.into(),
        current_option_cents: option_cents,
        current_price_cents: 10_100,
        previous_close_cents: 9_900,
        pnl_cents: option_cents - 300,
        pnl_percent: (option_cents - 300) as f64 / 3.0,
        close: Some((status.into(), reason.into())),
        net_pnl_cents: None,
        at,
    }
}

async fn one_active_automated_signal_per_symbol_and_strategy(db: Db) {
    let today = day(2026, 3, 2);
    let first = signal("AAPL", "Momentum", 80, today, t0(), None);
    assert_eq!(signals::issue_automated(&db, std::slice::from_ref(&first)).await.expect("issue"), std::slice::from_ref(&first.id));

    let duplicate = signal("AAPL", "Momentum", 90, today, t0() + Duration::minutes(5), None);
    let other_strategy = signal("AAPL", "Breakout", 70, today, t0() + Duration::minutes(5), None);
    let other_symbol = signal("MSFT", "Momentum", 60, today, t0() + Duration::minutes(5), None);
    let inserted = signals::issue_automated(&db, &[duplicate.clone(), other_strategy.clone(), other_symbol.clone()]).await.expect("issue");
    assert_eq!(inserted, [other_strategy.id.clone(), other_symbol.id.clone()], "the duplicate setup is skipped, the rest issued");
    assert_eq!(signals::find(&db, &duplicate.id).await.expect("find"), None);
    assert_eq!(signals::find(&db, &first.id).await.expect("find"), Some(first.clone()), "what was issued is kept as issued");

    // An on-demand signal of the same setup does not count against the automated one.
    let ada = user(&db, "ada").await;
    signals::insert_on_demand(&db, &signal("AAPL", "Momentum", 50, today, t0(), Some(&ada.id))).await.expect("on demand");

    // Once the active one has ended, the setup can be issued again.
    signals::apply_marks(&db, &[close(&first.id, "closed", "target", 450, t0() + Duration::hours(1))]).await.expect("mark");
    let again = signal("AAPL", "Momentum", 85, today, t0() + Duration::hours(2), None);
    assert_eq!(signals::issue_automated(&db, std::slice::from_ref(&again)).await.expect("issue"), std::slice::from_ref(&again.id));
    let active: Vec<String> = signals::active(&db).await.expect("active").into_iter().map(|s| s.id).collect();
    assert_eq!(active.len(), 4, "other_strategy, other_symbol, the on-demand one and the reissue: {active:?}");
    assert!(!active.contains(&first.id));
    assert_eq!(signals::issued_since(&db, t0()).await.expect("issued"), 4, "automated only");
}

async fn the_on_demand_quota_holds_under_concurrent_requests(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let today = day(2026, 3, 2);
    let yesterday = day(2026, 3, 1);
    // Bob's own signal today and Ada's yesterday count against nobody's quota today.
    signals::insert_on_demand(&db, &signal("MSFT", "Breakout", 60, today, t0(), Some(&bob.id))).await.expect("bob");
    signals::insert_on_demand(&db, &signal("MSFT", "Breakout", 60, yesterday, t0(), Some(&ada.id))).await.expect("yesterday");

    let tasks: Vec<_> = (0..20i64)
        .map(|i| {
            let db = db.clone();
            let row = signal("AAPL", "Momentum", 50 + i, today, t0() + Duration::seconds(i), Some(&ada.id));
            tokio::spawn(async move { signals::insert_on_demand_within(&db, &row, Some(7)).await })
        })
        .collect();
    let mut stored = 0;
    for task in tasks {
        if task.await.expect("task").expect("insert") {
            stored += 1;
        }
    }
    assert_eq!(stored, 7, "exactly the quota gets through");

    let counts: BTreeMap<_, _> = signals::on_demand_counts(&db, &ada.id, yesterday).await.expect("counts").into_iter().collect();
    assert_eq!(counts, BTreeMap::from([(yesterday, 1), (today, 7)]));
    let counts = signals::on_demand_counts(&db, &ada.id, today).await.expect("counts");
    assert_eq!(counts, [(today, 7)], "days before `since` are left out");
    assert_eq!(signals::on_demand_counts(&db, &bob.id, today).await.expect("counts"), [(today, 1)]);

    let over = signal("AAPL", "Momentum", 50, today, t0(), Some(&ada.id));
    assert!(!signals::insert_on_demand_within(&db, &over, Some(7)).await.expect("insert"), "still full");
    assert!(signals::insert_on_demand_within(&db, &over, None).await.expect("insert"), "no quota, no limit");
    assert!(
        signals::insert_on_demand_within(&db, &signal("AAPL", "Momentum", 50, today, t0(), Some(&bob.id)), Some(2)).await.expect("insert")
    );
}

async fn the_list_ranks_a_days_automated_signals_and_filters_after_ranking(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let today = day(2026, 3, 2);
    let yesterday = day(2026, 3, 1);
    let at = |minutes| t0() + Duration::minutes(minutes);
    let low = signal("AAPL", "Momentum", 60, today, at(1), None);
    let high = signal("MSFT", "Breakout", 90, today, at(2), None);
    let mut mid = signal("AMZN", "Volatility", 75, today, at(3), None);
    mid.signal_type = "STRADDLE".into();
    mid.entry_cents = 800;
    // A tie on confidence: the earlier one ranks first.
    let tie = signal("AMD", "Mean Reversion", 75, today, at(4), None);
    let old = signal("AAPL", "Breakout", 99, yesterday, at(-600), None);
    let mine = signal("NVDA", "Momentum", 95, today, at(5), Some(&ada.id));
    let theirs = signal("TSLA", "Momentum", 95, today, at(6), Some(&bob.id));
    signals::issue_automated(&db, &[low.clone(), high.clone(), mid.clone(), tie.clone(), old.clone()]).await.expect("issue");
    signals::insert_on_demand(&db, &mine).await.expect("mine");
    signals::insert_on_demand(&db, &theirs).await.expect("theirs");

    let all = SignalFilter { limit: 100, ..SignalFilter::default() };
    let listed = signals::list(&db, Some(&ada.id), &all).await.expect("list");
    let ids: Vec<&str> = listed.iter().map(|r| r.signal.id.as_str()).collect();
    assert_eq!(ids, [&mine.id, &tie.id, &mid.id, &high.id, &low.id, &old.id], "newest first; another user's own signals are not listed");
    let rank = |id: &str| listed.iter().find(|r| r.signal.id == id).map(|r| r.day_rank).expect("listed");
    assert_eq!((rank(&high.id), rank(&mid.id), rank(&tie.id), rank(&low.id)), (1, 2, 3, 4), "ranked by confidence within the day");
    assert_eq!(rank(&old.id), 1, "each day ranks on its own");
    assert_eq!(rank(&mine.id), 0, "on-demand signals are not ranked");
    let own = |id: &str| listed.iter().find(|r| r.signal.id == id).map(|r| r.own_that_day).expect("listed");
    assert_eq!((own(&high.id), own(&old.id), own(&mine.id)), (1, 0, 0), "each automated row counts the viewer's own signals of its day");
    for s in [&low, &high, &mid, &tie, &old] {
        assert_eq!(signals::day_rank(&db, s).await.expect("rank"), rank(&s.id), "day_rank agrees with list for {}", s.symbol);
    }
    assert_eq!(listed.iter().find(|r| r.signal.id == mid.id).map(|r| r.signal.clone()), Some(mid.clone()), "rows read back whole");

    let anonymous = signals::list(&db, None, &all).await.expect("list");
    assert_eq!(anonymous.len(), 5, "without a viewer, automated only");

    // Filters apply after ranking: the rank a signal shows never depends on the filter.
    // (Limit 0 here means "no limit to speak of".)
    let filtered = |f: SignalFilter| {
        let db = db.clone();
        let viewer = ada.id.clone();
        async move {
            signals::list(&db, Some(&viewer), &SignalFilter { limit: if f.limit == 0 { 100 } else { f.limit }, ..f })
                .await
                .expect("list")
                .into_iter()
                .map(|r| (r.signal.symbol, r.day_rank))
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        filtered(SignalFilter { strategy: Some("Momentum".into()), ..Default::default() }).await,
        [("NVDA".into(), 0), ("AAPL".into(), 4)]
    );
    assert_eq!(
        filtered(SignalFilter { symbol_prefix: Some("AM".into()), ..Default::default() }).await,
        [("AMD".into(), 3), ("AMZN".into(), 2)]
    );
    assert_eq!(filtered(SignalFilter { signal_type: Some("STRADDLE".into()), ..Default::default() }).await, [("AMZN".into(), 2)]);
    assert_eq!(
        filtered(SignalFilter { confidence_min: Some(75), confidence_max: Some(90), ..Default::default() }).await,
        [("AMD".into(), 3), ("AMZN".into(), 2), ("MSFT".into(), 1)]
    );
    // Contract cost = entry × 100: the AMZN straddle costs 80,000 cents, the rest 30,000.
    assert_eq!(filtered(SignalFilter { cost_above_cents: Some(30_000), ..Default::default() }).await, [("AMZN".into(), 2)]);
    assert_eq!(filtered(SignalFilter { cost_at_most_cents: Some(30_000), ..Default::default() }).await.len(), 5);
    assert_eq!(filtered(SignalFilter { limit: 2, ..Default::default() }).await.len(), 2);

    signals::apply_marks(&db, &[close(&old.id, "expired", "expiry", 0, at(10))]).await.expect("mark");
    assert_eq!(filtered(SignalFilter { status: Some("expired".into()), ..Default::default() }).await, [("AAPL".into(), 1)]);
    assert_eq!(filtered(SignalFilter { status: Some("active".into()), ..Default::default() }).await.len(), 5);
}

async fn an_ended_signal_is_never_marked_again(db: Db) {
    let today = day(2026, 3, 2);
    let s = signal("AAPL", "Momentum", 80, today, t0(), None);
    let other = signal("MSFT", "Momentum", 80, today, t0(), None);
    signals::issue_automated(&db, &[s.clone(), other.clone()]).await.expect("issue");

    let marked_at = t0() + Duration::minutes(10);
    let mark = SignalMark {
        id: s.id.clone(),
        current_option_cents: 350,
        current_price_cents: 10_000,
        previous_close_cents: 9_900,
        pnl_cents: 50,
        pnl_percent: 16.67,
        close: None,
        net_pnl_cents: None,
        at: marked_at,
    };
    signals::apply_marks(&db, std::slice::from_ref(&mark)).await.expect("mark");
    let stored = signals::find(&db, &s.id).await.expect("find").expect("exists");
    assert_eq!((stored.current_option_cents, stored.pnl_cents, stored.status.as_str()), (350, 50, "active"));
    assert_eq!((stored.updated_at, stored.closed_at, stored.close_reason.clone()), (marked_at, None, None));
    assert_eq!(
        (stored.entry_cents, stored.target_cents, stored.created_at),
        (s.entry_cents, s.target_cents, s.created_at),
        "what was issued is untouched"
    );

    let closed_at = t0() + Duration::minutes(20);
    signals::apply_marks(&db, &[close(&s.id, "closed", "stop", 190, closed_at)]).await.expect("close");
    let ended = signals::find(&db, &s.id).await.expect("find").expect("exists");
    assert_eq!((ended.status.as_str(), ended.close_reason.as_deref(), ended.closed_at), ("closed", Some("stop"), Some(closed_at)));
    assert_eq!(ended.current_option_cents, 190);

    // Later marks, ending or not, change nothing about an ended signal; the others still move.
    let later = t0() + Duration::minutes(30);
    let other_mark = SignalMark { id: other.id.clone(), at: later, ..mark.clone() };
    signals::apply_marks(&db, &[SignalMark { at: later, ..mark.clone() }, close(&s.id, "closed", "target", 999, later), other_mark])
        .await
        .expect("marks");
    assert_eq!(signals::find(&db, &s.id).await.expect("find"), Some(ended));
    assert_eq!(signals::find(&db, &other.id).await.expect("find").expect("exists").updated_at, later);
    let figures = signals::figures(&db, t0()).await.expect("figures");
    assert_eq!((figures.active, figures.closed, figures.winners), (1, 1, 0), "the stop loss is no winner");
}

async fn the_schema_refuses_values_the_engine_never_writes(db: Db) {
    let today = day(2026, 3, 2);
    let mut bad_strategy = signal("AAPL", "Scalping", 80, today, t0(), None);
    assert!(signals::issue_automated(&db, std::slice::from_ref(&bad_strategy)).await.is_err(), "unknown strategy");
    bad_strategy.strategy = "Momentum".into();
    bad_strategy.confidence = 101;
    assert!(signals::issue_automated(&db, std::slice::from_ref(&bad_strategy)).await.is_err(), "confidence above 100");
    bad_strategy.confidence = 80;
    bad_strategy.signal_type = "SPREAD".into();
    assert!(signals::issue_automated(&db, std::slice::from_ref(&bad_strategy)).await.is_err(), "unknown signal type");

    let s = signal("AAPL", "Momentum", 100, today, t0(), None);
    signals::issue_automated(&db, std::slice::from_ref(&s)).await.expect("confidence 100 is fine");
    assert!(signals::apply_marks(&db, &[close(&s.id, "won", "target", 450, t0())]).await.is_err(), "unknown status");
    assert!(signals::apply_marks(&db, &[close(&s.id, "closed", "luck", 450, t0())]).await.is_err(), "unknown close reason");
    assert_eq!(signals::find(&db, &s.id).await.expect("find"), Some(s), "a refused batch changes nothing");
}

async fn pages_follow_each_other_without_gaps_or_repeats(db: Db) {
    let ada = user(&db, "ada").await;
    let bob = user(&db, "bob").await;
    let today = day(2026, 3, 2);
    let symbols = ["AAPL", "MSFT", "AMZN", "AMD", "NVDA", "TSLA", "META", "GOOG", "NFLX", "INTC", "ORCL"];
    let strategies = ["Momentum", "Mean Reversion", "Breakout", "Volatility"];
    // Three signals share each creation time, so pages must break ties by id.
    let mut automated = Vec::new();
    for (i, symbol) in symbols.iter().enumerate() {
        for (j, strategy) in strategies.iter().enumerate().take(3) {
            automated.push(signal(symbol, strategy, 40 + (i * 3 + j) as i64, today, t0() + Duration::minutes(i as i64), None));
        }
    }
    signals::issue_automated(&db, &automated).await.expect("issue");
    for i in 0..5 {
        signals::insert_on_demand(&db, &signal("AAPL", "Volatility", 50, today, t0() + Duration::seconds(30 + 120 * i), Some(&ada.id)))
            .await
            .expect("ada");
        signals::insert_on_demand(&db, &signal("MSFT", "Volatility", 50, today, t0() + Duration::seconds(31 + 120 * i), Some(&bob.id)))
            .await
            .expect("bob");
    }
    let everything = signals::list(&db, Some(&ada.id), &SignalFilter { limit: 1_000, ..SignalFilter::default() }).await.expect("list");
    assert_eq!(everything.len(), automated.len() + 5, "automated plus ada's own, not bob's");
    let order: Vec<_> = everything.iter().map(|r| (r.signal.created_at, r.signal.id.clone())).collect();
    let mut sorted = order.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(order, sorted, "newest first, ties by id, largest first");

    for page in [1, 4, 7] {
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let filter = SignalFilter { limit: page, after: after.clone(), ..SignalFilter::default() };
            let rows = signals::list(&db, Some(&ada.id), &filter).await.expect("page");
            assert!(rows.len() <= page as usize);
            let Some(last) = rows.last() else { break };
            after = Some(ListPosition { created_at: last.signal.created_at, id: last.signal.id.clone() });
            seen.extend(rows.iter().map(|r| r.signal.id.clone()));
        }
        let all_ids: Vec<_> = everything.iter().map(|r| r.signal.id.clone()).collect();
        assert_eq!(seen, all_ids, "pages of {page} walk the whole list once, in order");
    }
    // Filters page too: Volatility is only ada's own signals here.
    let first =
        signals::list(&db, Some(&ada.id), &SignalFilter { limit: 2, strategy: Some("Volatility".into()), ..SignalFilter::default() })
            .await
            .expect("page");
    let last = first.last().expect("two");
    let after = Some(ListPosition { created_at: last.signal.created_at, id: last.signal.id.clone() });
    let rest = signals::list(
        &db,
        Some(&ada.id),
        &SignalFilter { limit: 10, strategy: Some("Volatility".into()), after, ..SignalFilter::default() },
    )
    .await
    .expect("page");
    assert_eq!((first.len(), rest.len()), (2, 3));
    assert!(rest.iter().chain(&first).all(|r| r.signal.owner_id.as_deref() == Some(ada.id.as_str())));
}

async fn a_later_stronger_signal_reranks_its_day(db: Db) {
    let today = day(2026, 3, 2);
    let first = signal("AAPL", "Momentum", 70, today, t0(), None);
    let second = signal("MSFT", "Momentum", 60, today, t0() + Duration::minutes(1), None);
    signals::issue_automated(&db, &[first.clone(), second.clone()]).await.expect("issue");
    assert_eq!((signals::day_rank(&db, &first).await.expect("rank"), signals::day_rank(&db, &second).await.expect("rank")), (1, 2));
    let stronger = signal("AMZN", "Momentum", 90, today, t0() + Duration::hours(2), None);
    let next_day = signal("AMD", "Momentum", 10, day(2026, 3, 3), t0() + Duration::days(1), None);
    signals::issue_automated(&db, &[stronger.clone(), next_day.clone()]).await.expect("issue");
    let ranks = stored_ranks(&db, &[&stronger, &first, &second, &next_day]).await;
    assert_eq!(ranks, [1, 2, 3, 1], "the day re-ranked when it gained a stronger signal; the next day ranks alone");
    let mine = signal("NVDA", "Momentum", 99, today, t0(), Some(&user(&db, "ada").await.id));
    signals::insert_on_demand(&db, &mine).await.expect("mine");
    assert_eq!(stored_ranks(&db, &[&mine, &stronger]).await, [0, 1], "on-demand signals are not ranked and do not move ranks");
}

async fn stored_ranks(db: &Db, rows: &[&signals::SignalRow]) -> Vec<i64> {
    let mut ranks = Vec::new();
    for row in rows {
        ranks.push(signals::day_rank(db, row).await.expect("rank"));
    }
    ranks
}

async fn a_custom_strategy_has_one_active_signal_per_symbol_outside_the_quota(db: Db) {
    use strikeline_store::custom_strategies::{self as custom, CustomStrategyRow};
    let ada = user(&db, "ada").await;
    let today = day(2026, 3, 2);
    let strategy = |id: &str, name: &str| CustomStrategyRow {
        id: id.into(),
        user_id: ada.id.clone(),
        name: name.into(),
        document: "{}".into(),
        active: false,
        automate: false,
        created_at: t0(),
        updated_at: t0(),
    };
    for (id, name) in [("cs-1", "Dip"), ("cs-2", "Breakout of mine")] {
        assert!(custom::insert_within(&db, &strategy(id, name), 20).await.expect("save"));
    }
    custom::set_active(&db, &ada.id, "cs-1", true, true, t0()).await.expect("switch on");
    assert_eq!(custom::active(&db).await.expect("active").iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["cs-1"]);
    assert!(matches!(
        custom::set_active(&db, "someone-else", "cs-2", true, false, t0()).await,
        Err(strikeline_store::StoreError::NotFound)
    ));

    let of = |strategy: &str, symbol: &str, minutes: i64| signals::SignalRow {
        custom_strategy_id: Some(strategy.into()),
        ..signal(symbol, "Custom", 70, today, t0() + Duration::minutes(minutes), Some(&ada.id))
    };
    let first = of("cs-1", "AAPL", 0);
    let issued = signals::issue_custom(&db, &[first.clone(), of("cs-1", "AAPL", 1), of("cs-2", "AAPL", 2), of("cs-1", "MSFT", 3)])
        .await
        .expect("issue");
    assert_eq!(issued.len(), 3, "a second active AAPL signal of cs-1 is skipped: {issued:?}");
    assert!(issued.contains(&first.id));
    // Not generated on demand: the quota's counts leave them out, and a quota of 1 still admits one.
    assert!(signals::on_demand_counts(&db, &ada.id, today).await.expect("counts").is_empty());
    let own = signal("NVDA", "Momentum", 60, today, t0(), Some(&ada.id));
    assert!(signals::insert_on_demand_within(&db, &own, Some(1)).await.expect("insert"));
    assert_eq!(signals::on_demand_counts(&db, &ada.id, today).await.expect("counts"), [(today, 1)]);
    // The owner lists them with the automated ones; nobody else does.
    let filter = SignalFilter { strategy: Some("Custom".into()), limit: 50, ..SignalFilter::default() };
    assert_eq!(signals::list(&db, Some(&ada.id), &filter).await.expect("list").len(), 3);
    let bob = user(&db, "bob").await;
    assert!(signals::list(&db, Some(&bob.id), &filter).await.expect("list").is_empty());
    // Deleting the strategy keeps its signals' record, without the pointer.
    custom::delete(&db, &ada.id, "cs-1").await.expect("delete");
    let kept = signals::find(&db, &first.id).await.expect("find").expect("kept");
    assert_eq!((kept.strategy.as_str(), kept.custom_strategy_id), ("Custom", None));
    // A house rule's signal cannot point at a custom strategy.
    let wrong =
        signals::SignalRow { custom_strategy_id: Some("cs-2".into()), ..signal("TSLA", "Momentum", 60, today, t0(), Some(&ada.id)) };
    assert!(signals::issue_custom(&db, &[wrong]).await.is_err());
}
