//! PDF reports (docs/reports.md): a Premium account's own brand (name, colours, footer, PNG
//! logo) on its portfolio, backtest and track-record reports, with no Strikeline branding; the
//! figures in the PDF's text (read back with poppler's `pdftotext`) are the ones the API
//! answers for the same account; the logo is embedded (`pdfimages`). Free accounts get the
//! house brand and cannot set one; every field is checked; one account never sees another's.

use std::process::Command;

use serde_json::{Value, json};
use strikeline_store::users;

use crate::common::{TestApp, fields, problem};

on_both_engines_with!(market, crate::common::with_market;
    a_premium_portfolio_report_carries_its_brand_and_the_apis_figures,
    backtest_and_track_record_reports_read_as_their_answers,
);

on_both_engines!(brands_are_premium_checked_field_by_field_and_private,);

async fn premium(app: &TestApp, client: &reqwest::Client, email: &str, name: &str) {
    let response = app.register_with(client, email, name, "correct-horse").await;
    assert_eq!(response.status(), 201);
    let user: Value = response.json().await.expect("json");
    users::set_subscription(app.db(), user["id"].as_str().expect("id"), "premium", "active", None, app.now()).await.expect("premium");
}

/// A `width`×`height` RGBA PNG: a blue square with a transparent border.
fn logo_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        let mut pixels = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let inside = x > 2 && y > 2 && x < width - 3 && y < height - 3;
                pixels.extend_from_slice(if inside { &[29, 78, 216, 255] } else { &[0, 0, 0, 0] });
            }
        }
        writer.write_image_data(&pixels).expect("pixels");
    }
    out
}

/// Runs a poppler tool on `pdf` and answers what it printed; fails (never skips) without it.
pub fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("report.pdf");
    std::fs::write(&path, pdf).expect("write");
    let output = Command::new(tool)
        .args(args)
        .arg(&path)
        .args(if tool == "pdftotext" { &["-"][..] } else { &[][..] })
        .output()
        .unwrap_or_else(|e| panic!("{tool} is missing ({e}): install Debian's poppler-utils (make test does)"));
    assert!(output.status.success(), "{tool}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn pdf(response: reqwest::Response) -> Vec<u8> {
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    let disposition = response.headers()["content-disposition"].to_str().expect("ascii").to_owned();
    assert!(disposition.starts_with("attachment; filename=\"") && disposition.ends_with(".pdf\""), "{disposition}");
    let bytes = response.bytes().await.expect("body").to_vec();
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    bytes
}

/// `text` with runs of whitespace made one space, so figures match across `-layout` columns.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Dollars as the reports print them: `$1,234.56`.
fn usd(amount: f64) -> String {
    let cents = (amount * 100.0).round() as i64;
    let sign = if cents < 0 { "-" } else { "" };
    let (whole, cents) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}${grouped}.{cents:02}")
}

async fn a_premium_portfolio_report_carries_its_brand_and_the_apis_figures(app: TestApp) {
    let client = TestApp::browser(&app.base);
    premium(&app, &client, "ada@example.com", "ada").await;
    let brand = json!({
        "name": "Lovelace Capital", "primaryColor": "#1D4ED8", "accentColor": "#0f766e",
        "footer": "Lovelace Capital LLC, 1 Analytical Way. For clients only.", "monthlyEmail": false
    });
    let saved = client.put(app.url("/api/reports/brand")).json(&brand).send().await.expect("save");
    assert_eq!(saved.status(), 200);
    let saved: Value = saved.json().await.expect("json");
    assert_eq!((saved["custom"].as_bool(), saved["primaryColor"].as_str()), (Some(true), Some("#1d4ed8")));
    let logo = client
        .put(app.url("/api/reports/brand/logo"))
        .header("content-type", "image/png")
        .body(logo_png(120, 48))
        .send()
        .await
        .expect("logo");
    assert_eq!(logo.status(), 204);
    let stored = client.get(app.url("/api/reports/brand/logo")).send().await.expect("logo back");
    assert_eq!(stored.bytes().await.expect("bytes").to_vec(), logo_png(120, 48), "the logo as uploaded");

    // An open manual position on a priced symbol.
    let expiry = (app.today() + chrono::Duration::days(30)).format("%Y-%m-%d").to_string();
    let position = json!({
        "symbol": "AAPL", "companyName": "Apple Inc.", "type": "call", "strikePrice": 250.0,
        "expirationDate": expiry, "quantity": 2, "entryPrice": 3.25, "status": "open"
    });
    assert_eq!(app.post_json(&client, "/api/manual-positions", &position).await.status(), 201);

    let bytes = pdf(client.get(app.url("/api/portfolio/report")).send().await.expect("report")).await;
    let metrics: Value = client.get(app.url("/api/portfolio/metrics")).send().await.expect("metrics").json().await.expect("json");
    let listed: Vec<Value> = client.get(app.url("/api/manual-positions")).send().await.expect("list").json().await.expect("json");
    let id = listed[0]["id"].as_str().expect("id");
    let detail: Value =
        client.get(app.url(&format!("/api/manual-positions/{id}"))).send().await.expect("detail").json().await.expect("json");

    let text = squeeze(&poppler("pdftotext", &["-layout"], &bytes));
    for expected in ["Lovelace Capital", "Portfolio report", "For clients only.", "Open positions", "Risk assessment", "AAPL"] {
        assert!(text.contains(expected), "{expected:?} not in {text}");
    }
    let summary = &metrics["summary"];
    for (label, amount) in [("Total value", &summary["totalValue"]), ("Net P&L", &summary["netPnl"])] {
        let figure = usd(amount.as_f64().expect("number"));
        assert!(text.contains(&figure), "{label} {figure} not in {text}");
    }
    assert!(text.contains(&format!("{}/100", metrics["riskAssessment"]["riskScore"])), "the risk score: {text}");
    assert!(text.contains(&usd(detail["currentValue"].as_f64().expect("value"))), "the position's value: {text}");
    assert!(text.contains(&format!("{:.2}", detail["greeks"]["delta"].as_f64().expect("delta"))), "its delta: {text}");
    // White-label: nothing says Strikeline, not the text, not the file.
    assert!(!text.to_lowercase().contains("strikeline"), "{text}");
    assert!(!String::from_utf8_lossy(&bytes).to_lowercase().contains("strikeline"), "the file names Strikeline");
    let info = poppler("pdfinfo", &[], &bytes);
    assert!(info.contains("Portfolio report") && info.contains("Lovelace Capital"), "{info}");
    // The logo is embedded at its size, with its transparency as a soft mask.
    let images = poppler("pdfimages", &["-list"], &bytes);
    let rows: Vec<Vec<&str>> = images.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
    assert!(rows.iter().any(|r| r.get(2) == Some(&"image") && r.get(3) == Some(&"120") && r.get(4) == Some(&"48")), "{images}");
    assert!(rows.iter().any(|r| r.get(2) == Some(&"smask")), "{images}");

    // Read in euros: money converts, the contract's terms stay in dollars (docs/currency.md).
    let euros = client.put(app.url("/api/user/preferences")).json(&json!({"currency": "EUR"})).send().await.expect("currency");
    assert_eq!(euros.status(), 200);
    let rates: Value = client.get(app.url("/api/exchange-rates")).send().await.expect("rates").json().await.expect("json");
    let per_usd =
        rates["rates"].as_array().expect("rates").iter().find(|r| r["currency"] == "EUR").expect("EUR")["perUsd"].as_f64().expect("rate");
    let in_euros =
        squeeze(&poppler("pdftotext", &["-layout"], &pdf(client.get(app.url("/api/portfolio/report")).send().await.expect("euros")).await));
    let total = strikeline_engine::DisplayMoney::new("€", per_usd).format(summary["totalValue"].as_f64().expect("total"));
    assert!(in_euros.contains(&total), "{total} not in {in_euros}");
    assert!(in_euros.contains("US$250.00") && in_euros.contains("US$3.25"), "the strike and the premium paid stay dollars: {in_euros}");

    // Back on Free (the subscription ended), the same account's report is the house brand's.
    let ada = users::find_by_email(app.db(), "ada@example.com").await.expect("find").expect("ada");
    users::set_subscription(app.db(), &ada.id, "free", "canceled", None, app.now()).await.expect("free");
    let house = squeeze(&poppler("pdftotext", &[], &pdf(client.get(app.url("/api/portfolio/report")).send().await.expect("again")).await));
    assert!(house.contains("Strikeline") && !house.contains("Lovelace"), "{house}");
}

async fn backtest_and_track_record_reports_read_as_their_answers(app: TestApp) {
    let client = TestApp::browser(&app.base);
    premium(&app, &client, "ada@example.com", "ada").await;
    let request = json!({"symbols": ["AAPL", "MSFT"]});
    let answer = app.post_json(&client, "/api/backtest", &request).await;
    assert_eq!(answer.status(), 200);
    let answer: Value = answer.json().await.expect("json");
    let report = client.post(app.url("/api/backtest/report")).json(&request).send().await.expect("report");
    let text = squeeze(&poppler("pdftotext", &["-layout"], &pdf(report).await));
    for expected in [
        "Backtest report".to_owned(),
        format!(" {} ", answer["totalTrades"]),
        usd(answer["totalPnl"].as_f64().expect("pnl")),
        usd(answer["finalEquity"].as_f64().expect("equity")),
        format!("{} to {}", answer["startDate"].as_str().expect("start"), answer["endDate"].as_str().expect("end")),
    ] {
        assert!(text.contains(&expected), "{expected:?} not in {text}");
    }
    // Without a saved brand a Premium account's reports are the house brand's.
    assert!(text.contains("Strikeline"), "{text}");
    // A hostile request is the backtest's own 422, not a PDF.
    let bad = client.post(app.url("/api/backtest/report")).json(&json!({"startDate": "2026-02-30"})).send().await.expect("bad");
    assert_eq!(bad.status(), 422);
    assert_eq!(fields(&problem(bad).await), ["startDate"]);

    let summary: Value = client.get(app.url("/api/public/track-record")).send().await.expect("summary").json().await.expect("json");
    let record = client.get(app.url("/api/track-record/report")).send().await.expect("record");
    let text = squeeze(&poppler("pdftotext", &["-layout"], &pdf(record).await));
    assert!(text.contains("Track record") && text.contains("All strategies"), "{text}");
    assert!(text.contains(&format!("All strategies {} {}", summary["pooled"]["n"], summary["pooled"]["wins"])), "{text}");
    // Signed out: no report.
    let anonymous = TestApp::browser(&app.base).get(app.url("/api/track-record/report")).send().await.expect("anonymous");
    assert_eq!(anonymous.status(), 401);
}

async fn brands_are_premium_checked_field_by_field_and_private(app: TestApp) {
    // Free (a trial that has not started counts as Pro: take the plan away explicitly).
    let free = TestApp::browser(&app.base);
    let response = app.register_with(&free, "bob@example.com", "bob", "correct-horse").await;
    let bob: Value = response.json().await.expect("json");
    users::set_subscription(app.db(), bob["id"].as_str().expect("id"), "free", "canceled", None, app.now()).await.expect("free");
    let brand = json!({"name": "Bob's Desk", "primaryColor": "#112233", "accentColor": "#445566", "footer": "", "monthlyEmail": true});
    let refused = free.put(app.url("/api/reports/brand")).json(&brand).send().await.expect("free save");
    assert_eq!(refused.status(), 403, "white-label is Premium");
    let view: Value = free.get(app.url("/api/reports/brand")).send().await.expect("view").json().await.expect("json");
    assert_eq!(
        (view["available"].as_bool(), view["custom"].as_bool(), view["name"].as_str()),
        (Some(false), Some(false), Some("Strikeline"))
    );

    let ada = TestApp::browser(&app.base);
    premium(&app, &ada, "ada@example.com", "ada").await;
    // The logo needs a saved brand first.
    let early =
        ada.put(app.url("/api/reports/brand/logo")).header("content-type", "image/png").body(logo_png(16, 16)).send().await.expect("early");
    assert_eq!(early.status(), 409);
    // Every field at fault is named.
    let bad = json!({"name": " ", "primaryColor": "blue", "accentColor": "#12345", "footer": "x".repeat(301), "monthlyEmail": false});
    let response = ada.put(app.url("/api/reports/brand")).json(&bad).send().await.expect("bad");
    assert_eq!(response.status(), 422);
    let mut named = fields(&problem(response).await);
    named.sort();
    assert_eq!(named, ["accentColor", "footer", "name", "primaryColor"]);
    let unknown = ada.put(app.url("/api/reports/brand")).json(&json!({"name": "A", "extra": 1})).send().await.expect("unknown");
    assert_eq!(unknown.status(), 422);
    assert_eq!(
        ada.get(app.url("/api/reports/brand")).send().await.expect("view").json::<Value>().await.expect("json")["custom"],
        false,
        "nothing half-saved"
    );

    let good = json!({"name": "Lovelace Capital", "primaryColor": "#1d4ed8", "accentColor": "#0f766e", "footer": "", "monthlyEmail": true});
    assert_eq!(ada.put(app.url("/api/reports/brand")).json(&good).send().await.expect("save").status(), 200);
    // Logos: a PNG only, one that reads, of a sensible size.
    let as_jpeg =
        ada.put(app.url("/api/reports/brand/logo")).header("content-type", "image/jpeg").body(logo_png(16, 16)).send().await.expect("jpeg");
    assert_eq!(as_jpeg.status(), 415);
    for body in [b"not a png at all".to_vec(), logo_png(2001, 4), vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10, 0, 0]] {
        let response =
            ada.put(app.url("/api/reports/brand/logo")).header("content-type", "image/png").body(body).send().await.expect("logo");
        assert_eq!(response.status(), 422);
        assert_eq!(fields(&problem(response).await), ["logo"]);
    }
    assert_eq!(ada.get(app.url("/api/reports/brand/logo")).send().await.expect("none").status(), 404, "no logo was kept");
    let fine =
        ada.put(app.url("/api/reports/brand/logo")).header("content-type", "image/png").body(logo_png(64, 64)).send().await.expect("fine");
    assert_eq!(fine.status(), 204);

    // Another account sees none of it, and cannot remove it.
    assert_eq!(free.get(app.url("/api/reports/brand/logo")).send().await.expect("bob logo").status(), 404);
    assert_eq!(free.delete(app.url("/api/reports/brand")).send().await.expect("bob delete").status(), 204);
    let still: Value = ada.get(app.url("/api/reports/brand")).send().await.expect("view").json().await.expect("json");
    assert_eq!(
        (still["custom"].as_bool(), still["hasLogo"].as_bool(), still["monthlyEmail"].as_bool()),
        (Some(true), Some(true), Some(true))
    );

    // Twenty parallel saves leave one brand, whole.
    let mut saves = tokio::task::JoinSet::new();
    for i in 0..20 {
        let body = json!({"name": format!("Desk {i}"), "primaryColor": "#000000", "accentColor": "#ffffff", "footer": format!("Footer {i}"), "monthlyEmail": false});
        let request = ada.put(app.url("/api/reports/brand")).json(&body);
        saves.spawn(async move { request.send().await.expect("save").status() });
    }
    while let Some(status) = saves.join_next().await {
        assert_eq!(status.expect("join"), 200);
    }
    let last: Value = ada.get(app.url("/api/reports/brand")).send().await.expect("view").json().await.expect("json");
    let name = last["name"].as_str().expect("name");
    assert_eq!(last["footer"].as_str(), Some(name.replace("Desk", "Footer").as_str()), "name and footer from one save: {last}");
    assert_eq!(last["hasLogo"], true, "saving fields keeps the logo");

    // Removing the brand takes the logo with it.
    assert_eq!(ada.delete(app.url("/api/reports/brand")).send().await.expect("delete").status(), 204);
    let gone: Value = ada.get(app.url("/api/reports/brand")).send().await.expect("view").json().await.expect("json");
    assert_eq!((gone["custom"].as_bool(), gone["hasLogo"].as_bool()), (Some(false), Some(false)));
}
