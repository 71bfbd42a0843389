//! SMS (Pro and up): a user's phone number, verified by a six-digit code texted to it; the
//! notification kinds they chose texted to it outside their quiet hours; the carrier's STOP
//! honoured. Messages go through the outbox (channel `sms`) and `delivering`, to Twilio's
//! Messages API when it is configured (`sms.transport = "twilio"`), else they stay in the
//! outbox on the machine (the offline default, where the plans do not sell SMS).

use std::collections::HashMap;

use base64::Engine as _;
use chrono::{DateTime, Duration, NaiveTime, Timelike, Utc};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Digest as _;
use strikeline_store::notifications::Notification;
use strikeline_store::outbox::{self, Message};
use strikeline_store::sms::{self as store, SmsPhone, Verification};
use strikeline_store::users::UserRecord;

use crate::foundation::config::{SmsConfig, SmsTransport};
use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::outbound::Outcome;
use crate::foundation::state::AppState;
use crate::foundation::vocab::NotificationKind;

/// The outbox channel of text messages.
pub const CHANNEL: &str = "sms";
/// The outbox topic of verification codes (notices carry their notification's kind).
pub const CODE_TOPIC: &str = "sms_code";
/// How long a code is good for.
pub const CODE_MINUTES: i64 = 10;
/// Wrong tries a code allows before a new one is needed.
pub const CODE_ATTEMPTS: i32 = 5;
/// The longest text sent: two SMS segments of plain GSM characters.
pub const MAX_TEXT: usize = 306;
/// What a text is signed with.
const SENDER: &str = "Strikeline";

/// `+` and 8 to 15 digits (E.164), after spaces, dashes, dots and brackets are taken out; `None`
/// for anything else.
pub fn normalise_phone(raw: &str) -> Option<String> {
    let kept: String = raw.chars().filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')')).collect();
    let digits = kept.strip_prefix('+')?;
    let valid = (8..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) && !digits.starts_with('0');
    valid.then_some(kept)
}

fn code_hash(user_id: &str, code: &str) -> String {
    strikeline_ledger::hex::encode(&sha2::Sha256::digest(format!("{user_id}:{code}").as_bytes()))
}

/// The minute of the New York day `at` falls in.
fn new_york_minute(at: DateTime<Utc>) -> i32 {
    let local = strikeline_market::calendar::to_new_york(at);
    i32::try_from(local.hour() * 60 + local.minute()).unwrap_or(0)
}

/// When a text due `at` may go under quiet hours `start..end` (New York minutes, wrapping past
/// midnight when `end < start`): `at` itself outside them, else the next `end`.
pub fn after_quiet_hours(quiet: Option<(i32, i32)>, at: DateTime<Utc>) -> DateTime<Utc> {
    let Some((start, end)) = quiet else { return at };
    let minute = new_york_minute(at);
    let quiet_now = if start <= end { (start..end).contains(&minute) } else { minute >= start || minute < end };
    if !quiet_now {
        return at;
    }
    let wait = (end - minute).rem_euclid(24 * 60);
    let at_minute = at - Duration::seconds(i64::from(at.second())) - Duration::nanoseconds(i64::from(at.nanosecond()));
    let naive = at_minute + Duration::minutes(i64::from(wait));
    // The clock may have changed meanwhile (daylight saving time): the end is a time on the wall.
    let offset = |t: DateTime<Utc>| i64::from(strikeline_market::calendar::new_york_offset(t).local_minus_utc());
    naive + Duration::seconds(offset(at) - offset(naive))
}

/// A queued text, as stored in the outbox's payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Text {
    pub to: String,
    pub body: String,
}

fn enqueue(user_id: &str, topic: &str, text: &Text, at: DateTime<Utc>, now: DateTime<Utc>) -> Result<Message> {
    let payload = serde_json::to_string(text).map_err(anyhow::Error::from)?;
    let mut message = Message::pending(uuid::Uuid::new_v4().to_string(), CHANNEL, user_id, None, topic, payload, now);
    message.next_attempt_at = at;
    Ok(message)
}

/// Sets `raw` as the user's number and texts it a code (Pro and up, [`crate::foundation::limits::SMS_CODE`]
/// per user): the number unverified until the code comes back.
pub async fn request_code(state: &AppState, user: &UserRecord, raw: &str, now: DateTime<Utc>) -> Result<String> {
    Entitlements::of(user, now).require(Capability::SmsNotifications)?;
    let phone = normalise_phone(raw).ok_or_else(|| {
        AppError::field("phone", "Enter the number in international form: + then the country code and number, e.g. +1 202 555 0143.")
    })?;
    crate::foundation::limits::hit(state, crate::foundation::limits::SMS_CODE, &user.id, now).await?;
    let code = format!("{:06}", rand::Rng::gen_range(&mut rand::thread_rng(), 0..1_000_000));
    store::start_verification(&state.db, &user.id, &phone, &code_hash(&user.id, &code), now + Duration::minutes(CODE_MINUTES), now).await?;
    let text = Text { to: phone.clone(), body: format!("{SENDER}: your code is {code}. It expires in {CODE_MINUTES} minutes.") };
    if state.config.sms.transport == SmsTransport::Outbox {
        // Nothing leaves the machine: whoever runs the instance reads the code here.
        tracing::info!(to = %text.to, text = %text.body, "text kept in the built-in outbox");
    }
    outbox::enqueue(&state.db, &[enqueue(&user.id, CODE_TOPIC, &text, now, now)?]).await?;
    Ok(phone)
}

/// Checks a code the user typed; 422 naming `code` when it is wrong, ran out or its tries are
/// used up.
pub async fn verify(state: &AppState, user: &UserRecord, code: &str, now: DateTime<Utc>) -> Result<()> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AppError::field("code", "The code is the six digits in the text we sent."));
    }
    match store::verify(&state.db, &user.id, &code_hash(&user.id, code), CODE_ATTEMPTS, now).await? {
        Verification::Verified => Ok(()),
        Verification::Wrong { left } if left > 0 => Err(AppError::Validation(vec![FieldError::new(
            "code",
            format!("That code is not right. {left} {} left.", if left == 1 { "try" } else { "tries" }),
        )])),
        Verification::Wrong { .. } | Verification::NoCode => {
            Err(AppError::field("code", "No code is waiting, or it ran out or was tried too often. Send a new code."))
        }
    }
}

/// The kinds `phone` texts.
pub fn chosen(phone: &SmsPhone) -> Vec<NotificationKind> {
    NotificationKind::set_from_stored(&phone.events)
}

/// Queues a text of each notification to its user's verified number, when the plan in force
/// includes SMS, the number has not opted out and the user chose the kind; held until the
/// user's quiet hours end. How many.
pub async fn queue(state: &AppState, addressed: &[(&Notification, &UserRecord)], now: DateTime<Utc>) -> Result<usize> {
    let mut phones: HashMap<&str, Option<SmsPhone>> = HashMap::new();
    let mut messages = Vec::new();
    for &(row, user) in addressed {
        if !Entitlements::of(user, now).allows(Capability::SmsNotifications) {
            continue;
        }
        if !phones.contains_key(row.user_id.as_str()) {
            phones.insert(row.user_id.as_str(), store::get(&state.db, &row.user_id).await?);
        }
        let Some(Some(phone)) = phones.get(row.user_id.as_str()) else { continue };
        let wanted = row.kind.parse::<NotificationKind>().is_ok_and(|k| chosen(phone).contains(&k));
        if !wanted || phone.verified_at.is_none() || phone.opted_out_at.is_some() {
            continue;
        }
        let mut body = format!("{SENDER}: {}. {}", row.title.trim_end_matches('.'), row.body);
        if body.chars().count() > MAX_TEXT {
            body = body.chars().take(MAX_TEXT - 1).collect::<String>() + "…";
        }
        let quiet = phone.quiet_start_minute.zip(phone.quiet_end_minute);
        messages.push(enqueue(&row.user_id, &row.kind, &Text { to: phone.phone.clone(), body }, after_quiet_hours(quiet, now), now)?);
    }
    outbox::enqueue(&state.db, &messages).await?;
    Ok(messages.len())
}

/// Sends one queued text; what came of it and whether a failure is worth another attempt. A
/// text whose number is no longer the user's (changed, removed, opted out) or, for a notice,
/// no longer verified or on a plan with SMS, is dropped.
pub async fn send(state: &AppState, message: &Message, now: DateTime<Utc>) -> Result<(Outcome, bool)> {
    let dropped = |error: &str| Ok((Outcome::not_sent(error), false));
    let Ok(text) = serde_json::from_str::<Text>(&message.payload) else { return dropped("unreadable stored text") };
    let phone = store::get(&state.db, &message.user_id).await?.filter(|p| p.phone == text.to);
    let Some(phone) = phone else { return dropped("The number is no longer the account's.") };
    if phone.opted_out_at.is_some() {
        return dropped("The number has opted out (STOP).");
    }
    if message.topic != CODE_TOPIC {
        let user = strikeline_store::users::find_by_id(&state.db, &message.user_id).await?;
        let allowed = user.is_some_and(|u| Entitlements::of(&u, now).allows(Capability::SmsNotifications));
        if phone.verified_at.is_none() || !allowed {
            return dropped("Not sent: the number is unverified or the plan no longer includes text messages.");
        }
    }
    let config = &state.config.sms;
    if config.transport == SmsTransport::Outbox {
        return Ok((Outcome { delivered: true, status_code: None, latency_ms: 0, error: None }, false));
    }
    let started = std::time::Instant::now();
    let answer = twilio_send(config, &text).await;
    let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let outcome =
        |delivered: bool, status: Option<u16>, error: Option<String>| Outcome { delivered, status_code: status, latency_ms, error };
    Ok(match answer {
        Ok((status, _)) if (200..300).contains(&status) => (outcome(true, Some(status), None), false),
        Ok((status, code)) if code == Some(TWILIO_UNSUBSCRIBED) => {
            // The carrier keeps the number's STOP: mark it here too, so nothing more is queued.
            store::set_opt_out(&state.db, &text.to, Some(now), now).await?;
            (outcome(false, Some(status), Some("The number has opted out (STOP) with the carrier.".to_owned())), false)
        }
        Ok((status, code)) => {
            let retry = status == 429 || status >= 500;
            let detail = code.map_or(String::new(), |c| format!(" (error {c})"));
            (outcome(false, Some(status), Some(format!("The SMS provider answered {status}{detail}."))), retry)
        }
        Err(error) => (outcome(false, None, Some(error)), true),
    })
}

/// Twilio's error code for a recipient who replied STOP.
const TWILIO_UNSUBSCRIBED: i64 = 21610;

/// POSTs a text to the Messages API; the status and Twilio's error code, if any.
async fn twilio_send(config: &SmsConfig, text: &Text) -> std::result::Result<(u16, Option<i64>), String> {
    let (Some(sid), Some(token), Some(from)) = (&config.twilio_account_sid, &config.twilio_auth_token, &config.twilio_from) else {
        return Err("The SMS provider is not configured.".to_owned());
    };
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(20))
        .connect_timeout(std::time::Duration::from_secs(5))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("{}/2010-04-01/Accounts/{sid}/Messages.json", config.twilio_base_url.trim_end_matches('/'));
    // A messaging service (MG…) picks the sending number itself.
    let sender = if from.starts_with("MG") { ("MessagingServiceSid", from.as_str()) } else { ("From", from.as_str()) };
    let form = [("To", text.to.as_str()), sender, ("Body", text.body.as_str())];
    let response = http
        .post(url)
        .basic_auth(sid, Some(token.expose()))
        .form(&form)
        .send()
        .await
        .map_err(|_| "The SMS provider could not be reached in time.".to_owned())?;
    let status = response.status().as_u16();
    let code = response.json::<serde_json::Value>().await.ok().and_then(|v| v.get("code").and_then(serde_json::Value::as_i64));
    Ok((status, code))
}

/// The address inbound messages are posted to, as Twilio signs it.
pub fn inbound_url(state: &AppState) -> String {
    state.config.sms.inbound_url.clone().unwrap_or_else(|| format!("{}/api/sms/twilio/inbound", super::mailing::base_url(state)))
}

/// Whether `signature` (`X-Twilio-Signature`) is Twilio's for a POST of `params` to `url`:
/// base64 of HMAC-SHA1 with the auth token over the URL followed by each parameter's name and
/// value, sorted by name.
pub fn signature_valid(token: &str, url: &str, params: &[(String, String)], signature: &str) -> bool {
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort();
    let Ok(mut mac) = Hmac::<sha1::Sha1>::new_from_slice(token.as_bytes()) else { return false };
    mac.update(url.as_bytes());
    for (name, value) in sorted {
        mac.update(name.as_bytes());
        mac.update(value.as_bytes());
    }
    let Ok(given) = base64::engine::general_purpose::STANDARD.decode(signature.trim()) else { return false };
    mac.verify_slice(&given).is_ok()
}

/// What an inbound message asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    Stop,
    Start,
}

/// Twilio's opt-out and opt-in keywords (the message's only word, any case).
pub fn keyword(body: &str) -> Option<Keyword> {
    match body.trim().to_ascii_uppercase().as_str() {
        "STOP" | "STOPALL" | "UNSUBSCRIBE" | "CANCEL" | "END" | "QUIT" | "REVOKE" | "OPTOUT" => Some(Keyword::Stop),
        "START" | "UNSTOP" | "YES" => Some(Keyword::Start),
        _ => None,
    }
}

/// Acts on an inbound message (already authenticated): STOP opts the sending number out of
/// everything, START back in; anything else is ignored. How many accounts it touched.
pub async fn inbound(state: &AppState, params: &[(String, String)], now: DateTime<Utc>) -> Result<u64> {
    let field = |name: &str| params.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or_default();
    let Some(from) = normalise_phone(field("From")) else { return Ok(0) };
    let changed = match keyword(field("Body")) {
        Some(Keyword::Stop) => store::set_opt_out(&state.db, &from, Some(now), now).await?,
        Some(Keyword::Start) => store::set_opt_out(&state.db, &from, None, now).await?,
        None => 0,
    };
    if changed > 0 {
        tracing::info!(
            accounts = changed,
            stop = keyword(field("Body")) == Some(Keyword::Stop),
            "SMS opt-out changed by the number's owner"
        );
    }
    Ok(changed)
}

/// "22:00" → minutes after midnight.
pub fn parse_clock(text: &str) -> Option<i32> {
    let time = NaiveTime::parse_from_str(text.trim(), "%H:%M").ok()?;
    i32::try_from(time.hour() * 60 + time.minute()).ok()
}

/// Minutes after midnight → "22:00".
pub fn clock(minutes: i32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).expect("time").with_timezone(&Utc)
    }

    #[test]
    fn phone_numbers_are_e164_after_punctuation_goes() {
        assert_eq!(normalise_phone("+1 (202) 555-0143").as_deref(), Some("+12025550143"));
        assert_eq!(normalise_phone("+44 20 7946 0958").as_deref(), Some("+442079460958"));
        assert_eq!(normalise_phone("202-555-0143"), None, "no country code");
        assert_eq!(normalise_phone("+0 202 555 0143"), None);
        assert_eq!(normalise_phone("+1234567"), None, "too short");
        assert_eq!(normalise_phone("+1234567890123456"), None, "too long");
        assert_eq!(normalise_phone("+1 202 555 O143"), None);
    }

    #[test]
    fn quiet_hours_hold_a_text_until_they_end_in_new_york_time() {
        // 22:00–07:00 New York; 2026-11-28 is EST (UTC−5).
        let quiet = Some((22 * 60, 7 * 60));
        let evening = at("2026-11-29T03:30:00Z"); // 22:30 New York
        assert_eq!(after_quiet_hours(quiet, evening), at("2026-11-29T12:00:00Z"), "07:00 New York");
        let early = at("2026-11-29T10:15:40Z"); // 05:15 New York
        assert_eq!(after_quiet_hours(quiet, early), at("2026-11-29T12:00:00Z"));
        let noon = at("2026-11-29T17:00:00Z");
        assert_eq!(after_quiet_hours(quiet, noon), noon, "outside them: at once");
        assert_eq!(after_quiet_hours(None, evening), evening);
        // Across the spring-forward night (2027-03-14, 02:00 EST → 03:00 EDT): quiet 01:00–03:00,
        // at 01:30 EST the text waits for 03:00 EDT, half an hour later.
        let night = Some((60, 180));
        assert_eq!(after_quiet_hours(night, at("2027-03-14T06:30:00Z")), at("2027-03-14T07:00:00Z"));
        // And the fall-back night (2026-11-01, 02:00 EDT → 01:00 EST): quiet 00:00–02:00, at 00:30
        // EDT it waits two and a half hours, until 02:00 EST.
        let late = Some((0, 120));
        assert_eq!(after_quiet_hours(late, at("2026-11-01T04:30:00Z")), at("2026-11-01T07:00:00Z"));
        // Within one day: 12:00–13:00.
        let lunch = Some((12 * 60, 13 * 60));
        assert_eq!(after_quiet_hours(lunch, at("2026-11-29T17:20:00Z")), at("2026-11-29T18:00:00Z"));
    }

    #[test]
    fn twilio_s_signature_is_checked_over_the_url_and_sorted_parameters() {
        // Twilio's documented example (security docs): this token, URL and parameters.
        let params: Vec<(String, String)> = [
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+12349013030"),
            ("Digits", "1234"),
            ("From", "+12349013030"),
            ("To", "+18005551212"),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2";
        assert!(signature_valid("12345", url, &params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ="));
        assert!(!signature_valid("12345", url, &params, "1/KCTR6DLpKmkAf8muzZqo1nDgQ="));
        assert!(!signature_valid("54321", url, &params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ="));
    }

    #[test]
    fn stop_and_start_are_the_only_words_acted_on() {
        assert_eq!(keyword(" stop "), Some(Keyword::Stop));
        assert_eq!(keyword("Unsubscribe"), Some(Keyword::Stop));
        assert_eq!(keyword("START"), Some(Keyword::Start));
        assert_eq!(keyword("please stop"), None);
        assert_eq!((parse_clock("22:00"), parse_clock("7:05"), parse_clock("24:00")), (Some(1320), Some(425), None));
        assert_eq!(clock(425), "07:05");
    }
}
