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
    assert!(
        committed == current,
        "docs/openapi.json is stale: run `make api` to regenerate it and the web types, then review the diff"
    );
}
