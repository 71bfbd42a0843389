//! News: one article kept once, however many feeds and refreshes bring it.

use strikeline_store::Db;
use strikeline_store::news::{self, NewsFilter, NewsItem};

use crate::common::t0;

crate::on_both_engines!(an_article_is_kept_once_by_its_key_even_from_parallel_refreshes);

fn item(key: &str, source: &str) -> NewsItem {
    NewsItem {
        id: uuid::Uuid::new_v4().to_string(),
        dedupe_key: key.into(),
        origin: "feed".into(),
        source: source.into(),
        title: format!("Headline {key}"),
        summary: "Summary".into(),
        article_url: Some(format!("https://news.example.com/{key}")),
        image_url: None,
        symbols: "AAPL".into(),
        published_at: t0(),
        sentiment: "neutral".into(),
        sentiment_score: 0.0,
        analysis: "{}".into(),
        analyzer: "builtin".into(),
        created_at: t0(),
    }
}

async fn an_article_is_kept_once_by_its_key_even_from_parallel_refreshes(db: Db) {
    // Two feeds carry the same article in one batch: it is stored once.
    assert_eq!(news::insert_new(&db, &[item("a", "Feed One"), item("a", "Feed Two"), item("b", "Feed One")]).await.expect("insert"), 2);
    assert_eq!(news::insert_new(&db, &[item("a", "Feed Three")]).await.expect("insert"), 0, "a later refresh adds nothing");
    // Six refreshes at once bring the same new article.
    let refreshes = (0..6).map(|n| {
        let db = db.clone();
        tokio::spawn(async move { news::insert_new(&db, &[item("c", &format!("Feed {n}"))]).await.expect("insert") })
    });
    let mut added = 0;
    for refresh in refreshes {
        added += refresh.await.expect("task");
    }
    assert_eq!(added, 1, "exactly one refresh stores it");
    assert_eq!(news::count(&db, &NewsFilter::default()).await.expect("count"), 3);
    let known = news::known_keys(&db, &["a".into(), "c".into(), "z".into()]).await.expect("keys");
    assert_eq!(known.len(), 2, "{known:?}");
    assert!(known.contains(&"a".to_owned()) && known.contains(&"c".to_owned()));
}
