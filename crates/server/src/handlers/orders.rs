//! A trading account's orders (docs/execution.md): what the automation sent for it, each with
//! its legs, where it stands and its fills; and cancelling one still standing.

use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::orders::{self, FillRow, StoredOrder};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::foundation::entitlements::{Capability, Entitlements};
use crate::foundation::error::{AppError, FieldError, Problem, Result};
use crate::foundation::extract::ApiJson;
use crate::foundation::limits;
use crate::foundation::money::dollars;
use crate::foundation::session::CurrentUser;
use crate::foundation::state::AppState;
use crate::foundation::vocab::{OptionRight, OrderDuration, OrderKind, OrderSide, OrderState, Vocabulary, stored};
use crate::services::execution::proposal::{self, Chosen};

/// How many of an account's orders the list shows, newest first.
pub const LISTED: i64 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_orders)).routes(routes!(cancel_order)).routes(routes!(send_proposal))
}

/// One position of an optimiser proposal to send.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProposalPosition {
    /// An active signal the user may trade (one of the optimiser's candidates).
    pub signal_id: String,
    /// 1 to 10,000.
    #[schema(minimum = 1, maximum = 10_000)]
    pub contracts: i64,
}

/// `POST /api/orders/proposal`: the positions of an optimiser proposal, as the user accepted
/// them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProposalOrders {
    /// 1 to 50 positions, each signal once.
    pub positions: Vec<ProposalPosition>,
}

/// What sending a proposal came to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentOrders {
    /// Each position's order, in the order sent: placed now, or placed before for the same
    /// signal (by the automation or an earlier send), which is not placed twice.
    pub orders: Vec<OrderView>,
    /// How many of them this request placed.
    pub placed: usize,
}

/// One leg of an order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderLegView {
    pub right: OptionRight,
    pub side: OrderSide,
    /// Dollars per share.
    pub strike: f64,
    pub expiration: NaiveDate,
    /// Contracts of this leg per unit of the order.
    pub ratio: i64,
}

/// One fill of an order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderFillView {
    pub units: i64,
    /// Dollars per share per unit, net of the legs: positive paid, negative received.
    pub net_price: f64,
    /// Dollars taken from the account's cash (negative: brought in), commissions included.
    pub cash_out: f64,
    /// Dollars.
    pub commission: f64,
    pub filled_at: DateTime<Utc>,
}

/// An order of the current account.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderView {
    pub id: String,
    /// The sender's id for it, unique in the account (the automation's is one per signal).
    pub client_order_id: String,
    /// The signal it executes, if any.
    pub signal_id: Option<String>,
    pub underlying: String,
    /// Units ordered; each leg trades its ratio times this many contracts.
    pub quantity: i64,
    pub order_type: OrderKind,
    /// Dollars per share per unit, net (limit orders only).
    pub limit_price: Option<f64>,
    pub time_in_force: OrderDuration,
    pub status: OrderState,
    pub filled_units: i64,
    /// Why it was rejected or cancelled.
    pub reason: Option<String>,
    /// `paper` for the built-in paper broker.
    pub broker: String,
    pub placed_on: NaiveDate,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// When it is cancelled if still standing.
    pub expires_at: Option<DateTime<Utc>>,
    pub legs: Vec<OrderLegView>,
    /// Oldest first.
    pub fills: Vec<OrderFillView>,
}

fn view(order: StoredOrder, fills: &[FillRow]) -> Result<OrderView> {
    let what = format!("order {}", order.row.id);
    let legs = order
        .legs
        .iter()
        .map(|leg| {
            Ok(OrderLegView {
                right: stored(&leg.option_right, &what)?,
                side: stored(&leg.side, &what)?,
                strike: dollars(leg.strike_cents),
                expiration: leg.expiration_date,
                ratio: leg.ratio,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let fills = fills
        .iter()
        .filter(|f| f.order_id == order.row.id)
        .map(|f| OrderFillView {
            units: f.units,
            net_price: f.net_price,
            cash_out: f.cash_out,
            commission: dollars(f.commission_cents),
            filled_at: f.filled_at,
        })
        .collect();
    let row = order.row;
    Ok(OrderView {
        order_type: stored(&row.order_type, &what)?,
        time_in_force: stored(&row.time_in_force, &what)?,
        status: stored(&row.status, &what)?,
        id: row.id,
        client_order_id: row.client_order_id,
        signal_id: row.signal_id,
        underlying: row.underlying,
        quantity: row.quantity,
        limit_price: row.limit_price,
        filled_units: row.filled_units,
        reason: row.reason,
        broker: row.broker,
        placed_on: row.placed_on,
        created_at: row.created_at,
        updated_at: row.updated_at,
        expires_at: row.expires_at,
        legs,
        fills,
    })
}

/// The current account's latest 100 orders, newest first, with their legs and fills.
#[utoipa::path(
    get, path = "/api/orders", tag = "orders",
    responses(
        (status = 200, body = Vec<OrderView>),
        (status = 401, description = "Not signed in", body = Problem),
    )
)]
async fn list_orders(State(state): State<AppState>, CurrentUser(user): CurrentUser) -> Result<axum::Json<Vec<OrderView>>> {
    let listed = orders::for_account(&state.db, &user.account_id, LISTED).await?;
    let ids: Vec<String> = listed.iter().map(|o| o.row.id.clone()).collect();
    let fills = orders::fills_of(&state.db, &ids).await?;
    Ok(axum::Json(listed.into_iter().map(|o| view(o, &fills)).collect::<Result<Vec<_>>>()?))
}

/// Sends an optimiser proposal as orders for the current account (Premium): one market order
/// per position, filled by the account's broker (the paper broker: at the signal's premium
/// with 1% slippage and $0.65 a contract). Checked whole first: each position an active
/// signal the user may trade, within the account's maximum position size, and the new ones
/// together within its capital left.
#[utoipa::path(
    post, path = "/api/orders/proposal", tag = "orders",
    request_body = ProposalOrders,
    responses(
        (status = 200, body = SentOrders),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 403, description = "The plan does not include the optimiser", body = Problem),
        (status = 409, description = "A kill switch stops orders for this account", body = Problem),
        (status = 422, description = "A position is not valid; `errors` names it", body = Problem),
        (status = 429, description = "Too many sends; see Retry-After", body = Problem),
    )
)]
async fn send_proposal(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(input): ApiJson<ProposalOrders>,
) -> Result<(limits::RateLimit, axum::Json<SentOrders>)> {
    let now = state.clock.now();
    Entitlements::of(&user, now).require(Capability::PortfolioOptimisation)?;
    let limit = limits::hit(&state, limits::ORDER_SEND, &user.id, now).await?;
    let chosen: Vec<Chosen> = input
        .positions
        .into_iter()
        .map(|p| Chosen { signal_id: p.signal_id, contracts: u32::try_from(p.contracts).unwrap_or(0) })
        .collect();
    let sent = proposal::send(&state, &user, &chosen, now).await?;
    let placed = sent.orders.iter().filter(|(_, placed)| *placed).count();
    let ids: Vec<String> = sent.orders.iter().map(|(o, _)| o.row.id.clone()).collect();
    let fills = orders::fills_of(&state.db, &ids).await?;
    let orders = sent.orders.into_iter().map(|(o, _)| view(o, &fills)).collect::<Result<Vec<_>>>()?;
    Ok((limit, axum::Json(SentOrders { orders, placed })))
}

/// Cancels one of the current account's orders still standing, keeping what filled.
#[utoipa::path(
    post, path = "/api/orders/{id}/cancel", tag = "orders",
    params(("id" = String, Path, description = "The order's id")),
    responses(
        (status = 200, body = OrderView),
        (status = 401, description = "Not signed in", body = Problem),
        (status = 404, description = "No such order in your current account", body = Problem),
        (status = 409, description = "It is no longer standing (filled, cancelled or rejected)", body = Problem),
    )
)]
async fn cancel_order(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<axum::Json<OrderView>> {
    let now = state.clock.now();
    let order = orders::find(&state.db, &user.account_id, &id).await?;
    let standing = matches!(OrderState::exact(&order.row.status), Ok(OrderState::New | OrderState::Accepted | OrderState::PartiallyFilled));
    if !standing || !crate::services::execution::cancel(&state, &order, "Cancelled by you.", now).await? {
        return Err(AppError::Conflict(FieldError::new(
            "id",
            "This order is no longer standing: it has filled, been cancelled or been rejected.",
        )));
    }
    let order = orders::find(&state.db, &user.account_id, &id).await?;
    let fills = orders::fills(&state.db, &order.row.id).await?;
    Ok(axum::Json(view(order, &fills)?))
}
