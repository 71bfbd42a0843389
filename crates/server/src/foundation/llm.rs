//! An OpenAI-compatible chat-completions client for structured answers: one request asks for
//! JSON matching a schema (`response_format: json_schema`, strict, temperature 0), the answer's
//! content is parsed into the caller's type, and anything else is an error the caller falls
//! back from. Timeouts per attempt, a few retries with backoff on 429, 5xx and network
//! failures (honouring a short `Retry-After`), and the key is never logged.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::foundation::config::AiConfig;

/// Why no answer came.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the model endpoint could not be reached: {0}")]
    Unreachable(String),
    #[error("the model endpoint answered {0}")]
    Status(u16),
    #[error("the model's answer was not the JSON asked for: {0}")]
    Malformed(String),
}

/// A client of one configured endpoint and model.
#[derive(Clone, Debug)]
pub struct ChatClient {
    http: reqwest::Client,
    url: String,
    api_key: Option<String>,
    model: String,
    retries: u32,
}

impl ChatClient {
    /// The client `config` describes.
    pub fn new(config: &AiConfig) -> Result<ChatClient, LlmError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(config.timeout_seconds))
            .connect_timeout(Duration::from_secs(config.timeout_seconds.min(10)))
            .build()
            .map_err(|e| LlmError::Unreachable(e.to_string()))?;
        Ok(ChatClient {
            http,
            url: format!("{}/chat/completions", config.base_url.trim_end_matches('/')),
            api_key: config.api_key.as_ref().map(|k| k.expose().clone()),
            model: config.model.clone(),
            retries: config.max_retries,
        })
    }

    /// Asks `system` + `user` for an answer matching `schema` (named `name`), parsed as `T`.
    pub async fn structured<T: DeserializeOwned>(&self, system: &str, user: &str, name: &str, schema: Value) -> Result<T, LlmError> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {"type": "json_schema", "json_schema": {"name": name, "strict": true, "schema": schema}},
        });
        let mut attempt = 0;
        loop {
            match self.once(&body).await {
                Ok(content) => return serde_json::from_str(&content).map_err(|e| LlmError::Malformed(e.to_string())),
                Err((error, retry_after)) if attempt < self.retries && retryable(&error) => {
                    attempt += 1;
                    let backoff = Duration::from_millis(250 * 4u64.pow(attempt - 1));
                    tokio::time::sleep(retry_after.map_or(backoff, |s| Duration::from_secs(s.min(5)))).await;
                }
                Err((error, _)) => return Err(error),
            }
        }
    }

    async fn once(&self, body: &Value) -> Result<String, (LlmError, Option<u64>)> {
        let mut request = self.http.post(&self.url).json(body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| (LlmError::Unreachable(e.without_url().to_string()), None))?;
        let status = response.status();
        if !status.is_success() {
            let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
            return Err((LlmError::Status(status.as_u16()), retry_after));
        }
        let answer: Value = response.json().await.map_err(|e| (LlmError::Malformed(e.without_url().to_string()), None))?;
        answer["choices"][0]["message"]["content"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| (LlmError::Malformed("no choices[0].message.content".into()), None))
    }
}

fn retryable(error: &LlmError) -> bool {
    match error {
        LlmError::Unreachable(_) => true,
        LlmError::Status(code) => *code == 429 || *code >= 500,
        LlmError::Malformed(_) => false,
    }
}

/// Whether every number in `answer` appears in `facts`: a model's text may reword the facts
/// but not add figures of its own. Numbers are compared as written, without thousands
/// separators, a leading `$` or a trailing `%`, and `1.50` matches `1.5`.
pub fn numbers_grounded(answer: &str, facts: &str) -> bool {
    let known: std::collections::HashSet<String> = numbers(facts).collect();
    numbers(answer).all(|n| known.contains(&n))
}

fn numbers(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .map(|t| t.trim_matches(|c| c == '.' || c == ',').replace(',', ""))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .map(|t| if t.contains('.') { t.trim_end_matches('0').trim_end_matches('.').to_owned() } else { t })
}

/// What in a model's `text` reaches out of the page, if anything: a link or domain, an email
/// address or `@handle`, a phone number, a call to join, subscribe, message or contact
/// anything, or characters beyond plain text (invisible, bidirectional or look-alike ones are
/// how the others get disguised). A model's text is shown as Strikeline's words, so none of
/// these may appear in it; the answer naming one is refused whole.
pub fn solicitation(text: &str) -> Option<&'static str> {
    if !text.chars().all(plain) {
        return Some("characters beyond plain text");
    }
    let lower = text.to_lowercase();
    if lower.contains('@') {
        return Some("an email address or @handle");
    }
    if has_link(&lower) {
        return Some("a link or domain");
    }
    if has_phone(&lower) {
        return Some("a phone number");
    }
    if has_call_to_act(&lower) {
        return Some("a call to join, subscribe, message or contact something");
    }
    None
}

/// Printable ASCII, line breaks, Latin letters with accents and a few typographic marks. No
/// controls, no zero-width or bidirectional characters, no full-width or look-alike dots and
/// at signs, no letters of other scripts standing in for Latin ones.
fn plain(c: char) -> bool {
    c.is_ascii_graphic()
        || c == ' '
        || c == '\n'
        || c == '\u{a0}'
        || (('\u{c0}'..='\u{24f}').contains(&c) && c.is_alphabetic())
        || "\u{2018}\u{2019}\u{201c}\u{201d}\u{2013}\u{2014}\u{2026}\u{b0}\u{20ac}\u{a3}\u{a5}".contains(c)
}

/// A URL, `www.`, a `host.tld` (letters after the last dot, at least two), or a dot spelled
/// out or bracketed to slip past that.
fn has_link(lower: &str) -> bool {
    if ["://", "www.", "[.]", "(.)", "{.}", "[dot]", "(dot)", "{dot}", "mailto:"].iter().any(|m| lower.contains(m)) {
        return true;
    }
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| matches!(*w, "http" | "https" | "hxxp" | "hxxps" | "dot")) {
        return true;
    }
    // `name .tld`: a dot with a space before it and a letter after it.
    let chars: Vec<char> = lower.chars().collect();
    if chars.windows(3).any(|w| w[0].is_whitespace() && w[1] == '.' && w[2].is_alphabetic()) {
        return true;
    }
    lower.split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))).any(|token| {
        let token = token.trim_matches(|c| matches!(c, '.' | '-' | '_'));
        let parts: Vec<&str> = token.split('.').collect();
        parts.len() >= 2
            && parts.iter().all(|p| !p.is_empty())
            && parts.last().is_some_and(|tld| tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
    })
}

/// Seven digits in a row; `+` and a digit in a run of seven or more; or groups like
/// `555-0134`, `555 123 4567`, `(555) 123-4567` (a last group of four digits after one of three
/// or four, seven digits in all). Dates (`2026-11-24`) and prices (`191.24`) are not phones.
fn has_phone(lower: &str) -> bool {
    lower.split(|c: char| !(c.is_ascii_digit() || " -.()+/".contains(c))).any(|run| {
        let digits = run.chars().filter(char::is_ascii_digit).count();
        if digits < 7 {
            return false;
        }
        let groups: Vec<&str> = run.split(|c: char| !c.is_ascii_digit()).filter(|g| !g.is_empty()).collect();
        let plus = run.trim_start().starts_with('+');
        let long = groups.iter().any(|g| g.len() >= 7);
        let grouped = groups.len() >= 2
            && groups.last().is_some_and(|g| g.len() == 4)
            && groups.get(groups.len() - 2).is_some_and(|g| g.len() == 3 || g.len() == 4);
        plus || long || grouped
    })
}

/// Words that ask the reader to go somewhere or get in touch.
fn has_call_to_act(lower: &str) -> bool {
    const WORDS: &[&str] = &[
        "join",
        "joining",
        "subscribe",
        "subscribing",
        "signup",
        "dm",
        "dms",
        "inbox",
        "telegram",
        "whatsapp",
        "discord",
        "wechat",
        "vip",
        "contact",
        "contacting",
        "unsubscribe",
        "invite",
        "referral",
        "promo",
        "coupon",
    ];
    const PAIRS: &[(&str, &[&str])] = &[
        ("sign", &["up"]),
        ("direct", &["message", "messages"]),
        ("message", &["us", "me", "our"]),
        ("reach", &["out", "us", "me"]),
        ("email", &["us", "me", "our"]),
        ("text", &["us", "me"]),
        ("call", &["us", "me", "now", "our"]),
        ("follow", &["us", "me", "our"]),
        ("click", &["here", "the", "this", "below"]),
        ("visit", &["us", "our", "the", "this"]),
        ("our", &["group", "channel", "community", "server", "newsletter", "website", "site"]),
    ];
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.iter().any(|w| WORDS.contains(w))
        || words.windows(2).any(|pair| PAIRS.iter().any(|(first, seconds)| pair[0] == *first && seconds.contains(&pair[1])))
}

#[cfg(test)]
mod tests {
    use super::{numbers_grounded, solicitation};

    #[test]
    fn links_addresses_handles_phones_and_calls_to_act_are_found() {
        for text in [
            "Strong CALL. For the real picks, join strikeline-vip.example.",
            "See https://example.com/picks",
            "See www.example.com",
            "Picks at strikeline-vip[.]example",
            "Picks at strikeline-vip dot example",
            "Picks at strikeline-vip .example",
            "Picks at t.me/picks",
            "Write to picks@example.com",
            "Follow @strikelinevip",
            "Ring 555-0134 today.",
            "Ring (555) 123-4567 today.",
            "Ring +44 20 7946 0958 today.",
            "Subscribe for more.",
            "DM us for the rest.",
            "Sign up before the close.",
            "Message us on Telegram.",
            "Contact the desk.",
            "Click here.",
            "Picks at strikeline\u{ff0e}example",
            "Hidden\u{200b}text",
            "Right-to-left \u{202e}text",
            "Cyrillic \u{0430}pple",
        ] {
            assert!(solicitation(text).is_some(), "{text}");
        }
    }

    #[test]
    fn plain_analysis_passes() {
        for text in [
            "AAPL closed at $191.24 on 2026-11-24, RSI(14) 55.0, EMA(20) 190.00 above EMA(50) 180.00, 20-day volatility 22%.",
            "The news reads bearish (score -0.45) and the U.S. market is calm, e.g. volatility is low; i.e. no edge.",
            "An active Momentum PUT signal (strength 80/100) holds the $185.00 strike to 2026-12-18.",
            "Bearish news with room on RSI and no rising trend \u{2014} a put fits the data\u{2019}s reading.",
            "No trade.\nWait for the trend to turn at 4 pm or later.",
        ] {
            assert_eq!(solicitation(text), None, "{text}");
        }
    }

    #[test]
    fn only_the_facts_numbers_may_appear() {
        let facts = "AAPL closed at $191.24 on 2026-11-24, RSI(14) 55.0, 20-day volatility 22%, confidence 80, strike $1,250.50.";
        assert!(numbers_grounded("RSI 55 and a close of 191.24 support a call (confidence 80).", facts));
        assert!(numbers_grounded("The $1250.5 strike holds; volatility is 22%.", facts));
        assert!(numbers_grounded("No numbers at all.", facts));
        assert!(!numbers_grounded("Analysts see 15% upside.", facts), "an invented figure");
        assert!(!numbers_grounded("Close 191.25.", facts));
    }
}
