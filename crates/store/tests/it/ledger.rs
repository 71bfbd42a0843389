//! The track record's log: issuing and ending a logged signal append its entries in the same
//! transaction, nothing else is logged, and concurrent appenders get contiguous sequence
//! numbers whose leaves reproduce the stored hashes.

use chrono::Duration;
use strikeline_ledger::merkle;
use strikeline_store::Db;
use strikeline_store::ledger::{self, Resolution};
use strikeline_store::signals::{self, SignalMark};

use crate::common::{day, signal, t0, user};

crate::on_both_engines!(
    issuing_and_ending_a_logged_signal_append_its_entries,
    on_demand_and_unrecorded_signals_are_not_logged,
    concurrent_issues_get_contiguous_entries,
    heads_and_the_key_are_kept,
);

fn ended(id: &str, net: i64, at: chrono::DateTime<chrono::Utc>) -> SignalMark {
    SignalMark {
        id: id.into(),
        current_option_cents: 450,
        current_price_cents: 10_100,
        previous_close_cents: 9_900,
        pnl_cents: 150,
        pnl_percent: 50.0,
        close: Some(("closed".into(), "target".into())),
        net_pnl_cents: Some(net),
        at,
    }
}

async fn issuing_and_ending_a_logged_signal_append_its_entries(db: Db) {
    let today = day(2026, 3, 2);
    let live = signal("AAPL", "Momentum", 80, today, t0(), None);
    signals::issue_automated(&db, std::slice::from_ref(&live)).await.expect("issue");
    let entries = ledger::entries(&db, 0, 10).await.expect("entries");
    assert_eq!(entries.len(), 1);
    assert_eq!((entries[0].seq, entries[0].kind.as_str(), entries[0].signal_id.as_str()), (0, "issue", live.id.as_str()));
    assert_eq!(entries[0].body, ledger::issue_entry(&live), "the entry is the row's canonical encoding");
    assert!(entries[0].body.contains("\"slippageBp\":100") && entries[0].body.contains("\"commissionCentsPerContract\":65"));
    let stored = signals::find(&db, &live.id).await.expect("find").expect("stored");
    assert_eq!(ledger::issue_entry(&stored), entries[0].body, "the stored row encodes to the same bytes");

    // A mark that does not end it appends nothing; the one that ends it appends the outcome.
    let mut running = ended(&live.id, 0, t0() + Duration::hours(1));
    running.close = None;
    running.net_pnl_cents = None;
    signals::apply_marks(&db, &[running]).await.expect("mark");
    assert_eq!(ledger::size(&db).await.expect("size"), 1);
    signals::apply_marks(&db, &[ended(&live.id, 1_417, t0() + Duration::hours(2))]).await.expect("end");
    // Marking an ended signal again neither changes it nor appends a second outcome.
    signals::apply_marks(&db, &[ended(&live.id, -99, t0() + Duration::hours(3))]).await.expect("again");
    let entries = ledger::entries(&db, 0, 10).await.expect("entries");
    assert_eq!(entries.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(), ["issue", "outcome"]);
    let closed = signals::find(&db, &live.id).await.expect("find").expect("stored");
    assert_eq!(closed.net_pnl_cents, Some(1_417));
    assert_eq!(entries[1].body, ledger::outcome_entry(&Resolution::of_row(&closed).expect("ended")));
    assert!(entries[1].body.contains("\"won\":true"), "{}", entries[1].body);

    // A replayed signal stored already ended is logged with both entries at once.
    let mut replayed = signal("MSFT", "Breakout", 60, today, t0() - Duration::days(3), None);
    replayed.provenance = "replayed".into();
    replayed.status = "expired".into();
    replayed.close_reason = Some("expiry".into());
    replayed.closed_at = Some(t0() - Duration::days(1));
    replayed.net_pnl_cents = Some(-300);
    signals::issue_automated_at(&db, std::slice::from_ref(&replayed), t0()).await.expect("replay");
    let entries = ledger::entries(&db, 2, 10).await.expect("entries");
    assert_eq!(entries.iter().map(|e| (e.seq, e.kind.as_str())).collect::<Vec<_>>(), [(2, "issue"), (3, "outcome")]);
    assert!(entries[0].body.contains("\"provenance\":\"replayed\""));
    assert!(entries[1].body.contains("\"won\":false"));
    assert_eq!(entries[0].appended_at, t0(), "appended when stored, not when the replayed session closed");
}

async fn on_demand_and_unrecorded_signals_are_not_logged(db: Db) {
    let today = day(2026, 3, 2);
    let ada = user(&db, "ada").await;
    let own = signal("AAPL", "Momentum", 80, today, t0(), Some(&ada.id));
    signals::insert_on_demand(&db, &own).await.expect("on demand");
    let mut old = signal("MSFT", "Momentum", 80, today, t0(), None);
    old.provenance = "unrecorded".into();
    signals::issue_automated(&db, std::slice::from_ref(&old)).await.expect("issue");
    signals::apply_marks(&db, &[ended(&own.id, 10, t0() + Duration::hours(1)), ended(&old.id, 10, t0() + Duration::hours(1))])
        .await
        .expect("end");
    assert_eq!(ledger::size(&db).await.expect("size"), 0);
    assert!(ledger::recorded_signals(&db).await.expect("recorded").is_empty());
}

async fn concurrent_issues_get_contiguous_entries(db: Db) {
    let today = day(2026, 3, 2);
    let symbols: Vec<String> = (0..24).map(|i| format!("S{i:02}")).collect();
    let tasks: Vec<_> = symbols
        .iter()
        .map(|symbol| {
            let db = db.clone();
            let row = signal(symbol, "Momentum", 70, today, t0(), None);
            tokio::spawn(async move { signals::issue_automated(&db, &[row]).await })
        })
        .collect();
    for task in tasks {
        task.await.expect("join").expect("issue");
    }
    let entries = ledger::entries(&db, 0, 100).await.expect("entries");
    assert_eq!(entries.iter().map(|e| e.seq).collect::<Vec<_>>(), (0..24).collect::<Vec<i64>>(), "no gap, no collision");
    assert_eq!(ledger::size(&db).await.expect("size"), 24);
    let hashes = ledger::leaf_hashes(&db, 24).await.expect("hashes");
    let recomputed: Vec<_> = entries.iter().map(|e| merkle::leaf_hash(e.body.as_bytes())).collect();
    assert_eq!(hashes, recomputed);
}

async fn heads_and_the_key_are_kept(db: Db) {
    let signer = strikeline_ledger::Signer::from_seed(&[7; 32]).expect("signer");
    let head = signer.sign(strikeline_ledger::TreeHead { size: 0, timestamp_ms: 1_000, root: merkle::empty_root() });
    ledger::insert_head(&db, &head).await.expect("head");
    ledger::insert_head(&db, &head).await.expect("the same head again is kept once");
    let later = signer.sign(strikeline_ledger::TreeHead { size: 0, timestamp_ms: 2_000, root: merkle::empty_root() });
    ledger::insert_head(&db, &later).await.expect("head");
    assert_eq!(ledger::heads(&db, 0, 10).await.expect("heads"), [head, later]);
    assert_eq!(ledger::latest_head(&db).await.expect("latest"), Some(later));
    assert_eq!(ledger::head_of_size(&db, 0).await.expect("of size"), Some(later));

    let first = ledger::key_or_insert(&db, "tree-head", "aa", "bb", t0()).await.expect("key");
    let second = ledger::key_or_insert(&db, "tree-head", "cc", "dd", t0()).await.expect("key");
    assert_eq!((first.clone(), second), (("aa".into(), "bb".into()), ("aa".into(), "bb".into())), "the first key stays");
}
