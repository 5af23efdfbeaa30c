//! Tiered pay: how a courier pays per stop. Tier i pays its rate for the stops above the
//! previous tier's stop count up to its own; the final tier (no stop count) pays the rest.
//! The device prices days and edits tier lists (web `core/pay/pay.ts`, `core/pay/tier-rules.ts`);
//! the server only keeps a list sane, with these bounds.

use serde::{Deserialize, Serialize};

use crate::money::Money;

pub const MIN_TIERS: usize = 2;
/// More than anyone's payslip needs; bounds the stored document.
pub const MAX_TIERS: usize = 20;
pub const MIN_RATE_PENCE: i64 = 1;
/// £100 a stop: far above any real rate, so only typos are refused.
pub const MAX_RATE_PENCE: i64 = 10_000;
/// A tier's stop count is from 1 (a tier of no stops would pay nothing) to this.
pub const MIN_STOP_COUNT: u32 = 1;
pub const MAX_STOP_COUNT: u32 = 1_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayTier {
    /// Stops up to (inclusive); `None` on the final tier only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub stop_count: Option<u32>,
    /// Pence per stop.
    pub rate: Money,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(transparent)]
pub struct PayTiers(Vec<PayTier>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TierError {
    TooFew,
    TooMany,
    FinalHasStopCount,
    MissingStopCount(usize),
    StopCountOutOfRange(usize),
    RateOutOfRange(usize),
}

impl TierError {
    pub fn message(&self) -> String {
        match self {
            TierError::TooFew => "At least 2 tiers are required".into(),
            TierError::TooMany => format!("At most {MAX_TIERS} tiers are allowed"),
            TierError::FinalHasStopCount => "The final tier has no stop count".into(),
            TierError::MissingStopCount(i) => format!("Tier {} needs a stop count", i + 1),
            TierError::StopCountOutOfRange(i) => {
                format!(
                    "Tier {}: stop count must be between {MIN_STOP_COUNT} and {MAX_STOP_COUNT}",
                    i + 1
                )
            }
            TierError::RateOutOfRange(i) => {
                format!("Tier {}: rate must be between £0.01 and £100.00", i + 1)
            }
        }
    }
}

impl Default for PayTiers {
    /// Spec §3: 110 stops at £1.98, then £1.48.
    fn default() -> Self {
        PayTiers(vec![
            PayTier {
                stop_count: Some(110),
                rate: Money(198),
            },
            PayTier {
                stop_count: None,
                rate: Money(148),
            },
        ])
    }
}

impl PayTiers {
    pub fn new(tiers: Vec<PayTier>) -> Result<PayTiers, TierError> {
        if tiers.len() < MIN_TIERS {
            return Err(TierError::TooFew);
        }
        if tiers.len() > MAX_TIERS {
            return Err(TierError::TooMany);
        }
        let last = tiers.len() - 1;
        for (i, tier) in tiers.iter().enumerate() {
            if !(MIN_RATE_PENCE..=MAX_RATE_PENCE).contains(&tier.rate.0) {
                return Err(TierError::RateOutOfRange(i));
            }
            match (i == last, tier.stop_count) {
                (true, Some(_)) => return Err(TierError::FinalHasStopCount),
                (false, None) => return Err(TierError::MissingStopCount(i)),
                (false, Some(n)) if !(MIN_STOP_COUNT..=MAX_STOP_COUNT).contains(&n) => {
                    return Err(TierError::StopCountOutOfRange(i));
                }
                _ => {}
            }
        }
        Ok(PayTiers(tiers))
    }

    pub fn tiers(&self) -> &[PayTier] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_tier_lists_are_refused() {
        let t = |s: Option<u32>, r: i64| PayTier {
            stop_count: s,
            rate: Money(r),
        };
        assert_eq!(PayTiers::new(vec![t(None, 100)]), Err(TierError::TooFew));
        assert_eq!(
            PayTiers::new(vec![t(Some(10), 100), t(Some(5), 100)]),
            Err(TierError::FinalHasStopCount)
        );
        assert_eq!(
            PayTiers::new(vec![t(None, 100), t(None, 100)]),
            Err(TierError::MissingStopCount(0))
        );
        assert_eq!(
            PayTiers::new(vec![t(Some(0), 100), t(None, 100)]),
            Err(TierError::StopCountOutOfRange(0))
        );
        assert_eq!(
            PayTiers::new(vec![t(Some(10), 0), t(None, 100)]),
            Err(TierError::RateOutOfRange(0))
        );
    }
}
