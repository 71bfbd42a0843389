//! The OpenAPI document is the contract with the web app (which generates its types from
//! `docs/openapi.json`). A change to the API must update the snapshot on purpose:
//! `UPDATE_SNAPSHOTS=1 cargo test -p strikeline-server --test it openapi_snapshot` (or `make api`).

#[test]
fn the_openapi_document_matches_the_committed_snapshot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json");
    let current = strikeline_server::openapi::document_json();
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &current).expect("write snapshot");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == current, "docs/openapi.json is stale: run `make api` to regenerate it and the web types, then review the diff");
}

#[test]
fn every_operation_has_its_own_operation_id() {
    let doc: serde_json::Value = serde_json::from_str(&strikeline_server::openapi::document_json()).expect("json");
    let mut seen = std::collections::BTreeMap::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("item") {
            if let Some(id) = operation.get("operationId").and_then(|v| v.as_str())
                && let Some(other) = seen.insert(id.to_owned(), format!("{method} {path}"))
            {
                panic!("operationId {id} is used by {other} and {method} {path}: the web's type generator refuses the document");
            }
        }
    }
    assert!(seen.len() > 50, "{}", seen.len());
}

/// The bounds written as literals in the request types' annotations (an annotation cannot name
/// a constant) are the validators': every price field states `money::MAX_PRICE`, every ticker,
/// in a body or a path, `input::SYMBOL_PATTERN`, and every date `input::DATE_PATTERN`.
#[test]
fn the_documented_price_and_ticker_rules_are_the_validators() {
    use strikeline_server::foundation::{
        input::{DATE_PATTERN, NON_BLANK_TEXT_PATTERN, SYMBOL_PATTERN, TEXT_PATTERN},
        money::MAX_PRICE,
    };
    let doc: serde_json::Value = serde_json::from_str(&strikeline_server::openapi::document_json()).expect("json");
    let (mut prices, mut tickers, mut dates) = (0, 0, 0);
    for (name, schema) in doc["components"]["schemas"].as_object().expect("schemas") {
        for (field, property) in schema["properties"].as_object().into_iter().flatten() {
            if property.get("multipleOf").and_then(|v| v.as_f64()) == Some(0.01) {
                prices += 1;
                assert_eq!(property["maximum"].as_f64(), Some(MAX_PRICE), "{name}.{field}");
                assert_eq!(property["minimum"].as_f64(), Some(0.01), "{name}.{field}");
            }
            if field == "symbol" && property.get("pattern").is_some() {
                tickers += 1;
                assert_eq!(property["pattern"], SYMBOL_PATTERN, "{name}.{field}");
            }
            if field.ends_with("Date") && property.get("pattern").is_some() {
                dates += 1;
                assert_eq!(property["pattern"], DATE_PATTERN, "{name}.{field}");
            }
        }
    }
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for operation in item.as_object().expect("item").values() {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["name"] == "symbol" && parameter["schema"].get("pattern").is_some() {
                    tickers += 1;
                    assert_eq!(parameter["schema"]["pattern"], SYMBOL_PATTERN, "{path}");
                }
            }
        }
    }
    assert!(prices >= 10 && tickers >= 4 && dates >= 2, "{prices} prices, {tickers} tickers, {dates} dates");
    let contact = &doc["components"]["schemas"]["ContactRequest"]["properties"];
    for (field, pattern) in
        [("name", NON_BLANK_TEXT_PATTERN), ("message", NON_BLANK_TEXT_PATTERN), ("company", TEXT_PATTERN), ("subject", TEXT_PATTERN)]
    {
        assert_eq!(contact[field]["pattern"], pattern, "ContactRequest.{field}");
    }
    let session = &doc["paths"]["/api/user/sessions/{id}"]["delete"]["parameters"][0]["schema"];
    assert_eq!(session["pattern"], strikeline_server::foundation::session::PUBLIC_ID_PATTERN);
}
