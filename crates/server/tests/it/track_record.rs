//! The public track record: signed heads and proofs a third party can check with RFC 9162's
//! algorithms, an export `strikeline verify` accepts untouched and refuses after any edit,
//! deletion, insertion or reordering of stored signals or log rows, and calibration figures
//! over live signals only.

use chrono::Duration;
use serde_json::Value;
use strikeline_ledger::{hex, merkle};
use strikeline_server::services::track_record::{self, export};
use strikeline_store::signals::{self as store, SignalMark, SignalRow};
use strikeline_store::{Db, ledger};

use crate::common::{TestApp, fields, problem, signal_row};

on_both_engines!(
    proofs_check_against_the_signed_heads,
    verify_passes_untouched_and_catches_every_tamper,
    calibration_counts_live_signals_only_and_hides_thin_groups,
    hostile_and_excessive_requests_get_clear_errors,
);

/// Two years of simulated history and the first start's replay of the last 20 sessions.
fn with_replay(config: &mut strikeline_server::foundation::config::Config) {
    crate::common::with_market(config);
    config.market.replay_days = 20;
}

on_both_engines_with!(tight_limit, crate::track_record::with_tight_limit;
    one_address_reading_too_fast_is_limited,
);

on_both_engines_with!(fresh_start, crate::track_record::with_replay;
    a_fresh_start_logs_its_replay_labelled_and_the_export_verifies,
);

async fn get(app: &TestApp, path: &str) -> Value {
    let response = app.client.get(app.url(path)).send().await.expect("request");
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.expect("json")
}

fn ended(row: &SignalRow, net_pnl_cents: i64, at: chrono::DateTime<chrono::Utc>) -> SignalMark {
    SignalMark {
        id: row.id.clone(),
        current_option_cents: row.entry_cents + net_pnl_cents,
        current_price_cents: row.underlying_entry_cents,
        previous_close_cents: row.underlying_entry_cents,
        pnl_cents: net_pnl_cents,
        pnl_percent: 0.0,
        close: Some(("closed".into(), if net_pnl_cents > 0 { "target" } else { "stop" }.into())),
        net_pnl_cents: Some(net_pnl_cents),
        at,
    }
}

/// `n` live automated signals, each on its own symbol, the first `closed` of them ended.
async fn issue(app: &TestApp, prefix: &str, n: usize, closed: usize) -> Vec<SignalRow> {
    let rows: Vec<SignalRow> =
        (0..n).map(|i| signal_row(&format!("{prefix}{i:02}"), 50 + (i as i64 % 50), app.today(), 30, None)).collect();
    store::issue_automated(app.db(), &rows).await.expect("issue");
    // One instant for every close: the tamper checks restore one signal's close time from another's.
    let at = app.now();
    let marks: Vec<SignalMark> =
        rows.iter().take(closed).enumerate().map(|(i, r)| ended(r, if i % 2 == 0 { 150 } else { -90 }, at)).collect();
    store::apply_marks(app.db(), &marks).await.expect("close");
    rows
}

fn hash(text: &str) -> merkle::Hash {
    hex::decode_array(text).expect("32 bytes of hex")
}

async fn proofs_check_against_the_signed_heads(app: TestApp) {
    let key = get(&app, "/api/public/track-record/key").await;
    assert_eq!(key["algorithm"], "Ed25519");
    let public_key: [u8; 32] = hex::decode_array(key["publicKey"].as_str().expect("key")).expect("32-byte key");
    let start = ledger::size(app.db()).await.expect("size");

    let rows = issue(&app, "P", 5, 2).await;
    let first = track_record::sign_head(&app.state, app.now() + Duration::minutes(1)).await.expect("head");
    assert_eq!(first.head.size as i64, start + 7, "five issues and two outcomes");

    // Inclusion: the closed signal has two entries, each proven in the newest head.
    let proof = get(&app, &format!("/api/public/track-record/signals/{}/proof", rows[0].id)).await;
    let head = &proof["treeHead"];
    assert_eq!(head["treeSize"].as_u64(), Some(first.head.size));
    let root = hash(head["rootHash"].as_str().expect("root"));
    let signed = strikeline_ledger::SignedTreeHead {
        head: strikeline_ledger::TreeHead { size: first.head.size, timestamp_ms: head["timestampMs"].as_i64().expect("ms"), root },
        signature: hex::decode_array(head["signature"].as_str().expect("sig")).expect("64 bytes"),
    };
    assert!(strikeline_ledger::verify_head(&public_key, &signed), "the head is signed by the published key");
    let entries = proof["entries"].as_array().expect("entries");
    assert_eq!(entries.iter().map(|e| e["kind"].as_str().unwrap_or_default()).collect::<Vec<_>>(), ["issue", "outcome"]);
    for e in entries {
        let leaf = merkle::leaf_hash(e["entry"].as_str().expect("entry").as_bytes());
        assert_eq!(hex::encode(&leaf), e["leafHash"], "the leaf hash is SHA-256(0x00 || entry)");
        let path: Vec<merkle::Hash> = e["auditPath"].as_array().expect("path").iter().map(|h| hash(h.as_str().expect("hex"))).collect();
        let index = e["index"].as_u64().expect("index");
        assert!(merkle::verify_inclusion(&leaf, index, first.head.size, &path, &root), "entry {index} is in the tree");
        assert!(!merkle::verify_inclusion(&leaf, index ^ 1, first.head.size, &path, &root), "and not at another index");
    }
    assert!(entries[0]["entry"].as_str().expect("entry").contains(&format!("\"signalId\":\"{}\"", rows[0].id)));

    // Consistency: a later head extends the first.
    issue(&app, "Q", 1, 0).await;
    let second = track_record::sign_head(&app.state, app.now() + Duration::minutes(90)).await.expect("head");
    let heads = get(&app, "/api/public/track-record/heads").await;
    assert_eq!(heads["latest"]["treeSize"].as_u64(), Some(second.head.size));
    let consistency =
        get(&app, &format!("/api/public/track-record/consistency?first={}&second={}", first.head.size, second.head.size)).await;
    let proof: Vec<merkle::Hash> = consistency["proof"].as_array().expect("proof").iter().map(|h| hash(h.as_str().expect("hex"))).collect();
    assert!(merkle::verify_consistency(first.head.size, second.head.size, &first.head.root, &second.head.root, &proof));
    assert!(!merkle::verify_consistency(first.head.size, second.head.size, &second.head.root, &first.head.root, &proof));

    // The proof against the older head by its size.
    let older = get(&app, &format!("/api/public/track-record/signals/{}/proof?treeSize={}", rows[0].id, first.head.size)).await;
    assert_eq!(older["treeHead"]["rootHash"], hex::encode(&first.head.root));

    // A head is due once an hour, not before.
    assert!(track_record::sign_head_if_due(&app.state, app.now() + Duration::minutes(120)).await.expect("due").is_none());
    assert!(track_record::sign_head_if_due(&app.state, app.now() + Duration::minutes(150)).await.expect("due").is_some());
}

async fn export_now(app: &TestApp) -> export::RecordExport {
    let response = app.client.get(app.url("/api/public/track-record/export")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    response.json().await.expect("export")
}

async fn sql(db: &Db, statement: &str) {
    strikeline_store::with_db!(db, pool => {
        sqlx::query(statement).execute(pool).await.unwrap_or_else(|e| panic!("{statement}: {e}"));
    });
}

async fn verify_passes_untouched_and_catches_every_tamper(app: TestApp) {
    let rows = issue(&app, "T", 6, 3).await;
    track_record::sign_head(&app.state, app.now() + Duration::minutes(1)).await.expect("head");
    let key = get(&app, "/api/public/track-record/key").await["publicKey"].as_str().expect("key").to_owned();
    let untouched = export_now(&app).await;
    let verified = export::verify(&untouched, Some(&key)).expect("an untouched record verifies");
    assert_eq!((verified.signals, verified.resolved), (6, 3));
    assert!(matches!(export::verify(&untouched, Some(&"00".repeat(32))), Err(export::VerifyError::WrongKey { .. })));

    let (open, closed) = (&rows[5].id, &rows[0].id);
    let entry_of = |seq: i64| {
        let db = app.db().clone();
        async move { ledger::entries(&db, seq, 1).await.expect("entry").remove(0) }
    };
    let issue_seq = entry_of(0).await;
    let body = issue_seq.body.replace("\"confidence\":50", "\"confidence\":95");
    assert_ne!(body, issue_seq.body);
    let rehashed = hex::encode(&merkle::leaf_hash(body.as_bytes()));
    let fake = SignalRow { id: uuid::Uuid::new_v4().to_string(), symbol: "FAKE".into(), ..rows[5].clone() };
    // (what, the tampering, the undoing, the failure expected); statements one a line
    type Check = fn(&export::VerifyError) -> bool;
    let cases: Vec<(&str, String, String, Check)> = vec![
        (
            "a stored strike edited",
            format!("UPDATE signals SET strike_cents = strike_cents + 500 WHERE id = '{open}'"),
            format!("UPDATE signals SET strike_cents = strike_cents - 500 WHERE id = '{open}'"),
            |e| matches!(e, export::VerifyError::IssueEdited(_)),
        ),
        (
            "a stored issue day moved back",
            format!("UPDATE signals SET issued_on = '2020-01-02' WHERE id = '{open}'"),
            format!("UPDATE signals SET issued_on = '{}' WHERE id = '{open}'", rows[5].issued_on),
            |e| matches!(e, export::VerifyError::IssueEdited(_)),
        ),
        (
            "a stored outcome edited from a loss to a win",
            format!("UPDATE signals SET net_pnl_cents = 10000 WHERE id = '{}'", rows[1].id),
            format!("UPDATE signals SET net_pnl_cents = -90 WHERE id = '{}'", rows[1].id),
            |e| matches!(e, export::VerifyError::OutcomeEdited(_)),
        ),
        (
            "a stored loss reopened",
            format!("UPDATE signals SET status = 'active', close_reason = NULL, closed_at = NULL WHERE id = '{}'", rows[1].id),
            format!(
                "UPDATE signals SET status = 'closed', close_reason = 'stop', closed_at = (SELECT closed_at FROM signals WHERE id = '{closed}') WHERE id = '{}'",
                rows[1].id
            ),
            |e| matches!(e, export::VerifyError::OutcomeRemoved(_)),
        ),
        (
            "a stored signal deleted",
            format!("DELETE FROM signals WHERE id = '{open}'"),
            String::new(),
            |e| matches!(e, export::VerifyError::Deleted(_)),
        ),
        (
            "a log entry edited and its hash recomputed",
            format!("UPDATE ledger_entries SET body = '{body}', leaf_hash = '{rehashed}' WHERE seq = 0"),
            format!("UPDATE ledger_entries SET body = '{}', leaf_hash = '{}' WHERE seq = 0", issue_seq.body, issue_seq.leaf_hash),
            |e| matches!(e, export::VerifyError::Log(_)),
        ),
        (
            "two log entries swapped",
            "UPDATE ledger_entries SET seq = 1000000 WHERE seq = 1\nUPDATE ledger_entries SET seq = 1 WHERE seq = 2\nUPDATE ledger_entries SET seq = 2 WHERE seq = 1000000".into(),
            "UPDATE ledger_entries SET seq = 1000000 WHERE seq = 2\nUPDATE ledger_entries SET seq = 2 WHERE seq = 1\nUPDATE ledger_entries SET seq = 1 WHERE seq = 1000000".into(),
            |e| matches!(e, export::VerifyError::Log(_)),
        ),
    ];
    for (what, tamper, undo, expected) in cases {
        for statement in tamper.lines() {
            sql(app.db(), statement).await;
        }
        let err = export::verify(&export_now(&app).await, Some(&key)).expect_err(what);
        assert!(expected(&err), "{what}: {err}");
        if undo.is_empty() {
            // The deleted signal comes back from the untouched export's copy of the row.
            store::insert_on_demand(app.db(), &rows[5]).await.expect("restore");
        } else {
            for statement in undo.lines() {
                sql(app.db(), statement).await;
            }
        }
        export::verify(&export_now(&app).await, Some(&key)).unwrap_or_else(|e| panic!("after undoing {what}: {e}"));
    }

    // A signal stored afterwards, as if issued, is not in the log.
    store::insert_on_demand(app.db(), &fake).await.expect("insert");
    let err = export::verify(&export_now(&app).await, Some(&key)).expect_err("inserted");
    assert!(matches!(err, export::VerifyError::NotLogged(ref id) if *id == fake.id), "{err}");
    sql(app.db(), &format!("DELETE FROM signals WHERE id = '{}'", fake.id)).await;

    // A log entry deleted: the export has a hole, or, renumbered, no longer matches its heads.
    sql(app.db(), "DELETE FROM ledger_entries WHERE seq = 3").await;
    let mut holed = export_now(&app).await;
    assert!(export::verify(&holed, Some(&key)).is_err(), "a hole in the log");
    for (i, e) in holed.entries.iter_mut().enumerate() {
        e.index = i as i64;
    }
    assert!(matches!(export::verify(&holed, Some(&key)), Err(export::VerifyError::Log(_))), "renumbered, the roots differ");

    // The command line: the untouched export verifies, the tampered one fails, and heads
    // saved earlier must match too.
    let dir = tempfile::tempdir().expect("dir");
    let good = dir.path().join("good.json");
    let bad = dir.path().join("bad.json");
    std::fs::write(&good, serde_json::to_vec(&untouched).expect("json")).expect("write");
    std::fs::write(&bad, serde_json::to_vec(&holed).expect("json")).expect("write");
    let run = |args: &[&std::ffi::OsStr]| std::process::Command::new(env!("CARGO_BIN_EXE_strikeline")).args(args).output().expect("run");
    let ok = run(&["verify".as_ref(), good.as_os_str(), "--key".as_ref(), key.as_ref()]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("verified: "));
    let failed = run(&["verify".as_ref(), bad.as_os_str()]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&failed.stderr).contains("FAILED"), "{}", String::from_utf8_lossy(&failed.stderr));
    // Heads an observer saved: a forged head (another key) of the same size is refused.
    let forger = strikeline_ledger::Signer::from_seed(&[9; 32]).expect("signer");
    let forged = forger.sign(strikeline_ledger::TreeHead { size: 1, timestamp_ms: 1, root: merkle::empty_root() });
    let saved = dir.path().join("heads.json");
    std::fs::write(&saved, serde_json::to_vec(&[export::PublishedHead::from(&forged)]).expect("json")).expect("write");
    let mismatched = run(&["verify".as_ref(), good.as_os_str(), "--heads".as_ref(), saved.as_os_str()]);
    assert_eq!(mismatched.status.code(), Some(1), "{}", String::from_utf8_lossy(&mismatched.stdout));
}

async fn calibration_counts_live_signals_only_and_hides_thin_groups(app: TestApp) {
    // 40 live Momentum signals resolved: confidence 50–89, every other one won.
    let rows = issue(&app, "C", 40, 40).await;
    // 10 replayed ones, all won: never counted.
    let replayed: Vec<SignalRow> = (0..10)
        .map(|i| {
            let mut r = signal_row(&format!("R{i:02}"), 90, app.today(), 60, None);
            r.provenance = "replayed".into();
            r.status = "closed".into();
            r.close_reason = Some("target".into());
            r.closed_at = Some(app.now() - Duration::minutes(10));
            r.net_pnl_cents = Some(500);
            r
        })
        .collect();
    store::issue_automated(app.db(), &replayed).await.expect("replay");
    // 5 live Breakout ones: too few for a figure.
    let breakout: Vec<SignalRow> =
        (0..5).map(|i| SignalRow { strategy: "Breakout".into(), ..signal_row(&format!("B{i:02}"), 70, app.today(), 20, None) }).collect();
    store::issue_automated(app.db(), &breakout).await.expect("issue");
    store::apply_marks(app.db(), &breakout.iter().map(|r| ended(r, 10, app.now())).collect::<Vec<_>>()).await.expect("close");

    let summary = get(&app, "/api/public/track-record").await;
    assert_eq!(summary["minimumSample"], 30);
    assert_eq!(summary["excluded"]["replayed"], 10);
    assert_eq!(summary["pooled"]["n"], 45);
    let momentum =
        summary["strategies"].as_array().expect("strategies").iter().find(|s| s["strategy"] == "Momentum").expect("momentum").clone();
    let breakout_summary = summary["strategies"].as_array().expect("s").iter().find(|s| s["strategy"] == "Breakout").expect("b").clone();
    assert_eq!((momentum["strength"]["n"].as_u64(), momentum["strength"]["wins"].as_u64()), (Some(40), Some(20)));
    assert_eq!(breakout_summary["strength"]["n"], 5);
    assert!(breakout_summary["strength"]["figures"].is_null(), "under 30: n and no figure");

    // The Momentum figures, by hand: p = confidence / 100, won when net P&L > 0.
    let pairs: Vec<(f64, bool)> = rows.iter().enumerate().map(|(i, r)| (r.confidence as f64 / 100.0, i % 2 == 0)).collect();
    let n = pairs.len() as f64;
    let brier = pairs.iter().map(|(p, y)| (p - f64::from(u8::from(*y))).powi(2)).sum::<f64>() / n;
    let figures = &momentum["strength"]["figures"];
    assert!((figures["brier"].as_f64().expect("brier") - brier).abs() < 1e-12);
    assert!((figures["baseRate"].as_f64().expect("base") - 0.5).abs() < 1e-12);
    let skill = 1.0 - brier / 0.25;
    assert!((figures["skill"].as_f64().expect("skill") - skill).abs() < 1e-12);
    assert_eq!(figures["meetsSkillTarget"], skill > 0.0);
    let decomposition = figures["reliability"].as_f64().expect("rel") - figures["resolution"].as_f64().expect("res")
        + figures["uncertainty"].as_f64().expect("unc")
        + figures["withinBinVariance"].as_f64().expect("wbv")
        - 2.0 * figures["withinBinCovariance"].as_f64().expect("wbc");
    assert!((decomposition - brier).abs() < 1e-12, "BS = REL − RES + UNC + WBV − 2·WBC");
    let bins = figures["binsEqualWidth"].as_array().expect("bins");
    assert_eq!(bins.len(), 10);
    assert_eq!(bins.iter().map(|b| b["n"].as_u64().unwrap_or(0)).sum::<u64>(), 40);
    let ece: f64 = bins
        .iter()
        .filter(|b| b["n"].as_u64() > Some(0))
        .map(|b| {
            b["n"].as_f64().unwrap_or(0.0) / n
                * (b["observedFrequency"].as_f64().unwrap_or(0.0) - b["meanForecast"].as_f64().unwrap_or(0.0)).abs()
        })
        .sum();
    assert!((figures["eceEqualWidth"].as_f64().expect("ece") - ece).abs() < 1e-12);
    assert_eq!(figures["meetsEceTarget"], ece <= 0.05);
    assert_eq!(figures["binsEqualCount"].as_array().expect("bins").len(), 10);
    assert!(!figures["rollingBrier"].as_array().expect("rolling").is_empty());

    // The signal detail shows the strategy's record in the signal's strength decile (80–89:
    // ten resolved, five won), with no rate under the minimum sample.
    app.register().await;
    let analysis = get(&app, &format!("/api/signals/{}/analysis", rows[33].id)).await;
    let decile = &analysis["decileRecord"];
    assert_eq!((decile["strategy"].as_str(), decile["low"].as_i64(), decile["high"].as_i64()), (Some("Momentum"), Some(80), Some(89)));
    assert_eq!((decile["n"].as_i64(), decile["wins"].as_i64()), (Some(10), Some(5)));
    assert!(decile["hitRate"].is_null() && decile["wilsonLow"].is_null(), "{decile}");
    assert_eq!(analysis["probabilityOfProfitAtIssue"], 0.42);

    // The public win rate counts the 45 live signals, not the replayed winners.
    let stats = get(&app, "/api/public/stats").await;
    assert_eq!(stats["winRate"]["closedSignals"], 45);
    // The notional analysed: one contract of a $99 underlying per live signal, replayed ones left out.
    assert_eq!(stats["signalsIssued"]["count"], 45);
    assert_eq!(
        (stats["volumeAnalysed"]["signals"].as_i64(), stats["volumeAnalysed"]["notional"].as_f64()),
        (Some(45), Some(45.0 * 9_900.0))
    );
    let expected = 25.0 * 100.0 / 45.0;
    assert!((stats["winRate"]["value"].as_f64().expect("rate") - expected).abs() < 1e-9, "{stats}");
}

async fn hostile_and_excessive_requests_get_clear_errors(app: TestApp) {
    let status_of = |path: String| {
        let request = app.client.get(app.url(&path));
        async move { request.send().await.expect("request") }
    };
    let missing = status_of("/api/public/track-record/signals/no-such-signal/proof".into()).await;
    assert_eq!(missing.status(), 404);
    problem(missing).await;
    let long = status_of(format!("/api/public/track-record/signals/{}/proof", "x".repeat(5000))).await;
    assert_eq!(long.status(), 404);
    // No head was signed at that size: there is no such tree to prove against.
    let no_head = status_of("/api/public/track-record/signals/x/proof?treeSize=999999".into()).await;
    assert_eq!(no_head.status(), 404);
    problem(no_head).await;
    for (path, field) in [
        ("/api/public/track-record/signals/x/proof?treeSize=abc", "treeSize"),
        ("/api/public/track-record/consistency?first=5&second=2", "first"),
        ("/api/public/track-record/consistency?first=0&second=999999999", "second"),
        ("/api/public/track-record/consistency?first=-1&second=0", "first"),
        ("/api/public/track-record/consistency?second=1", "first"),
        ("/api/public/track-record/heads?limit=0", "limit"),
        ("/api/public/track-record/heads?limit=1001", "limit"),
        ("/api/public/track-record/heads?sinceMs=soon", "sinceMs"),
        ("/api/public/track-record/heads?evil=1", "evil"),
    ] {
        let response = status_of(path.into()).await;
        assert_eq!(response.status(), 422, "{path}");
        assert_eq!(fields(&problem(response).await), [field], "{path}");
    }
}

/// The track record's read limit made small and slow to refill, so the test counts exactly.
fn with_tight_limit(config: &mut strikeline_server::foundation::config::Config) {
    config.limits.insert("track_record".into(), strikeline_server::foundation::config::LimitOverride { quota: 10, window_seconds: 3600 });
}

async fn one_address_reading_too_fast_is_limited(app: TestApp) {
    for i in 0..10 {
        let response = app.client.get(app.url("/api/public/track-record/heads?limit=1")).send().await.expect("request");
        assert_eq!(response.status(), 200, "request {i}");
        assert!(response.headers().contains_key("ratelimit-policy"));
    }
    // Any of the track record's reads counts against the same quota; the export has its own.
    let refused = app.client.get(app.url("/api/public/track-record/key")).send().await.expect("request");
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    problem(refused).await;
    let export = app.client.get(app.url("/api/public/track-record/export")).send().await.expect("request");
    assert_eq!(export.status(), 200);
}

async fn a_fresh_start_logs_its_replay_labelled_and_the_export_verifies(app: TestApp) {
    let export = export_now(&app).await;
    let verified = export::verify(&export, None).expect("the first start's record verifies");
    assert!(export.heads.last().is_some_and(|h| h.tree_size as usize == export.entries.len()), "first start signed a head over it");
    let issues: Vec<&str> = export.entries.iter().map(|e| e.entry.as_str()).filter(|e| e.contains(ledger::ISSUE_FORMAT)).collect();
    assert_eq!(issues.len(), verified.signals);
    let replayed = issues.iter().filter(|e| e.contains("\"provenance\":\"replayed\"")).count();
    let live = issues.iter().filter(|e| e.contains("\"provenance\":\"live\"")).count();
    assert!(replayed > 0, "the replay issued signals, labelled replayed");
    assert_eq!(replayed + live, issues.len());
    let summary = get(&app, "/api/public/track-record").await;
    let resolved_replayed = export.entries.iter().filter(|e| e.entry.contains(ledger::OUTCOME_FORMAT)).count();
    assert_eq!(summary["excluded"]["replayed"].as_u64(), Some(resolved_replayed as u64), "every resolved replayed signal left out");
    assert_eq!(summary["pooled"]["n"], 0, "no live signal has resolved yet");
    let stats = get(&app, "/api/public/stats").await;
    assert_eq!(stats["signalsIssued"]["count"].as_u64(), Some(live as u64), "only live signals count as issued");
    assert_eq!(stats["winRate"]["closedSignals"], 0);
}
