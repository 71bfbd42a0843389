//! The two engines' migrations must describe one schema: same tables, same columns, same
//! nullability, same indexes. (Types differ on purpose: TIMESTAMPTZ/JSONB vs TEXT.)

use std::collections::BTreeSet;

use sqlx::Connection;
use strikeline_store::Db;

type Columns = BTreeSet<(String, String, bool)>;

async fn sqlite_schema() -> (Columns, BTreeSet<String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::connect(&Db::sqlite_url_in(dir.path())).await.expect("sqlite");
    db.migrate().await.expect("migrate");
    let Db::Sqlite(pool) = &db else { unreachable!() };
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT m.name, p.name, p.\"notnull\" FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE '\\_sqlx%' ESCAPE '\\' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .fetch_all(pool)
    .await
    .expect("columns");
    let indexes: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    )
    .fetch_all(pool)
    .await
    .expect("indexes");
    (
        rows.into_iter().map(|(t, c, nn)| (t, c, nn == 1)).collect(),
        indexes.into_iter().map(|(n,)| n).collect(),
    )
}

async fn postgres_schema() -> Option<(Columns, BTreeSet<String>)> {
    let base = std::env::var("STRIKELINE_TEST_PG_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
    let required = std::env::var("STRIKELINE_REQUIRE_PG").is_ok_and(|v| v == "1" || v == "true");
    let mut admin = match sqlx::PgConnection::connect(&format!("{base}/postgres")).await {
        Ok(conn) => conn,
        Err(err) if !required => {
            eprintln!("SKIPPED: PostgreSQL is not reachable ({err})");
            return None;
        }
        Err(err) => panic!("PostgreSQL is required but not reachable: {err}"),
    };
    let name = format!("strikeline_schema_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&mut admin).await.expect("create db");
    let db = Db::connect(&format!("{base}/{name}")).await.expect("postgres");
    db.migrate().await.expect("migrate");
    let Db::Postgres(pool) = &db else { unreachable!() };
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, is_nullable::text FROM information_schema.columns \
         WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(pool)
    .await
    .expect("columns");
    let indexes: Vec<(String,)> = sqlx::query_as(
        "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' \
         AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key' AND tablename NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(pool)
    .await
    .expect("indexes");
    db.close().await;
    sqlx::query(&format!("DROP DATABASE \"{name}\" WITH (FORCE)")).execute(&mut admin).await.expect("drop db");
    Some((
        rows.into_iter().map(|(t, c, nullable)| (t, c, nullable == "NO")).collect(),
        indexes.into_iter().map(|(n,)| n).collect(),
    ))
}

#[tokio::test]
async fn sqlite_and_postgres_migrations_describe_the_same_schema() {
    let (sqlite_columns, sqlite_indexes) = sqlite_schema().await;
    assert!(sqlite_columns.iter().any(|(t, c, _)| t == "sessions" && c == "expire"), "sanity: sessions.expire exists");
    let Some((pg_columns, pg_indexes)) = postgres_schema().await else { return };
    let only_sqlite: Vec<_> = sqlite_columns.difference(&pg_columns).collect();
    let only_pg: Vec<_> = pg_columns.difference(&sqlite_columns).collect();
    assert!(only_sqlite.is_empty() && only_pg.is_empty(), "columns drift: only in SQLite {only_sqlite:?}, only in PostgreSQL {only_pg:?}");
    assert_eq!(sqlite_indexes, pg_indexes, "indexes drift");
}
