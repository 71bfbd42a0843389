//! The `news_items` and `news_feeds` tables: articles with their sentiment and analysis, kept
//! once each (by a de-duplication key), and each feed's conditional-request state.

use chrono::{DateTime, Utc};

use crate::{Db, StoreResult, with_db};

/// A stored article.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct NewsItem {
    pub id: String,
    /// Normalised URL or title: the same article from two feeds is kept once.
    pub dedupe_key: String,
    /// `feed | sample | market_note`.
    pub origin: String,
    pub source: String,
    pub title: String,
    pub summary: String,
    pub article_url: Option<String>,
    pub image_url: Option<String>,
    /// Comma-separated tickers, the first the one the article is mostly about.
    pub symbols: String,
    pub published_at: DateTime<Utc>,
    /// `bullish | bearish | neutral`.
    pub sentiment: String,
    /// -1 … 1.
    pub sentiment_score: f64,
    /// The analysis, as JSON.
    pub analysis: String,
    /// `builtin | openai`: which analyser produced it.
    pub analyzer: String,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, dedupe_key, origin, source, title, summary, article_url, image_url, symbols, published_at, sentiment, sentiment_score, analysis, analyzer, created_at";

/// Stores the articles not stored yet (by `dedupe_key`), in one transaction; how many were new.
pub async fn insert_new(db: &Db, items: &[NewsItem]) -> StoreResult<u64> {
    if items.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "INSERT INTO news_items ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT (dedupe_key) DO NOTHING"
    );
    with_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mut added = 0;
        for n in items {
            added += sqlx::query(&sql)
                .bind(&n.id)
                .bind(&n.dedupe_key)
                .bind(&n.origin)
                .bind(&n.source)
                .bind(&n.title)
                .bind(&n.summary)
                .bind(&n.article_url)
                .bind(&n.image_url)
                .bind(&n.symbols)
                .bind(n.published_at)
                .bind(&n.sentiment)
                .bind(n.sentiment_score)
                .bind(&n.analysis)
                .bind(&n.analyzer)
                .bind(n.created_at)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    })
}

/// Which of `keys` are stored already.
pub async fn known_keys(db: &Db, keys: &[String]) -> StoreResult<Vec<String>> {
    let mut known = Vec::new();
    let style = crate::db::Placeholders::of(db);
    for chunk in keys.chunks(200) {
        let mut sql = String::from("SELECT dedupe_key FROM news_items WHERE dedupe_key IN (");
        for i in 1..=chunk.len() {
            if i > 1 {
                sql.push_str(", ");
            }
            style.push(&mut sql, i);
        }
        sql.push(')');
        let found: Vec<String> = with_db!(db, pool => {
            let mut query = sqlx::query_scalar::<_, String>(&sql);
            for key in chunk {
                query = query.bind(key);
            }
            query.fetch_all(pool).await?
        });
        known.extend(found);
    }
    Ok(known)
}

/// Filters of a news listing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewsFilter {
    /// `bullish | bearish | neutral`.
    pub sentiment: Option<String>,
    /// Articles mentioning any of these tickers (upper case).
    pub symbols: Vec<String>,
}

fn where_clause(filter: &NewsFilter, first: usize) -> (String, Vec<String>) {
    let mut clauses = Vec::new();
    let mut binds = Vec::new();
    let mut n = first;
    if let Some(sentiment) = &filter.sentiment {
        clauses.push(format!("sentiment = ${n}"));
        binds.push(sentiment.clone());
        n += 1;
    }
    if !filter.symbols.is_empty() {
        let mut any = Vec::new();
        for symbol in &filter.symbols {
            // Whole entries of the comma list: ",AAPL," within ",AAPL,MSFT,".
            any.push(format!("(',' || symbols || ',') LIKE ${n}"));
            binds.push(format!("%,{symbol},%"));
            n += 1;
        }
        clauses.push(format!("({})", any.join(" OR ")));
    }
    let sql = if clauses.is_empty() { String::new() } else { format!("WHERE {}", clauses.join(" AND ")) };
    (sql, binds)
}

/// The newest articles matching `filter`, at most `limit`.
pub async fn newest(db: &Db, filter: &NewsFilter, limit: u32) -> StoreResult<Vec<NewsItem>> {
    let (clause, binds) = where_clause(filter, 1);
    let sql = format!("SELECT {COLUMNS} FROM news_items {clause} ORDER BY published_at DESC, id DESC LIMIT ${}", binds.len() + 1);
    Ok(with_db!(db, pool => {
        let mut query = sqlx::query_as::<_, NewsItem>(&sql);
        for b in &binds {
            query = query.bind(b);
        }
        query.bind(i64::from(limit)).fetch_all(pool).await?
    }))
}

/// How many articles match `filter`.
pub async fn count(db: &Db, filter: &NewsFilter) -> StoreResult<i64> {
    let (clause, binds) = where_clause(filter, 1);
    let sql = format!("SELECT COUNT(*) FROM news_items {clause}");
    Ok(with_db!(db, pool => {
        let mut query = sqlx::query_scalar::<_, i64>(&sql);
        for b in &binds {
            query = query.bind(b);
        }
        query.fetch_one(pool).await?
    }))
}

/// Articles about some symbol published since `since`, newest first, at most `limit` (for
/// sentiment by symbol).
pub async fn recent_tagged(db: &Db, since: DateTime<Utc>, limit: u32) -> StoreResult<Vec<NewsItem>> {
    let sql =
        format!("SELECT {COLUMNS} FROM news_items WHERE published_at >= $1 AND symbols <> '' ORDER BY published_at DESC, id DESC LIMIT $2");
    Ok(with_db!(db, pool => sqlx::query_as::<_, NewsItem>(&sql).bind(since).bind(i64::from(limit)).fetch_all(pool).await?))
}

/// A feed's conditional-request state.
#[derive(Clone, Debug, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct FeedState {
    pub url: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub last_polled_at: Option<DateTime<Utc>>,
    pub last_status: Option<i32>,
    pub last_error: Option<String>,
}

/// A feed's state, if it was polled before.
pub async fn feed_state(db: &Db, url: &str) -> StoreResult<Option<FeedState>> {
    Ok(with_db!(db, pool => {
        sqlx::query_as::<_, FeedState>("SELECT url, etag, last_modified, last_polled_at, last_status, last_error FROM news_feeds WHERE url = $1")
            .bind(url)
            .fetch_optional(pool)
            .await?
    }))
}

/// Records a poll of a feed.
pub async fn save_feed_state(db: &Db, state: &FeedState) -> StoreResult<()> {
    with_db!(db, pool => {
        sqlx::query(
            "INSERT INTO news_feeds (url, etag, last_modified, last_polled_at, last_status, last_error) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified, \
             last_polled_at = excluded.last_polled_at, last_status = excluded.last_status, last_error = excluded.last_error",
        )
        .bind(&state.url)
        .bind(&state.etag)
        .bind(&state.last_modified)
        .bind(state.last_polled_at)
        .bind(state.last_status)
        .bind(&state.last_error)
        .execute(pool)
        .await?;
    });
    Ok(())
}
