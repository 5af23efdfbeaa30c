//! Profile edits and settings as they arrive in sync mutations. The server owns e-mail, role
//! and timestamps: fields a device sends for those are ignored, never applied.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    fields,
    tiers::{PayTier, PayTiers},
};

pub const DISPLAY_NAME_MAX_CHARS: usize = 80;
pub const BIO_MAX_CHARS: usize = 500;

/// `profile.update` args. Unknown fields (email, role, createdAt…) are accepted and ignored.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUpdateInput {
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub payment_config: Option<PaymentConfigInput>,
}

#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct PaymentConfigInput {
    pub tiers: Vec<PayTier>,
}

/// A validated partial profile change: `None` leaves a field as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProfileUpdate {
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub payment_tiers: Option<PayTiers>,
}

impl ProfileUpdateInput {
    pub fn validate(self) -> Result<ProfileUpdate, String> {
        let display_name = match self.display_name.map(|n| n.trim().to_owned()) {
            Some(name) if name.is_empty() => return Err("Display name is required".into()),
            Some(name) if name.chars().count() > DISPLAY_NAME_MAX_CHARS => {
                return Err(format!(
                    "Display name must be at most {DISPLAY_NAME_MAX_CHARS} characters"
                ));
            }
            Some(name) if !fields::is_clean_text(&name, false) => {
                return Err(fields::unclean_text("Display name", false));
            }
            other => other,
        };
        let bio = match self.bio {
            Some(bio) if bio.chars().count() > BIO_MAX_CHARS => {
                return Err(format!("Bio must be at most {BIO_MAX_CHARS} characters"));
            }
            Some(bio) if !fields::is_clean_text(&bio, true) => {
                return Err(fields::unclean_text("Bio", true));
            }
            other => other,
        };
        let payment_tiers = self
            .payment_config
            .map(|config| PayTiers::new(config.tiers).map_err(|e| e.message()))
            .transpose()?;
        if display_name.is_none() && bio.is_none() && payment_tiers.is_none() {
            return Err("Nothing to update".into());
        }
        Ok(ProfileUpdate {
            display_name,
            bio,
            payment_tiers,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }

    /// Stored values other than `light` mean the default, dark.
    pub fn from_stored(value: &str) -> Theme {
        if value == "light" {
            Theme::Light
        } else {
            Theme::Dark
        }
    }
}

/// Which Income Tax bands the tax year view uses (Scotland sets its own), the same on every
/// device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TaxRegion {
    #[default]
    Uk,
    Scotland,
}

impl TaxRegion {
    pub fn as_str(self) -> &'static str {
        match self {
            TaxRegion::Uk => "uk",
            TaxRegion::Scotland => "scotland",
        }
    }

    /// Stored values other than `scotland` mean the default, the UK bands.
    pub fn from_stored(value: &str) -> TaxRegion {
        if value == "scotland" {
            TaxRegion::Scotland
        } else {
            TaxRegion::Uk
        }
    }
}

/// Which quarters the driver's Making Tax Digital updates follow: HMRC's standard quarters (ending
/// 5 July, 5 October, 5 January, 5 April) or the calendar quarters a trader may elect (ending
/// 30 June, 30 September, 31 December, 31 March). The dates are the web app's data per tax year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MtdQuarters {
    #[default]
    Standard,
    Calendar,
}

impl MtdQuarters {
    pub fn as_str(self) -> &'static str {
        match self {
            MtdQuarters::Standard => "standard",
            MtdQuarters::Calendar => "calendar",
        }
    }

    /// Stored values other than `calendar` mean the default, the standard quarters.
    pub fn from_stored(value: &str) -> MtdQuarters {
        if value == "calendar" {
            MtdQuarters::Calendar
        } else {
            MtdQuarters::Standard
        }
    }
}

/// `settings.put` args. Each setting is optional so an app older than a setting (a put with
/// only `theme`, from before `taxRegion`) keeps what a newer app stored; at least one is needed.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingsInput {
    #[serde(default)]
    pub theme: Option<Theme>,
    #[serde(default)]
    pub tax_region: Option<TaxRegion>,
    #[serde(default)]
    pub quarters: Option<MtdQuarters>,
    /// Days a sent statement query may go unanswered before the reminder (issue 28).
    #[serde(default)]
    pub query_reminder_days: Option<i64>,
}

/// The reminder about an unanswered statement query comes after this many days by default…
pub const DEFAULT_QUERY_REMINDER_DAYS: u8 = 14;
/// …and the driver may choose from this range.
pub const QUERY_REMINDER_DAYS: (i64, i64) = (1, 90);

/// A validated settings change: `None` keeps the stored value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SettingsUpdate {
    pub theme: Option<Theme>,
    pub tax_region: Option<TaxRegion>,
    pub quarters: Option<MtdQuarters>,
    pub query_reminder_days: Option<u8>,
}

impl SettingsInput {
    pub fn validate(&self) -> Result<SettingsUpdate, String> {
        if self.theme.is_none()
            && self.tax_region.is_none()
            && self.quarters.is_none()
            && self.query_reminder_days.is_none()
        {
            return Err(
                "Nothing to update: send theme, taxRegion, quarters or queryReminderDays".into(),
            );
        }
        let (min, max) = QUERY_REMINDER_DAYS;
        let query_reminder_days = match self.query_reminder_days {
            None => None,
            Some(days) => Some(
                u8::try_from(days)
                    .ok()
                    .filter(|_| (min..=max).contains(&days))
                    .ok_or_else(|| {
                        format!("The reminder about an unanswered query must come after {min} to {max} days")
                    })?,
            ),
        };
        Ok(SettingsUpdate {
            theme: self.theme,
            tax_region: self.tax_region,
            quarters: self.quarters,
            query_reminder_days,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Money;
    use serde_json::json;

    fn parse(args: serde_json::Value) -> Result<ProfileUpdate, String> {
        serde_json::from_value::<ProfileUpdateInput>(args)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn server_owned_fields_are_ignored() {
        let update =
            parse(json!({"displayName": " Sam ", "email": "evil@example.com", "role": "pro"}))
                .unwrap();
        assert_eq!(
            update,
            ProfileUpdate {
                display_name: Some("Sam".into()),
                ..Default::default()
            }
        );
    }

    #[test]
    fn display_name_rules() {
        assert_eq!(
            parse(json!({"displayName": "  "})),
            Err("Display name is required".into())
        );
        assert!(parse(json!({"displayName": "x".repeat(81)})).is_err());
        assert!(parse(json!({"bio": "b".repeat(501)})).is_err());
        assert_eq!(parse(json!({"bio": ""})).unwrap().bio, Some(String::new()));
        assert_eq!(
            parse(json!({"role": "pro"})),
            Err("Nothing to update".into())
        );
    }

    #[test]
    fn tiers_are_validated() {
        let ok = parse(
            json!({"paymentConfig": {"tiers": [{"stopCount": 100, "rate": 200}, {"rate": 150}]}}),
        )
        .unwrap();
        assert_eq!(
            ok.payment_tiers.unwrap().tiers(),
            [
                PayTier {
                    stop_count: Some(100),
                    rate: Money(200)
                },
                PayTier {
                    stop_count: None,
                    rate: Money(150)
                },
            ]
        );
        assert!(parse(json!({"paymentConfig": {"tiers": [{"rate": 150}]}})).is_err());
        assert!(
            parse(
                json!({"paymentConfig": {"tiers": [{"stopCount": 100, "rate": 0}, {"rate": 150}]}})
            )
            .is_err()
        );
    }

    fn settings(args: serde_json::Value) -> Result<SettingsUpdate, String> {
        serde_json::from_value::<SettingsInput>(args)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn themes() {
        assert_eq!(
            settings(json!({"theme": "light"})).unwrap().theme,
            Some(Theme::Light)
        );
        assert!(settings(json!({"theme": "neon"})).is_err());
        assert_eq!(Theme::from_stored("system"), Theme::Dark);
    }

    #[test]
    fn tax_regions_are_optional_but_something_must_change() {
        assert_eq!(
            settings(json!({"theme": "dark", "taxRegion": "scotland"})),
            Ok(SettingsUpdate {
                theme: Some(Theme::Dark),
                tax_region: Some(TaxRegion::Scotland),
                quarters: None,
                query_reminder_days: None
            })
        );
        // An app from before tax regions: the stored region is kept.
        assert_eq!(
            settings(json!({"theme": "light"})).unwrap().tax_region,
            None
        );
        assert_eq!(
            settings(json!({"taxRegion": "uk"})),
            Ok(SettingsUpdate {
                theme: None,
                tax_region: Some(TaxRegion::Uk),
                quarters: None,
                query_reminder_days: None
            })
        );
        assert!(settings(json!({"taxRegion": "wales"})).is_err());
        assert_eq!(
            settings(json!({"quarters": "calendar"})).unwrap().quarters,
            Some(MtdQuarters::Calendar)
        );
        assert_eq!(settings(json!({"theme": "light"})).unwrap().quarters, None);
        assert!(settings(json!({"quarters": "monthly"})).is_err());
        assert!(settings(json!({"quarters": "Calendar"})).is_err());
    }

    #[test]
    fn the_query_reminder_is_1_to_90_days() {
        assert_eq!(
            settings(json!({"queryReminderDays": 30}))
                .unwrap()
                .query_reminder_days,
            Some(30)
        );
        for days in [1, 90] {
            assert!(
                settings(json!({"queryReminderDays": days})).is_ok(),
                "{days}"
            );
        }
        for days in [0, 91, -1, 300] {
            assert!(
                settings(json!({"queryReminderDays": days})).is_err(),
                "{days}"
            );
        }
        assert_eq!(
            settings(json!({"theme": "dark"}))
                .unwrap()
                .query_reminder_days,
            None
        );
        assert!(settings(json!({"taxRegion": "Scotland"})).is_err());
        assert!(settings(json!({})).is_err());
        assert!(settings(json!({"theme": null})).is_err());
        assert_eq!(TaxRegion::from_stored("scotland"), TaxRegion::Scotland);
        assert_eq!(TaxRegion::from_stored("mars"), TaxRegion::Uk);
    }
}
