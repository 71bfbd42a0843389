//! Every query of the read path is answered from an index on both engines, so a dashboard's
//! poll costs the same with a year of signals as with a day's: no full scan of a table that
//! grows, and the signal list never sorts the whole table (it walks an index in list order and
//! stops after a page).

use strikeline_store::plans::{self, ReadQuery};
use strikeline_store::{Db, Engine};

crate::on_both_engines!(every_read_path_query_uses_an_index,);

/// Tables that grow with users and time.
const GROWING: &[&str] =
    &["signals", "portfolio_positions", "manual_positions", "portfolio_snapshots", "sessions", "users", "dashboard_snapshots"];

/// The table a SQLite plan step reads, if it reads one (`SCAN t …` or `SEARCH t …`).
fn table_read(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("SCAN ").or_else(|| line.strip_prefix("SEARCH "))?;
    rest.split_whitespace().next()
}

fn problems(engine: Engine, query: &ReadQuery, plan: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let mut previous = "";
    for line in plan {
        let line = line.trim();
        match engine {
            Engine::Sqlite => {
                // `SCAN t` alone reads the whole table; `SCAN t USING INDEX i` walks an index.
                if line.starts_with("SCAN ") && table_read(line).is_some_and(|t| GROWING.contains(&t)) && !line.contains("USING") {
                    found.push(format!("full scan: {line}"));
                }
                // Sorting what a growing table gave is sorting the list; sorting a subquery's
                // page (`SCAN automated`, bounded by its LIMIT) is not.
                let sorts_table = table_read(previous).is_some_and(|t| GROWING.contains(&t));
                if query.name.starts_with("signals: ")
                    && query.sql.contains("UNION ALL")
                    && line.contains("TEMP B-TREE FOR ORDER BY")
                    && sorts_table
                {
                    found.push(format!("sorts the list: {previous} → {line}"));
                }
            }
            Engine::Postgres => {
                if line.contains("Seq Scan") {
                    found.push(format!("full scan: {line}"));
                }
            }
        }
        previous = line;
    }
    found
}

async fn every_read_path_query_uses_an_index(db: Db) {
    let mut failures = Vec::new();
    for query in plans::read_path(db.engine()) {
        let plan = plans::explain(&db, &query).await.unwrap_or_else(|e| panic!("explain {}: {e}", query.name));
        assert!(!plan.is_empty(), "{} has a plan", query.name);
        if std::env::var_os("SHOW_PLANS").is_some() {
            eprintln!("{}:\n    {}", query.name, plan.join("\n    "));
        }
        let found = problems(db.engine(), &query, &plan);
        if !found.is_empty() {
            failures.push(format!("{}:\n  {}\n  plan:\n    {}", query.name, found.join("\n  "), plan.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "queries that do not scale:\n{}", failures.join("\n"));
}

#[test]
fn a_full_scan_and_a_sorted_list_are_told_apart_from_index_walks() {
    let list = plans::read_path(Engine::Sqlite).into_iter().find(|q| q.name == "signals: first page").expect("list");
    let plan = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    let sqlite = |lines: &[&str]| problems(Engine::Sqlite, &list, &plan(lines)).len();
    assert_eq!(sqlite(&["SCAN signals USING INDEX signals_automated_recent_idx", "SCAN automated", "USE TEMP B-TREE FOR ORDER BY"]), 0);
    assert_eq!(sqlite(&["SCAN signals"]), 1);
    assert_eq!(sqlite(&["SEARCH signals USING INDEX signals_owner_idx (owner_id=?)", "USE TEMP B-TREE FOR ORDER BY"]), 1);
    assert_eq!(sqlite(&["SCAN stock_prices"]), 0, "small fixed tables may be scanned");
    assert_eq!(problems(Engine::Postgres, &list, &plan(&["Seq Scan on signals  (cost=…)"])).len(), 1);
}
