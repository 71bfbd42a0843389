//! Verified accounts: the emailed link that confirms an address (and starts the trial, once
//! per address), and the forgotten-password link. A link carries a random 256-bit token; the
//! store keeps only its SHA-256, a link works once, and only the newest of its kind works.

use chrono::{DateTime, Duration, Utc};
use strikeline_store::accounts::{self as store, NewToken, Purpose};
use strikeline_store::users::{self, UserRecord};

use crate::foundation::error::{AppError, Result};
use crate::foundation::limits;
use crate::foundation::plans::TRIAL_DAYS;
use crate::foundation::session::{new_token, sid_for};
use crate::foundation::state::AppState;
use crate::services::mailing::{self, MailingList};

/// How long a confirmation link works.
pub const VERIFY_TTL_HOURS: i64 = 48;
/// How long a password reset link works.
pub const RESET_TTL_MINUTES: i64 = 30;
/// Reset links one account is sent per hour, whoever asks (beyond: the same answer, no mail).
pub const RESETS_PER_ACCOUNT_HOUR: i64 = 3;

/// The name of the instance key the trial register is keyed with.
const TRIAL_KEY: &str = "trial_register";

/// What a link that no longer works says.
pub const LINK_USED: &str = "This link has expired or was already used. Ask for a new one.";

fn link(state: &AppState, page: &str, token: &str) -> String {
    format!("{}/{page}?token={token}", mailing::base_url(state))
}

/// Stores a new link of `purpose` for `user`, working until `expires_at` (ending any earlier
/// one of that purpose), and returns its token: what goes into the emailed link, never stored.
async fn issue_link(
    state: &AppState,
    user: &UserRecord,
    purpose: Purpose,
    now: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<String> {
    let token = new_token();
    let new = NewToken { token_hash: &sid_for(&token), user_id: &user.id, purpose, email: &user.email, created_at: now, expires_at };
    store::issue(&state.db, &new).await?;
    Ok(token)
}

/// Whether `token` has the shape of a link's token at all (made-up ones are refused unread).
fn plausible(token: &str) -> bool {
    !token.is_empty() && token.len() <= 128
}

/// Sends `user` a link confirming their address (ending any earlier one).
pub async fn send_confirmation(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<()> {
    let token = issue_link(state, user, Purpose::VerifyEmail, now, now + Duration::hours(VERIFY_TTL_HOURS)).await?;
    let text = format!(
        "Welcome to Strikeline. Confirm that {} is your address by opening this link:\n\n{}\n\n\
         It works once, for {VERIFY_TTL_HOURS} hours. Your 14-day Pro trial, API keys and webhooks start once it is confirmed. \
         If you did not create an account, ignore this email.",
        user.email,
        link(state, "verify-email", &token)
    );
    mailing::queue(state, user, MailingList::Account, "verify_email", "Confirm your email address", &text, now).await?;
    Ok(())
}

/// Sends `user` a new confirmation link when asked from the app (5 an hour per account).
pub async fn resend_confirmation(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<limits::RateLimit> {
    if user.email_verified_at.is_some() {
        return Err(AppError::Conflict(crate::foundation::error::FieldError::new("email", "Your email address is already confirmed.")));
    }
    let limit = limits::hit(state, limits::CONFIRMATION_RESEND, &user.id, now).await?;
    send_confirmation(state, user, now).await?;
    Ok(limit)
}

/// The trial register's key for `email`: HMAC-SHA256 under the instance's own key, so the
/// register names no address and cannot be reversed by hashing a list of addresses.
async fn trial_key(state: &AppState, email: &str, now: DateTime<Utc>) -> Result<String> {
    use rand::RngCore;
    let stored = match strikeline_store::ledger::key(&state.db, TRIAL_KEY).await? {
        Some((secret, _)) => secret,
        None => {
            let mut bytes = [0u8; 32];
            rand::rngs::OsRng.fill_bytes(&mut bytes);
            let fresh: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            strikeline_store::ledger::key_or_insert(&state.db, TRIAL_KEY, &fresh, "", now).await?.0
        }
    };
    use hmac::{Hmac, Mac};
    let mut mac =
        Hmac::<sha2::Sha256>::new_from_slice(stored.as_bytes()).map_err(|e| AppError::Internal(anyhow::anyhow!("trial key: {e}")))?;
    mac.update(email.trim().to_lowercase().as_bytes());
    Ok(mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect())
}

/// What confirming an address did.
#[derive(Debug)]
pub struct Confirmed {
    pub user: UserRecord,
    pub trial_started: bool,
}

/// Confirms the address of the link's `token`, once; the trial starts if the address never
/// had one and the account does not pay already. 422 naming `token` for a link that no longer
/// works.
pub async fn confirm(state: &AppState, token: &str, now: DateTime<Utc>) -> Result<Confirmed> {
    let used = || AppError::field("token", LINK_USED);
    if !plausible(token) {
        return Err(used());
    }
    let hash = sid_for(token);
    // The address the link was sent to decides the trial key; read it through the user once
    // the link is known to be good (the store checks the address is still the account's).
    let Some(user_id) = pending_user(state, &hash).await? else { return Err(used()) };
    let user = users::find_by_id(&state.db, &user_id).await?.ok_or_else(used)?;
    let key = trial_key(state, &user.email, now).await?;
    let (user_id, trial_started) =
        store::confirm_email(&state.db, &hash, &key, now + Duration::days(TRIAL_DAYS), now).await?.ok_or_else(used)?;
    let user = users::find_by_id(&state.db, &user_id).await?.ok_or_else(used)?;
    Ok(Confirmed { user, trial_started })
}

/// Confirms `user`'s address as an operator does (`strikeline users confirm`): the same as the
/// link, the trial included when the address never had one.
pub async fn confirm_by_operator(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<Confirmed> {
    let key = trial_key(state, &user.email, now).await?;
    let trial_started =
        store::confirm_user(&state.db, &user.id, &key, now + Duration::days(TRIAL_DAYS), now).await?.ok_or(AppError::NotFound)?;
    let user = users::find_by_id(&state.db, &user.id).await?.ok_or(AppError::NotFound)?;
    Ok(Confirmed { user, trial_started })
}

async fn pending_user(state: &AppState, token_hash: &str) -> Result<Option<String>> {
    Ok(store::pending_user(&state.db, token_hash, Purpose::VerifyEmail, state.clock.now()).await?)
}

/// Whether `token` is a reset link that still works (checked before the new password is
/// hashed, so made-up tokens cost no hashing).
pub async fn reset_link_works(state: &AppState, token: &str, now: DateTime<Utc>) -> Result<bool> {
    if !plausible(token) {
        return Ok(false);
    }
    Ok(store::pending_user(&state.db, &sid_for(token), Purpose::ResetPassword, now).await?.is_some())
}

/// Sends a reset link to the account of `email`, if there is one and it has not had
/// [`RESETS_PER_ACCOUNT_HOUR`] this hour. The caller answers the same either way.
pub async fn request_reset(state: &AppState, email: &str, now: DateTime<Utc>) -> Result<()> {
    let Some(user) = users::find_by_email(&state.db, email).await? else { return Ok(()) };
    if store::sent_since(&state.db, &user.id, Purpose::ResetPassword, now - Duration::hours(1)).await? >= RESETS_PER_ACCOUNT_HOUR {
        return Ok(());
    }
    let token = issue_link(state, &user, Purpose::ResetPassword, now, now + Duration::minutes(RESET_TTL_MINUTES)).await?;
    let text = format!(
        "Someone asked to reset the password of your Strikeline account. To choose a new password, open this link:\n\n{}\n\n\
         It works once, for {RESET_TTL_MINUTES} minutes. Setting a new password signs you out everywhere and switches off your API keys. \
         If it was not you, ignore this email: your password stays as it is.",
        link(state, "reset-password", &token)
    );
    mailing::queue(state, &user, MailingList::Account, "reset_password", "Reset your Strikeline password", &text, now).await?;
    Ok(())
}

/// Sets `password_hash` through the reset link of `token`, once: every session ends and every
/// API key is switched off. The account's id and the ended sessions.
pub async fn reset(state: &AppState, token: &str, password_hash: &str, now: DateTime<Utc>) -> Result<(String, Vec<String>)> {
    let used = || AppError::field("token", LINK_USED);
    if !plausible(token) {
        return Err(used());
    }
    store::reset_password(&state.db, &sid_for(token), password_hash, now).await?.ok_or_else(used)
}
