//! Everything stored about one person, for their data export: every row of every table that
//! holds their rows, found from the schema itself (a column `user_id` or `owner_id` naming
//! them, or `email` holding their address), so a table added later is exported without
//! anyone remembering to. Secrets (password and key hashes, tokens, session contents, webhook
//! signing secrets, sealed broker keys) are left out.

use crate::{Db, StoreResult, with_db};

/// Columns never exported.
pub const SECRET_COLUMNS: [&str; 12] = [
    "password_hash",
    "auth_secret",
    "code_hash",
    "key_hash",
    "token_hash",
    "secret",
    "client_secret",
    "token",
    "sid",
    "sess",
    "email_key",
    "secret_sealed",
];

/// How a table names its owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedTable {
    pub table: String,
    /// `id` for `users`; `user_id`, `owner_id` or `email` elsewhere.
    pub column: String,
}

/// The tables that can hold a person's rows, in name order (`users` by `id`).
pub async fn owned_tables(db: &Db) -> StoreResult<Vec<OwnedTable>> {
    let pairs: Vec<(String, String)> = match db {
        Db::Sqlite(pool) => {
            sqlx::query_as(
                "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p \
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_sqlx%' \
                 AND p.name IN ('user_id', 'owner_id', 'email') ORDER BY m.name, p.name",
            )
            .fetch_all(pool)
            .await?
        }
        Db::Postgres(pool) => {
            sqlx::query_as(
                "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%' \
                 AND column_name IN ('user_id', 'owner_id', 'email') ORDER BY table_name, column_name",
            )
            .fetch_all(pool)
            .await?
        }
    };
    let mut by_table: std::collections::BTreeMap<String, Vec<String>> = std::collections::BTreeMap::new();
    for (table, column) in pairs {
        by_table.entry(table).or_default().push(column);
    }
    by_table.insert("users".into(), vec!["id".into()]);
    // A user id names the owner; an address only where there is no id (a contact message). An
    // `email` beside a user id (the address a link was sent to) is a copy.
    Ok(by_table
        .into_iter()
        .map(|(table, columns)| {
            let column = ["id", "user_id", "owner_id", "email"].into_iter().find(|c| columns.iter().any(|have| have == c)).unwrap_or("id");
            OwnedTable { table, column: column.to_owned() }
        })
        .collect())
}

/// The rows of `owned` that belong to the user `user_id` with address `email`, each a JSON
/// object without the secret columns, in a stable order.
pub async fn rows(db: &Db, owned: &OwnedTable, user_id: &str, email: &str) -> StoreResult<Vec<serde_json::Value>> {
    let key = if owned.column == "email" { email } else { user_id };
    let table = owned.table.replace('"', "\"\"");
    let column = owned.column.replace('"', "\"\"");
    let texts: Vec<String> = match db {
        Db::Sqlite(pool) => {
            let columns: Vec<String> =
                sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid").bind(&owned.table).fetch_all(pool).await?;
            let pairs: Vec<String> =
                columns.iter().map(|c| format!("'{}', \"{}\"", c.replace('\'', "''"), c.replace('"', "\"\""))).collect();
            let sql = format!("SELECT json_object({}) FROM \"{table}\" WHERE \"{column}\" = $1 ORDER BY rowid", pairs.join(", "));
            sqlx::query_scalar(&sql).bind(key).fetch_all(pool).await?
        }
        Db::Postgres(pool) => {
            let sql = format!("SELECT row_to_json(t)::TEXT FROM \"{table}\" t WHERE \"{column}\" = $1 ORDER BY row_to_json(t)::TEXT");
            sqlx::query_scalar(&sql).bind(key).fetch_all(pool).await?
        }
    };
    Ok(texts
        .into_iter()
        .filter_map(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .map(|mut row| {
            if let Some(object) = row.as_object_mut() {
                for secret in SECRET_COLUMNS {
                    object.remove(secret);
                }
            }
            row
        })
        .collect())
}

/// How many rows of `owned` belong to the user (for checks).
pub async fn count(db: &Db, owned: &OwnedTable, user_id: &str, email: &str) -> StoreResult<i64> {
    let key = if owned.column == "email" { email } else { user_id };
    let sql = format!(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM \"{}\" WHERE \"{}\" = $1",
        owned.table.replace('"', "\"\""),
        owned.column.replace('"', "\"\"")
    );
    Ok(with_db!(db, pool => sqlx::query_scalar(&sql).bind(key).fetch_one(pool).await?))
}
