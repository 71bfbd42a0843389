//! Trading accounts (docs/accounts.md): a user's accounts ("Taxable", "IRA", "Paper"), each with
//! its own capital, preferences, automation switch, positions and history. One is current: the
//! portfolio, the positions the user enters and the preferences in Settings are the current
//! account's. Every plan holds one account; Premium holds up to ten (the plan catalogue's number,
//! through the entitlement check).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::trading_accounts::{self as store, AccountRow, AccountUpdate, Kept};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::audit::{self, Origin};
use crate::foundation::entitlements::Entitlements;
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::money::{dollars, round2};
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{AuditAction, BrokerEndpoint, BrokerName, RiskTolerance, StrategyName, Vocabulary, stored};
use crate::services::execution::reconciliation::{self, Reconciliation};
use strikeline_store::broker_connections::ConnectionRow;

/// The longest account name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, delete))
        .routes(routes!(switch_current))
        .routes(routes!(connect_broker, disconnect_broker))
        .routes(routes!(reconcile_broker))
}

/// One trading account.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradingAccount {
    pub id: String,
    pub name: String,
    /// Dollars.
    pub investment_capital: f64,
    /// Dollars: the capital less what the account's order fills paid, plus what they brought
    /// in, commissions included, less the fees its broker charged once read (an account
    /// connected to Alpaca books Alpaca's fees at each check against Alpaca and at the end of
    /// each day; Alpaca's own cash figure is in the check). Positions opened before orders
    /// existed (before 2026-11-29) and manual positions move no cash.
    pub cash: f64,
    pub risk_tolerance: RiskTolerance,
    /// Dollars per position.
    pub max_position_size: f64,
    /// The house strategies whose signals the automation opens positions from here.
    pub preferred_strategies: Vec<StrategyName>,
    /// Whether the automation opens paper positions in this account.
    pub automate: bool,
    /// Who fills the account's orders.
    pub broker: AccountBroker,
    /// The account's kill switch: while on, the automation sends it no new order.
    pub orders_halted: bool,
    /// The account the app shows and works in.
    pub current: bool,
    /// Whether the plan holds this account: the automation opens positions only in the
    /// accounts the plan holds (the oldest first). An account beyond them after a downgrade
    /// keeps its positions and history.
    pub within_plan: bool,
    pub created_at: DateTime<Utc>,
}

/// Who fills an account's orders: the paper broker, or Alpaca with the account's keys.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountBroker {
    pub name: BrokerName,
    /// Alpaca's paper or live endpoint (Alpaca only).
    pub endpoint: Option<BrokerEndpoint>,
    /// The last four characters of the key id (Alpaca only); the secret is never shown.
    pub key_hint: Option<String>,
}

/// `PUT /api/accounts/{id}/broker`: connects the account to Alpaca with its keys.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrokerConnectionInput {
    /// `alpaca`.
    pub broker: BrokerName,
    /// Alpaca's paper or live endpoint.
    pub endpoint: BrokerEndpoint,
    /// The API key id, 8 to 64 letters and digits.
    #[schema(example = "PKTEST1234", min_length = 8, max_length = 64)]
    pub key_id: String,
    /// The API secret key, 16 to 128 characters; stored sealed, never shown again.
    #[schema(min_length = 16, max_length = 128)]
    pub secret_key: String,
}

/// The last four characters of a key id, after an ellipsis.
fn key_hint(key_id: &str) -> String {
    let chars: Vec<char> = key_id.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("…{tail}")
}

/// `GET /api/accounts`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradingAccounts {
    /// Oldest first.
    pub accounts: Vec<TradingAccount>,
    /// How many accounts the plan holds.
    pub max_accounts: u32,
}

/// `POST /api/accounts`: a name, and the preferences (each left out takes the first account's
/// defaults: $1,000 of capital, medium risk, $100 a position, Momentum and Breakout).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewTradingAccount {
    /// 1 to 40 characters, unique among the user's accounts whatever the case.
    #[schema(example = "IRA", min_length = 1, max_length = 40)]
    pub name: String,
    /// Dollars, more than 0, at most two decimals.
    #[schema(example = 25000.0, exclusive_minimum = 0.0, maximum = 1_000_000_000.0)]
    pub investment_capital: Option<f64>,
    pub risk_tolerance: Option<RiskTolerance>,
    /// Dollars per position, more than 0 and at most the capital.
    #[schema(example = 2500.0, exclusive_minimum = 0.0, maximum = 1_000_000_000.0)]
    pub max_position_size: Option<f64>,
    pub preferred_strategies: Option<Vec<StrategyName>>,
    /// Whether the automation opens paper positions here (default on).
    pub automate: Option<bool>,
}

/// `PATCH /api/accounts/{id}`: what is left out keeps its stored value.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TradingAccountUpdate {
    #[schema(example = "IRA", min_length = 1, max_length = 40)]
    pub name: Option<String>,
    #[schema(example = 25000.0, exclusive_minimum = 0.0, maximum = 1_000_000_000.0)]
    pub investment_capital: Option<f64>,
    pub risk_tolerance: Option<RiskTolerance>,
    #[schema(example = 2500.0, exclusive_minimum = 0.0, maximum = 1_000_000_000.0)]
    pub max_position_size: Option<f64>,
    pub preferred_strategies: Option<Vec<StrategyName>>,
    pub automate: Option<bool>,
    /// The kill switch: turning it on stops new orders at once and cancels the account's
    /// standing orders.
    pub orders_halted: Option<bool>,
}

/// `PUT /api/accounts/current`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CurrentAccountInput {
    /// The id of one of the user's accounts.
    pub id: String,
}

fn view(
    row: AccountRow,
    place: usize,
    entitlements: &Entitlements,
    connection: Option<&ConnectionRow>,
    cash_out: f64,
) -> Result<TradingAccount> {
    let what = format!("trading account {}", row.id);
    let broker = match connection {
        Some(c) => AccountBroker {
            name: stored(&c.broker, &what)?,
            endpoint: Some(stored(&c.endpoint, &what)?),
            key_hint: Some(key_hint(&c.key_id)),
        },
        None => AccountBroker { name: BrokerName::Paper, endpoint: None, key_hint: None },
    };
    Ok(TradingAccount {
        broker,
        risk_tolerance: stored(&row.risk_tolerance, &what)?,
        preferred_strategies: strategies_of(&row.preferred_strategies),
        investment_capital: dollars(row.investment_capital_cents),
        cash: round2(dollars(row.investment_capital_cents) - cash_out),
        max_position_size: dollars(row.max_position_size_cents),
        within_plan: place <= entitlements.trading_accounts as usize,
        id: row.id,
        name: row.name,
        automate: row.automate,
        orders_halted: row.orders_halted,
        current: row.is_current,
        created_at: row.created_at,
    })
}

/// What the fills of `user_id`'s account `id` and its broker's fees took from cash (see
/// [`TradingAccount::cash`]).
async fn cash_out_of(state: &AppState, user_id: &str, id: &str) -> Result<f64> {
    let by_account = strikeline_store::orders::cash_out_by_account(&state.db, user_id, Some(id)).await?;
    Ok(by_account.into_iter().find(|(account, _)| account == id).map_or(0.0, |(_, out)| out))
}

/// The place of the account `id` among `user_id`'s accounts, oldest first (1 for the oldest),
/// which the plan's number is checked against.
async fn place_of(state: &AppState, user_id: &str, id: &str) -> Result<usize> {
    Ok(store::for_user(&state.db, user_id).await?.iter().position(|a| a.id == id).map_or(usize::MAX, |i| i + 1))
}

/// The strategies of a stored comma-separated list (an unknown name is left out, as the
/// automation leaves it out).
fn strategies_of(stored: &str) -> Vec<StrategyName> {
    stored.split(',').filter_map(|s| StrategyName::exact(s.trim()).ok()).collect()
}

/// The stored spelling of `strategies`, each once, in the order given.
fn stored_strategies(strategies: &[StrategyName]) -> String {
    let mut names: Vec<&'static str> = Vec::new();
    for s in strategies {
        if !names.contains(&s.spelling()) {
            names.push(s.spelling());
        }
    }
    names.join(",")
}

/// A name as stored: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
fn checked_name(raw: &str, errors: &mut Vec<FieldError>) -> String {
    let name = raw.trim();
    if name.is_empty() {
        errors.push(FieldError::new("name", "Enter a name"));
    } else if name.chars().count() > MAX_NAME_CHARS {
        errors.push(FieldError::new("name", format!("At most {MAX_NAME_CHARS} characters")));
    } else if name.chars().any(char::is_control) {
        errors.push(FieldError::new("name", "No control characters"));
    }
    name.to_owned()
}

/// The user's accounts, oldest first, and how many the plan holds.
#[utoipa::path(
    get, path = "/api/accounts", operation_id = "list_trading_accounts", tag = "accounts",
    responses((status = 200, body = TradingAccounts), (status = 401, description = "Not signed in", body = Problem))
)]
async fn list(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<TradingAccounts>> {
    let entitlements = Entitlements::of(&user, state.clock.now());
    let rows = store::for_user(&state.db, &user.id).await?;
    let connections = strikeline_store::broker_connections::for_user(&state.db, &user.id).await?;
    let cash_out = strikeline_store::orders::cash_out_by_account(&state.db, &user.id, None).await?;
    let accounts = rows
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            let connection = connections.iter().find(|c| c.account_id == row.id);
            let out = cash_out.iter().find(|(id, _)| *id == row.id).map_or(0.0, |(_, out)| *out);
            view(row, i + 1, &entitlements, connection, out)
        })
        .collect::<Result<_>>()?;
    Ok(axum::Json(TradingAccounts { accounts, max_accounts: entitlements.trading_accounts }))
}

/// Opens another trading account (not current: switch to it with `PUT /api/accounts/current`).
#[utoipa::path(
    post, path = "/api/accounts", operation_id = "create_trading_account", tag = "accounts",
    request_body = NewTradingAccount,
    responses(
        (status = 201, body = TradingAccount),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "The plan holds one account; more need the Premium plan", body = Problem),
        (status = 409, description = "The name is taken, or the plan's number of accounts is held", body = Problem),
        (status = 422, description = "A field is not valid; `errors` names it", body = Problem),
    )
)]
async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(input): ApiJson<NewTradingAccount>,
) -> Result<(StatusCode, axum::Json<TradingAccount>)> {
    let now = state.clock.now();
    let entitlements = Entitlements::of(&user, now);
    let mut errors = Vec::new();
    let name = checked_name(&input.name, &mut errors);
    let (capital, max_position) = crate::foundation::money::checked_sizes(
        input.investment_capital,
        input.max_position_size,
        (store::DEFAULT_CAPITAL_CENTS, store::DEFAULT_MAX_POSITION_CENTS),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let row = AccountRow {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user.id.clone(),
        name,
        investment_capital_cents: capital,
        risk_tolerance: input.risk_tolerance.map_or(store::DEFAULT_RISK_TOLERANCE, |r| r.as_str()).to_owned(),
        max_position_size_cents: max_position,
        preferred_strategies: input.preferred_strategies.as_deref().map_or_else(|| store::DEFAULT_STRATEGIES.to_owned(), stored_strategies),
        automate: input.automate.unwrap_or(true),
        is_current: false,
        created_at: now,
        updated_at: now,
        orders_halted: false,
    };
    if !store::insert_within(&state.db, &row, entitlements.trading_accounts).await? {
        return Err(entitlements.accounts_held());
    }
    let place = place_of(&state, &user.id, &row.id).await?;
    Ok((StatusCode::CREATED, axum::Json(view(row, place, &entitlements, None, 0.0)?)))
}

/// Renames an account or changes its preferences or automation switch (every plan: what an
/// account beyond the plan's number holds stays the user's to manage).
#[utoipa::path(
    patch, path = "/api/accounts/{id}", operation_id = "update_trading_account", tag = "accounts",
    params(("id" = String, Path, description = "The account's id")),
    request_body = TradingAccountUpdate,
    responses(
        (status = 200, body = TradingAccount),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 409, description = "The name is taken by another of your accounts", body = Problem),
        (status = 422, description = "A field is not valid; `errors` names it", body = Problem),
    )
)]
async fn update(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<TradingAccountUpdate>,
) -> Result<axum::Json<TradingAccount>> {
    let now = state.clock.now();
    let stored = store::find(&state.db, &user.id, &id).await?;
    let mut errors = Vec::new();
    let name = input.name.as_deref().map(|n| checked_name(n, &mut errors));
    let sizes = crate::foundation::money::checked_sizes(
        input.investment_capital,
        input.max_position_size,
        (stored.investment_capital_cents, stored.max_position_size_cents),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let change = AccountUpdate {
        name,
        investment_capital_cents: Some(sizes.0),
        max_position_size_cents: Some(sizes.1),
        risk_tolerance: input.risk_tolerance.map(|r| r.as_str().to_owned()),
        preferred_strategies: input.preferred_strategies.as_deref().map(stored_strategies),
        automate: input.automate,
        orders_halted: input.orders_halted,
    };
    let saved = store::update(&state.db, &user.id, &id, &change, now).await?;
    if let Some(halted) = input.orders_halted {
        let detail = if halted {
            let cancelled =
                crate::services::execution::cancel_standing_in(&state, &saved.id, "Stopped by the account's kill switch.", now).await?;
            let orders = if cancelled == 1 { "order" } else { "orders" };
            format!("Kill switch on for {} ({cancelled} standing {orders} cancelled)", saved.name)
        } else {
            format!("Kill switch off for {}", saved.name)
        };
        audit::record(&state, Some(&user.id), None, AuditAction::OrdersHalted, Some(detail), &origin, now).await?;
    }
    let entitlements = Entitlements::of(&user, now);
    let place = place_of(&state, &user.id, &id).await?;
    let connection = strikeline_store::broker_connections::find(&state.db, &id).await?;
    let out = cash_out_of(&state, &user.id, &saved.id).await?;
    Ok(axum::Json(view(saved, place, &entitlements, connection.as_ref(), out)?))
}

/// Deletes an account with its closed positions, finished orders and history. The current
/// account, and one holding open positions or standing orders, are kept (409): switch away, or
/// close or cancel them, first.
#[utoipa::path(
    delete, path = "/api/accounts/{id}", operation_id = "delete_trading_account", tag = "accounts",
    params(("id" = String, Path, description = "The account's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 409, description = "It is the current account, or it holds open positions", body = Problem),
    )
)]
async fn delete(State(state): State<AppState>, CurrentUser(user): CurrentUser, Path(id): Path<String>) -> Result<StatusCode> {
    match store::delete(&state.db, &user.id, &id).await? {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(Kept::Current) => {
            Err(AppError::Conflict(FieldError::new("id", "This is the account you are working in. Switch to another account first.")))
        }
        Err(Kept::OpenPositions) => Err(AppError::Conflict(FieldError::new(
            "id",
            "This account holds open positions or standing orders. Close or cancel them before deleting it.",
        ))),
    }
}

/// Makes one of the user's accounts the current one: the portfolio, new positions and the
/// preferences in Settings are then that account's.
#[utoipa::path(
    put, path = "/api/accounts/current", operation_id = "switch_trading_account", tag = "accounts",
    request_body = CurrentAccountInput,
    responses(
        (status = 200, body = TradingAccount),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 422, description = "`id` is missing", body = Problem),
    )
)]
async fn switch_current(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(input): ApiJson<CurrentAccountInput>,
) -> Result<axum::Json<TradingAccount>> {
    let now = state.clock.now();
    let row = store::switch_current(&state.db, &user.id, &input.id, now).await?;
    let entitlements = Entitlements::of(&user, now);
    let place = place_of(&state, &user.id, &row.id).await?;
    let connection = strikeline_store::broker_connections::find(&state.db, &row.id).await?;
    let out = cash_out_of(&state, &user.id, &row.id).await?;
    Ok(axum::Json(view(row, place, &entitlements, connection.as_ref(), out)?))
}

/// Connects one of the user's accounts to Alpaca (Premium): its orders then go to Alpaca's
/// paper or live endpoint with these keys. The secret is sealed with the operator's key before
/// it is stored, and never shown again. Replaces an earlier connection.
#[utoipa::path(
    put, path = "/api/accounts/{id}/broker", operation_id = "connect_broker", tag = "accounts",
    params(("id" = String, Path, description = "The account's id")),
    request_body = BrokerConnectionInput,
    responses(
        (status = 200, body = TradingAccount),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Trading through Alpaca needs the Premium plan", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 409, description = "This server stores no broker keys (no credentials key), or the account has standing orders", body = Problem),
        (status = 422, description = "A field is not valid; `errors` names it", body = Problem),
    )
)]
async fn connect_broker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    Path(id): Path<String>,
    ApiJson(input): ApiJson<BrokerConnectionInput>,
) -> Result<axum::Json<TradingAccount>> {
    let now = state.clock.now();
    let entitlements = Entitlements::of(&user, now);
    entitlements.require(crate::foundation::entitlements::Capability::BrokerExecution)?;
    let account = store::find(&state.db, &user.id, &id).await?;
    let mut errors = Vec::new();
    if input.broker != BrokerName::Alpaca {
        errors.push(FieldError::new("broker", "Connect `alpaca`; the paper broker needs no keys (disconnect to go back to it)."));
    }
    let key_id = input.key_id.trim();
    if !(8..=64).contains(&key_id.len()) || !key_id.chars().all(|c| c.is_ascii_alphanumeric()) {
        errors.push(FieldError::new("keyId", "An Alpaca key id is 8 to 64 letters and digits."));
    }
    let secret = input.secret_key.trim();
    if !(16..=128).contains(&secret.chars().count()) || secret.chars().any(char::is_whitespace) {
        errors.push(FieldError::new("secretKey", "An Alpaca secret key is 16 to 128 characters, without spaces."));
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }
    let Some(key) = crate::foundation::credentials::SealingKey::configured(&state.config) else {
        return Err(AppError::Conflict(FieldError::new(
            "broker",
            "This server cannot store broker keys: its operator has not set brokers.credentials_key.",
        )));
    };
    refuse_with_standing_orders(&state, &account.id).await?;
    let sealed = key.seal(&account.id, secret).ok_or_else(|| AppError::Internal(anyhow::anyhow!("sealing a broker secret failed")))?;
    let row = ConnectionRow {
        account_id: account.id.clone(),
        user_id: user.id.clone(),
        broker: BrokerName::Alpaca.as_str().to_owned(),
        endpoint: input.endpoint.as_str().to_owned(),
        key_id: key_id.to_owned(),
        secret_sealed: sealed,
        created_at: now,
    };
    strikeline_store::broker_connections::upsert(&state.db, &row).await?;
    let detail = format!("{} connected to Alpaca ({} endpoint, key {})", account.name, input.endpoint.as_str(), key_hint(key_id));
    audit::record(&state, Some(&user.id), None, AuditAction::BrokerConnected, Some(detail), &origin, now).await?;
    let place = place_of(&state, &user.id, &account.id).await?;
    let out = cash_out_of(&state, &user.id, &account.id).await?;
    Ok(axum::Json(view(account, place, &entitlements, Some(&row), out)?))
}

/// Disconnects an account from its broker: its next orders go to the paper broker. Refused
/// (409) while it has standing orders at the broker.
#[utoipa::path(
    delete, path = "/api/accounts/{id}/broker", operation_id = "disconnect_broker", tag = "accounts",
    params(("id" = String, Path, description = "The account's id")),
    responses(
        (status = 200, body = TradingAccount),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 409, description = "The account has standing orders at its broker", body = Problem),
    )
)]
async fn disconnect_broker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    origin: Origin,
    Path(id): Path<String>,
) -> Result<axum::Json<TradingAccount>> {
    let now = state.clock.now();
    let account = store::find(&state.db, &user.id, &id).await?;
    refuse_with_standing_orders(&state, &account.id).await?;
    if strikeline_store::broker_connections::delete(&state.db, &user.id, &account.id).await? {
        let detail = format!("{} disconnected from its broker: orders go to the paper broker", account.name);
        audit::record(&state, Some(&user.id), None, AuditAction::BrokerDisconnected, Some(detail), &origin, now).await?;
    }
    let entitlements = Entitlements::of(&user, now);
    let place = place_of(&state, &user.id, &account.id).await?;
    let out = cash_out_of(&state, &user.id, &account.id).await?;
    Ok(axum::Json(view(account, place, &entitlements, None, out)?))
}

/// Checks one of the user's accounts against Alpaca (Premium): the options contracts our books
/// hold (open automated and manual positions) against Alpaca's positions, contract by
/// contract, with the cash Alpaca reports.
#[utoipa::path(
    get, path = "/api/accounts/{id}/broker/reconciliation", operation_id = "reconcile_broker", tag = "accounts",
    params(("id" = String, Path, description = "The account's id")),
    responses(
        (status = 200, body = Reconciliation),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "Trading through Alpaca needs the Premium plan", body = Problem),
        (status = 404, description = "No such account of yours", body = Problem),
        (status = 409, description = "The account is not connected to Alpaca, or Alpaca refused its keys", body = Problem),
        (status = 429, description = "Too many checks; see Retry-After", body = Problem),
        (status = 503, description = "Alpaca cannot answer now", body = Problem),
    )
)]
async fn reconcile_broker(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<(limits::RateLimit, axum::Json<Reconciliation>)> {
    let (limit, checked) = reconciliation::check(&state, &user, &id, state.clock.now()).await?;
    Ok((limit, axum::Json(checked)))
}

/// A broker is changed only between orders: 409 while the account has standing ones.
async fn refuse_with_standing_orders(state: &AppState, account_id: &str) -> Result<()> {
    if strikeline_store::orders::standing_in(&state.db, account_id).await?.is_empty() {
        return Ok(());
    }
    Err(AppError::Conflict(FieldError::new("broker", "This account has standing orders. Cancel them, or let them fill, first.")))
}
