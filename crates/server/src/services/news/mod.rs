//! News: articles from configured RSS/Atom feeds (polled with `If-None-Match` and
//! `If-Modified-Since`), or, with none configured, the bundled sample articles (labelled as
//! samples); and market notes computed from stored prices. Each article is tagged with the
//! watchlist symbols it names, stored once (by its normalised URL or title), and analysed when
//! stored: sentiment by the offline analyser, grounded in the symbol's indicators and signals.
//! See docs/news.md.

pub mod analysis;
pub mod feeds;
pub mod written;

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use strikeline_news::{Bar, Company};
use strikeline_store::market::{self, StockRow};
use strikeline_store::news::{self as store, NewsItem};

use crate::foundation::error::Result;
use crate::foundation::money::dollars;
use crate::foundation::state::AppState;
use crate::foundation::vocab::NewsOrigin;
use analysis::{ActiveSignal, Grounding, Indicators};

/// What a refresh added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Refreshed {
    pub articles: u64,
    pub notes: u64,
}

/// An article before it is stored.
pub struct Draft {
    pub origin: NewsOrigin,
    pub source: String,
    pub title: String,
    pub summary: String,
    pub url: Option<String>,
    pub image_url: Option<String>,
    pub published_at: DateTime<Utc>,
    /// Tickers, the main one first; tagged from the text when empty.
    pub symbols: Vec<String>,
}

/// Brings the news up to date at `now`: the samples (no feeds configured) or the feeds that are
/// due, then today's market notes. A feed that fails is logged and retried next time.
pub async fn refresh(state: &AppState, now: DateTime<Utc>) -> Result<Refreshed> {
    let mut drafts = Vec::new();
    if state.config.news.feeds.is_empty() {
        let known = store::count(&state.db, &store::NewsFilter::default()).await?;
        if known == 0 {
            drafts.extend(samples(now));
        }
    } else {
        drafts.extend(feeds::poll_due(state, now).await?);
    }
    let articles = store_drafts(state, drafts, now).await?;
    let notes = store_drafts(state, market_notes(state, now).await?, now).await?;
    Ok(Refreshed { articles, notes })
}

fn samples(now: DateTime<Utc>) -> Vec<Draft> {
    strikeline_news::sample_articles()
        .into_iter()
        .map(|s| Draft {
            origin: NewsOrigin::Sample,
            source: s.source,
            title: s.title,
            summary: s.summary,
            url: None,
            image_url: None,
            published_at: now - Duration::hours(i64::from(s.hours_ago)),
            symbols: s.symbols,
        })
        .collect()
}

/// The stored setting naming the session the market notes were last computed for.
const NOTES_THROUGH: &str = "news_notes_through";

/// Notes about the last completed session of every watchlist symbol, computed once per
/// session (the bars do not change between refreshes).
async fn market_notes(state: &AppState, now: DateTime<Utc>) -> Result<Vec<Draft>> {
    let through = state.market.last_completed_day(now);
    let done = through.to_string();
    if strikeline_store::automation::get(&state.db, NOTES_THROUGH).await?.as_deref() == Some(done.as_str()) {
        return Ok(Vec::new());
    }
    let mut drafts = Vec::new();
    for stock in market::list_stocks(&state.db).await? {
        let bars: Vec<Bar> = market::last_bars(&state.db, &stock.symbol, through, 260)
            .await?
            .into_iter()
            .map(|b| Bar {
                date: b.day,
                high: dollars(b.high_cents),
                low: dollars(b.low_cents),
                close: dollars(b.close_cents),
                volume: b.volume as f64,
            })
            .collect();
        for note in strikeline_news::market_notes(&stock.symbol, short_name(&stock.company_name), &bars) {
            // Published at the session's close (16:00 New York, 21:00 UTC in winter: close enough to order by).
            let published = note.date.and_hms_opt(21, 0, 0).map_or(now, |t| t.and_utc()).min(now);
            drafts.push(Draft {
                origin: NewsOrigin::MarketNote,
                source: "Strikeline market notes".into(),
                title: note.title,
                summary: note.summary,
                url: None,
                image_url: None,
                published_at: published,
                symbols: vec![stock.symbol.clone()],
            });
        }
    }
    strikeline_store::automation::set(&state.db, NOTES_THROUGH, &done, now).await?;
    Ok(drafts)
}

/// A company's name without its legal suffix, for headlines.
fn short_name(name: &str) -> &str {
    let name = name.strip_prefix("The ").unwrap_or(name);
    for suffix in [", Inc.", " Inc.", " Corporation", " Incorporated", " Company", " & Co.", ", Co.", " Co.", " plc", " Ltd."] {
        if let Some(short) = name.strip_suffix(suffix) {
            return short;
        }
    }
    name
}

/// Tags, de-duplicates, analyses and stores drafts; how many were new.
pub async fn store_drafts(state: &AppState, drafts: Vec<Draft>, now: DateTime<Utc>) -> Result<u64> {
    if drafts.is_empty() {
        return Ok(0);
    }
    let keyed: Vec<(String, Draft)> = drafts
        .into_iter()
        .map(|d| {
            let key = match d.origin {
                NewsOrigin::MarketNote => format!("note:{}:{}", d.symbols.join(","), d.title),
                _ => strikeline_news::dedupe_key(d.url.as_deref(), &d.title),
            };
            (key, d)
        })
        .collect();
    let known: std::collections::HashSet<String> =
        store::known_keys(&state.db, &keyed.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>()).await?.into_iter().collect();
    let mut seen = std::collections::HashSet::new();
    let fresh: Vec<(String, Draft)> = keyed.into_iter().filter(|(key, _)| !known.contains(key) && seen.insert(key.clone())).collect();
    // Most refreshes bring nothing new: read the watchlist, signals and indicators only for news.
    if fresh.is_empty() {
        return Ok(0);
    }
    let stocks = market::list_stocks(&state.db).await?;
    let companies: Vec<Company> = stocks.iter().map(|s| Company { symbol: &s.symbol, name: &s.company_name }).collect();
    let mut grounding = GroundingCache::new(state, &stocks, now).await?;
    let model = match state.config.ai.provider {
        crate::foundation::config::AiProvider::Openai => crate::foundation::llm::ChatClient::new(&state.config.ai).ok(),
        crate::foundation::config::AiProvider::Builtin => None,
    };
    let mut items = Vec::new();
    for (key, draft) in fresh {
        let symbols = if draft.symbols.is_empty() {
            strikeline_news::tag_symbols(&format!("{}\n{}", draft.title, draft.summary), &companies)
        } else {
            draft.symbols
        };
        let sentiment = strikeline_sentiment::analyse(&format!("{}. {}", draft.title, draft.summary));
        let ground = grounding.of(state, symbols.first().map(String::as_str)).await?;
        let builtin = analysis::analyse(&sentiment, &ground, now);
        let result = match &model {
            Some(client) => written::analysis(state, client, &draft.title, &draft.summary, &ground, &builtin, now).await.unwrap_or(builtin),
            None => builtin,
        };
        items.push(NewsItem {
            id: uuid::Uuid::new_v4().to_string(),
            dedupe_key: key,
            origin: draft.origin.as_str().to_owned(),
            source: draft.source,
            title: draft.title,
            summary: draft.summary,
            article_url: draft.url,
            image_url: draft.image_url,
            symbols: symbols.join(","),
            published_at: draft.published_at,
            sentiment: analysis::sentiment_label(&sentiment).as_str().to_owned(),
            sentiment_score: sentiment.score,
            analysis: serde_json::to_string(&result).map_err(anyhow::Error::from)?,
            analyzer: result.analyzer.as_str().to_owned(),
            created_at: now,
        });
    }
    let added = store::insert_new(&state.db, &items).await?;
    if added > 0 {
        state.events.publish(crate::foundation::events::Topic::News);
    }
    Ok(added)
}

/// Each symbol's grounding, read once per refresh.
struct GroundingCache {
    through: chrono::NaiveDate,
    known: std::collections::HashSet<String>,
    signals: HashMap<String, ActiveSignal>,
    read: HashMap<String, Grounding>,
}

impl GroundingCache {
    async fn new(state: &AppState, stocks: &[StockRow], now: DateTime<Utc>) -> Result<GroundingCache> {
        let mut signals: HashMap<String, ActiveSignal> = HashMap::new();
        for row in strikeline_store::signals::active_automated(&state.db).await? {
            let s = row.signal;
            let stronger = signals.get(&s.symbol).is_none_or(|held| held.confidence < s.confidence);
            if stronger {
                signals.insert(
                    s.symbol.clone(),
                    ActiveSignal {
                        signal_type: s.signal_type,
                        strategy: s.strategy,
                        confidence: s.confidence,
                        strike: dollars(s.strike_cents),
                        expiration: s.expiration_date,
                    },
                );
            }
        }
        Ok(GroundingCache {
            through: state.market.last_completed_day(now),
            known: stocks.iter().map(|s| s.symbol.clone()).collect(),
            signals,
            read: HashMap::new(),
        })
    }

    async fn of(&mut self, state: &AppState, symbol: Option<&str>) -> Result<Grounding> {
        let Some(symbol) = symbol.filter(|s| self.known.contains(*s)) else {
            return Ok(Grounding { symbol: symbol.map(str::to_owned), ..Grounding::default() });
        };
        if let Some(g) = self.read.get(symbol) {
            return Ok(g.clone());
        }
        let indicators = state.market.warm_state(&state.db, symbol, self.through).await?.and_then(|engine| {
            engine.latest().map(|s| Indicators {
                date: s.date,
                close: s.close,
                rsi14: s.rsi14,
                ema20: s.ema20,
                ema50: s.ema50,
                hv20: s.hv20,
            })
        });
        let g = Grounding { symbol: Some(symbol.to_owned()), indicators, signal: self.signals.get(symbol).cloned() };
        self.read.insert(symbol.to_owned(), g.clone());
        Ok(g)
    }
}
