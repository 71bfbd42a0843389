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

#[cfg(test)]
mod tests {
    use super::numbers_grounded;

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
