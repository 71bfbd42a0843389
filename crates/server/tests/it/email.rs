//! Email: notifications and the daily portfolio summary land in a local SMTP fake (speaking
//! enough SMTP for a real client) with a working one-click unsubscribe; a refused message is
//! retried from the outbox; the toggles are honoured; with the default outbox transport
//! nothing leaves and administrators read the messages.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use strikeline_server::foundation::config::{Config, EmailTransport, SmtpSecurity};
use strikeline_server::services::{delivering, summaries};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::common::TestApp;

/// One message the fake accepted.
#[derive(Clone, Debug)]
struct Mail {
    from: String,
    to: Vec<String>,
    data: String,
}

impl Mail {
    /// A header's value, folded lines joined.
    fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let mut unfolded: Vec<String> = Vec::new();
        for line in head.split("\r\n") {
            match (line.starts_with(' ') || line.starts_with('\t'), unfolded.last_mut()) {
                (true, Some(last)) => last.push_str(line.trim_start()),
                _ => unfolded.push(line.to_owned()),
            }
        }
        unfolded.iter().find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_owned()))
    }
}

/// A local SMTP server: answers `451` to the first `refuse_first` messages' DATA, accepts the
/// rest and keeps them.
async fn smtp_fake(refuse_first: usize) -> (u16, Arc<Mutex<Vec<Mail>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let kept = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::new(Mutex::new(0usize));
    let store = kept.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (store, seen) = (store.clone(), seen.clone());
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 fake.test ESMTP\r\n").await;
                let mut mail = Mail { from: String::new(), to: Vec::new(), data: String::new() };
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        b"250-fake.test\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("MAIL FROM:") {
                        mail = Mail { from: line[10..].trim().to_owned(), to: Vec::new(), data: String::new() };
                        b"250 OK\r\n"
                    } else if upper.starts_with("RCPT TO:") {
                        mail.to.push(line[8..].trim().to_owned());
                        b"250 OK\r\n"
                    } else if upper == "DATA" {
                        let _ = write.write_all(b"354 go ahead\r\n").await;
                        let mut data = Vec::new();
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                            data.push(l.strip_prefix('.').map_or(l.clone(), str::to_owned));
                        }
                        mail.data = data.join("\r\n");
                        let refuse = {
                            let mut n = seen.lock().expect("lock");
                            *n += 1;
                            *n <= refuse_first
                        };
                        if refuse {
                            b"451 try again later\r\n"
                        } else {
                            store.lock().expect("lock").push(mail.clone());
                            b"250 queued\r\n"
                        }
                    } else if upper == "QUIT" {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        break;
                    } else if upper == "RSET" || upper == "NOOP" {
                        b"250 OK\r\n"
                    } else {
                        b"500 5.5.2 Syntax error, command unrecognized\r\n"
                    };
                    if write.write_all(reply).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    (port, kept)
}

/// Marks the confirmation mail of the accounts registered so far as read and done: these
/// tests are about notification mail, and the confirmation links were already opened.
async fn settle_account_mail(app: &TestApp) {
    for m in strikeline_store::outbox::newest(app.db(), "email", 500).await.expect("outbox") {
        if m.topic == "verify_email" && m.status == "pending" {
            strikeline_store::outbox::delivered(app.db(), &m.id, app.now()).await.expect("settled");
        }
    }
}

async fn app_with_smtp(engine: crate::common::Engine, refuse_first: usize) -> Option<(TestApp, Arc<Mutex<Vec<Mail>>>)> {
    let (port, mails) = smtp_fake(refuse_first).await;
    let app = TestApp::spawn_with(engine, move |config: &mut Config| {
        crate::common::with_market(config);
        config.email.transport = EmailTransport::Smtp;
        config.email.smtp_host = "127.0.0.1".into();
        config.email.smtp_port = port;
        config.email.smtp_security = SmtpSecurity::None;
        config.email.from = "Strikeline <alerts@strikeline.test>".into();
        config.delivery.retry_seconds = vec![60];
    })
    .await?;
    Some((app, mails))
}

async fn trigger_an_alert(app: &TestApp, target: f64) {
    let alert =
        app.post_json(&app.client, "/api/price-alerts", &json!({"symbol": "AAPL", "direction": "above", "targetPrice": target})).await;
    assert_eq!(alert.status(), 201);
    assert_eq!(app.post_json(&app.client, "/api/update-stock-prices", &json!({})).await.status(), 200);
}

async fn preferences(app: &TestApp) -> Value {
    app.client.get(app.url("/api/user/preferences")).send().await.expect("request").json().await.expect("json")
}

/// Posts as a mail client does for RFC 8058: no cookie, no Origin, the one-click body.
async fn one_click(url: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .expect("unsubscribe")
}

async fn notification_emails_reach_smtp_with_a_working_one_click_unsubscribe(engine: crate::common::Engine) {
    let Some((app, mails)) = app_with_smtp(engine, 1).await else { return };
    app.register().await;
    settle_account_mail(&app).await;
    trigger_an_alert(&app, 0.01).await;

    // The fake refuses the first try; the outbox retries it.
    let now = app.now();
    delivering::run_due(&app.state, now).await.expect("first pass");
    assert!(mails.lock().expect("lock").is_empty(), "refused with 451");
    delivering::run_due(&app.state, now + chrono::Duration::seconds(61)).await.expect("retry");
    let mail = mails.lock().expect("lock").first().cloned().expect("delivered on retry");
    assert_eq!(mail.to, ["<ada@example.com>"]);
    assert_eq!(mail.from, "<alerts@strikeline.test>");
    assert_eq!(mail.header("Subject").as_deref(), Some("AAPL is above $0.01"));
    assert_eq!(mail.header("List-Unsubscribe-Post").as_deref(), Some("List-Unsubscribe=One-Click"));
    let unsubscribe = mail.header("List-Unsubscribe").expect("List-Unsubscribe");
    let url = unsubscribe.trim_start_matches('<').trim_end_matches('>').to_owned();
    assert!(url.starts_with(&app.url("/api/email/unsubscribe?token=")), "{url}");
    assert!(mail.data.contains("Your price alert triggered"), "the body says what happened");

    // Opening the link shows a button and changes nothing; the one-click POST unsubscribes.
    let page = reqwest::get(&url).await.expect("page");
    assert_eq!(page.status(), 200);
    assert!(page.text().await.expect("html").contains("<button"));
    assert_eq!(preferences(&app).await["emailNotifications"], true);
    let done = one_click(&url).await;
    assert_eq!(done.status(), 200);
    assert_eq!(preferences(&app).await["emailNotifications"], false);
    assert_eq!(one_click(&app.url("/api/email/unsubscribe?token=forged")).await.status(), 404);
    assert_eq!(one_click(&app.url("/api/email/unsubscribe?token=%3Cscript%3E")).await.status(), 404);

    // Off: the next alert rings the bell but sends no email.
    trigger_an_alert(&app, 0.02).await;
    delivering::run_due(&app.state, now + chrono::Duration::seconds(200)).await.expect("pass");
    assert_eq!(mails.lock().expect("lock").len(), 1, "no more email");
    let bell: Value = app.client.get(app.url("/api/notifications")).send().await.expect("bell").json().await.expect("json");
    assert_eq!(bell["notifications"].as_array().expect("list").iter().filter(|n| n["kind"] == "price_alert").count(), 2);
}

async fn the_daily_summary_goes_to_those_who_want_it_and_unsubscribes_alone(engine: crate::common::Engine) {
    let Some((app, mails)) = app_with_smtp(engine, 0).await else { return };
    app.register().await;
    let other = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&other, "bo@example.com", "bobby", "password123").await.status(), 201);
    settle_account_mail(&app).await;
    let off = other.put(app.url("/api/user/preferences")).json(&json!({"portfolioSummary": false})).send().await.expect("put");
    assert_eq!(off.status(), 200);

    let now = app.now();
    assert_eq!(summaries::daily_summaries(&app.state, now).await.expect("summaries"), 1, "only Ada wants it");
    delivering::run_due(&app.state, now).await.expect("send");
    let mail = mails.lock().expect("lock").first().cloned().expect("sent");
    assert_eq!(mail.to, ["<ada@example.com>"]);
    assert!(mail.header("Subject").is_some_and(|s| s.starts_with("Portfolio summary for ")));
    assert!(mail.data.contains("Value: $1,000.00"), "a new account holds its capital: {}", mail.data);
    let url = mail.header("List-Unsubscribe").expect("header").trim_start_matches('<').trim_end_matches('>').to_owned();
    assert_eq!(one_click(&url).await.status(), 200);
    let after = preferences(&app).await;
    assert_eq!(
        (after["portfolioSummary"].as_bool(), after["emailNotifications"].as_bool()),
        (Some(false), Some(true)),
        "only the summary stops"
    );
    assert_eq!(summaries::daily_summaries(&app.state, now).await.expect("summaries"), 0);
}

async fn the_monthly_report_arrives_once_with_its_pdf_and_unsubscribes_alone(engine: crate::common::Engine) {
    use base64::Engine as _;
    use chrono::Datelike;
    use strikeline_server::services::reporting::monthly;
    let Some((app, mails)) = app_with_smtp(engine, 0).await else { return };
    let ada = app.register().await;
    strikeline_store::users::set_subscription(app.db(), ada["id"].as_str().expect("id"), "premium", "active", None, app.now())
        .await
        .expect("premium");
    settle_account_mail(&app).await;
    let brand =
        json!({"name": "Lovelace Capital", "primaryColor": "#1d4ed8", "accentColor": "#0f766e", "footer": "", "monthlyEmail": true});
    assert_eq!(app.client.put(app.url("/api/reports/brand")).json(&brand).send().await.expect("brand").status(), 200);

    let now = app.now();
    assert_eq!(monthly::queue_due(&app.state, now).await.expect("due"), 0, "turned on this month: the first is next month's");
    let today = app.today();
    let (year, month) = if today.month() == 12 { (today.year() + 1, 1) } else { (today.year(), today.month() + 1) };
    let next = chrono::NaiveDate::from_ymd_opt(year, month, 1).expect("date").and_hms_opt(14, 0, 0).expect("time").and_utc();
    assert_eq!(monthly::queue_due(&app.state, next).await.expect("due"), 1);
    assert_eq!(monthly::queue_due(&app.state, next).await.expect("again"), 0, "a month goes once");
    delivering::run_due(&app.state, next).await.expect("send");
    let mail = mails.lock().expect("lock").first().cloned().expect("sent");
    assert_eq!(mail.to, ["<ada@example.com>"]);
    assert_eq!(mail.header("Subject"), Some(format!("Your portfolio report for {}", today.format("%B %Y"))));
    // The PDF rides along as an attachment, in the account's brand.
    let file = format!("portfolio-report-{year}-{month:02}.pdf");
    let at = mail.data.find(&file).unwrap_or_else(|| panic!("no {file} in {}", mail.data));
    let body_start = mail.data[at..].find("\r\n\r\n").expect("part body") + at + 4;
    let body_end = mail.data[body_start..].find("\r\n--").expect("boundary") + body_start;
    let encoded: String = mail.data[body_start..body_end].split_whitespace().collect();
    let pdf = base64::engine::general_purpose::STANDARD.decode(encoded).expect("base64");
    let text = crate::reports::poppler("pdftotext", &[], &pdf);
    assert!(text.contains("Lovelace Capital") && text.contains("Portfolio report"), "{text}");
    assert!(mail.data.contains("application/pdf"), "typed as a PDF");

    // Its one-click unsubscribe turns off the monthly report alone.
    let url = mail.header("List-Unsubscribe").expect("header").trim_start_matches('<').trim_end_matches('>').to_owned();
    assert_eq!(one_click(&url).await.status(), 200);
    let view: Value = app.client.get(app.url("/api/reports/brand")).send().await.expect("brand").json().await.expect("json");
    assert_eq!(view["monthlyEmail"], false);
    assert_eq!(preferences(&app).await["emailNotifications"], true, "other email goes on");
    let later = next + chrono::Duration::days(40);
    assert_eq!(monthly::queue_due(&app.state, later).await.expect("due"), 0);
}

mod sqlite {
    use crate::common::Engine::Sqlite;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_monthly_report_arrives_once_with_its_pdf_and_unsubscribes_alone() {
        super::the_monthly_report_arrives_once_with_its_pdf_and_unsubscribes_alone(Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn notification_emails_reach_smtp_with_a_working_one_click_unsubscribe() {
        super::notification_emails_reach_smtp_with_a_working_one_click_unsubscribe(Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_daily_summary_goes_to_those_who_want_it_and_unsubscribes_alone() {
        super::the_daily_summary_goes_to_those_who_want_it_and_unsubscribes_alone(Sqlite).await;
    }
}

mod postgres {
    use crate::common::Engine::Postgres;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_monthly_report_arrives_once_with_its_pdf_and_unsubscribes_alone() {
        super::the_monthly_report_arrives_once_with_its_pdf_and_unsubscribes_alone(Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn notification_emails_reach_smtp_with_a_working_one_click_unsubscribe() {
        super::notification_emails_reach_smtp_with_a_working_one_click_unsubscribe(Postgres).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_daily_summary_goes_to_those_who_want_it_and_unsubscribes_alone() {
        super::the_daily_summary_goes_to_those_who_want_it_and_unsubscribes_alone(Postgres).await;
    }
}

/// The default transport keeps email in the outbox: administrators read it there, nobody else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_keeps_email_for_administrators() {
    let app = TestApp::spawn_with(crate::common::Engine::Sqlite, |c: &mut Config| {
        crate::common::with_market(c);
        crate::common::with_admin(c);
    })
    .await
    .expect("app");
    app.register().await;
    settle_account_mail(&app).await;
    trigger_an_alert(&app, 0.01).await;
    delivering::run_due(&app.state, app.now()).await.expect("pass");
    assert_eq!(app.client.get(app.url("/api/admin/emails")).send().await.expect("request").status(), 403);

    let admin = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&admin, "admin@example.com", "admin", "password123").await.status(), 201);
    let emails: Vec<Value> = admin.get(app.url("/api/admin/emails")).send().await.expect("request").json().await.expect("json");
    let ada: Vec<&Value> = emails.iter().filter(|e| e["to"] == "ada@example.com" && e["topic"] != "verify_email").collect();
    assert_eq!(ada.len(), 1, "{emails:?}");
    assert_eq!(
        (ada[0]["subject"].as_str(), ada[0]["status"].as_str(), ada[0]["topic"].as_str()),
        (Some("AAPL is above $0.01"), Some("delivered"), Some("price_alert"))
    );
    assert!(ada[0]["unsubscribeUrl"].as_str().is_some_and(|u| u.contains("/api/email/unsubscribe?token=")));
}
