//! `GET /api/user/export`: everything Strikeline stores about the signed-in person, as one
//! JSON document to download (the privacy policy's right to a copy). Every table that holds
//! their rows is read, found from the schema (`strikeline_store::export`); secrets are left
//! out.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::foundation::error::{Problem, Result};
use crate::foundation::limits;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;

/// A person's data.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataExport {
    pub exported_at: DateTime<Utc>,
    pub user_id: String,
    pub email: String,
    /// Every table that holds the person's rows, by name, with those rows (column names as
    /// stored; password and key hashes, tokens and signing secrets left out). Tables with
    /// none of their rows are listed empty.
    #[schema(value_type = BTreeMap<String, Vec<Object>>)]
    pub tables: BTreeMap<String, Vec<serde_json::Value>>,
}

/// Downloads everything stored about the signed-in user as JSON (an attachment named
/// `strikeline-data-YYYY-MM-DD.json`). Five an hour.
#[utoipa::path(
    get, path = "/api/user/export", tag = "auth",
    responses(
        (status = 200, body = DataExport),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 429, description = "Over five exports an hour; see Retry-After", body = Problem),
    )
)]
pub(super) async fn export(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<impl IntoResponse> {
    let now = state.clock.now();
    let limit = limits::hit(&state, limits::DATA_EXPORT, &user.id, now).await?;
    let mut tables = BTreeMap::new();
    for owned in strikeline_store::export::owned_tables(&state.db).await? {
        let rows = strikeline_store::export::rows(&state.db, &owned, &user.id, &user.email).await?;
        tables.insert(owned.table, rows);
    }
    let body = DataExport { exported_at: now, user_id: user.id.clone(), email: user.email.clone(), tables };
    let disposition = format!("attachment; filename=\"strikeline-data-{}.json\"", now.format("%Y-%m-%d"));
    Ok((limit, [(header::CONTENT_DISPOSITION, disposition)], axum::Json(body)))
}
