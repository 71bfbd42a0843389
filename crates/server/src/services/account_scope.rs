//! What an API key or a webhook endpoint is scoped to (docs/accounts.md): none (the owner's
//! current account for a key; every account's positions for an endpoint), or one of the owner's
//! trading accounts.

use strikeline_store::users::UserRecord;
use strikeline_store::{StoreError, trading_accounts};

use crate::foundation::error::{AppError, Result};
use crate::foundation::state::AppState;

/// The scope `requested` for something `user` creates: `None` stays `None`; an id must name
/// one of `user`'s accounts, else 422 on `accountId` (another user's id reads as no such account).
pub async fn checked(state: &AppState, user: &UserRecord, requested: Option<&str>) -> Result<Option<String>> {
    let Some(id) = requested else { return Ok(None) };
    match trading_accounts::find(&state.db, &user.id, id).await {
        Ok(account) => Ok(Some(account.id)),
        Err(StoreError::NotFound) => Err(AppError::field("accountId", "No such trading account of yours")),
        Err(err) => Err(err.into()),
    }
}
