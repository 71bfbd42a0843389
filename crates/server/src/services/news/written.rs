//! News analyses written by the configured OpenAI-compatible model: given the article and the
//! same facts the built-in analysis rests on, asked for strict JSON, and kept only when every
//! number in its reasoning is one of those facts. Within the server-wide `ai_news` budget; the
//! caller keeps the built-in analysis otherwise.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;

use super::analysis::{Grounding, NewsAnalysis};
use crate::foundation::limits;
use crate::foundation::llm::{ChatClient, numbers_grounded};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AnalysisRisk, Analyzer, TradeIdea};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    signal_recommendation: TradeIdea,
    confidence: u8,
    timeframe: String,
    risk_level: AnalysisRisk,
    reasoning: String,
}

const SYSTEM: &str = "You analyse one news item for US equity options traders. Use only the facts given: \
    never add a number, price, date or percentage that is not in them, and never claim knowledge beyond them. \
    Recommend CALL, PUT or STRADDLE only when the facts support it, else HOLD. Answer with the JSON asked for.";

/// The model's analysis, or `None` (over budget, failed, or not grounded in the facts).
pub async fn analysis(
    state: &AppState,
    client: &ChatClient,
    title: &str,
    summary: &str,
    grounding: &Grounding,
    builtin: &NewsAnalysis,
    now: DateTime<Utc>,
) -> Option<NewsAnalysis> {
    limits::hit(state, limits::AI_NEWS, "server", now).await.ok()?;
    let facts = format!("{title}\n{summary}\n{}", builtin.reasoning);
    let user = format!(
        "Article: {title}\n{summary}\n\nSymbol: {}\nFacts from Strikeline's market data and signals: {}\n\n\
         Give signalRecommendation (CALL, PUT, STRADDLE or HOLD), confidence (0-100), timeframe, riskLevel (LOW, MEDIUM or HIGH) \
         and reasoning (two to four sentences citing the facts).",
        grounding.symbol.as_deref().unwrap_or("none"),
        builtin.reasoning
    );
    let schema = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["signalRecommendation", "confidence", "timeframe", "riskLevel", "reasoning"],
        "properties": {
            "signalRecommendation": {"type": "string", "enum": ["CALL", "PUT", "STRADDLE", "HOLD"]},
            "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
            "timeframe": {"type": "string"},
            "riskLevel": {"type": "string", "enum": ["LOW", "MEDIUM", "HIGH"]},
            "reasoning": {"type": "string"}
        }
    });
    let answer: Answer = match client.structured(SYSTEM, &user, "news_analysis", schema).await {
        Ok(answer) => answer,
        Err(error) => {
            tracing::warn!(%error, "model analysis failed; the built-in one stands");
            return None;
        }
    };
    let trade_without_data = grounding.indicators.is_none() && answer.signal_recommendation != TradeIdea::Hold;
    if answer.confidence > 100 || trade_without_data || !numbers_grounded(&format!("{} {}", answer.reasoning, answer.timeframe), &facts) {
        tracing::warn!("model analysis not grounded in the facts; the built-in one stands");
        return None;
    }
    Some(NewsAnalysis {
        signal_recommendation: answer.signal_recommendation,
        confidence: answer.confidence,
        timeframe: answer.timeframe.chars().take(60).collect(),
        risk_level: answer.risk_level,
        reasoning: answer.reasoning.chars().take(1200).collect(),
        analyzer: Analyzer::Openai,
        analyzed_at: now,
    })
}
