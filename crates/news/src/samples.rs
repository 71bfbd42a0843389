//! The bundled sample articles: the offline default, so the news page works with no network.

/// One bundled sample article. Every one is plainly labelled a sample (`source` is
/// "Strikeline sample") and written as generic market commentary, not as a report of fact.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct SampleArticle {
    /// The headline.
    pub title: String,
    /// Two or three sentences.
    pub summary: String,
    /// Always "Strikeline sample".
    pub source: String,
    /// The watchlist symbols it is about; empty for market-wide articles.
    pub symbols: Vec<String>,
    /// How long before "now" it is shown as published, in hours (1–96).
    pub hours_ago: u32,
}

/// The sample articles, from `data/samples.json` (compiled in), newest first.
pub fn sample_articles() -> Vec<SampleArticle> {
    // The file is checked by the tests; an unreadable one would give no samples, not a panic.
    let mut articles: Vec<SampleArticle> = serde_json::from_str(include_str!("../data/samples.json")).unwrap_or_default();
    articles.sort_by_key(|a| a.hours_ago);
    articles
}
