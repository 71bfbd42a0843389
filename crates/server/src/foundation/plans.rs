//! The plan catalogue: the single source of prices, limits and features for every page that
//! shows plans and for the entitlement check. Served by `GET /api/plans` (in `site`).

use serde::Serialize;
use utoipa::ToSchema;

use crate::foundation::entitlements::{Capability, Plan};
use Backing::{Accounts, Capability as Cap, EveryAccount, PhoneSupport, Quota, Support};

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
    /// Trading accounts a user may hold (each with its own capital, preferences, automation and
    /// positions).
    pub trading_accounts: u32,
    /// What the plan includes, each backed by the entitlement check, the plan's quotas or what
    /// every account has (docs/decisions.md, "One plan catalogue"); what this deployment does
    /// not offer is not listed.
    pub features: Vec<String>,
    pub ai_features: Vec<String>,
    pub support: String,
    pub support_response: &'static str,
    pub most_popular: bool,
    /// What the plan includes, by the one entitlement check.
    pub capabilities: Vec<crate::foundation::entitlements::Capability>,
}

/// The operator's support line, when one is configured.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SupportPhone {
    /// As callers dial it.
    pub number: String,
    /// When it is staffed, in words; `null` when not stated.
    pub hours: Option<String>,
}

/// `GET /api/plans`.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanCatalogue {
    pub plans: Vec<PlanInfo>,
    pub yearly_discount_percent: u32,
    /// Days of Pro every new account gets, no card needed.
    pub trial_days: i64,
    /// Phone support (Premium), when the operator offers it; otherwise `null` and no plan
    /// lists it.
    pub support_phone: Option<SupportPhone>,
}

/// floor(monthly × 12 × (100 − discount) / 100), in whole dollars.
pub const fn yearly_price(monthly: u32) -> u32 {
    monthly * 12 * (100 - YEARLY_DISCOUNT_PERCENT) / 100
}

/// What makes a listed feature true: the test `every_listed_feature_is_backed` holds each
/// plan's list to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backing {
    /// A capability of the one entitlement check, included in the plan.
    Capability(Capability),
    /// The plan's own numbers: signals a day, API requests an hour.
    Quota,
    /// What every account has (nothing to refuse, so no capability names it).
    EveryAccount,
    /// The plan's number of trading accounts (the text starts with it).
    Accounts,
    /// The plan's support promise (`support`, `support_response`).
    Support,
    /// The operator's phone line (`support.phone`).
    PhoneSupport,
}

/// A feature as the catalogue lists it.
#[derive(Clone, Copy, Debug)]
pub struct Listed {
    pub text: &'static str,
    pub backing: Backing,
}

const fn listed(text: &'static str, backing: Backing) -> Listed {
    Listed { text, backing }
}

/// Each plan's features and AI features, with what backs each (in the order shown).
pub fn listed_features(plan: Plan) -> (Vec<Listed>, Vec<Listed>) {
    match plan {
        Plan::Free => (
            vec![
                listed("5 signals per day", Quota),
                listed("Basic portfolio tracking", EveryAccount),
                listed("Email notifications", EveryAccount),
                listed("Community support", Support),
                listed("Live prices, option chains and IV rank", EveryAccount),
                listed("Overall backtest over the last year", EveryAccount),
                listed("API keys for read endpoints", Cap(Capability::ApiKeys)),
            ],
            vec![],
        ),
        Plan::Pro => (
            vec![
                listed("50 signals per day", Quota),
                listed("Advanced backtesting: full history and by strategy", Cap(Capability::BacktestByStrategy)),
                listed("Webhooks for signals, alerts and closed positions", Cap(Capability::Webhooks)),
                listed("Priority email support", Support),
                listed("On-demand signal generation", Cap(Capability::GenerateSignals)),
                listed("Create signals and webhooks through the API", Cap(Capability::ApiWrite)),
                listed("Portfolio metrics through the API", Cap(Capability::ApiStandardEndpoints)),
                listed("Push notifications to your browsers", Cap(Capability::PushNotifications)),
                listed("SMS alerts to your phone", Cap(Capability::SmsNotifications)),
            ],
            vec![
                listed("Trade recommendations", Cap(Capability::AiRecommendations)),
                listed("AI analysis of the news", Cap(Capability::NewsAnalysis)),
            ],
        ),
        Plan::Premium => (
            vec![
                listed("Unlimited signals", Quota),
                listed("Custom strategy builder", Cap(Capability::StrategyBuilder)),
                listed("Custom strategies from your own rules, backtested", Cap(Capability::CustomStrategies)),
                listed("Custom strategy parameters in backtests", Cap(Capability::CustomStrategyParams)),
                listed("Full API access, AI recommendations included", Cap(Capability::ApiAiRecommendations)),
                listed("White-label PDF reports with your brand, monthly by email", Cap(Capability::WhiteLabelReports)),
                listed("Portfolio optimisation within your risk limits", Cap(Capability::PortfolioOptimisation)),
                listed("Automated trade execution through your Alpaca account, with kill switches", Cap(Capability::BrokerExecution)),
                listed("Up to 10 trading accounts, each with its own capital, automation and positions", Accounts),
                listed("Phone support", PhoneSupport),
            ],
            vec![listed("Predictive analysis: each signal's modelled chance to win, and why", Cap(Capability::PredictiveAnalysis))],
        ),
    }
}

/// What this deployment offers beyond the plans themselves.
#[derive(Clone, Copy, Debug, Default)]
struct Offered<'a> {
    phone: Option<&'a SupportPhone>,
    /// Texts reach phones (an SMS provider is configured).
    sms: bool,
}

fn plan(id: Plan, name: &'static str, monthly: u32, offered: Offered<'_>) -> PlanInfo {
    let (features, ai_features) = listed_features(id);
    let phone = offered.phone;
    let shown = |items: Vec<Listed>| -> Vec<String> {
        items
            .into_iter()
            .filter_map(|f| match f.backing {
                Cap(Capability::SmsNotifications) if !offered.sms => None,
                PhoneSupport => phone.map(|p| match &p.hours {
                    Some(hours) => format!("Phone support: {} ({hours})", p.number),
                    None => format!("Phone support: {}", p.number),
                }),
                _ => Some(f.text.to_owned()),
            })
            .collect()
    };
    PlanInfo {
        id,
        name,
        description: "",
        monthly_price: monthly,
        yearly_price: yearly_price(monthly),
        signals_per_day: None,
        api_requests_per_hour: 0,
        trading_accounts: 1,
        features: shown(features),
        ai_features: shown(ai_features),
        support: String::new(),
        support_response: "",
        most_popular: false,
        capabilities: Capability::ALL.into_iter().filter(|c| c.included_in(id)).collect(),
    }
}

/// The catalogue of a deployment without phone support or SMS (prices, quotas and capabilities
/// are the same whatever is configured; the entitlement check and billing read them here).
pub fn catalogue() -> PlanCatalogue {
    catalogue_for(&crate::foundation::config::SupportConfig::default(), false)
}

/// The catalogue (docs/decisions.md#2-one-plan-catalogue) as this deployment sells it: each
/// plan's prices, daily signals, hourly API quota and the features it offers (phone support and
/// SMS only when configured: `sms` says texts reach phones).
pub fn catalogue_for(support: &crate::foundation::config::SupportConfig, sms: bool) -> PlanCatalogue {
    let phone = support.phone.as_ref().map(|number| SupportPhone { number: number.clone(), hours: support.phone_hours.clone() });
    let offered = Offered { phone: phone.as_ref(), sms };
    let free = PlanInfo {
        description: "Follow the market with a few signals a day.",
        signals_per_day: Some(5),
        api_requests_per_hour: 100,
        support: "Community support".into(),
        support_response: "48 hours",
        ..plan(Plan::Free, "Free", 0, offered)
    };
    let pro = PlanInfo {
        description: "For active traders who want every tool.",
        signals_per_day: Some(50),
        api_requests_per_hour: 1_000,
        support: "Priority email support".into(),
        support_response: "12 hours",
        most_popular: true,
        ..plan(Plan::Pro, "Pro", 49, offered)
    };
    let premium = PlanInfo {
        description: "For professionals who build on Strikeline.",
        signals_per_day: None,
        api_requests_per_hour: 5_000,
        trading_accounts: 10,
        support: if phone.is_some() { "Phone and priority email support".into() } else { "Priority email support".into() },
        support_response: "24/7",
        ..plan(Plan::Premium, "Premium", 149, offered)
    };
    PlanCatalogue {
        plans: vec![free, pro, premium],
        yearly_discount_percent: YEARLY_DISCOUNT_PERCENT,
        trial_days: TRIAL_DAYS,
        support_phone: phone,
    }
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
    fn every_listed_feature_is_backed() {
        let c = catalogue();
        for info in &c.plans {
            let (features, ai) = listed_features(info.id);
            for f in features.iter().chain(&ai) {
                match f.backing {
                    Backing::Capability(capability) => {
                        assert!(capability.included_in(info.id), "{:?} lists {:?}, which it does not include", info.id, f.text);
                        assert!(info.capabilities.contains(&capability));
                    }
                    Backing::Quota => {
                        let number = info.signals_per_day.map_or("Unlimited".to_owned(), |n| n.to_string());
                        assert!(f.text.starts_with(&number), "{:?}: {:?} against {number}", info.id, f.text);
                    }
                    Backing::Accounts => {
                        assert!(f.text.contains(&info.trading_accounts.to_string()), "{:?}: {:?}", info.id, f.text);
                    }
                    Backing::Support => assert!(f.text == info.support, "{:?}: {:?} against {:?}", info.id, f.text, info.support),
                    Backing::EveryAccount | Backing::PhoneSupport => {}
                }
            }
        }
        // Every capability a paid plan adds is sold by name.
        for capability in Capability::ALL {
            let sold = Plan::ALL.iter().any(|p| {
                let (features, ai) = listed_features(*p);
                features.iter().chain(&ai).any(|f| f.backing == Backing::Capability(capability))
            });
            let implied = capability == Capability::BacktestFullHistory; // "full history" beside by-strategy
            assert!(sold || implied, "{capability:?} is not listed by any plan");
        }
    }

    #[test]
    fn what_is_not_built_is_not_sold_and_phone_support_only_when_configured() {
        let words = |c: &PlanCatalogue| -> String {
            c.plans
                .iter()
                .flat_map(|p| p.features.iter().chain(&p.ai_features).chain(std::iter::once(&p.support)))
                .cloned()
                .collect::<Vec<_>>()
                .join("|")
        };
        let plain = catalogue();
        for unbuilt in ["SMS", "Multi-account", "phone", "Phone", "24/7"] {
            assert!(!words(&plain).contains(unbuilt), "{unbuilt} is sold: {}", words(&plain));
        }
        assert!(plain.support_phone.is_none());
        let support = crate::foundation::config::SupportConfig {
            phone: Some("+1 212 555 0100".into()),
            phone_hours: Some("Every day, around the clock".into()),
        };
        let staffed = catalogue_for(&support, false);
        let premium = staffed.plans.iter().find(|p| p.id == Plan::Premium).expect("premium");
        assert!(
            premium.features.contains(&"Phone support: +1 212 555 0100 (Every day, around the clock)".to_owned()),
            "{:?}",
            premium.features
        );
        assert_eq!(premium.support, "Phone and priority email support");
        assert!(staffed.plans.iter().filter(|p| p.id != Plan::Premium).all(|p| !p.features.iter().any(|f| f.contains("Phone"))));
        assert_eq!(staffed.support_phone.as_ref().map(|p| p.number.as_str()), Some("+1 212 555 0100"));
        // SMS is sold (by Pro, which Premium includes) only where texts reach phones.
        let texting = catalogue_for(&crate::foundation::config::SupportConfig::default(), true);
        for p in &texting.plans {
            assert_eq!(p.features.iter().any(|f| f.contains("SMS")), p.id == Plan::Pro, "{:?}: {:?}", p.id, p.features);
            assert_eq!(p.capabilities.contains(&Capability::SmsNotifications), p.id != Plan::Free);
        }
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
