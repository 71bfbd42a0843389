//! The bell: the signed-in user's notifications, read and unread.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::Serialize;
use strikeline_store::notifications as store;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::error::{AppError, Problem, Result};
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{NotificationKind, stored};

/// Notifications listed at once.
pub const LIST_LIMIT: u32 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_notifications))
        .routes(routes!(mark_notification_read))
        .routes(routes!(mark_all_notifications_read))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationView {
    #[schema(format = "uuid")]
    pub id: String,
    pub kind: NotificationKind,
    pub title: String,
    pub body: String,
    /// The app page it is about, e.g. `/portfolio`.
    pub link: Option<String>,
    pub read: bool,
    pub created_at: DateTime<Utc>,
}

/// `GET /api/notifications`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationList {
    /// The newest 50, newest first.
    pub notifications: Vec<NotificationView>,
    /// Unread among all of them (the bell's badge).
    pub unread_count: i64,
}

/// The signed-in user's newest notifications and how many are unread.
#[utoipa::path(
    get, path = "/api/notifications", tag = "notifications",
    responses((status = 200, body = NotificationList), (status = 401, description = "Not signed in", body = Problem))
)]
async fn list_notifications(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<NotificationList>> {
    let rows = store::list(&state.db, &user.id, LIST_LIMIT).await?;
    let notifications = rows
        .into_iter()
        .map(|n| {
            Ok(NotificationView {
                kind: stored(&n.kind, format_args!("notification {}", n.id))?,
                id: n.id,
                title: n.title,
                body: n.body,
                link: n.link,
                read: n.read_at.is_some(),
                created_at: n.created_at,
            })
        })
        .collect::<Result<_>>()?;
    Ok(axum::Json(NotificationList { notifications, unread_count: store::unread_count(&state.db, &user.id).await? }))
}

/// Marks one notification read.
#[utoipa::path(
    post, path = "/api/notifications/{id}/read", tag = "notifications",
    params(("id" = String, Path, description = "The notification's id")),
    responses(
        (status = 204, description = "Read"),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such notification of yours", body = Problem),
    )
)]
async fn mark_notification_read(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    if store::mark_read(&state.db, &user.id, &id, state.clock.now()).await? { Ok(StatusCode::NO_CONTENT) } else { Err(AppError::NotFound) }
}

/// How many were marked read.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarkedRead {
    pub updated: u64,
}

/// Marks every notification read.
#[utoipa::path(
    post, path = "/api/notifications/read-all", tag = "notifications",
    responses((status = 200, body = MarkedRead), (status = 401, description = "Not signed in", body = Problem))
)]
async fn mark_all_notifications_read(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<MarkedRead>> {
    Ok(axum::Json(MarkedRead { updated: store::mark_all_read(&state.db, &user.id, state.clock.now()).await? }))
}
