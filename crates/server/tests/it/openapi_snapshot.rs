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
