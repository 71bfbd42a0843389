//! Request and response bodies of the account endpoints, and the rules that parse them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use strikeline_store::users::UserRecord;
use utoipa::ToSchema;

use crate::foundation::entitlements::Plan;
use crate::foundation::error::{AppError, FieldError};
use crate::foundation::input::parse_email;
use crate::foundation::money::dollars;
use crate::foundation::vocab::{RiskTolerance, SubscriptionStatus, stored};

pub const PASSWORD_MIN: usize = 6;
pub const PASSWORD_MAX: usize = 128;
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 32;
pub const NAME_MAX: usize = 64;

/// `POST /api/auth/register`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterRequest {
    #[schema(schema_with = crate::foundation::input::email_schema)]
    pub email: String,
    /// 3–32 letters, digits, `.`, `_` or `-`.
    #[schema(example = "ada", min_length = 3, max_length = 32, pattern = "^[A-Za-z0-9._-]+$")]
    pub username: String,
    /// 6–128 characters.
    #[schema(min_length = 6, max_length = 128)]
    pub password: String,
    /// At most 64 characters, no control characters.
    #[serde(default)]
    #[schema(max_length = 64, pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*$")]
    pub first_name: Option<String>,
    /// At most 64 characters, no control characters.
    #[serde(default)]
    #[schema(max_length = 64, pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*$")]
    pub last_name: Option<String>,
}

/// `POST /api/auth/login`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    #[schema(schema_with = crate::foundation::input::email_schema)]
    pub email: String,
    #[schema(min_length = 6, max_length = 128)]
    pub password: String,
}

/// A registration that passed every rule.
#[derive(Debug)]
pub struct Registration {
    pub email: String,
    pub username: String,
    pub password: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

/// Credentials in canonical form.
#[derive(Debug)]
pub struct Credentials {
    pub email: String,
    pub password: String,
}

pub(crate) fn check_password(password: &str, errors: &mut Vec<FieldError>) {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        errors.push(FieldError::new("password", "Password must be at least 6 characters"));
    } else if length > PASSWORD_MAX {
        errors.push(FieldError::new("password", "Password must be at most 128 characters"));
    }
}

fn optional_name(field: &str, value: Option<String>, errors: &mut Vec<FieldError>) -> Option<String> {
    let value = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())?;
    if value.chars().count() > NAME_MAX || value.chars().any(char::is_control) {
        errors.push(FieldError::new(field, "Names are at most 64 characters, without control characters"));
    }
    Some(value)
}

impl TryFrom<RegisterRequest> for Registration {
    type Error = AppError;

    fn try_from(req: RegisterRequest) -> Result<Self, AppError> {
        let mut errors = Vec::new();
        let email = parse_email(&req.email).map_err(|e| errors.push(e)).unwrap_or_default();
        let username = req.username.trim().to_owned();
        let length = username.chars().count();
        if length < USERNAME_MIN {
            errors.push(FieldError::new("username", "Username must be at least 3 characters"));
        } else if length > USERNAME_MAX {
            errors.push(FieldError::new("username", "Username must be at most 32 characters"));
        } else if !username.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) {
            errors.push(FieldError::new("username", "Username may use letters, digits, '.', '_' and '-' only"));
        }
        check_password(&req.password, &mut errors);
        let first_name = optional_name("firstName", req.first_name, &mut errors);
        let last_name = optional_name("lastName", req.last_name, &mut errors);
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        Ok(Registration { email, username, password: req.password, first_name, last_name })
    }
}

impl TryFrom<LoginRequest> for Credentials {
    type Error = AppError;

    fn try_from(req: LoginRequest) -> Result<Self, AppError> {
        let mut errors = Vec::new();
        let email = parse_email(&req.email).map_err(|e| errors.push(e)).unwrap_or_default();
        check_password(&req.password, &mut errors);
        if !errors.is_empty() {
            return Err(AppError::Validation(errors));
        }
        Ok(Credentials { email, password: req.password })
    }
}

/// The signed-in user, as the client sees it. Money is in US dollars with cents.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    #[schema(format = "uuid")]
    pub id: String,
    pub email: String,
    /// Whether the address is confirmed (the emailed link was opened).
    pub email_verified: bool,
    /// Whether this account administers the instance (automation controls, outbox, messages).
    pub is_administrator: bool,
    /// What the plan in force and the account allow now (the one entitlement check).
    pub capabilities: Vec<crate::foundation::entitlements::Capability>,
    pub username: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub profile_image_url: Option<String>,
    /// The plan in force now (a lapsed trial reads `free`).
    pub subscription_plan: Plan,
    pub subscription_status: SubscriptionStatus,
    /// End of the trial or of the paid period.
    pub subscription_expires_at: Option<DateTime<Utc>>,
    #[schema(example = 1000.0)]
    pub investment_capital: f64,
    pub risk_tolerance: RiskTolerance,
    #[schema(example = 100.0)]
    pub max_position_size: f64,
    /// Comma-separated strategy names.
    #[schema(example = "Momentum,Breakout")]
    pub preferred_strategies: String,
    pub email_notifications: bool,
    pub signal_alerts: bool,
    pub portfolio_updates: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl User {
    /// The client view of a stored user at `now`: the subscription as time has left it (a
    /// trial or a cancelled period that has run out reads as Free). A stored value outside the
    /// vocabulary is an internal error naming the user.
    pub fn from_record(record: UserRecord, config: &crate::foundation::config::Config, now: DateTime<Utc>) -> Result<User, AppError> {
        let what = format!("user {}", record.id);
        let _: SubscriptionStatus = stored(&record.subscription_status, &what)?;
        let settled = crate::foundation::subscription::Subscription::of(&record).settled(now);
        let (plan, status, expires) = (settled.plan, settled.status, settled.period_end);
        let risk_tolerance: RiskTolerance = stored(&record.risk_tolerance, &what)?;
        let is_administrator = crate::foundation::session::is_administrator(config, &record);
        let capabilities = crate::foundation::entitlements::Entitlements::of(&record, now).capabilities();
        Ok(User {
            id: record.id,
            email: record.email,
            email_verified: record.email_verified_at.is_some(),
            is_administrator,
            capabilities,
            username: record.username,
            first_name: record.first_name,
            last_name: record.last_name,
            profile_image_url: record.profile_image_url,
            subscription_plan: plan,
            subscription_status: status,
            subscription_expires_at: expires,
            investment_capital: dollars(record.investment_capital_cents),
            risk_tolerance,
            max_position_size: dollars(record.max_position_size_cents),
            preferred_strategies: record.preferred_strategies,
            email_notifications: record.email_notifications,
            signal_alerts: record.signal_alerts,
            portfolio_updates: record.portfolio_updates,
            created_at: record.created_at,
            updated_at: record.updated_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_trimmed_lowercased_and_checked() {
        assert_eq!(parse_email("  Ada@Example.COM ").as_deref(), Ok("ada@example.com"));
        for bad in ["", "ada", "ada@", "@x.com", "ada@x", "a b@x.com", "ada@@x.com", "ada@x..com", "ada@-x.com"] {
            assert!(parse_email(bad).is_err(), "{bad} should be rejected");
        }
        // An addr-spec only: no display names, lists, comments, quoted or routed forms.
        for hostile in [
            "x<victim@corp.example>",
            "Ada <ada@example.com>",
            "ada@example.com, eve@evil.example",
            "ada(comment)@example.com",
            "\"ada eve\"@example.com",
            "@relay.example:ada@example.com",
            ".ada@example.com",
            "ada.@example.com",
            "a..da@example.com",
            "ada@exa_mple.com",
            "ada@example.com\r\nBcc: eve@evil.example",
            "adä@example.com",
        ] {
            assert!(parse_email(hostile).is_err(), "{hostile} should be rejected");
        }
        for fine in ["ada+tag@example.com", "o'brien@example.co.uk", "a.b-c_d@xn--bcher-kva.example"] {
            assert_eq!(parse_email(fine).as_deref(), Ok(fine));
        }
    }

    #[test]
    fn registration_reports_every_bad_field_at_once() {
        let req = RegisterRequest {
            email: "nope".into(),
            username: "ab".into(),
            password: "12345".into(),
            first_name: Some("  ".into()),
            last_name: None,
        };
        let Err(AppError::Validation(errors)) = Registration::try_from(req) else { panic!("expected validation") };
        let fields: Vec<_> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["email", "username", "password"]);
        assert_eq!(errors[2].message, "Password must be at least 6 characters");
    }

    #[test]
    fn blank_names_become_absent() {
        let req = RegisterRequest {
            email: "a@b.co".into(),
            username: "abc".into(),
            password: "secret".into(),
            first_name: Some(" ".into()),
            last_name: Some(" Lovelace ".into()),
        };
        let reg = Registration::try_from(req).expect("valid");
        assert_eq!(reg.first_name, None);
        assert_eq!(reg.last_name.as_deref(), Some("Lovelace"));
    }
}
