//! The built-in analysis of an article: its sentiment (the offline analyser) set against what
//! the market data says about the symbol it is about (RSI, trend, volatility) and any active
//! signal on it. Nothing is invented: every number in the reasoning is one of those inputs,
//! and with no symbol or no data the analysis says so and points to no trade.
//!
//! Pure: the grounding is read by the caller.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_sentiment::{Analysis as Sentiment, Sentiment as Label};
use utoipa::ToSchema;

use crate::foundation::vocab::{AnalysisRisk, Analyzer, NewsSentiment, TradeIdea};

/// What the market data says about the article's symbol.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Indicators {
    pub date: NaiveDate,
    pub close: f64,
    pub rsi14: Option<f64>,
    pub ema20: Option<f64>,
    pub ema50: Option<f64>,
    /// 20-day historical volatility, annualised (0.25 = 25%).
    pub hv20: Option<f64>,
}

/// An active signal on the symbol.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveSignal {
    pub signal_type: String,
    pub strategy: String,
    pub confidence: i64,
    pub strike: f64,
    pub expiration: NaiveDate,
}

/// Everything an analysis may rest on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grounding {
    pub symbol: Option<String>,
    pub indicators: Option<Indicators>,
    pub signal: Option<ActiveSignal>,
}

/// A news item's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewsAnalysis {
    pub signal_recommendation: TradeIdea,
    /// Percent, 0–100.
    pub confidence: u8,
    /// How long the idea is meant to hold, e.g. `1-2 weeks`.
    pub timeframe: String,
    pub risk_level: AnalysisRisk,
    /// Why, with the numbers it rests on.
    pub reasoning: String,
    /// What produced it.
    pub analyzer: Analyzer,
    pub analyzed_at: DateTime<Utc>,
}

/// The article's sentiment in the API's words.
pub fn sentiment_label(sentiment: &Sentiment) -> NewsSentiment {
    match sentiment.label {
        Label::Positive => NewsSentiment::Bullish,
        Label::Negative => NewsSentiment::Bearish,
        Label::Neutral => NewsSentiment::Neutral,
    }
}

fn risk_of(hv20: Option<f64>) -> AnalysisRisk {
    match hv20 {
        Some(v) if v < 0.25 => AnalysisRisk::Low,
        Some(v) if v < 0.45 => AnalysisRisk::Medium,
        Some(_) => AnalysisRisk::High,
        None => AnalysisRisk::Medium,
    }
}

fn idea_of(signal_type: &str) -> Option<TradeIdea> {
    match signal_type {
        "CALL" => Some(TradeIdea::Call),
        "PUT" => Some(TradeIdea::Put),
        "STRADDLE" => Some(TradeIdea::Straddle),
        _ => None,
    }
}

/// The built-in analysis of `sentiment` (of the article's text) grounded in `grounding`, at
/// `now`.
pub fn analyse(sentiment: &Sentiment, grounding: &Grounding, now: DateTime<Utc>) -> NewsAnalysis {
    let tone = sentiment_label(sentiment);
    let cues: Vec<String> = sentiment.cues.iter().take(3).map(|c| format!("\"{}\"", c.text)).collect();
    let tone_text = if cues.is_empty() {
        format!("The text reads {tone} (score {:+.2}).", sentiment.score)
    } else {
        format!("The text reads {tone} (score {:+.2}; cues {}).", sentiment.score, cues.join(", "))
    };
    let strength = sentiment.score.abs() * sentiment.confidence;
    let base = NewsAnalysis {
        signal_recommendation: TradeIdea::Hold,
        confidence: 0,
        timeframe: "n/a".into(),
        risk_level: risk_of(grounding.indicators.and_then(|i| i.hv20)),
        reasoning: String::new(),
        analyzer: Analyzer::Builtin,
        analyzed_at: now,
    };
    let Some(symbol) = grounding.symbol.as_deref() else {
        return NewsAnalysis {
            confidence: pct(30.0 + 30.0 * strength),
            reasoning: format!("{tone_text} It names no stock on the watchlist, so it points to no trade."),
            ..base
        };
    };
    let Some(ind) = grounding.indicators else {
        return NewsAnalysis {
            confidence: pct(30.0 + 30.0 * strength),
            reasoning: format!("{tone_text} There is no price history for {symbol} yet, so no trade is suggested."),
            ..base
        };
    };
    let mut facts = vec![format!("{symbol} closed at ${:.2} on {}", ind.close, ind.date)];
    if let Some(rsi) = ind.rsi14 {
        facts.push(format!("RSI(14) {rsi:.1}"));
    }
    let trend = match (ind.ema20, ind.ema50) {
        (Some(fast), Some(slow)) if fast > slow * 1.005 => {
            facts.push(format!("EMA(20) {fast:.2} above EMA(50) {slow:.2}"));
            1
        }
        (Some(fast), Some(slow)) if fast < slow * 0.995 => {
            facts.push(format!("EMA(20) {fast:.2} below EMA(50) {slow:.2}"));
            -1
        }
        _ => 0,
    };
    if let Some(hv) = ind.hv20 {
        facts.push(format!("20-day volatility {:.0}%", hv * 100.0));
    }
    let market = format!("{}.", facts.join(", "));

    // An active signal on the symbol is the strongest grounding: agree, or stand aside.
    if let Some(signal) = &grounding.signal
        && let Some(idea) = idea_of(&signal.signal_type)
    {
        let days = (signal.expiration - ind.date).num_days().max(0);
        let agrees = matches!(
            (idea, tone),
            (TradeIdea::Call, NewsSentiment::Bullish)
                | (TradeIdea::Put, NewsSentiment::Bearish)
                | (TradeIdea::Straddle, _)
                | (_, NewsSentiment::Neutral)
        );
        let signal_text = format!(
            "An active {} {} signal (strength {}/100) holds the ${:.2} strike to {}.",
            signal.strategy, signal.signal_type, signal.confidence, signal.strike, signal.expiration
        );
        return if agrees {
            NewsAnalysis {
                signal_recommendation: idea,
                confidence: pct(signal.confidence as f64 * (0.85 + 0.15 * strength)),
                timeframe: if days <= 14 { format!("{days} days, to expiry") } else { format!("{} weeks, to expiry", days / 7) },
                reasoning: format!("{tone_text} {market} {signal_text} The article does not contradict it."),
                ..base
            }
        } else {
            NewsAnalysis {
                confidence: pct(40.0 + 20.0 * strength),
                timeframe: "wait for the next signal".into(),
                reasoning: format!("{tone_text} {market} {signal_text} The article points the other way, so no new position is suggested."),
                ..base
            }
        };
    }

    let rsi = ind.rsi14.unwrap_or(50.0);
    let (idea, why) = match tone {
        NewsSentiment::Bullish if rsi >= 70.0 => (
            TradeIdea::Hold,
            format!("Bullish news, but RSI {rsi:.1} is overbought: buying calls now pays for a move that may have happened."),
        ),
        NewsSentiment::Bullish if trend < 0 => {
            (TradeIdea::Hold, "Bullish news against a falling trend: wait for the trend to turn.".to_owned())
        }
        NewsSentiment::Bullish => (TradeIdea::Call, "Bullish news with room on RSI and no falling trend.".to_owned()),
        NewsSentiment::Bearish if rsi <= 30.0 => {
            (TradeIdea::Hold, format!("Bearish news, but RSI {rsi:.1} is oversold: puts now pay for a move that may have happened."))
        }
        NewsSentiment::Bearish if trend > 0 => {
            (TradeIdea::Hold, "Bearish news against a rising trend: wait for the trend to turn.".to_owned())
        }
        NewsSentiment::Bearish => (TradeIdea::Put, "Bearish news with room on RSI and no rising trend.".to_owned()),
        NewsSentiment::Neutral if ind.hv20.is_some_and(|v| v >= 0.35) => {
            (TradeIdea::Straddle, "Neutral news on a volatile stock: a straddle profits from a large move either way.".to_owned())
        }
        NewsSentiment::Neutral => (TradeIdea::Hold, "Neutral news on a calm stock: no edge either way.".to_owned()),
    };
    let confidence =
        if idea == TradeIdea::Hold { 35.0 + 20.0 * strength } else { 45.0 + 35.0 * strength + if trend != 0 { 5.0 } else { 0.0 } };
    NewsAnalysis {
        signal_recommendation: idea,
        confidence: pct(confidence),
        timeframe: if idea == TradeIdea::Hold { "n/a".into() } else { "1-3 weeks".into() },
        reasoning: format!("{tone_text} {market} {why} No active signal on {symbol}."),
        ..base
    }
}

fn pct(value: f64) -> u8 {
    value.round().clamp(0.0, 100.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grounding(rsi: f64, ema20: f64, ema50: f64, hv20: f64, signal: Option<ActiveSignal>) -> Grounding {
        Grounding {
            symbol: Some("AAPL".into()),
            indicators: Some(Indicators {
                date: NaiveDate::from_ymd_opt(2026, 11, 24).expect("date"),
                close: 191.24,
                rsi14: Some(rsi),
                ema20: Some(ema20),
                ema50: Some(ema50),
                hv20: Some(hv20),
            }),
            signal,
        }
    }

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-25T15:00:00Z").expect("time").with_timezone(&Utc)
    }

    #[test]
    fn bullish_news_with_room_and_trend_suggests_a_call_citing_the_numbers() {
        let text = strikeline_sentiment::analyse("Apple beats estimates and raises guidance as iPhone sales surge");
        let a = analyse(&text, &grounding(55.0, 190.0, 180.0, 0.22, None), now());
        assert_eq!((a.signal_recommendation, a.risk_level, a.analyzer), (TradeIdea::Call, AnalysisRisk::Low, Analyzer::Builtin));
        assert!(a.confidence >= 50, "{a:?}");
        for number in ["191.24", "RSI(14) 55.0", "EMA(20) 190.00", "22%"] {
            assert!(a.reasoning.contains(number), "{number} in {}", a.reasoning);
        }
    }

    #[test]
    fn overbought_or_against_the_trend_is_no_trade() {
        let text = strikeline_sentiment::analyse("Apple beats estimates and raises guidance as iPhone sales surge");
        assert_eq!(analyse(&text, &grounding(78.0, 190.0, 180.0, 0.22, None), now()).signal_recommendation, TradeIdea::Hold);
        assert_eq!(analyse(&text, &grounding(55.0, 170.0, 180.0, 0.22, None), now()).signal_recommendation, TradeIdea::Hold);
        let bad = strikeline_sentiment::analyse("Apple misses estimates and cuts guidance; shares plunge");
        assert_eq!(analyse(&bad, &grounding(55.0, 175.0, 180.0, 0.5, None), now()).signal_recommendation, TradeIdea::Put);
        assert_eq!(analyse(&bad, &grounding(55.0, 175.0, 180.0, 0.5, None), now()).risk_level, AnalysisRisk::High);
    }

    #[test]
    fn an_active_signal_leads_when_the_news_agrees_and_holds_when_it_does_not() {
        let signal = ActiveSignal {
            signal_type: "PUT".into(),
            strategy: "Momentum".into(),
            confidence: 80,
            strike: 185.0,
            expiration: NaiveDate::from_ymd_opt(2026, 12, 18).expect("date"),
        };
        let bad = strikeline_sentiment::analyse("Apple misses estimates and cuts guidance; shares plunge");
        let a = analyse(&bad, &grounding(55.0, 190.0, 180.0, 0.3, Some(signal.clone())), now());
        assert_eq!(a.signal_recommendation, TradeIdea::Put);
        assert!(a.reasoning.contains("Momentum PUT signal (strength 80/100)") && a.timeframe.contains("weeks"));
        let good = strikeline_sentiment::analyse("Apple beats estimates and raises guidance as iPhone sales surge");
        let b = analyse(&good, &grounding(55.0, 190.0, 180.0, 0.3, Some(signal)), now());
        assert_eq!(b.signal_recommendation, TradeIdea::Hold);
        assert!(b.reasoning.contains("the other way"));
    }

    #[test]
    fn without_a_symbol_or_data_there_is_no_trade_and_it_says_why() {
        let text = strikeline_sentiment::analyse("Stocks rally as inflation cools");
        let none = analyse(&text, &Grounding::default(), now());
        assert_eq!(none.signal_recommendation, TradeIdea::Hold);
        assert!(none.reasoning.contains("names no stock"));
        let no_data = analyse(&text, &Grounding { symbol: Some("ZZZ".into()), ..Grounding::default() }, now());
        assert!(no_data.reasoning.contains("no price history for ZZZ"));
    }
}
