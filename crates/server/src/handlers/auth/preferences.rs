//! The signed-in user's own account settings: the investment preferences automated positions
//! follow (capital, risk tolerance, maximum position size, preferred strategies), those of the
//! current trading account (docs/accounts.md).

use axum::extract::State;
use serde::Deserialize;
use strikeline_store::users;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::model::User;
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{RiskTolerance, StrategyName, Vocabulary};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(super::settings::get_settings, super::settings::put_settings, update_investment_preferences))
}

/// `PATCH /api/user/preferences`: any of the four; what is left out keeps its stored value.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvestmentPreferencesUpdate {
    /// Dollars, more than 0, at most two decimals.
    #[schema(example = 25000.0)]
    pub investment_capital: Option<f64>,
    pub risk_tolerance: Option<RiskTolerance>,
    /// Dollars per position, more than 0 and at most the capital.
    #[schema(example = 2500.0)]
    pub max_position_size: Option<f64>,
    /// Comma-separated, from Momentum, Mean Reversion, Breakout, Volatility (any case);
    /// empty means none, and the automation then opens nothing.
    #[schema(example = "Momentum,Breakout")]
    pub preferred_strategies: Option<String>,
}

/// The preferences to store, checked against each other and the stored ones.
fn validated(update: &InvestmentPreferencesUpdate, stored: &users::UserRecord) -> Result<(i64, String, i64, String)> {
    let mut errors = Vec::new();
    let (capital, max_position) = crate::foundation::money::checked_sizes(
        update.investment_capital,
        update.max_position_size,
        (stored.investment_capital_cents, stored.max_position_size_cents),
        &mut errors,
    );
    let strategies = match &update.preferred_strategies {
        Some(raw) => {
            let mut names: Vec<&'static str> = Vec::new();
            for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                match StrategyName::lenient(part) {
                    Ok(name) if !names.contains(&name.spelling()) => names.push(name.spelling()),
                    Ok(_) => {}
                    Err(unknown) => {
                        errors.push(FieldError::new("preferredStrategies", unknown.must_be()));
                        break;
                    }
                }
            }
            names.join(",")
        }
        None => stored.preferred_strategies.clone(),
    };
    let risk = update.risk_tolerance.map_or_else(|| stored.risk_tolerance.clone(), |r| r.as_str().to_owned());
    if errors.is_empty() { Ok((capital, risk, max_position, strategies)) } else { Err(AppError::Validation(errors)) }
}

/// Saves the investment preferences. Automated positions follow them from the next signal on
/// (positions already open keep their size). Answers the user as `GET /api/auth/me` does.
#[utoipa::path(
    patch, path = "/api/user/preferences", tag = "auth",
    request_body = InvestmentPreferencesUpdate,
    responses(
        (status = 200, body = User),
        (status = 401, description = "Not signed in", body = crate::foundation::error::Problem),
        (status = 422, description = "A value is not valid; `errors` names the field", body = crate::foundation::error::Problem),
    )
)]
async fn update_investment_preferences(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(update): ApiJson<InvestmentPreferencesUpdate>,
) -> Result<axum::Json<User>> {
    let now = state.clock.now();
    let (capital, risk, max_position, strategies) = validated(&update, &user)?;
    users::set_investment_preferences(&state.db, &user.id, capital, &risk, max_position, &strategies, now).await?;
    let saved = users::find_by_id(&state.db, &user.id).await?.ok_or(AppError::NotFound)?;
    Ok(axum::Json(User::from_record(saved, &state.config, now)?))
}
