//! AI recommendations: trade, portfolio and risk advice computed from the user's own book
//! (positions, their Greeks and expiries, concentration, drawdown), the signals their plan
//! shows and the news sentiment on each symbol. Every recommendation carries its reasoning
//! with the numbers it rests on; nothing is invented, and an empty book with no signals gets
//! no advice rather than filler.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::Serialize;
use strikeline_engine::DisplayMoney;
use strikeline_engine::portfolio::{self as model, RiskInputs};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use super::portfolio_valuation::book;
use crate::foundation::entitlements::Entitlements;
use crate::foundation::error::Result;
use crate::foundation::money::{dollars, round2};
use crate::foundation::state::AppState;
use crate::foundation::vocab::{Analyzer, RecommendationKind, RecommendationRiskLevel as RiskBand};

/// One recommendation.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    /// Stable for the same advice on the same day (`{type}-{action}-{symbol}-{date}`).
    pub id: String,
    #[serde(rename = "type")]
    pub kind: RecommendationKind,
    pub symbol: Option<String>,
    /// Words joined by underscores, e.g. `BUY_CALL`, `CLOSE_OR_ROLL`, `RAISE_LIMIT` (no trade idea
    /// fits the maximum position size).
    pub action: String,
    pub title: String,
    /// One line.
    pub description: String,
    /// Why, with the numbers.
    pub reasoning: String,
    /// What to do.
    pub suggestion: String,
    pub suggested_strike: Option<f64>,
    pub expiration: Option<NaiveDate>,
    pub timeframe: String,
    pub risk_level: RiskBand,
    /// 0–1.
    pub confidence: f64,
    pub analyzer: Analyzer,
    pub created_at: DateTime<Utc>,
}

/// Days before expiry at which a position is flagged.
const NEAR_EXPIRY_DAYS: i64 = 7;
/// Trade ideas offered at most.
const MAX_TRADES: usize = 5;

/// Recent news sentiment per symbol: mean score and articles, over the last three days.
async fn sentiment_by_symbol(state: &AppState, now: DateTime<Utc>) -> Result<HashMap<String, (f64, usize)>> {
    let mut sums: HashMap<String, (f64, usize)> = HashMap::new();
    for item in strikeline_store::news::recent_tagged(&state.db, now - Duration::days(3), 500).await? {
        if let Some(symbol) = item.symbols.split(',').next().filter(|s| !s.is_empty()) {
            let entry = sums.entry(symbol.to_owned()).or_default();
            entry.0 += item.sentiment_score;
            entry.1 += 1;
        }
    }
    Ok(sums.into_iter().map(|(s, (sum, n))| (s, (sum / n as f64, n))).collect())
}

fn id(kind: RecommendationKind, action: &str, symbol: Option<&str>, day: NaiveDate) -> String {
    format!("{}-{}-{}-{day}", kind.as_str(), action.to_lowercase(), symbol.unwrap_or("all").to_lowercase())
}

/// The recommendations for `user` at `now`, strongest first within each type.
pub async fn recommend(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Vec<Recommendation>> {
    let today = state.market.today(now);
    let b = book(state, user, now).await?;
    let sentiment = sentiment_by_symbol(state, now).await?;
    let capital = dollars(user.investment_capital_cents);
    let money = crate::foundation::money::display_money(state, user).await;
    let mut out = Vec::new();

    // Risk: the portfolio's own risk model, factor by factor.
    let history = strikeline_store::positions::value_history(&state.db, &user.account_id).await?;
    let summary = model::summary(&b.closed, &b.marks, b.open_commissions, capital);
    let peak = history.iter().map(|(_, v)| dollars(*v)).fold(summary.total_value, f64::max);
    let drawdown = if peak > 0.0 { (summary.total_value / peak - 1.0).min(0.0) } else { 0.0 };
    let risk = model::risk_assessment(&RiskInputs {
        capital,
        max_position_size: dollars(user.max_position_size_cents),
        positions: b.risk.clone(),
        drawdown,
        money,
    });
    let mut above: Vec<_> = risk.factors.iter().filter(|f| f.score > 0.0).collect();
    above.sort_by(|a, b| (b.score * b.weight).total_cmp(&(a.score * a.weight)));
    for (i, factor) in above.iter().enumerate() {
        let (Some(reason), Some(suggestion)) = (risk.risk_factors.get(i), risk.recommendations.get(i)) else { break };
        let action = format!("REDUCE_{}", factor.name.to_uppercase());
        out.push(Recommendation {
            id: id(RecommendationKind::Risk, &action, None, today),
            kind: RecommendationKind::Risk,
            symbol: None,
            title: format!("Risk: {}", factor.name.replace('_', " ")),
            description: reason.clone(),
            reasoning: format!(
                "{reason} The portfolio's risk score is {} of 100 ({}).",
                risk.risk_score,
                risk.risk_level.as_str().replace('_', " ")
            ),
            suggestion: suggestion.clone(),
            action,
            suggested_strike: None,
            expiration: None,
            timeframe: "now".into(),
            risk_level: risk.risk_level.into(),
            confidence: round2((0.5 + factor.score / 200.0).min(0.95)),
            analyzer: Analyzer::Builtin,
            created_at: now,
        });
    }

    // Portfolio: positions close to expiry, and held positions the news now argues against.
    for (i, v) in b.open.iter().enumerate() {
        let Some(symbol) = b.open_symbols.get(i) else { continue };
        let pnl = v.current_value - v.total_cost;
        if v.days_to_expiry <= NEAR_EXPIRY_DAYS {
            out.push(Recommendation {
                id: id(RecommendationKind::Portfolio, "CLOSE_OR_ROLL", Some(symbol), today),
                kind: RecommendationKind::Portfolio,
                symbol: Some(symbol.clone()),
                action: "CLOSE_OR_ROLL".into(),
                title: format!("{symbol} expires in {}", plural(v.days_to_expiry, "day")),
                description: format!(
                    "The {symbol} position expires in {} with P&L {}.",
                    plural(v.days_to_expiry, "day"),
                    money.format(pnl)
                ),
                reasoning: format!(
                    "It is worth {} against {} paid, and time decay ({} a day) speeds up in the last week.",
                    money.format(v.current_value),
                    money.format(v.total_cost),
                    money.format(v.greeks.theta)
                ),
                suggestion: if pnl >= 0.0 {
                    "Take the gain, or roll to a later expiry to keep the view.".into()
                } else {
                    "Close to keep what is left, unless you expect the move within days.".into()
                },
                suggested_strike: None,
                expiration: None,
                timeframe: plural(v.days_to_expiry, "day"),
                risk_level: if v.days_to_expiry <= 2 { RiskBand::High } else { RiskBand::Moderate },
                confidence: 0.8,
                analyzer: Analyzer::Builtin,
                created_at: now,
            });
        }
        if let Some((score, n)) = sentiment.get(symbol) {
            let long = v.greeks.delta > 0.0;
            if (long && *score < -0.25) || (!long && *score > 0.25) {
                let tone = if *score < 0.0 { "bearish" } else { "bullish" };
                out.push(Recommendation {
                    id: id(RecommendationKind::Portfolio, "REVIEW_POSITION", Some(symbol), today),
                    kind: RecommendationKind::Portfolio,
                    symbol: Some(symbol.clone()),
                    action: "REVIEW_POSITION".into(),
                    title: format!("News on {symbol} runs against your position"),
                    description: format!("{} on {symbol} read {tone} (mean score {score:+.2}).", plural(*n, "recent article")),
                    reasoning: format!(
                        "Your {symbol} position has delta {:+.2} ({} the stock) while the last three days' news reads {tone}. P&L so far {}.",
                        v.greeks.delta,
                        if long { "gains when it rises" } else { "gains when it falls" },
                        money.format(pnl)
                    ),
                    suggestion: "Check the articles on /news; tighten the stop or reduce the size if the story changes your view.".into(),
                    suggested_strike: None,
                    expiration: None,
                    timeframe: "this week".into(),
                    risk_level: RiskBand::Moderate,
                    confidence: round2((0.5 + score.abs() / 2.0).min(0.85)),
                    analyzer: Analyzer::Builtin,
                    created_at: now,
                });
            }
        }
    }

    // Trade: active signals the plan shows, in the user's strategies, not held, that the news does not contradict.
    let held: HashSet<&str> = b.open_symbols.iter().map(String::as_str).collect();
    let preferred: Vec<&str> = user.preferred_strategies.split(',').map(str::trim).collect();
    let active = strikeline_store::signals::active_automated(&state.db).await?;
    let since = active.iter().map(|r| r.signal.issued_on).min().unwrap_or(today);
    let viewer = crate::services::visibility::Viewer::of(state, user, since, now).await?;
    let limit = dollars(user.max_position_size_cents);
    let mut ideas = Vec::new();
    for row in active {
        if !viewer.unlocks(&row.signal, row.day_rank) {
            continue;
        }
        let s = row.signal;
        if held.contains(s.symbol.as_str()) || !preferred.contains(&s.strategy.as_str()) {
            continue;
        }
        let tone = sentiment.get(&s.symbol).copied();
        let agreement = match (s.signal_type.as_str(), tone) {
            ("CALL", Some((score, _))) => score,
            ("PUT", Some((score, _))) => -score,
            _ => 0.0,
        };
        if agreement < -0.25 {
            continue;
        }
        let confidence = round2((s.confidence as f64 / 100.0 * (1.0 + agreement * 0.2)).clamp(0.05, 0.95));
        let cost = contract_cost(dollars(s.entry_cents));
        let sessions_left = state.market.calendar.trading_days_between(today, s.expiration_date);
        ideas.push(Idea { affordable: cost <= limit, cost, confidence, signal: s, sessions_left, tone });
    }
    // What the account can take first, then the strongest.
    ideas.sort_by(|a, b| b.affordable.cmp(&a.affordable).then(b.confidence.total_cmp(&a.confidence)));
    if let Some(cheapest) = ideas.iter().map(|i| i.cost).min_by(f64::total_cmp).filter(|&cost| cost > limit) {
        out.push(nothing_fits(ideas.len(), cheapest, limit, money, today, now));
    }
    for idea in ideas.into_iter().take(MAX_TRADES) {
        out.push(trade_idea(idea, capital, limit, money, today, now));
    }
    if state.config.ai.provider == crate::foundation::config::AiProvider::Openai {
        written_by_model(state, user, &mut out, now).await;
    }
    Ok(out)
}

/// A trade idea before it is written up.
struct Idea {
    /// One contract costs at most the maximum position size.
    affordable: bool,
    /// One contract's premium, dollars.
    cost: f64,
    confidence: f64,
    signal: strikeline_store::signals::SignalRow,
    /// Sessions from today to the expiry, the expiry included.
    sessions_left: i64,
    /// Mean sentiment and articles over the last three days.
    tone: Option<(f64, usize)>,
}

/// What one contract costs at `premium` dollars a share.
fn contract_cost(premium: f64) -> f64 {
    premium * model::CONTRACT_MULTIPLIER
}

/// A date as the app writes it: "Dec 18, 2026".
fn long_date(day: NaiveDate) -> String {
    day.format("%b %-d, %Y").to_string()
}

/// The one sentence when no idea fits the maximum position size: the smallest limit that
/// would allow one.
fn nothing_fits(count: usize, cheapest: f64, limit: f64, money: DisplayMoney, today: NaiveDate, now: DateTime<Utc>) -> Recommendation {
    let ideas = if count == 1 { "Today's trade idea costs".to_owned() } else { format!("All {count} of today's trade ideas cost") };
    Recommendation {
        id: id(RecommendationKind::Trade, "RAISE_LIMIT", None, today),
        kind: RecommendationKind::Trade,
        symbol: None,
        action: "RAISE_LIMIT".into(),
        title: "No trade idea fits your maximum position size".into(),
        description: format!("{ideas} more than your maximum position size of {} for one contract.", money.format(limit)),
        reasoning: format!(
            "{ideas} more than {} for one contract; the cheapest costs {}. Strikeline only suggests positions within your limit.",
            money.format(limit),
            money.format(cheapest)
        ),
        suggestion: format!(
            "A maximum position size of at least {} (Settings › Investment profile) would allow the cheapest idea; otherwise wait for cheaper ones.",
            money.format(cheapest)
        ),
        suggested_strike: None,
        expiration: None,
        timeframe: "now".into(),
        risk_level: RiskBand::Low,
        confidence: 0.9,
        analyzer: Analyzer::Builtin,
        created_at: now,
    }
}

/// Premium at risk, as a share of the capital, from which an idea is at least moderate and high.
const PREMIUM_AT_RISK: (f64, f64) = (0.05, 0.10);
/// Sessions to expiry under which an idea is high risk, and under which at least moderate.
const EXPIRY_SESSIONS: (i64, i64) = (3, 10);

/// How risky a trade idea is, as the worst of three measures (docs/risk.md, section 6):
/// the signal's strength (under 55 high, under 75 moderate), the sessions left to expiry
/// (under 3 high, under 10 moderate: time decay takes most of a short option's premium in its
/// last days) and the premium at risk in the contracts the limit allows, as a share of the
/// capital (10% high, 5% moderate; all of it can be lost).
fn idea_risk(strength: i64, sessions_left: i64, premium_at_risk: f64, capital: f64) -> RiskBand {
    let band = |high: bool, moderate: bool| {
        if high {
            RiskBand::High
        } else if moderate {
            RiskBand::Moderate
        } else {
            RiskBand::Low
        }
    };
    let share = if capital > 0.0 { premium_at_risk / capital } else { f64::INFINITY };
    let by_strength = band(strength < 55, strength < 75);
    let by_expiry = band(sessions_left < EXPIRY_SESSIONS.0, sessions_left < EXPIRY_SESSIONS.1);
    let by_premium = band(share >= PREMIUM_AT_RISK.1, share >= PREMIUM_AT_RISK.0);
    by_strength.max(by_expiry).max(by_premium)
}

/// An idea written up: contract terms in dollars (they are never converted), what it costs
/// and the limit in the user's currency.
fn trade_idea(idea: Idea, capital: f64, limit: f64, money: DisplayMoney, today: NaiveDate, now: DateTime<Utc>) -> Recommendation {
    let Idea { affordable, cost, confidence, signal: s, sessions_left, tone } = idea;
    let action = format!("BUY_{}", s.signal_type);
    let news = match tone {
        Some((score, n)) => format!(" News over the last three days: {}, mean sentiment {score:+.2}.", plural(n, "article")),
        None => " No recent news on it.".to_owned(),
    };
    let contracts = if cost > 0.0 { (limit / cost).floor().max(0.0) } else { 0.0 };
    Recommendation {
        id: id(RecommendationKind::Trade, &action, Some(&s.symbol), today),
        kind: RecommendationKind::Trade,
        symbol: Some(s.symbol.clone()),
        title: format!("{} {} {} · {}", s.symbol, s.signal_type, money.term(dollars(s.strike_cents)), long_date(s.expiration_date)),
        description: format!("{} signal, strength {}/100.", s.strategy, s.confidence),
        reasoning: format!(
            "{} Entry {} per share ({} a contract), target {}, stop {}.{news}",
            s.reasoning,
            money.term(dollars(s.entry_cents)),
            money.format(cost),
            money.term(dollars(s.target_cents)),
            money.term(dollars(s.stop_cents))
        ),
        suggestion: if affordable {
            let n = contracts as i64;
            format!(
                "Up to {n} contract{} ({}) within your maximum position size of {}.",
                if n == 1 { "" } else { "s" },
                money.format(cost * contracts),
                money.format(limit)
            )
        } else {
            format!("One contract costs {}, more than your maximum position size of {}.", money.format(cost), money.format(limit))
        },
        action,
        suggested_strike: Some(dollars(s.strike_cents)),
        expiration: Some(s.expiration_date),
        timeframe: format!("to {}", long_date(s.expiration_date)),
        risk_level: idea_risk(s.confidence, sessions_left, cost * contracts.max(1.0), capital),
        confidence,
        analyzer: Analyzer::Builtin,
        created_at: now,
    }
}

/// The plan's daily budget of model-written answers.
fn model_budget(plan: crate::foundation::entitlements::Plan) -> Option<crate::foundation::limits::Policy> {
    match plan {
        crate::foundation::entitlements::Plan::Free => None,
        crate::foundation::entitlements::Plan::Pro => Some(crate::foundation::limits::AI_DAY_PRO),
        crate::foundation::entitlements::Plan::Premium => Some(crate::foundation::limits::AI_DAY_PREMIUM),
    }
}

#[derive(serde::Deserialize)]
struct Rewritten {
    items: Vec<RewrittenItem>,
}

#[derive(serde::Deserialize)]
struct RewrittenItem {
    id: String,
    reasoning: String,
    suggestion: String,
}

/// Has the configured model reword each recommendation's reasoning and suggestion, within the
/// plan's daily budget. A rewrite is kept only when every number in it is one of the
/// recommendation's own; the built-in text stands otherwise (and on any failure).
async fn written_by_model(state: &AppState, user: &UserRecord, recs: &mut [Recommendation], now: DateTime<Utc>) {
    if recs.is_empty() {
        return;
    }
    let Some(budget) = model_budget(Entitlements::of(user, now).plan) else { return };
    if crate::foundation::limits::hit(state, budget, &user.id, now).await.is_err() {
        return;
    }
    let Ok(client) = crate::foundation::llm::ChatClient::new(&state.config.ai) else { return };
    let facts: Vec<serde_json::Value> = recs
        .iter()
        .map(|r| serde_json::json!({"id": r.id, "type": r.kind, "symbol": r.symbol, "title": r.title, "reasoning": r.reasoning, "suggestion": r.suggestion}))
        .collect();
    let system = "You are an options-trading assistant. Reword each recommendation's reasoning and suggestion for a retail trader: \
        clear, specific, two sentences each. Use only the numbers already in that recommendation; never add figures, prices or dates.";
    let user_text = format!("Recommendations as JSON:\n{}", serde_json::Value::Array(facts));
    let schema = serde_json::json!({
        "type": "object", "additionalProperties": false, "required": ["items"],
        "properties": {"items": {"type": "array", "items": {
            "type": "object", "additionalProperties": false, "required": ["id", "reasoning", "suggestion"],
            "properties": {"id": {"type": "string"}, "reasoning": {"type": "string"}, "suggestion": {"type": "string"}}
        }}}
    });
    let answer: Rewritten = match client.structured(system, &user_text, "recommendations", schema).await {
        Ok(answer) => answer,
        Err(error) => {
            tracing::warn!(%error, "model recommendations failed; the built-in ones stand");
            return;
        }
    };
    for item in answer.items {
        let Some(rec) = recs.iter_mut().find(|r| r.id == item.id) else { continue };
        let facts = format!("{} {} {} {}", rec.title, rec.description, rec.reasoning, rec.suggestion);
        if crate::foundation::llm::numbers_grounded(&format!("{} {}", item.reasoning, item.suggestion), &facts) {
            rec.reasoning = item.reasoning.chars().take(1200).collect();
            rec.suggestion = item.suggestion.chars().take(600).collect();
            rec.analyzer = Analyzer::Openai;
        }
    }
}

/// `n` of `noun` (the singular), pluralised: "1 article", "3 articles", "2 days".
fn plural<N: Copy + PartialEq + From<u8> + std::fmt::Display>(n: N, noun: &str) -> String {
    if n == N::from(1) { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn article_counts_are_pluralised() {
        assert_eq!(super::plural(1, "article"), "1 article");
        assert_eq!(super::plural(0, "article"), "0 articles");
        assert_eq!(super::plural(3, "recent article"), "3 recent articles");
    }
}
