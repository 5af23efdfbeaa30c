//! Plans: PLANS_ENABLED turns the Free/Pro plans off for a self-hosted server where everyone has
//! everything; Stripe checkout (STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET,
//! all or none) sells Pro where they are on.

use std::fmt;

use clap::Args;

use super::{ConfigError, HttpConfig};

#[derive(Args, Clone)]
pub struct BillingConfig {
    /// The Free and Pro plans: `false` turns them off (a private server): no Pro banner, no
    /// upgrade page, no plan labels, and every user has everything.
    #[arg(long, env = "PLANS_ENABLED", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub plans_enabled: bool,

    /// Stripe secret key; with STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET it turns on checkout.
    #[arg(long, env = "STRIPE_SECRET_KEY", global = true, hide_env_values = true)]
    pub stripe_secret_key: Option<String>,

    /// The Stripe price of the Pro plan (£4.99 per month), e.g. `price_123`.
    #[arg(long, env = "STRIPE_PRICE_ID", global = true)]
    pub stripe_price_id: Option<String>,

    /// Signing secret of the Stripe webhook endpoint (`whsec_…`).
    #[arg(
        long,
        env = "STRIPE_WEBHOOK_SECRET",
        global = true,
        hide_env_values = true
    )]
    pub stripe_webhook_secret: Option<String>,

    /// Stripe API base URL (tests point it at a local stand-in).
    #[arg(
        long,
        env = "STRIPE_API_BASE",
        default_value = "https://api.stripe.com",
        global = true
    )]
    pub stripe_api_base: String,
}

impl Default for BillingConfig {
    fn default() -> Self {
        BillingConfig {
            plans_enabled: true,
            stripe_secret_key: None,
            stripe_price_id: None,
            stripe_webhook_secret: None,
            stripe_api_base: "https://api.stripe.com".into(),
        }
    }
}

impl fmt::Debug for BillingConfig {
    // Keys are secrets: only say which price and where.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BillingConfig")
            .field("plans_enabled", &self.plans_enabled)
            .field("stripe_price_id", &self.stripe_price_id)
            .field("stripe_api_base", &self.stripe_api_base)
            .finish_non_exhaustive()
    }
}

/// Checkout settings, present only when billing is fully configured.
#[derive(Clone)]
pub struct StripeConfig {
    pub secret_key: String,
    pub price_id: String,
    pub webhook_secret: String,
    pub api_base: String,
    pub public_origin: String,
}

impl fmt::Debug for StripeConfig {
    // Keys are secrets: only say which price and where.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StripeConfig")
            .field("price_id", &self.price_id)
            .field("api_base", &self.api_base)
            .finish_non_exhaustive()
    }
}

impl BillingConfig {
    /// All three Stripe settings or none: half a billing setup is refused at start-up.
    /// Checkout sends drivers back to the app, so it needs `http`'s PUBLIC_URL.
    pub fn stripe(&self, http: &HttpConfig) -> Result<Option<StripeConfig>, ConfigError> {
        let set = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        match (
            set(&self.stripe_secret_key),
            set(&self.stripe_price_id),
            set(&self.stripe_webhook_secret),
        ) {
            (None, None, None) => Ok(None),
            (Some(secret_key), Some(price_id), Some(webhook_secret)) => {
                let public_origin = http.public_origin()?.ok_or_else(|| {
                    ConfigError(
                        "Stripe checkout needs PUBLIC_URL to send drivers back to the app".into(),
                    )
                })?;
                Ok(Some(StripeConfig {
                    secret_key,
                    price_id,
                    webhook_secret,
                    api_base: self.stripe_api_base.trim_end_matches('/').to_owned(),
                    public_origin,
                }))
            }
            _ => Err(ConfigError(
                "set all of STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET, or none"
                    .into(),
            )),
        }
    }

    pub fn validate(&self, http: &HttpConfig) -> Result<(), ConfigError> {
        let stripe = self.stripe(http)?;
        // Checkout sells Pro: with plans off there is nothing to sell, so the pair is refused
        // rather than one of them silently ignored.
        if stripe.is_some() && !self.plans_enabled {
            return Err(ConfigError(
                "PLANS_ENABLED=false turns the Pro plan off, so Stripe checkout has nothing to \
                 sell: unset STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET, or \
                 turn plans on"
                    .into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripe_is_all_or_nothing_and_needs_a_public_url() {
        let mut http = HttpConfig::default();
        let mut config = BillingConfig::default();
        assert!(config.stripe(&http).unwrap().is_none());
        config.stripe_secret_key = Some("sk_test".into());
        assert!(config.validate(&http).is_err(), "half a billing setup");
        config.stripe_price_id = Some("price_1".into());
        config.stripe_webhook_secret = Some("whsec_1".into());
        assert!(config.stripe(&http).unwrap_err().0.contains("PUBLIC_URL"));
        http.public_url = Some("https://dt.example.com".into());
        assert_eq!(
            config.stripe(&http).unwrap().unwrap().public_origin,
            "https://dt.example.com"
        );
        assert!(
            !format!("{config:?}").contains("sk_test"),
            "secrets never printed"
        );
        assert!(config.validate(&http).is_ok());
    }

    #[test]
    fn plans_are_on_by_default_and_off_refuses_a_checkout() {
        let http = HttpConfig {
            public_url: Some("https://dt.example.com".into()),
            ..HttpConfig::default()
        };
        let off = BillingConfig {
            plans_enabled: false,
            ..BillingConfig::default()
        };
        assert!(BillingConfig::default().plans_enabled);
        assert!(off.validate(&http).is_ok(), "plans off, no checkout: fine");
        let selling = BillingConfig {
            stripe_secret_key: Some("sk_test".into()),
            stripe_price_id: Some("price_1".into()),
            stripe_webhook_secret: Some("whsec_1".into()),
            ..off
        };
        let why = selling.validate(&http).expect_err("refused").0;
        assert!(
            why.contains("PLANS_ENABLED") && why.contains("STRIPE_SECRET_KEY"),
            "{why}"
        );
    }
}
