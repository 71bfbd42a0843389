//! Settings saved on each change: General (theme, currency), Trading (auto-update, high-risk
//! alerts, risk tolerance) and Notifications (email, signal alerts, portfolio summary, the
//! kinds pushed to the user's browsers).

use axum::extract::State;
use serde::{Deserialize, Serialize};
use strikeline_store::users::{self, SettingsUpdate, UserRecord};
use utoipa::ToSchema;

use crate::foundation::error::{AppError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{DisplayCurrency, NotificationKind, RiskTolerance, Theme, stored};

/// The settings of `GET`/`PUT /api/user/preferences`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserSettings {
    pub theme: Theme,
    pub currency: DisplayCurrency,
    pub email_notifications: bool,
    pub signal_alerts: bool,
    /// The daily portfolio summary.
    pub portfolio_summary: bool,
    /// The app's signals update by themselves (live events, a 30-second fallback poll) while
    /// on; while off, only when the user refreshes.
    pub auto_update_signals: bool,
    /// A notification (and email, when email is on) for new signals the plan shows whose
    /// chance of profit at issue is under 30% (docs/notifications.md).
    pub high_risk_alerts: bool,
    pub risk_tolerance: RiskTolerance,
    /// The notification kinds pushed to the browsers subscribed under Settings › Notifications
    /// (Pro and up), in the vocabulary's order.
    pub push_events: Vec<NotificationKind>,
}

impl UserSettings {
    pub fn of(user: &UserRecord) -> Result<UserSettings> {
        let what = format!("user {}", user.id);
        Ok(UserSettings {
            theme: stored(&user.theme, &what)?,
            currency: stored(&user.currency, &what)?,
            email_notifications: user.email_notifications,
            signal_alerts: user.signal_alerts,
            portfolio_summary: user.portfolio_updates,
            auto_update_signals: user.auto_update_signals,
            high_risk_alerts: user.high_risk_alerts,
            risk_tolerance: stored(&user.risk_tolerance, &what)?,
            push_events: crate::services::pushing::chosen(user),
        })
    }
}

/// `PUT /api/user/preferences`: any of the settings; what is left out keeps its value.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserSettingsUpdate {
    pub theme: Option<Theme>,
    pub currency: Option<DisplayCurrency>,
    pub email_notifications: Option<bool>,
    pub signal_alerts: Option<bool>,
    pub portfolio_summary: Option<bool>,
    pub auto_update_signals: Option<bool>,
    pub high_risk_alerts: Option<bool>,
    pub risk_tolerance: Option<RiskTolerance>,
    /// Every kind to push (the whole set, replacing the stored one); `[]` pushes nothing.
    pub push_events: Option<Vec<NotificationKind>>,
}

/// The signed-in user's settings.
#[utoipa::path(
    get, path = "/api/user/preferences", tag = "auth",
    responses((status = 200, body = UserSettings), (status = 401, description = "Not signed in", body = crate::foundation::error::Problem))
)]
pub(super) async fn get_settings(CurrentUser(user): CurrentUser) -> Result<axum::Json<UserSettings>> {
    Ok(axum::Json(UserSettings::of(&user)?))
}

/// Saves the settings sent (each change is sent on its own as it is made) and answers all of
/// them as stored.
#[utoipa::path(
    put, path = "/api/user/preferences", tag = "auth",
    request_body = UserSettingsUpdate,
    responses(
        (status = 200, body = UserSettings),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "A value is not valid; `errors` names the field", body = crate::foundation::error::Problem),
    )
)]
pub(super) async fn put_settings(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(update): ApiJson<UserSettingsUpdate>,
) -> Result<axum::Json<UserSettings>> {
    let now = state.clock.now();
    let change = SettingsUpdate {
        theme: update.theme.map(|t| t.as_str().to_owned()),
        currency: update.currency.map(|c| c.as_str().to_owned()),
        email_notifications: update.email_notifications,
        signal_alerts: update.signal_alerts,
        portfolio_updates: update.portfolio_summary,
        auto_update_signals: update.auto_update_signals,
        high_risk_alerts: update.high_risk_alerts,
        risk_tolerance: update.risk_tolerance.map(|r| r.as_str().to_owned()),
        push_events: update.push_events.map(|kinds| NotificationKind::set_to_stored(&kinds)),
    };
    users::update_settings(&state.db, &user.id, &change, now).await?;
    let saved = users::find_by_id(&state.db, &user.id).await?.ok_or(AppError::NotFound)?;
    Ok(axum::Json(UserSettings::of(&saved)?))
}
