//! The two engines' migrations must describe one schema: same tables, same columns, same
//! nullability, same column type families, same CHECK constraints and same indexes.
//!
//! Types are compared as families because SQLite keeps timestamps, dates and JSON as TEXT by
//! design (PostgreSQL has `TIMESTAMPTZ`, `DATE`, `JSONB`). CHECK constraints are compared per
//! table as (name, condition) pairs, each condition reduced to its conjuncts in one spelling
//! (`status IN ('a', 'b')`, `quantity >= 1`): PostgreSQL's `pg_get_constraintdef` rewrites
//! `IN (...)` as `= ANY (ARRAY[...])`, `BETWEEN` as two comparisons, and adds casts and
//! parentheses, while SQLite keeps the text as written.

use std::collections::BTreeSet;

use sqlx::Connection;
use strikeline_store::Db;

use strikeline_store::test_support::{pg_base, pg_required};

/// (table, column, NOT NULL, type family)
type Columns = BTreeSet<(String, String, bool, String)>;
/// (table, constraint name, one normalised conjunct)
type Checks = BTreeSet<(String, String, String)>;

struct Schema {
    columns: Columns,
    checks: Checks,
    indexes: BTreeSet<String>,
}

// ---------------------------------------------------------------------------------------------
// Normalisation

/// The family a declared (SQLite) or `information_schema` (PostgreSQL) column type belongs to.
/// An unknown type is its own family, `unknown:…`, which the test refuses: teach it here.
fn type_family(declared: &str) -> String {
    let lowered = declared.trim().to_ascii_lowercase();
    let family = match lowered.as_str() {
        "text" | "jsonb" | "json" | "date" | "timestamp with time zone" | "timestamptz" => "text",
        "bigint" | "integer" | "int" | "int8" | "int4" => "integer",
        "double precision" | "real" | "float8" => "real",
        "boolean" | "bool" => "boolean",
        _ => return format!("unknown:{lowered}"),
    };
    family.to_owned()
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// An identifier or keyword, lower-cased, unquoted.
    Word(String),
    Num(String),
    /// A string literal, quotes included.
    Str(String),
    Op(String),
    Open,
    Close,
    Comma,
    LBracket,
    RBracket,
    Cast,
}

fn tokenize(sql: &str) -> Vec<Tok> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            _ if c.is_whitespace() => i += 1,
            '-' if chars.get(i + 1) == Some(&'-') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\'' => {
                let mut s = String::from('\'');
                i += 1;
                while i < chars.len() {
                    s.push(chars[i]);
                    if chars[i] == '\'' {
                        if chars.get(i + 1) == Some(&'\'') {
                            s.push('\'');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    i += 1;
                }
                out.push(Tok::Str(s));
            }
            '"' | '`' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != c {
                    s.push(chars[i]);
                    i += 1;
                }
                i += 1;
                out.push(Tok::Word(s.to_lowercase()));
            }
            '(' => {
                out.push(Tok::Open);
                i += 1;
            }
            ')' => {
                out.push(Tok::Close);
                i += 1;
            }
            '[' => {
                out.push(Tok::LBracket);
                i += 1;
            }
            ']' => {
                out.push(Tok::RBracket);
                i += 1;
            }
            ',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            ':' if chars.get(i + 1) == Some(&':') => {
                out.push(Tok::Cast);
                i += 2;
            }
            _ if c.is_ascii_digit() => {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                out.push(Tok::Num(chars[start..i].iter().collect()));
            }
            _ if c.is_alphanumeric() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push(Tok::Word(chars[start..i].iter().collect::<String>().to_lowercase()));
            }
            _ => {
                let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                let op = match two.as_str() {
                    ">=" | "<=" | "<>" | "!=" | "==" | "||" => {
                        i += 2;
                        two
                    }
                    _ => {
                        i += 1;
                        c.to_string()
                    }
                };
                out.push(Tok::Op(match op.as_str() {
                    "!=" => "<>".into(),
                    "==" => "=".into(),
                    _ => op,
                }));
            }
        }
    }
    out
}

/// Words that can follow `::` in a PostgreSQL cast.
const TYPE_WORDS: &[&str] = &[
    "text",
    "bigint",
    "integer",
    "smallint",
    "numeric",
    "double",
    "precision",
    "real",
    "boolean",
    "date",
    "timestamp",
    "with",
    "without",
    "time",
    "zone",
    "character",
    "varying",
    "jsonb",
];

fn word(t: &Tok, w: &str) -> bool {
    matches!(t, Tok::Word(x) if x == w)
}

/// A CHECK condition reduced to its conjuncts, each in one spelling. Only what the migrations
/// use is understood: `IN` lists (or PostgreSQL's `= ANY (ARRAY[...])`), comparisons,
/// `BETWEEN`, `AND`. A condition with `OR` stays one conjunct, parentheses dropped.
fn normalise_condition(tokens: &[Tok]) -> BTreeSet<String> {
    // 1. Drop casts: `'a'::text`, `x::double precision`, `'{}'::text[]`.
    let mut toks = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == Tok::Cast {
            i += 1;
            while i < tokens.len() && matches!(&tokens[i], Tok::Word(w) if TYPE_WORDS.contains(&w.as_str())) {
                i += 1;
            }
            if tokens.get(i) == Some(&Tok::LBracket) && tokens.get(i + 1) == Some(&Tok::RBracket) {
                i += 2;
            }
            continue;
        }
        toks.push(tokens[i].clone());
        i += 1;
    }
    // 2. `= ANY ( ARRAY [ list ] )` → `IN ( list )`.
    let mut rewritten = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::Op("=".into())
            && toks.get(i + 1).is_some_and(|t| word(t, "any"))
            && toks.get(i + 2) == Some(&Tok::Open)
            && toks.get(i + 3).is_some_and(|t| word(t, "array"))
            && toks.get(i + 4) == Some(&Tok::LBracket)
            && let Some(end) = toks[i + 5..].iter().position(|t| *t == Tok::RBracket).map(|p| p + i + 5)
            && toks.get(end + 1) == Some(&Tok::Close)
        {
            rewritten.push(Tok::Word("in".into()));
            rewritten.push(Tok::Open);
            rewritten.extend_from_slice(&toks[i + 5..end]);
            rewritten.push(Tok::Close);
            i = end + 2;
            continue;
        }
        rewritten.push(toks[i].clone());
        i += 1;
    }
    // 3. Drop grouping parentheses, keeping the ones around `IN` lists.
    let mut flat = Vec::new();
    let mut keep = Vec::new();
    for (i, t) in rewritten.iter().enumerate() {
        match t {
            Tok::Open => {
                let is_list = i > 0 && word(&rewritten[i - 1], "in");
                keep.push(is_list);
                if is_list {
                    flat.push(t.clone());
                }
            }
            Tok::Close => {
                if keep.pop().unwrap_or(false) {
                    flat.push(t.clone());
                }
            }
            _ => flat.push(t.clone()),
        }
    }
    // 4. `x BETWEEN a AND b` → `x >= a AND x <= b`.
    let mut expanded: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < flat.len() {
        if i > 0 && word(&flat[i], "between") && flat.get(i + 2).is_some_and(|t| word(t, "and")) && i + 3 < flat.len() {
            let subject = expanded.pop().expect("subject before BETWEEN");
            expanded.extend([subject.clone(), Tok::Op(">=".into()), flat[i + 1].clone(), Tok::Word("and".into())]);
            expanded.extend([subject, Tok::Op("<=".into()), flat[i + 3].clone()]);
            i += 4;
            continue;
        }
        expanded.push(flat[i].clone());
        i += 1;
    }
    // 5. Conjuncts, unless there is an OR.
    let parts: Vec<&[Tok]> =
        if expanded.iter().any(|t| word(t, "or")) { vec![&expanded[..]] } else { expanded.split(|t| word(t, "and")).collect() };
    parts.into_iter().filter(|p| !p.is_empty()).map(render).collect()
}

fn render(tokens: &[Tok]) -> String {
    let mut out = String::new();
    for t in tokens {
        let (text, space_before) = match t {
            Tok::Word(w) if matches!(w.as_str(), "in" | "and" | "or" | "not" | "is" | "null") => (w.to_uppercase(), true),
            Tok::Word(w) => (w.clone(), true),
            Tok::Num(n) | Tok::Str(n) | Tok::Op(n) => (n.clone(), true),
            Tok::Open => ("(".into(), true),
            Tok::Close => (")".into(), false),
            Tok::Comma => (",".into(), false),
            Tok::LBracket => ("[".into(), false),
            Tok::RBracket => ("]".into(), false),
            Tok::Cast => ("::".into(), false),
        };
        if space_before && !out.is_empty() && !out.ends_with('(') {
            out.push(' ');
        }
        out.push_str(&text);
    }
    out
}

/// PostgreSQL: one `pg_get_constraintdef` text (`CHECK (...)`).
fn normalise_pg_check(def: &str) -> BTreeSet<String> {
    let tokens = tokenize(def);
    let body = match tokens.first() {
        Some(t) if word(t, "check") => &tokens[1..],
        _ => &tokens[..],
    };
    normalise_condition(body)
}

/// SQLite: every `[CONSTRAINT name] CHECK (...)` in a `CREATE TABLE` statement, as
/// (name or "", conjunct) pairs.
fn sqlite_checks(create_table: &str) -> BTreeSet<(String, String)> {
    let tokens = tokenize(create_table);
    let mut out = BTreeSet::new();
    for i in 0..tokens.len() {
        if !(word(&tokens[i], "check") && tokens.get(i + 1) == Some(&Tok::Open)) {
            continue;
        }
        let name = match (i.checked_sub(2).map(|j| &tokens[j]), i.checked_sub(1).map(|j| &tokens[j])) {
            (Some(c), Some(Tok::Word(name))) if word(c, "constraint") => name.clone(),
            _ => String::new(),
        };
        let mut depth = 0;
        let mut end = i + 1;
        for (j, t) in tokens.iter().enumerate().skip(i + 1) {
            match t {
                Tok::Open => depth += 1,
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        end = j;
                        break;
                    }
                }
                _ => {}
            }
        }
        for atom in normalise_condition(&tokens[i + 2..end]) {
            out.insert((name.clone(), atom));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Reading each engine's schema

async fn sqlite_schema() -> Schema {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::connect(&Db::sqlite_url_in(dir.path())).await.expect("sqlite");
    db.migrate().await.expect("migrate");
    let Db::Sqlite(pool) = &db else { unreachable!() };
    const USER_TABLES: &str = "m.type = 'table' AND m.name NOT LIKE '\\_sqlx%' ESCAPE '\\' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";
    let rows: Vec<(String, String, i64, String)> = sqlx::query_as(&format!(
        "SELECT m.name, p.name, p.\"notnull\", p.type FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE {USER_TABLES}"
    ))
    .fetch_all(pool)
    .await
    .expect("columns");
    let tables: Vec<(String, String)> =
        sqlx::query_as(&format!("SELECT m.name, m.sql FROM sqlite_master m WHERE {USER_TABLES}")).fetch_all(pool).await.expect("tables");
    let indexes: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").fetch_all(pool).await.expect("indexes");
    db.close().await;
    Schema {
        columns: rows.into_iter().map(|(t, c, nn, ty)| (t, c, nn == 1, type_family(&ty))).collect(),
        checks: tables
            .into_iter()
            .flat_map(|(table, sql)| sqlite_checks(&sql).into_iter().map(move |(name, atom)| (table.clone(), name, atom)))
            .collect(),
        indexes: indexes.into_iter().map(|(n,)| n).collect(),
    }
}

async fn postgres_schema() -> Option<Schema> {
    let mut admin = match sqlx::PgConnection::connect(&format!("{}/postgres", pg_base())).await {
        Ok(conn) => conn,
        Err(err) if !pg_required() => {
            eprintln!("SKIPPED: PostgreSQL is not reachable ({err}); set STRIKELINE_REQUIRE_PG=1 to fail instead");
            return None;
        }
        Err(err) => panic!("PostgreSQL is required (STRIKELINE_REQUIRE_PG=1) but not reachable: {err}"),
    };
    let name = format!("strikeline_schema_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(&format!("CREATE DATABASE \"{name}\"")).execute(&mut admin).await.expect("create db");
    let db = Db::connect(&format!("{}/{name}", pg_base())).await.expect("postgres");
    let migrated = db.migrate().await;
    let read = async {
        let Db::Postgres(pool) = &db else { unreachable!() };
        let rows: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT table_name::text, column_name::text, is_nullable::text, data_type::text FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
        )
        .fetch_all(pool)
        .await
        .expect("columns");
        let checks: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT c.conrelid::regclass::text, c.conname::text, pg_get_constraintdef(c.oid) FROM pg_constraint c \
             JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'c' AND n.nspname = 'public'",
        )
        .fetch_all(pool)
        .await
        .expect("checks");
        let indexes: Vec<(String,)> = sqlx::query_as(
            "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' \
             AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key' AND tablename NOT LIKE '\\_sqlx%'",
        )
        .fetch_all(pool)
        .await
        .expect("indexes");
        (rows, checks, indexes)
    };
    let result = match migrated {
        Ok(()) => Ok(read.await),
        Err(err) => Err(err),
    };
    db.close().await;
    sqlx::query(&format!("DROP DATABASE \"{name}\" WITH (FORCE)")).execute(&mut admin).await.expect("drop db");
    let (rows, checks, indexes) = result.expect("postgres migrations");
    Some(Schema {
        columns: rows.into_iter().map(|(t, c, nullable, ty)| (t, c, nullable == "NO", type_family(&ty))).collect(),
        checks: checks
            .into_iter()
            .flat_map(|(table, name, def)| normalise_pg_check(&def).into_iter().map(move |atom| (table.clone(), name.clone(), atom)))
            .collect(),
        indexes: indexes.into_iter().map(|(n,)| n).collect(),
    })
}

fn assert_same<T: Ord + std::fmt::Debug>(what: &str, sqlite: &BTreeSet<T>, pg: &BTreeSet<T>) {
    let only_sqlite: Vec<_> = sqlite.difference(pg).collect();
    let only_pg: Vec<_> = pg.difference(sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_pg.is_empty(),
        "{what} drift:\n  only in SQLite: {only_sqlite:#?}\n  only in PostgreSQL: {only_pg:#?}"
    );
}

#[tokio::test]
async fn sqlite_and_postgres_migrations_describe_the_same_schema() {
    let sqlite = sqlite_schema().await;
    assert!(sqlite.columns.iter().any(|(t, c, _, _)| t == "sessions" && c == "expire"), "sanity: sessions.expire exists");
    assert!(
        sqlite.checks.iter().any(|(t, _, atom)| t == "signals" && atom == "status IN ('active', 'closed', 'expired')"),
        "sanity: SQLite CHECK constraints are read: {:#?}",
        sqlite.checks
    );
    let unknown: Vec<_> = sqlite.columns.iter().filter(|c| c.3.starts_with("unknown:")).collect();
    assert!(unknown.is_empty(), "SQLite column types without a family: {unknown:?}");
    let Some(pg) = postgres_schema().await else { return };
    let unknown: Vec<_> = pg.columns.iter().filter(|c| c.3.starts_with("unknown:")).collect();
    assert!(unknown.is_empty(), "PostgreSQL column types without a family: {unknown:?}");
    assert_same("columns (table, column, not null, type family)", &sqlite.columns, &pg.columns);
    assert_same("CHECK constraints (table, name, condition)", &sqlite.checks, &pg.checks);
    assert_same("indexes", &sqlite.indexes, &pg.indexes);
}

// ---------------------------------------------------------------------------------------------
// The normaliser itself: drift must show.

#[test]
fn type_families_pair_the_engines_and_tell_drift() {
    for (pg, sqlite) in [
        ("text", "TEXT"),
        ("timestamp with time zone", "TEXT"),
        ("jsonb", "TEXT"),
        ("date", "TEXT"),
        ("bigint", "BIGINT"),
        ("integer", "INTEGER"),
        ("bigint", "INTEGER"),
        ("double precision", "DOUBLE PRECISION"),
        ("double precision", "REAL"),
        ("boolean", "BOOLEAN"),
    ] {
        assert_eq!(type_family(pg), type_family(sqlite), "{pg} ↔ {sqlite}");
    }
    for (pg, sqlite) in
        [("bigint", "TEXT"), ("text", "REAL"), ("double precision", "BIGINT"), ("boolean", "TEXT"), ("timestamp with time zone", "BIGINT")]
    {
        assert_ne!(type_family(pg), type_family(sqlite), "{pg} vs {sqlite} is drift");
    }
    assert!(type_family("numeric(10,2)").starts_with("unknown:"), "unknown types are flagged, not guessed");
}

#[test]
fn check_conditions_read_the_same_from_both_engines() {
    let sqlite = sqlite_checks(
        "CREATE TABLE \"t\" (id TEXT, status TEXT NOT NULL, reason TEXT, confidence BIGINT, quantity BIGINT, \
         CONSTRAINT t_status_check CHECK (status IN ('active', 'closed', 'expired')), \
         CONSTRAINT t_reason_check CHECK (reason IN ('target','stop')), \
         CONSTRAINT t_confidence_check CHECK (confidence BETWEEN 0 AND 100), \
         CONSTRAINT t_quantity_check CHECK (quantity >= 1))",
    );
    let pg: BTreeSet<(String, String)> = [
        ("t_status_check", "CHECK ((status = ANY (ARRAY['active'::text, 'closed'::text, 'expired'::text])))"),
        ("t_reason_check", "CHECK ((reason = ANY (ARRAY['target'::text, 'stop'::text])))"),
        ("t_confidence_check", "CHECK (((confidence >= 0) AND (confidence <= 100)))"),
        ("t_quantity_check", "CHECK ((quantity >= 1))"),
    ]
    .into_iter()
    .flat_map(|(name, def)| normalise_pg_check(def).into_iter().map(move |atom| (name.to_owned(), atom)))
    .collect();
    assert_eq!(sqlite, pg);
    assert!(pg.contains(&("t_status_check".to_owned(), "status IN ('active', 'closed', 'expired')".to_owned())), "{pg:#?}");
    assert!(pg.contains(&("t_confidence_check".to_owned(), "confidence >= 0".to_owned())), "{pg:#?}");
    assert!(pg.contains(&("t_quantity_check".to_owned(), "quantity >= 1".to_owned())), "{pg:#?}");
}

#[test]
fn check_drift_shows() {
    let base = normalise_pg_check("CHECK ((status = ANY (ARRAY['active'::text, 'closed'::text])))");
    // A value more, a value fewer, another column, another bound: all differ.
    for drifted in
        ["CHECK (status IN ('active', 'closed', 'expired'))", "CHECK (status IN ('active'))", "CHECK (state IN ('active', 'closed'))"]
    {
        assert_ne!(normalise_pg_check(drifted), base, "{drifted}");
    }
    assert_eq!(normalise_pg_check("CHECK (status IN ('active','closed'))"), base);
    assert_ne!(normalise_pg_check("CHECK ((quantity >= 1))"), normalise_pg_check("CHECK (quantity >= 0)"));
    assert_ne!(normalise_pg_check("CHECK ((quantity >= 1))"), normalise_pg_check("CHECK (quantity > 1)"));
    // Unnamed and named SQLite constraints are told apart, so names must match PostgreSQL's.
    let unnamed = sqlite_checks("CREATE TABLE t (q BIGINT CHECK (q >= 1))");
    assert_eq!(unnamed, BTreeSet::from([(String::new(), "q >= 1".to_owned())]));
}
