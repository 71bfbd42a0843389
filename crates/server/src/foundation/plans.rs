//! The plan catalogue: the single source of prices, limits and features for every page that
//! shows plans and for the entitlement check. Served by `GET /api/plans` (in `site`).

use serde::Serialize;
use utoipa::ToSchema;

use crate::foundation::entitlements::Plan;

/// Every new account starts with this many days of Pro, no card needed.
pub const TRIAL_DAYS: i64 = 14;

/// Yearly billing saves this share of twelve monthly payments.
pub const YEARLY_DISCOUNT_PERCENT: u32 = 20;

/// One plan as sold.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanInfo {
    pub id: Plan,
    pub name: &'static str,
    pub description: &'static str,
    /// US dollars per month.
    pub monthly_price: u32,
    /// US dollars per year: floor(monthly × 12 × 0.8).
    pub yearly_price: u32,
    /// Signals a user sees per day; `null` when unlimited.
    pub signals_per_day: Option<u32>,
    /// Public API quota.
    pub api_requests_per_hour: u32,
    pub features: Vec<&'static str>,
    pub ai_features: Vec<&'static str>,
    pub support: &'static str,
    pub support_response: &'static str,
    pub most_popular: bool,
    /// What the plan includes, by the one entitlement check.
    pub capabilities: Vec<crate::foundation::entitlements::Capability>,
}

/// `GET /api/plans`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanCatalogue {
    pub plans: Vec<PlanInfo>,
    pub yearly_discount_percent: u32,
    /// Days of Pro every new account gets, no card needed.
    pub trial_days: i64,
}

/// floor(monthly × 12 × (100 − discount) / 100), in whole dollars.
pub const fn yearly_price(monthly: u32) -> u32 {
    monthly * 12 * (100 - YEARLY_DISCOUNT_PERCENT) / 100
}

fn plan(id: Plan, name: &'static str, monthly: u32) -> PlanInfo {
    PlanInfo {
        id,
        name,
        description: "",
        monthly_price: monthly,
        yearly_price: yearly_price(monthly),
        signals_per_day: None,
        api_requests_per_hour: 0,
        features: Vec::new(),
        ai_features: Vec::new(),
        support: "",
        support_response: "",
        most_popular: false,
        capabilities: crate::foundation::entitlements::Capability::ALL.into_iter().filter(|c| c.included_in(id)).collect(),
    }
}

/// The catalogue (docs/decisions.md#2-one-plan-catalogue): each plan's prices, daily signals, hourly API quota and features.
pub fn catalogue() -> PlanCatalogue {
    let free = PlanInfo {
        description: "Follow the market with a few signals a day.",
        signals_per_day: Some(5),
        api_requests_per_hour: 100,
        features: vec![
            "5 signals per day",
            "Basic portfolio tracking",
            "Email notifications",
            "Community support",
            "Basic market data",
            "Overall backtest over the last year",
            "API keys for read endpoints",
        ],
        support: "Community support",
        support_response: "48 hours",
        ..plan(Plan::Free, "Free", 0)
    };
    let pro = PlanInfo {
        description: "For active traders who want every tool.",
        signals_per_day: Some(50),
        api_requests_per_hour: 1_000,
        features: vec![
            "50 signals per day",
            "Advanced backtesting: full history and by strategy",
            "Real-time analytics",
            "SMS and push notifications",
            "Priority email support",
            "Advanced market data",
            "Risk tools",
            "Custom filters",
            "On-demand signal generation",
        ],
        ai_features: vec!["Trade recommendations", "Sentiment analysis", "Automated risk assessment"],
        support: "Priority email support",
        support_response: "12 hours",
        most_popular: true,
        ..plan(Plan::Pro, "Pro", 49)
    };
    let premium = PlanInfo {
        description: "For professionals who build on Strikeline.",
        signals_per_day: None,
        api_requests_per_hour: 5_000,
        features: vec![
            "Unlimited signals",
            "Advanced portfolio management",
            "Real-time feeds",
            "24/7 phone support",
            "Custom strategy builder",
            "White-label reports",
            "Full API access, AI recommendations included",
            "Multi-account",
        ],
        ai_features: vec![
            "Portfolio optimization",
            "Predictive analysis",
            "Automated trade execution",
            "Advanced ML models",
            "Custom AI strategies",
            "Real-time insights",
        ],
        support: "24/7 phone and priority support",
        support_response: "24/7",
        ..plan(Plan::Premium, "Premium", 149)
    };
    PlanCatalogue { plans: vec![free, pro, premium], yearly_discount_percent: YEARLY_DISCOUNT_PERCENT, trial_days: TRIAL_DAYS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yearly_prices_are_twelve_months_less_twenty_percent_rounded_down() {
        assert_eq!(yearly_price(49), 470);
        assert_eq!(yearly_price(149), 1430);
        assert_eq!(yearly_price(0), 0);
    }

    #[test]
    fn the_catalogue_has_the_decided_limits() {
        let c = catalogue();
        let ids: Vec<_> = c.plans.iter().map(|p| p.id).collect();
        assert_eq!(ids, Plan::ALL);
        let limits: Vec<_> = c.plans.iter().map(|p| (p.signals_per_day, p.api_requests_per_hour)).collect();
        assert_eq!(limits, [(Some(5), 100), (Some(50), 1000), (None, 5000)]);
        assert_eq!(c.plans.iter().filter(|p| p.most_popular).map(|p| p.id).collect::<Vec<_>>(), [Plan::Pro]);
        assert_eq!(c.trial_days, 14);
    }
}
