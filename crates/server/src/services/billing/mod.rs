//! Billing: buying a plan (a checkout confirmed by the payment provider), changing, cancelling
//! and resuming it, and renewing paid periods on schedule. The state machine is
//! [`crate::foundation::subscription`]; each transition is written with its invoice and its audit entry in
//! one transaction, and only if the state is still the one it was decided on.
//!
//! The provider is the built-in test provider ([`test_provider`]), which works with no
//! network, or Stripe ([`stripe`]) when configured: then Stripe takes the card, renews and
//! prorates, and its signed webhooks (each applied once) bring its state here.

pub mod quote;
pub mod stripe;
pub mod test_provider;

use chrono::{DateTime, Duration, Utc};
use strikeline_store::audit::AuditEvent;
use strikeline_store::billing::{self as store, BillingState, Checkout, Invoice, Transition};
use strikeline_store::users::UserRecord;

use crate::foundation::audit::Origin;
use crate::foundation::entitlements::Plan;
use crate::foundation::error::{AppError, FieldError, Result};
use crate::foundation::state::AppState;
use crate::foundation::subscription::{Event, Refusal, Subscription, period_end, price_cents};
use crate::foundation::vocab::{AuditAction, BillingInterval};
use test_provider::Charge;

/// The built-in test provider's name, as stored.
pub const TEST_PROVIDER: &str = "test";
/// Stripe's name, as stored.
pub const STRIPE: &str = "stripe";
/// How long a started checkout can be confirmed, and is reused by a reloaded payment page.
pub const CHECKOUT_TTL_HOURS: i64 = 24;

/// A checkout the payment form confirms.
#[derive(Clone, Debug)]
pub struct CheckoutStarted {
    pub client_secret: String,
    pub provider: &'static str,
    pub amount_cents: i64,
    pub plan: Plan,
    pub interval: BillingInterval,
}

/// The card details the test provider's form sends.
#[derive(Clone, Debug)]
pub struct CardDetails {
    pub number: String,
    pub exp_month: u32,
    pub exp_year: u32,
    pub cvc: String,
}

fn token(prefix: &str) -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 24];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{prefix}{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

fn invoice_number(now: DateTime<Utc>) -> String {
    let id = uuid::Uuid::new_v4().simple().to_string().to_uppercase();
    format!("SL-{}-{}", now.format("%Y%m%d"), &id[..8])
}

fn plan_words(plan: Plan, interval: Option<BillingInterval>) -> String {
    let name = match plan {
        Plan::Free => "Free",
        Plan::Pro => "Pro",
        Plan::Premium => "Premium",
    };
    match interval {
        Some(i) => format!("{name} ({i})"),
        None => name.to_owned(),
    }
}

fn describe(sub: &Subscription) -> String {
    match sub.status {
        crate::foundation::vocab::SubscriptionStatus::Trialing => "Pro trial".to_owned(),
        _ => plan_words(sub.plan, sub.interval),
    }
}

pub(crate) fn refusal(r: Refusal) -> AppError {
    AppError::Conflict(FieldError::new("subscription", r.to_string()))
}

fn changed_meanwhile() -> AppError {
    AppError::Conflict(FieldError::new("subscription", "Your subscription changed in the meantime. Reload and try again."))
}

/// The stored form of `sub`, keeping `base`'s provider, card and credit unless given.
fn state_of(sub: &Subscription, base: &BillingState, period_started_at: Option<DateTime<Utc>>) -> BillingState {
    BillingState {
        plan: sub.plan.id().to_owned(),
        status: sub.status.as_str().to_owned(),
        billing_interval: sub.interval.map(|i| i.as_str().to_owned()),
        period_started_at: if sub.interval.is_some() { period_started_at } else { None },
        period_end: sub.period_end,
        cancel_at_period_end: sub.cancel_at_period_end,
        grace_ends_at: sub.grace_ends_at,
        ..base.clone()
    }
}

fn audit(user_id: &str, actor: Option<&str>, detail: String, origin: &Origin, at: DateTime<Utc>) -> AuditEvent {
    AuditEvent {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: Some(user_id.to_owned()),
        actor_id: actor.map(str::to_owned),
        action: AuditAction::PlanChanged.as_str().to_owned(),
        detail: Some(detail),
        ip: origin.ip.clone(),
        user_agent: origin.user_agent.clone(),
        at,
    }
}

#[expect(clippy::too_many_arguments, reason = "one checkout's facts, each named at the call")]
fn invoice(
    user_id: &str,
    description: String,
    plan: Plan,
    interval: BillingInterval,
    charged: i64,
    credit_applied: i64,
    charge: &Charge,
    period: (DateTime<Utc>, DateTime<Utc>),
    now: DateTime<Utc>,
) -> Result<Invoice> {
    if period.1 < period.0 {
        return Err(AppError::Internal(anyhow::anyhow!(
            "an invoice for {} would end ({}) before it starts ({})",
            user_id,
            period.1,
            period.0
        )));
    }
    let (status, provider_ref, failure_message) = match charge {
        Charge::Paid { reference } => ("paid", Some(reference.clone()), None),
        Charge::Declined { message } => ("failed", None, Some(message.clone())),
    };
    Ok(Invoice {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.to_owned(),
        number: invoice_number(now),
        provider: TEST_PROVIDER.to_owned(),
        provider_ref,
        description,
        plan: plan.id().to_owned(),
        billing_interval: interval.as_str().to_owned(),
        amount_cents: charged,
        credit_applied_cents: credit_applied,
        currency: "usd".to_owned(),
        status: status.to_owned(),
        failure_message,
        period_start: period.0,
        period_end: period.1,
        created_at: now,
    })
}

/// Starts buying `plan` billed by `interval` (or finds the checkout started for it in the last
/// day): the client secret the payment form confirms. Free needs no payment; an account that
/// already pays changes its plan instead.
///
/// An account has at most one open checkout: a new one voids the one before (with Stripe, its
/// incomplete subscription is cancelled first, so it can no longer be paid; when Stripe cannot
/// be reached nothing changes and the new checkout is refused).
pub async fn start_checkout(
    state: &AppState,
    user: &UserRecord,
    plan: Plan,
    interval: BillingInterval,
    now: DateTime<Utc>,
) -> Result<CheckoutStarted> {
    if plan == Plan::Free {
        return Err(AppError::field("plan", "The Free plan needs no payment"));
    }
    if Subscription::of(user).settled(now).is_paid() {
        return Err(AppError::Conflict(FieldError::new(
            "plan",
            "You already have a paid subscription. Change it under Settings › Subscription.",
        )));
    }
    let amount_cents = price_cents(plan, interval);
    let since = now - Duration::hours(CHECKOUT_TTL_HOURS);
    if let Some(open) = store::pending_checkout(&state.db, &user.id, plan.id(), interval.as_str(), since).await?
        && open.provider == provider_name(state)
    {
        return Ok(CheckoutStarted { client_secret: open.client_secret, provider: provider_name(state), amount_cents, plan, interval });
    }
    let open = store::open_checkouts(&state.db, &user.id).await?;
    void_at_stripe(state, &open).await?;
    let id = uuid::Uuid::new_v4().to_string();
    let provider = provider_name(state);
    let (client_secret, provider_ref) = if provider == STRIPE {
        let client = stripe::StripeClient::new(&state.config.billing)?;
        let customer = match strikeline_store::users::payment_customer(&state.db, &user.id).await? {
            Some(customer) => customer,
            None => {
                let customer = client.create_customer(&user.id, &user.email).await?;
                strikeline_store::users::set_payment_customer(&state.db, &user.id, &customer, now).await?;
                customer
            }
        };
        let (subscription, secret) = client.create_subscription(&customer, &stripe_price(state, plan, interval)?, &id).await?;
        (secret, Some(subscription))
    } else {
        (format!("{}_secret_{}", id, token("")), None)
    };
    let checkout = Checkout {
        client_secret,
        id,
        user_id: user.id.clone(),
        provider: provider.to_owned(),
        provider_ref,
        plan: plan.id().to_owned(),
        billing_interval: interval.as_str().to_owned(),
        amount_cents,
        status: "pending".to_owned(),
        failure_message: None,
        created_at: now,
        completed_at: None,
    };
    let voided = store::replace_checkout(&state.db, &checkout, now).await?;
    // A checkout started at the same moment elsewhere was voided here after the check above:
    // its Stripe subscription is cancelled too (it expires on its own within a day otherwise).
    let missed: Vec<Checkout> = voided.into_iter().filter(|v| !open.iter().any(|o| o.id == v.id)).collect();
    if let Err(error) = void_at_stripe(state, &missed).await {
        tracing::warn!(user_id = %user.id, %error, "a replaced Stripe checkout was not cancelled");
    }
    Ok(CheckoutStarted { client_secret: checkout.client_secret, provider, amount_cents, plan, interval })
}

/// Cancels at Stripe the incomplete subscriptions of `checkouts` (those of the test provider
/// need nothing: a voided checkout cannot be paid). One that Stripe meanwhile took payment for
/// is not cancelled: that is a 409, and its webhook brings the plan.
async fn void_at_stripe(state: &AppState, checkouts: &[Checkout]) -> Result<()> {
    for checkout in checkouts.iter().filter(|c| c.provider == STRIPE) {
        let Some(id) = &checkout.provider_ref else { continue };
        let client = stripe::StripeClient::new(&state.config.billing)?;
        let remote = client.subscription(id).await?;
        if remote.is_live() {
            return Err(AppError::Conflict(FieldError::new(
                "plan",
                "Your previous checkout has just been paid. Reload to see your plan; change it under Settings › Subscription.",
            )));
        }
        if remote.status == "incomplete" {
            client.cancel(id, &format!("void-{}", checkout.id)).await?;
        }
    }
    Ok(())
}

/// Who takes new payments: `stripe` when configured, else the built-in test provider.
pub fn provider_name(state: &AppState) -> &'static str {
    match state.config.billing.provider {
        crate::foundation::config::PaymentProviderKind::Stripe => STRIPE,
        crate::foundation::config::PaymentProviderKind::Test => TEST_PROVIDER,
    }
}

fn stripe_price(state: &AppState, plan: Plan, interval: BillingInterval) -> Result<String> {
    let key = format!("{}_{}", plan.id(), interval.as_str());
    state
        .config
        .billing
        .stripe_prices
        .get(&key)
        .cloned()
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("billing.stripe_prices.{key} is not configured")))
}

fn plan_of_price(state: &AppState, price: &str) -> Option<(Plan, BillingInterval)> {
    let (key, _) = state.config.billing.stripe_prices.iter().find(|(_, id)| id.as_str() == price)?;
    let (plan, interval) = key.split_once('_')?;
    let plan = Plan::from_id(plan)?;
    let interval = <BillingInterval as crate::foundation::vocab::Vocabulary>::exact(interval).ok()?;
    Some((plan, interval))
}

/// Confirms `user`'s checkout with a card on the test provider's form. Paid: the plan is in
/// force at once, billed from now. Declined: 402 with the provider's message, nothing changes
/// (the checkout can be tried again with another card). A checkout that a newer one replaced,
/// that has expired, or that was started before the account began paying is 409, and nothing
/// is charged.
pub async fn pay_with_test_card(
    state: &AppState,
    user: &UserRecord,
    client_secret: &str,
    card: &CardDetails,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<()> {
    let checkout = store::checkout_by_secret(&state.db, client_secret)
        .await?
        .filter(|c| c.user_id == user.id && c.provider == TEST_PROVIDER)
        .ok_or_else(|| AppError::field("clientSecret", "This payment is not one of yours; start again from the pricing page"))?;
    let stale = |message: &str| Err(AppError::Conflict(FieldError::new("clientSecret", message)));
    match checkout.status.as_str() {
        "succeeded" => return stale("This payment has already been made."),
        "voided" => {
            return stale(
                "This checkout was replaced by a newer one, and nothing was charged. Pay the newest one, or start again from the pricing page.",
            );
        }
        "pending" => {}
        _ => return stale("This checkout is closed, and nothing was charged. Start again from the pricing page."),
    }
    if checkout.created_at < now - Duration::hours(CHECKOUT_TTL_HOURS) {
        return stale("This checkout has expired, and nothing was charged. Start again from the pricing page.");
    }
    let current = Subscription::of(user);
    if current.settled(now).is_paid() {
        return stale(
            "Your account already pays for a plan, so this checkout was not charged. Change your plan under Settings › Subscription.",
        );
    }
    let digits = test_provider::read_card(&card.number, card.exp_month, card.exp_year, &card.cvc, now).map_err(AppError::Validation)?;
    let plan = Plan::from_id(&checkout.plan).unwrap_or(Plan::Free);
    let interval: BillingInterval = crate::foundation::vocab::stored(&checkout.billing_interval, format_args!("checkout {}", checkout.id))?;
    let (charge, card_on_file) = test_provider::first_charge(&digits, &user.id, checkout.amount_cents, token("tp_ch_"));
    let before = BillingState::of(user);
    if let Charge::Declined { message } = &charge {
        tracing::info!(user_id = %user.id, checkout_id = %checkout.id, "payment declined");
        return Err(AppError::PaymentDeclined(message.clone()));
    }
    let end = period_end(now, interval);
    let paid = current.apply(Event::Paid { plan, interval, period_end: end }, now).map_err(refusal)?;
    let mut after = state_of(&paid, &before, Some(now));
    after.payment_provider = Some(TEST_PROVIDER.to_owned());
    if let Some(card) = card_on_file {
        after.card_brand = Some(card.brand.to_owned());
        after.card_last4 = Some(card.last4);
    }
    let transition = Transition {
        state: Some(after),
        invoice: Some(invoice(
            &user.id,
            format!("Strikeline {}", plan_words(plan, Some(interval))),
            plan,
            interval,
            checkout.amount_cents,
            0,
            &charge,
            (now, end),
            now,
        )?),
        checkout: Some((checkout.id.clone(), "succeeded".to_owned(), None)),
        audit: Some(audit(
            &user.id,
            None,
            format!("{} → {} (paid)", describe(&current.settled(now)), plan_words(plan, Some(interval))),
            origin,
            now,
        )),
    };
    write_charged(state, user, &before, &transition, &charge, now).await?;
    tracing::info!(user_id = %user.id, plan = plan.id(), interval = interval.as_str(), "subscription paid");
    Ok(())
}

/// Writes a transition whose charge the test provider has made; when the state changed in the
/// meantime (another payment, a change, a renewal) nothing is written and the charge is given
/// back, so no money is taken without its invoice.
async fn write_charged(
    state: &AppState,
    user: &UserRecord,
    before: &BillingState,
    t: &Transition,
    charge: &Charge,
    now: DateTime<Utc>,
) -> Result<()> {
    match store::apply(&state.db, &user.id, Some(before), t, now).await {
        Ok(true) => Ok(()),
        Ok(false) => {
            test_provider::refund(&user.id, charge);
            Err(changed_meanwhile())
        }
        Err(error) => {
            test_provider::refund(&user.id, charge);
            Err(error.into())
        }
    }
}

/// Cancels at the end of the paid period (the plan stays until then).
pub async fn cancel(state: &AppState, user: &UserRecord, origin: &Origin, now: DateTime<Utc>) -> Result<()> {
    transition(state, user, Event::Cancel, "cancelled at the end of the period", origin, now).await
}

/// Takes back a cancellation before the period ends.
pub async fn resume(state: &AppState, user: &UserRecord, origin: &Origin, now: DateTime<Utc>) -> Result<()> {
    transition(state, user, Event::Resume, "resumed", origin, now).await
}

async fn transition(state: &AppState, user: &UserRecord, event: Event, what: &str, origin: &Origin, now: DateTime<Utc>) -> Result<()> {
    let before = BillingState::of(user);
    let current = Subscription::of(user);
    let next = current.apply(event, now).map_err(refusal)?;
    if user.payment_provider.as_deref() == Some(STRIPE) {
        let client = stripe::StripeClient::new(&state.config.billing)?;
        let id = before.subscription_ref.clone().ok_or_else(|| refusal(Refusal::NotPaid))?;
        let key = format!("{id}-cancel-{}-{}", next.cancel_at_period_end, now.timestamp_millis());
        let remote = client.set_cancel_at_period_end(&id, next.cancel_at_period_end, &key).await?;
        return sync(state, user, &remote, None, Some(format!("{} {what}", describe(&next))), origin, now).await.map(|_| ());
    }
    let t = Transition {
        state: Some(state_of(&next, &before, before.period_started_at)),
        audit: Some(audit(&user.id, None, format!("{} {what}", describe(&next)), origin, now)),
        ..Transition::default()
    };
    if !store::apply(&state.db, &user.id, Some(&before), &t, now).await? {
        return Err(changed_meanwhile());
    }
    Ok(())
}

/// Changes a paid plan (Pro ↔ Premium, monthly ↔ yearly), prorated the way providers do (see
/// [`proration`]): the difference is charged now to the card on file, a credit is kept for the
/// next invoice. A change of interval starts a new period now. A declined charge is 402 and
/// changes nothing. A pending cancellation is taken back.
///
/// A change is made only inside a paid period: when the account is past due, or its period has
/// ended and not yet been renewed, what is owed is collected first (the renewal, written as the
/// schedule would write it), and the change is then prorated over that new, paid period. When
/// that collection is declined the change is refused (402) and nothing is written.
pub async fn change_plan(
    state: &AppState,
    user: &UserRecord,
    plan: Plan,
    interval: BillingInterval,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<()> {
    let current = Subscription::of(user).settled(now);
    let before = BillingState::of(user);
    // The figures `GET /api/billing/change/preview` showed; refused the same way.
    let q = quote::change(&current, &before, plan, interval, now)?;
    if user.payment_provider.as_deref() == Some(STRIPE) {
        return change_at_stripe(state, user, current, plan, interval, origin, now).await;
    }
    if q.owed_first.is_some() {
        if !renew(state, user, current, Renewal::Collect, origin, now).await? {
            return Err(changed_meanwhile());
        }
        let renewed = strikeline_store::users::find_by_id(&state.db, &user.id).await?.ok_or(AppError::NotFound)?;
        return Box::pin(change_plan(state, &renewed, plan, interval, origin, now)).await;
    }
    let charge = if q.charged > 0 {
        test_provider::later_charge(before.card_last4.as_deref(), &user.id, q.charged, token("tp_ch_"))
    } else {
        Charge::Paid { reference: token("tp_cr_") }
    };
    if let Charge::Declined { message } = &charge {
        return Err(AppError::PaymentDeclined(message.clone()));
    }
    let next = current.apply(Event::Paid { plan, interval, period_end: q.end }, now).map_err(refusal)?;
    let mut after = state_of(&next, &before, Some(q.start));
    after.credit_cents = q.credit_after;
    let description = format!("Change to {}, prorated", plan_words(plan, Some(interval)));
    let t = Transition {
        state: Some(after),
        invoice: Some(invoice(&user.id, description, plan, interval, q.charged, q.credit_applied, &charge, (now, q.end), now)?),
        checkout: None,
        audit: Some(audit(&user.id, None, format!("{} → {}", describe(&current), plan_words(plan, Some(interval))), origin, now)),
    };
    write_charged(state, user, &before, &t, &charge, now).await
}

/// A change of price at Stripe. A past-due subscription first pays its open invoice (a decline
/// is 402 and nothing changes); Stripe prorates the change and invoices it at once.
async fn change_at_stripe(
    state: &AppState,
    user: &UserRecord,
    current: Subscription,
    plan: Plan,
    interval: BillingInterval,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<()> {
    let client = stripe::StripeClient::new(&state.config.billing)?;
    let id = user.payment_subscription_id.clone().ok_or_else(|| refusal(Refusal::NotPaid))?;
    let mut remote = client.subscription(&id).await?;
    if matches!(remote.status.as_str(), "past_due" | "unpaid") {
        let owed = remote.latest_invoice.clone().filter(|i| i.status == "open").ok_or_else(|| {
            AppError::Conflict(FieldError::new("subscription", "A payment is owed; settle it before changing your plan."))
        })?;
        client.pay_invoice(&owed.id, &format!("collect-{}", owed.id)).await.map_err(|e| match e {
            AppError::PaymentDeclined(message) => {
                AppError::PaymentDeclined(format!("{message} The payment owed could not be collected, so your plan was not changed."))
            }
            other => other,
        })?;
        remote = client.subscription(&id).await?;
        if !matches!(remote.status.as_str(), "active" | "trialing") {
            return Err(AppError::PaymentDeclined("The payment owed could not be collected, so your plan was not changed.".to_owned()));
        }
    }
    let key = format!("{id}-change-{}-{}-{}", plan.id(), interval.as_str(), now.timestamp_millis());
    let changed = client.change_price(&remote, &stripe_price(state, plan, interval)?, &key).await?;
    let detail = format!("{} → {}", describe(&current), plan_words(plan, Some(interval)));
    sync(state, user, &changed, None, Some(detail), origin, now).await.map(|_| ())
}

/// What the scheduler does for billing at `now`: renews every paid period that has ended
/// (charging the card on file; a decline makes it past due, retried daily through the grace
/// period) and writes down subscriptions that time has ended. Returns how many it changed.
pub async fn run_due(state: &AppState, now: DateTime<Utc>) -> Result<usize> {
    let origin = Origin { ip: None, user_agent: Some("billing schedule".to_owned()) };
    let mut changed = 0;
    for user in store::due_for_renewal(&state.db, now).await? {
        if user.payment_provider.as_deref() != Some(TEST_PROVIDER) {
            continue;
        }
        let current = Subscription::of(&user);
        // A grace period that has run out is not renewed: the pass below ends it.
        if !current.settled(now).is_paid() {
            continue;
        }
        if current.status == crate::foundation::vocab::SubscriptionStatus::PastDue
            && store::last_invoice_at(&state.db, &user.id).await?.is_some_and(|at| now - at < Duration::days(1))
        {
            continue;
        }
        // One account's failure does not hold up the others'.
        match renew(state, &user, current, Renewal::Schedule, &origin, now).await {
            Ok(true) => changed += 1,
            Ok(false) => {}
            Err(error) => tracing::warn!(user_id = %user.id, %error, "renewal not applied"),
        }
    }
    for user in store::lapsed(&state.db, now).await? {
        let before = BillingState::of(&user);
        let current = Subscription::of(&user);
        let ended = current.settled(now);
        let t = Transition {
            state: Some(state_of(&ended, &before, None)),
            audit: Some(audit(&user.id, None, format!("{} ended → Free", describe(&current)), &origin, now)),
            ..Transition::default()
        };
        if store::apply(&state.db, &user.id, Some(&before), &t, now).await? {
            changed += 1;
            let note = billing_note(
                &user.id,
                "Your plan is now Free",
                format!("Your {} subscription has ended. Choose a plan to get its features back.", describe(&current)),
            );
            crate::services::notifying::notify(state, vec![note], now).await?;
        }
    }
    trial_notices(state, now).await?;
    Ok(changed)
}

/// Days before a trial's end that its reminder goes out.
const TRIAL_REMINDER_DAYS: i64 = 3;
const TRIAL_ENDING: &str = "Your Pro trial ends soon";
const TRIAL_ENDED: &str = "Your Pro trial has ended";

/// Tells each trialing account, once, that its trial ends within three days, and once that it
/// has ended (within two days of the end; the plan in force is Free from that moment).
async fn trial_notices(state: &AppState, now: DateTime<Utc>) -> Result<()> {
    use strikeline_store::notifications::exists_since;
    let kind = crate::foundation::vocab::NotificationKind::Billing.as_str();
    let mut notes = Vec::new();
    for user in store::trials_ending(&state.db, now, now + Duration::days(TRIAL_REMINDER_DAYS)).await? {
        let Some(end) = user.subscription_expires_at else { continue };
        if !exists_since(&state.db, &user.id, kind, TRIAL_ENDING, end - Duration::days(TRIAL_REMINDER_DAYS + 1)).await? {
            let body = format!(
                "It ends on {}. Choose a plan to keep signals beyond five a day, AI recommendations and portfolio analytics.",
                state.market.today(end)
            );
            notes.push(billing_note(&user.id, TRIAL_ENDING, body));
        }
    }
    for user in store::trials_ending(&state.db, now - Duration::days(2), now).await? {
        let Some(end) = user.subscription_expires_at else { continue };
        if !exists_since(&state.db, &user.id, kind, TRIAL_ENDED, end - Duration::days(1)).await? {
            notes.push(billing_note(
                &user.id,
                TRIAL_ENDED,
                "You are on the Free plan now. Choose a plan to get Pro features back.".to_owned(),
            ));
        }
    }
    crate::services::notifying::notify(state, notes, now).await?;
    Ok(())
}

/// What a renewal does with a declined charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Renewal {
    /// The schedule's: the decline is written (a failed invoice, past due).
    Schedule,
    /// Collecting what is owed before a change of plan: a decline is a 402 and nothing is written.
    Collect,
}

async fn renew(
    state: &AppState,
    user: &UserRecord,
    current: Subscription,
    mode: Renewal,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<bool> {
    let before = BillingState::of(user);
    let Some(quote::RenewalQuote { interval, charged, credit_applied, start, end }) = quote::renewal(&current, before.credit_cents, now)
    else {
        return Ok(false);
    };
    let charge = if charged > 0 {
        test_provider::later_charge(before.card_last4.as_deref(), &user.id, charged, token("tp_ch_"))
    } else {
        Charge::Paid { reference: token("tp_cr_") }
    };
    if mode == Renewal::Collect
        && let Charge::Declined { message } = &charge
    {
        return Err(AppError::PaymentDeclined(format!(
            "{message} The {} owed for your {} plan could not be collected, so your plan was not changed.",
            crate::foundation::money::usd(charged),
            plan_words(current.plan, Some(interval)),
        )));
    }
    let description = format!("Strikeline {} renewal", plan_words(current.plan, Some(interval)));
    let (next, detail, applied) = match &charge {
        Charge::Paid { .. } => (
            current.apply(Event::Paid { plan: current.plan, interval, period_end: end }, now),
            if mode == Renewal::Collect { "renewed (collected before a change of plan)" } else { "renewed" },
            credit_applied,
        ),
        Charge::Declined { .. } => (current.apply(Event::RenewalFailed, now), "renewal declined, past due", 0),
    };
    let next = next.map_err(refusal)?;
    let mut after = state_of(&next, &before, if matches!(charge, Charge::Paid { .. }) { Some(start) } else { before.period_started_at });
    after.credit_cents = before.credit_cents - applied;
    let t = Transition {
        state: Some(after),
        invoice: Some(invoice(&user.id, description, current.plan, interval, charged, applied, &charge, (start, end), now)?),
        checkout: None,
        audit: Some(audit(&user.id, None, format!("{} {detail}", describe(&current)), origin, now)),
    };
    let applied = match store::apply(&state.db, &user.id, Some(&before), &t, now).await {
        Ok(applied) => applied,
        Err(error) => {
            test_provider::refund(&user.id, &charge);
            return Err(error.into());
        }
    };
    if !applied {
        test_provider::refund(&user.id, &charge);
    }
    if applied && let Charge::Declined { message } = &charge {
        let body = format!("{message} Your {} plan stays for now; update your card under Settings › Subscription.", describe(&current));
        crate::services::notifying::notify(state, vec![billing_note(&user.id, "Payment failed", body)], now).await?;
    }
    Ok(applied)
}

fn billing_note(user_id: &str, title: &str, body: String) -> crate::services::notifying::Note {
    crate::services::notifying::Note {
        user_id: user_id.to_owned(),
        kind: crate::foundation::vocab::NotificationKind::Billing,
        title: title.to_owned(),
        body,
        link: Some("/settings?tab=subscription"),
    }
}

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(seconds, 0).unwrap_or_default()
}

/// Brings `user`'s stored state to Stripe's `remote` subscription, with an invoice and the
/// checkout it completes. Stripe's state is the truth: an event delivered late or twice only
/// writes what Stripe says now. Returns whether anything was written.
async fn sync(
    state: &AppState,
    user: &UserRecord,
    remote: &stripe::StripeSubscription,
    invoice: Option<Invoice>,
    audit_detail: Option<String>,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<bool> {
    use crate::foundation::vocab::SubscriptionStatus;
    let before = BillingState::of(user);
    let current = Subscription::of(user);
    let (plan, interval) = plan_of_price(state, &remote.price_id)
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("Stripe price {} is not in billing.stripe_prices", remote.price_id)))?;
    let next = match remote.status.as_str() {
        "active" | "trialing" => Subscription {
            plan,
            status: SubscriptionStatus::Active,
            interval: Some(interval),
            period_end: Some(at(remote.current_period_end)),
            cancel_at_period_end: remote.cancel_at_period_end,
            grace_ends_at: None,
        },
        "past_due" | "unpaid" => Subscription {
            plan,
            status: SubscriptionStatus::PastDue,
            interval: Some(interval),
            period_end: Some(at(remote.current_period_end)),
            cancel_at_period_end: remote.cancel_at_period_end,
            grace_ends_at: current.grace_ends_at.or(Some(now + Duration::days(crate::foundation::subscription::GRACE_DAYS))),
        },
        "canceled" | "incomplete_expired" => Subscription { status: SubscriptionStatus::Canceled, ..Subscription::FREE },
        // `incomplete`: the first payment is still being confirmed; nothing changes yet.
        _ => current,
    };
    let mut after = state_of(&next, &before, Some(at(remote.current_period_start)));
    after.payment_provider = Some(STRIPE.to_owned());
    after.subscription_ref = Some(remote.id.clone());
    if let Some((brand, last4)) = &remote.card {
        after.card_brand = Some(brand.clone());
        after.card_last4 = Some(last4.clone());
    }
    let checkout = if next.is_paid() {
        store::checkout_by_provider_ref(&state.db, STRIPE, &remote.id)
            .await?
            .filter(|c| c.status == "pending")
            .map(|c| (c.id, "succeeded".to_owned(), None))
    } else {
        None
    };
    let changed = after != before;
    let detail = audit_detail.or_else(|| {
        (next.plan != current.plan || next.status != current.status)
            .then(|| format!("{} → {} (Stripe)", describe(&current), describe(&next)))
    });
    if !changed && invoice.is_none() && checkout.is_none() {
        return Ok(false);
    }
    let t = Transition { state: changed.then_some(after), invoice, checkout, audit: detail.map(|d| audit(&user.id, None, d, origin, now)) };
    if !store::apply(&state.db, &user.id, Some(&before), &t, now).await? {
        return Err(changed_meanwhile());
    }
    Ok(true)
}

/// What a Stripe webhook did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebhookOutcome {
    Applied,
    /// Delivered before: changes nothing twice.
    Duplicate,
    /// An event billing does not follow, or for a customer that is not ours.
    Ignored,
}

/// Applies a Stripe webhook: the signature is checked first (a forged or stale one changes
/// nothing), then each event is applied once. For subscription and invoice events the
/// subscription is read back from Stripe, so events arriving out of order leave Stripe's
/// latest state.
pub async fn stripe_webhook(state: &AppState, payload: &[u8], signature: &str, now: DateTime<Utc>) -> Result<WebhookOutcome> {
    let config = &state.config.billing;
    let secret = config.stripe_webhook_secret.as_ref().map(|s| s.expose().clone()).unwrap_or_default();
    stripe::verify(payload, signature, &secret, now.timestamp(), config.stripe_webhook_tolerance_seconds)
        .map_err(|e| AppError::MalformedBody(format!("Stripe-Signature: {e}")))?;
    let event: serde_json::Value = serde_json::from_slice(payload).map_err(|_| AppError::MalformedBody("The event is not JSON.".into()))?;
    let (Some(id), Some(kind)) = (event.get("id").and_then(|v| v.as_str()), event.get("type").and_then(|v| v.as_str())) else {
        return Err(AppError::field("body", "An event has an id and a type"));
    };
    if store::event_seen(&state.db, STRIPE, id).await? {
        return Ok(WebhookOutcome::Duplicate);
    }
    let object = event.get("data").and_then(|d| d.get("object")).cloned().unwrap_or_default();
    let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let (subscription_id, invoice) = match kind {
        "customer.subscription.created" | "customer.subscription.updated" | "customer.subscription.deleted" => (text("id"), None),
        "invoice.paid" | "invoice.payment_failed" => (text("subscription"), Some(kind == "invoice.paid")),
        _ => (None, None),
    };
    let origin = Origin { ip: None, user_agent: Some("Stripe webhook".to_owned()) };
    let mut outcome = WebhookOutcome::Ignored;
    let customer = text("customer");
    let user = match &customer {
        Some(customer) if subscription_id.is_some() => strikeline_store::users::find_by_payment_customer(&state.db, customer).await?,
        _ => None,
    };
    if let (Some(subscription_id), Some(user)) = (subscription_id, user) {
        let client = stripe::StripeClient::new(config)?;
        let remote = client.subscription(&subscription_id).await?;
        let invoice = match (invoice, text("id")) {
            (Some(paid), Some(invoice_id)) if !store::invoice_recorded(&state.db, STRIPE, &invoice_id).await? => {
                stripe_invoice(state, &user.id, &object, &invoice_id, paid, &remote, now)
            }
            _ => None,
        };
        match other_subscription(&client, &user, &remote, now).await? {
            Other::Own => {
                sync(state, &user, &remote, invoice, None, &origin, now).await?;
            }
            Other::Second => end_second_subscription(state, &client, &user, &remote, invoice, &origin, now).await?,
            // A replaced checkout's or an ended second subscription's news: the account's own
            // subscription is the one that counts.
            Other::Ended => {}
        }
        outcome = WebhookOutcome::Applied;
    }
    store::record_event(&state.db, STRIPE, id, kind, now).await?;
    Ok(outcome)
}

/// What a subscription an event names is to the account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Other {
    /// Its subscription (or the first it pays for): Stripe's state is brought here.
    Own,
    /// A second live subscription of an account that Stripe already bills through another
    /// (two checkouts paid in a race, or one made in Stripe's dashboard): it is ended.
    Second,
    /// Another subscription that is not live (a voided checkout's, an ended second one) while
    /// the account pays through its own: nothing to bring.
    Ended,
}

async fn other_subscription(
    client: &stripe::StripeClient,
    user: &UserRecord,
    remote: &stripe::StripeSubscription,
    now: DateTime<Utc>,
) -> Result<Other> {
    let Some(own) = user.payment_subscription_id.as_deref().filter(|own| *own != remote.id) else { return Ok(Other::Own) };
    if user.payment_provider.as_deref() != Some(STRIPE) || !Subscription::of(user).settled(now).is_paid() {
        return Ok(Other::Own);
    }
    if !remote.is_live() {
        return Ok(Other::Ended);
    }
    Ok(if client.subscription(own).await?.is_live() { Other::Second } else { Other::Own })
}

/// Ends a second live subscription: cancelled at Stripe at once, and what its latest invoice
/// took credited to the customer's balance (Stripe takes it off their next invoices). Its
/// invoice is recorded (the money was taken) with an audit entry saying what was done; the
/// account's state stays with its own subscription.
async fn end_second_subscription(
    state: &AppState,
    client: &stripe::StripeClient,
    user: &UserRecord,
    remote: &stripe::StripeSubscription,
    invoice: Option<Invoice>,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<()> {
    client.cancel(&remote.id, &format!("second-{}", remote.id)).await?;
    let paid = remote.latest_invoice.as_ref().filter(|i| i.status == "paid").map_or(0, |i| i.amount_paid).max(0);
    if paid > 0 {
        let description = format!("Credit for subscription {}, cancelled: the account already had one", remote.id);
        client.credit(&remote.customer, paid, &description, &format!("credit-{}", remote.id)).await?;
    }
    let checkout = store::checkout_by_provider_ref(&state.db, STRIPE, &remote.id)
        .await?
        .filter(|c| c.status == "pending")
        .map(|c| (c.id, "voided".to_owned(), Some("A second subscription; cancelled and credited".to_owned())));
    let detail = format!("second Stripe subscription {} cancelled, {} credited", remote.id, crate::foundation::money::usd(paid));
    let t = Transition { state: None, invoice, checkout, audit: Some(audit(&user.id, None, detail, origin, now)) };
    store::apply(&state.db, &user.id, None, &t, now).await?;
    tracing::warn!(user_id = %user.id, subscription = %remote.id, paid, "a second Stripe subscription was cancelled and credited");
    Ok(())
}

/// Ends what the payment provider still bills an account for, before the account is deleted:
/// with Stripe, its subscription and any checkout's incomplete one are cancelled at once. When
/// that fails the deletion is refused (503) and nothing is deleted: an account must never go
/// while its card keeps being charged. The test provider bills nothing once the account is
/// gone. The invoices stay, detached from the person (docs/billing.md, "Deleting an account").
pub async fn close_account(state: &AppState, user: &UserRecord, now: DateTime<Utc>) -> Result<()> {
    let mut ids: Vec<String> = store::open_checkouts(&state.db, &user.id)
        .await?
        .into_iter()
        .filter(|c| c.provider == STRIPE)
        .filter_map(|c| c.provider_ref)
        .collect();
    if user.payment_provider.as_deref() == Some(STRIPE)
        && let Some(own) = &user.payment_subscription_id
    {
        ids.insert(0, own.clone());
    }
    if ids.is_empty() {
        return Ok(());
    }
    let refused = |error: AppError| {
        tracing::warn!(user_id = %user.id, %error, "account deletion refused: the subscription could not be cancelled");
        AppError::Unavailable(
            "Your subscription could not be cancelled with the payment provider, so your account has not been deleted and \
             nothing has changed. Please try again shortly."
                .to_owned(),
        )
    };
    let client = stripe::StripeClient::new(&state.config.billing)?;
    for id in ids {
        let remote = client.subscription(&id).await.map_err(refused)?;
        if !matches!(remote.status.as_str(), "canceled" | "incomplete_expired") {
            client.cancel(&id, &format!("close-{id}")).await.map_err(refused)?;
        }
    }
    tracing::info!(user_id = %user.id, at = %now, "subscriptions cancelled at Stripe before deleting the account");
    Ok(())
}

fn stripe_invoice(
    state: &AppState,
    user_id: &str,
    object: &serde_json::Value,
    invoice_id: &str,
    paid: bool,
    remote: &stripe::StripeSubscription,
    now: DateTime<Utc>,
) -> Option<Invoice> {
    let (plan, interval) = plan_of_price(state, &remote.price_id)?;
    let cents = |key: &str| object.get(key).and_then(|v| v.as_i64()).unwrap_or(0);
    let amount = if paid { cents("amount_paid") } else { cents("amount_due") };
    let message =
        object.get("last_finalization_error").and_then(|e| e.get("message")).and_then(|m| m.as_str()).unwrap_or("Your card was declined.");
    Some(Invoice {
        id: uuid::Uuid::new_v4().to_string(),
        user_id: user_id.to_owned(),
        number: object.get("number").and_then(|n| n.as_str()).map_or_else(|| invoice_number(now), str::to_owned),
        provider: STRIPE.to_owned(),
        provider_ref: Some(invoice_id.to_owned()),
        description: format!("Strikeline {}", plan_words(plan, Some(interval))),
        plan: plan.id().to_owned(),
        billing_interval: interval.as_str().to_owned(),
        amount_cents: amount.max(0),
        credit_applied_cents: 0,
        currency: object.get("currency").and_then(|c| c.as_str()).unwrap_or("usd").to_owned(),
        status: if paid { "paid" } else { "failed" }.to_owned(),
        failure_message: (!paid).then(|| message.to_owned()),
        period_start: at(remote.current_period_start),
        period_end: at(remote.current_period_end),
        created_at: now,
    })
}
