//! The one entitlement check: what a user's plan, as in force now, lets them do. Every gated
//! route asks [`Entitlements::of`] and [`Entitlements::require`]; no route compares plans itself.
//! The numbers come from the plan catalogue (`plans`), the single source of prices and limits.

use chrono::{DateTime, Utc};
use strikeline_store::users::UserRecord;

use crate::foundation::error::{AppError, Result};
use crate::foundation::plans;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Subscription plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Premium,
}

/// A plan that is bought: what a checkout or a change of plan may ask for (Free needs no
/// payment, and the API document says so by leaving it out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PaidPlan {
    Pro,
    Premium,
}

impl From<PaidPlan> for Plan {
    fn from(plan: PaidPlan) -> Plan {
        match plan {
            PaidPlan::Pro => Plan::Pro,
            PaidPlan::Premium => Plan::Premium,
        }
    }
}

impl Plan {
    /// Every plan, cheapest first.
    pub const ALL: [Plan; 3] = [Plan::Free, Plan::Pro, Plan::Premium];

    /// `free`, `pro` or `premium`, as in the plan catalogue and the store.
    pub fn id(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Premium => "premium",
        }
    }

    /// The plan whose id is `id` (`free`, `pro`, `premium`).
    pub fn from_id(id: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The plan in force for `record` at `now`: the stored subscription as time has left it
    /// (a trial, a cancelled period or a grace period that has run out is Free). A stored value
    /// outside the vocabulary grants no more than Free (an entitlement check fails closed).
    pub fn of(record: &UserRecord, now: DateTime<Utc>) -> Plan {
        crate::foundation::subscription::Subscription::of(record).settled(now).plan
    }
}

/// Something a plan may or may not include (listed on the user and on each plan, so the app
/// asks the same rule instead of comparing plans itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Capability {
    /// On-demand signal generation (Pro and up).
    GenerateSignals,
    /// Backtests by strategy (Pro and up).
    BacktestByStrategy,
    /// Backtests beyond the last year (Pro and up).
    BacktestFullHistory,
    /// Custom strategy parameters in backtests (Premium).
    CustomStrategyParams,
    /// AI recommendations in the app (Pro and up).
    AiRecommendations,
    /// Creating through the public API (Pro and up; Free keys read only).
    ApiWrite,
    /// The public API's standard endpoints beyond signals, stats, stock prices and news, such
    /// as portfolio metrics (Pro and up).
    ApiStandardEndpoints,
    /// Outbound webhooks (Pro and up).
    Webhooks,
    /// The AI analysis of news items (Pro and up; sentiment is for everyone).
    NewsAnalysis,
    /// AI recommendations through the public API (Premium).
    ApiAiRecommendations,
    /// The predictive model's probability on each signal, with why (Premium: "predictive
    /// analysis"), in the app and through the public API.
    PredictiveAnalysis,
    /// Creating and switching on API keys (every plan, once the address is confirmed).
    ApiKeys,
    /// The strategy builder: multi-leg positions analysed at expiry and before (Premium:
    /// "custom strategy builder").
    StrategyBuilder,
    /// Web Push notifications to the user's browsers (Pro and up).
    PushNotifications,
    /// Text messages to the user's verified phone (Pro and up; sold only where an SMS provider
    /// is configured).
    SmsNotifications,
    /// PDF reports carrying the account's own brand (name, logo, colours, footer) and no
    /// Strikeline branding, and a report of each month by email (Premium).
    WhiteLabelReports,
    /// The portfolio optimiser: which of today's signals, and how many contracts, maximise
    /// expected P&L within the risk model's comfortable levels (Premium).
    PortfolioOptimisation,
    /// Custom strategies: the user's own entry rule over the indicators, what it opens and how
    /// it closes, backtested like the four (Premium: "custom strategy builder").
    CustomStrategies,
    /// Automated trade execution through the user's own broker account (Alpaca) instead of
    /// the paper broker (Premium).
    BrokerExecution,
}

impl Capability {
    /// Every capability.
    pub const ALL: [Capability; 19] = [
        Capability::GenerateSignals,
        Capability::BacktestByStrategy,
        Capability::BacktestFullHistory,
        Capability::CustomStrategyParams,
        Capability::AiRecommendations,
        Capability::ApiWrite,
        Capability::ApiStandardEndpoints,
        Capability::Webhooks,
        Capability::NewsAnalysis,
        Capability::ApiAiRecommendations,
        Capability::PredictiveAnalysis,
        Capability::ApiKeys,
        Capability::StrategyBuilder,
        Capability::PushNotifications,
        Capability::SmsNotifications,
        Capability::WhiteLabelReports,
        Capability::PortfolioOptimisation,
        Capability::CustomStrategies,
        Capability::BrokerExecution,
    ];

    /// Whether `plan` includes it (a confirmed address assumed).
    pub fn included_in(self, plan: Plan) -> bool {
        rank(plan) >= rank(self.minimum_plan())
    }

    /// The plan that first includes it.
    pub fn minimum_plan(self) -> Plan {
        match self {
            Capability::GenerateSignals
            | Capability::BacktestByStrategy
            | Capability::BacktestFullHistory
            | Capability::AiRecommendations
            | Capability::ApiWrite
            | Capability::ApiStandardEndpoints
            | Capability::Webhooks
            | Capability::NewsAnalysis
            | Capability::PushNotifications
            | Capability::SmsNotifications => Plan::Pro,
            Capability::CustomStrategyParams
            | Capability::ApiAiRecommendations
            | Capability::PredictiveAnalysis
            | Capability::StrategyBuilder
            | Capability::WhiteLabelReports
            | Capability::PortfolioOptimisation
            | Capability::CustomStrategies
            | Capability::BrokerExecution => Plan::Premium,
            Capability::ApiKeys => Plan::Free,
        }
    }

    /// Whether it needs a confirmed email address whatever the plan: what reaches outside the
    /// app in the account's name (API keys, webhooks).
    pub fn needs_confirmed_address(self) -> bool {
        matches!(self, Capability::ApiKeys | Capability::Webhooks)
    }

    fn refusal(self) -> &'static str {
        match self {
            Capability::GenerateSignals => "Generating signals on demand needs the Pro or Premium plan.",
            Capability::BacktestByStrategy => "Backtests by strategy need the Pro or Premium plan.",
            Capability::BacktestFullHistory => "The Free plan backtests the last year; longer histories need Pro.",
            Capability::CustomStrategyParams => "Custom strategy parameters need the Premium plan.",
            Capability::AiRecommendations => "AI recommendations need the Pro or Premium plan.",
            Capability::ApiWrite => "API keys on the Free plan can read only; creating through the API needs the Pro or Premium plan.",
            Capability::Webhooks => "Webhooks need the Pro or Premium plan.",
            Capability::NewsAnalysis => "The AI analysis of news needs the Pro or Premium plan.",
            Capability::ApiAiRecommendations => "AI recommendations through the API need the Premium plan.",
            Capability::PredictiveAnalysis => "The predictive model's probability needs the Premium plan.",
            Capability::ApiKeys => CONFIRM_ADDRESS_FIRST,
            Capability::StrategyBuilder => "The strategy builder needs the Premium plan.",
            Capability::PushNotifications => "Push notifications need the Pro or Premium plan.",
            Capability::SmsNotifications => "Text messages need the Pro or Premium plan.",
            Capability::WhiteLabelReports => "Reports with your own brand need the Premium plan.",
            Capability::PortfolioOptimisation => "The portfolio optimiser needs the Premium plan.",
            Capability::CustomStrategies => "Custom strategies need the Premium plan.",
            Capability::BrokerExecution => "Trading through your own Alpaca account needs the Premium plan.",
            Capability::ApiStandardEndpoints => {
                "This endpoint of the public API needs the Pro or Premium plan; the Free plan reads signals, stats and stock prices."
            }
        }
    }
}

fn rank(plan: Plan) -> u8 {
    match plan {
        Plan::Free => 0,
        Plan::Pro => 1,
        Plan::Premium => 2,
    }
}

/// What one user may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entitlements {
    /// The plan in force (a trial that has run out is Free).
    pub plan: Plan,
    /// Signals shown per trading day; `None` is unlimited.
    pub signals_per_day: Option<u32>,
    /// Public API requests per hour.
    pub api_requests_per_hour: u32,
    /// Trading accounts the user may hold.
    pub trading_accounts: u32,
    /// Whether the account's email address is confirmed (always, for a plan on its own).
    pub confirmed_address: bool,
}

/// Why an unconfirmed account is refused what needs a confirmed address.
pub const CONFIRM_ADDRESS_FIRST: &str =
    "Confirm your email address first: open the link we sent you (Settings › General can send a new one).";

impl Entitlements {
    /// The entitlements of `plan`.
    pub fn for_plan(plan: Plan) -> Entitlements {
        let info = plans::catalogue().plans.into_iter().find(|p| p.id == plan);
        Entitlements {
            plan,
            signals_per_day: info.as_ref().and_then(|p| p.signals_per_day),
            api_requests_per_hour: info.as_ref().map_or(0, |p| p.api_requests_per_hour),
            trading_accounts: info.map_or(1, |p| p.trading_accounts),
            confirmed_address: true,
        }
    }

    /// The entitlements of `user` at `now`.
    pub fn of(user: &UserRecord, now: DateTime<Utc>) -> Entitlements {
        Entitlements { confirmed_address: user.email_verified_at.is_some(), ..Entitlements::for_plan(Plan::of(user, now)) }
    }

    pub fn allows(&self, capability: Capability) -> bool {
        capability.included_in(self.plan) && (self.confirmed_address || !capability.needs_confirmed_address())
    }

    /// Every capability these entitlements allow.
    pub fn capabilities(&self) -> Vec<Capability> {
        Capability::ALL.into_iter().filter(|c| self.allows(*c)).collect()
    }

    /// The refusal of another trading account once the plan's number is held: 403 on a plan
    /// that holds fewer than the most any plan holds (a higher plan holds more), else 409.
    pub fn accounts_held(&self) -> AppError {
        let most = Plan::ALL.into_iter().map(|p| Entitlements::for_plan(p).trading_accounts).max().unwrap_or(1);
        if self.trading_accounts < most {
            AppError::Forbidden(format!(
                "Your plan holds {} trading account{}; the Premium plan holds {most}.",
                self.trading_accounts,
                if self.trading_accounts == 1 { "" } else { "s" }
            ))
        } else {
            AppError::Conflict(crate::foundation::error::FieldError::new(
                "body",
                format!("You hold {most} trading accounts, the most a plan holds. Delete one to open another."),
            ))
        }
    }

    /// `Ok` when the plan includes `capability` (and the address is confirmed where that is
    /// needed), else 403 saying what is missing.
    pub fn require(&self, capability: Capability) -> Result<()> {
        if self.allows(capability) {
            Ok(())
        } else if rank(self.plan) >= rank(capability.minimum_plan()) {
            Err(AppError::AddressNotConfirmed)
        } else {
            Err(AppError::Forbidden(capability.refusal().into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_list_what_allows_says() {
        use Capability::*;
        let free = Entitlements::for_plan(Plan::Free).capabilities();
        assert_eq!(free, [ApiKeys]);
        let pro = Entitlements::for_plan(Plan::Pro).capabilities();
        assert!(pro.contains(&AiRecommendations) && pro.contains(&Webhooks) && !pro.contains(&PredictiveAnalysis));
        assert_eq!(Entitlements::for_plan(Plan::Premium).capabilities(), Capability::ALL);
        let unconfirmed = Entitlements { confirmed_address: false, ..Entitlements::for_plan(Plan::Pro) };
        assert!(!unconfirmed.capabilities().contains(&Webhooks) && !unconfirmed.capabilities().contains(&ApiKeys));
        assert!(unconfirmed.capabilities().contains(&AiRecommendations));
    }

    #[test]
    fn each_plan_gets_what_the_catalogue_sells() {
        let free = Entitlements::for_plan(Plan::Free);
        let pro = Entitlements::for_plan(Plan::Pro);
        let premium = Entitlements::for_plan(Plan::Premium);
        assert_eq!((free.signals_per_day, pro.signals_per_day, premium.signals_per_day), (Some(5), Some(50), None));
        assert_eq!((free.api_requests_per_hour, pro.api_requests_per_hour, premium.api_requests_per_hour), (100, 1000, 5000));
        assert_eq!((free.trading_accounts, pro.trading_accounts, premium.trading_accounts), (1, 1, 10));
        assert!(!free.allows(Capability::GenerateSignals) && pro.allows(Capability::GenerateSignals));
        assert!(!free.allows(Capability::BacktestFullHistory) && pro.allows(Capability::BacktestByStrategy));
        assert!(!pro.allows(Capability::CustomStrategyParams) && premium.allows(Capability::CustomStrategyParams));
        assert!(matches!(free.require(Capability::AiRecommendations), Err(AppError::Forbidden(_))));
    }

    #[test]
    fn a_plan_is_spelled_one_way_on_the_wire_and_in_the_store() {
        for plan in Plan::ALL {
            assert_eq!(serde_json::to_value(plan).expect("serialise"), serde_json::Value::String(plan.id().to_owned()));
        }
    }
}
