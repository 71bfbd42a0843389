//! Email: what users are sent, queued in the outbox and sent by `delivering` through the
//! configured transport: the built-in outbox (messages stay on the machine for administrators
//! to read) or SMTP. Every message honours the user's toggles when it is queued and carries a
//! one-click unsubscribe (RFC 8058: `List-Unsubscribe` and `List-Unsubscribe-Post`).

use base64::Engine as _;
use chrono::{DateTime, Utc};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, Message as MailMessage, MultiPart, SinglePart};
use lettre::transport::smtp::AsyncSmtpTransport;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncTransport, Tokio1Executor};
use serde::{Deserialize, Serialize};
use strikeline_store::outbox::{self, Message};
use strikeline_store::users::UserRecord;

use crate::foundation::config::{EmailConfig, EmailTransport, SmtpSecurity};
use crate::foundation::error::Result;
use crate::foundation::state::AppState;

/// The outbox channel of email.
pub const CHANNEL: &str = "email";

/// Which toggle a message falls under, and so what its unsubscribe link turns off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MailingList {
    /// Notification emails (`emailNotifications`).
    All,
    /// The daily portfolio summary (`portfolioSummary`).
    PortfolioSummary,
    /// The monthly portfolio report (the brand's `monthlyEmail`, docs/reports.md).
    MonthlyReport,
    /// The account's own links (confirm the address, reset the password): always sent, to
    /// nobody but the account's address, with nothing to unsubscribe from.
    Account,
}

impl MailingList {
    pub fn as_str(self) -> &'static str {
        match self {
            MailingList::All => "all",
            MailingList::PortfolioSummary => "portfolio_summary",
            MailingList::MonthlyReport => "monthly_report",
            MailingList::Account => "account",
        }
    }

    pub fn from_stored(s: &str) -> Option<MailingList> {
        // Account mail has no unsubscribe token, so it is never looked up here.
        [MailingList::All, MailingList::PortfolioSummary, MailingList::MonthlyReport].into_iter().find(|l| l.as_str() == s)
    }

    /// Whether `user` wants this list now.
    pub fn wanted_by(self, user: &UserRecord) -> bool {
        match self {
            MailingList::All => user.email_notifications,
            MailingList::PortfolioSummary => user.email_notifications && user.portfolio_updates,
            // Asked for on its own (the brand's switch), which the job reads.
            MailingList::MonthlyReport => user.email_notifications,
            MailingList::Account => true,
        }
    }
}

/// A queued email, as stored in the outbox's payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub list: MailingList,
    /// The one-click unsubscribe address (`List-Unsubscribe`).
    pub unsubscribe_url: String,
    /// Files sent with it (the monthly report's PDF).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<EmailAttachment>,
}

/// A file sent with an email.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailAttachment {
    /// ASCII, e.g. `portfolio-report-2026-11.pdf`.
    pub file_name: String,
    pub content_type: String,
    /// The bytes, base64.
    pub data: String,
}

/// The address users reach the app at (the configured public URL, else the listener).
pub fn base_url(state: &AppState) -> String {
    match &state.config.public_url {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => format!("http://{}:{}", state.config.host, state.config.port),
    }
}

/// Queues `subject`/`text` for `user` on `list`, unless the user has turned that list off;
/// whether it was queued.
pub async fn queue(
    state: &AppState,
    user: &UserRecord,
    list: MailingList,
    topic: &str,
    subject: &str,
    text: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    queue_with(state, user, list, topic, subject, text, Vec::new(), now).await
}

/// [`queue`], with files attached.
#[expect(clippy::too_many_arguments, reason = "queue's arguments and the files")]
pub async fn queue_with(
    state: &AppState,
    user: &UserRecord,
    list: MailingList,
    topic: &str,
    subject: &str,
    text: &str,
    attachments: Vec<EmailAttachment>,
    now: DateTime<Utc>,
) -> Result<bool> {
    if !list.wanted_by(user) {
        return Ok(false);
    }
    if list == MailingList::Account {
        let email = Email {
            to: user.email.clone(),
            subject: subject.chars().take(200).collect(),
            text: format!("{text}\n\n—\nStrikeline · {}\n", base_url(state)),
            list,
            unsubscribe_url: String::new(),
            attachments,
        };
        if state.config.email.transport == EmailTransport::Outbox {
            // Nothing leaves the machine: whoever runs the instance reads the link in its log
            // (as in the administrators' outbox), or vouches with `strikeline users confirm`.
            tracing::info!(to = %email.to, subject = %email.subject, text = %email.text, "account email kept in the built-in outbox");
        }
        return enqueue(state, user, topic, &email, now).await.map(|()| true);
    }
    let fresh = crate::foundation::session::new_token();
    let token = outbox::unsubscribe_token(&state.db, &user.id, list.as_str(), &fresh, now).await?;
    let email = Email {
        to: user.email.clone(),
        subject: subject.chars().take(200).collect(),
        text: format!(
            "{text}\n\n—\nStrikeline · {base}/settings?tab=notifications\nUnsubscribe: {url}\n",
            base = base_url(state),
            url = unsubscribe_url(state, &token)
        ),
        list,
        unsubscribe_url: unsubscribe_url(state, &token),
        attachments,
    };
    enqueue(state, user, topic, &email, now).await.map(|()| true)
}

async fn enqueue(state: &AppState, user: &UserRecord, topic: &str, email: &Email, now: DateTime<Utc>) -> Result<()> {
    let payload = serde_json::to_string(email).map_err(anyhow::Error::from)?;
    let message = Message::pending(uuid::Uuid::new_v4().to_string(), CHANNEL, &user.id, None, topic, payload, now);
    outbox::enqueue(&state.db, &[message]).await?;
    Ok(())
}

fn unsubscribe_url(state: &AppState, token: &str) -> String {
    format!("{}/api/email/unsubscribe?token={token}", base_url(state))
}

/// Turns off the list an unsubscribe token names; the list, or `None` for an unknown token.
pub async fn unsubscribe(state: &AppState, token: &str, now: DateTime<Utc>) -> Result<Option<MailingList>> {
    if token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    let Some((user_id, list)) = outbox::unsubscribe_target(&state.db, token).await? else { return Ok(None) };
    let Some(list) = MailingList::from_stored(&list) else { return Ok(None) };
    let mut change = strikeline_store::users::SettingsUpdate::default();
    match list {
        MailingList::All => change.email_notifications = Some(false),
        MailingList::PortfolioSummary => change.portfolio_updates = Some(false),
        MailingList::MonthlyReport => {
            strikeline_store::report_brands::set_monthly_email(&state.db, &user_id, false, now).await?;
            return Ok(Some(list));
        }
        // Never stored with a token: account mail cannot be unsubscribed from.
        MailingList::Account => return Ok(None),
    }
    strikeline_store::users::update_settings(&state.db, &user_id, &change, now).await?;
    Ok(Some(list))
}

/// Sends one queued email through the configured transport. With the outbox transport
/// nothing leaves the machine: the stored message is the delivery.
pub async fn send(config: &EmailConfig, id: &str, payload: &str) -> std::result::Result<(), String> {
    let email: Email = serde_json::from_str(payload).map_err(|e| format!("unreadable stored email: {e}"))?;
    let message = compose(config, id, &email)?;
    match config.transport {
        EmailTransport::Outbox => Ok(()),
        EmailTransport::Smtp => {
            let transport = smtp_transport(config)?;
            transport.send(message).await.map(|_| ()).map_err(|e| format!("SMTP: {e}"))
        }
    }
}

/// The MIME message of a queued email.
pub fn compose(config: &EmailConfig, id: &str, email: &Email) -> std::result::Result<MailMessage, String> {
    let from: Mailbox = config.from.parse().map_err(|e| format!("email.from: {e}"))?;
    // A bare address only: never a display name or a list, so a stored address cannot name
    // another mailbox.
    let address: lettre::Address = email.to.parse().map_err(|e| format!("recipient: {e}"))?;
    let to = Mailbox::new(None, address);
    let domain = from.email.domain().to_owned();
    let mut builder = MailMessage::builder().from(from).to(to).subject(&email.subject).message_id(Some(format!("<{id}@{domain}>")));
    if email.list != MailingList::Account {
        builder = builder
            .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe"), format!("<{}>", email.unsubscribe_url)))
            .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click".to_owned()));
    }
    if email.attachments.is_empty() {
        return builder.header(ContentType::TEXT_PLAIN).body(email.text.clone()).map_err(|e| format!("composing: {e}"));
    }
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(email.text.clone()));
    for file in &email.attachments {
        let bytes =
            base64::engine::general_purpose::STANDARD.decode(&file.data).map_err(|e| format!("attachment {}: {e}", file.file_name))?;
        let content_type = ContentType::parse(&file.content_type).map_err(|e| format!("attachment {}: {e}", file.file_name))?;
        parts = parts.singlepart(Attachment::new(file.file_name.clone()).body(bytes, content_type));
    }
    builder.multipart(parts).map_err(|e| format!("composing: {e}"))
}

fn smtp_transport(config: &EmailConfig) -> std::result::Result<AsyncSmtpTransport<Tokio1Executor>, String> {
    let host = config.smtp_host.as_str();
    let builder = match config.smtp_security {
        SmtpSecurity::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host),
        SmtpSecurity::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(host).map_err(|e| format!("SMTP: {e}"))?,
        SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(host).map_err(|e| format!("SMTP: {e}"))?,
    };
    let mut builder = builder.port(config.smtp_port).timeout(Some(std::time::Duration::from_secs(20)));
    if let (Some(user), Some(password)) = (&config.smtp_username, &config.smtp_password) {
        builder = builder.credentials(Credentials::new(user.clone(), password.expose().clone()));
    }
    Ok(builder.build())
}
