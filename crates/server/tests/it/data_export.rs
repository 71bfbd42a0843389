//! The data export (issue 26, item 4): a user's download holds every row of every table that
//! holds their rows (checked against the schema itself, so a table added later without its
//! rows in the export fails here), no secret, and nobody else's rows.

use serde_json::{Value, json};
use strikeline_store::export::{self, SECRET_COLUMNS};

use crate::common::TestApp;

on_both_engines_with!(market, crate::common::with_market;
    the_export_holds_every_row_of_every_table_that_holds_the_users_rows,
);

async fn the_export_holds_every_row_of_every_table_that_holds_the_users_rows(app: TestApp) {
    let ada = app.register().await;
    let ada_id = ada["id"].as_str().expect("id").to_owned();
    // Rows in many tables: a position, an alert, a key, a contact message, a webhook endpoint.
    let expiry = (app.today() + chrono::Duration::days(40)).to_string();
    let position = json!({"symbol": "AAPL", "companyName": "Apple Inc.", "type": "call", "strikePrice": 250.0,
                          "expirationDate": expiry, "quantity": 1, "entryPrice": 2.5, "status": "open"});
    assert_eq!(app.post_json(&app.client, "/api/manual-positions", &position).await.status(), 201);
    let alert = json!({"symbol": "AAPL", "direction": "above", "targetPrice": 999_999.0});
    assert_eq!(app.post_json(&app.client, "/api/price-alerts", &alert).await.status(), 201);
    assert_eq!(app.post_json(&app.client, "/api/api-keys", &json!({"name": "export"})).await.status(), 201);
    let message = json!({"name": "Ada", "email": "ada@example.com", "message": "Where are my strikes?", "source": "landing"});
    assert_eq!(app.post_json(&app.client, "/api/contact", &message).await.status(), 201);
    // A broker connection: its key id is hers to read, its sealed secret is never exported.
    let account_id = strikeline_store::users::find_by_id(app.db(), &ada_id).await.expect("query").expect("ada").account_id;
    let connection = strikeline_store::broker_connections::ConnectionRow {
        account_id,
        user_id: ada_id.clone(),
        broker: "alpaca".into(),
        endpoint: "paper".into(),
        key_id: "PKEXPORT1234".into(),
        secret_sealed: "sealed-secret-never-exported".into(),
        created_at: app.now(),
    };
    strikeline_store::broker_connections::upsert(app.db(), &connection).await.expect("connected");
    // Bob's rows are never in Ada's export.
    let bob = TestApp::browser(&app.base);
    assert_eq!(app.register_with(&bob, "bob@example.com", "bob", "correct-horse").await.status(), 201);
    assert_eq!(app.post_json(&bob, "/api/manual-positions", &position).await.status(), 201);

    let response = app.client.get(app.url("/api/user/export")).send().await.expect("request");
    assert_eq!(response.status(), 200);
    let disposition = response.headers()["content-disposition"].to_str().expect("header").to_owned();
    assert!(disposition.starts_with("attachment; filename=\"strikeline-data-"), "{disposition}");
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["userId"], ada_id.as_str());
    let tables = body["tables"].as_object().expect("tables");

    let owned = export::owned_tables(app.db()).await.expect("schema");
    assert!(owned.len() >= 15, "every table with a user id, an owner id or an address: {owned:?}");
    for table in &owned {
        let stored = export::count(app.db(), table, &ada_id, "ada@example.com").await.expect("count");
        let exported = tables.get(&table.table).and_then(Value::as_array).map_or(0, Vec::len);
        assert_eq!(exported as i64, stored, "{}: every row of Ada's, and only hers", table.table);
    }
    for name in ["users", "sessions", "manual_positions", "price_alerts", "api_keys", "audit_events", "contact_messages", "account_tokens"]
    {
        assert!(tables[name].as_array().is_some_and(|rows| !rows.is_empty()), "{name} holds Ada's rows: {body}");
    }
    let text = body.to_string();
    for secret in SECRET_COLUMNS {
        assert!(!text.contains(&format!("\"{secret}\":")), "{secret} is never exported");
    }
    assert!(!text.contains("bob@example.com"), "nobody else's rows");
    assert_eq!(tables["broker_connections"][0]["key_id"], "PKEXPORT1234");
    assert!(!text.contains("sealed-secret-never-exported"), "the sealed broker secret is left out");
    assert_eq!(tables["users"][0]["email"], "ada@example.com");

    // The shared limiter: five an hour.
    for _ in 0..4 {
        assert_eq!(app.client.get(app.url("/api/user/export")).send().await.expect("request").status(), 200);
    }
    let sixth = app.client.get(app.url("/api/user/export")).send().await.expect("request");
    assert_eq!(sixth.status(), 429);
    assert!(sixth.headers().contains_key("retry-after"));
    let anonymous = reqwest::Client::new().get(app.url("/api/user/export")).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
}
