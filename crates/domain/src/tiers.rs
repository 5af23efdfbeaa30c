//! Tiered pay: how a courier pays per stop. Tier i pays its rate for the stops above the
//! previous tier's stop count up to its own; the final tier (no stop count) pays the rest.

use serde::{Deserialize, Serialize};

use crate::money::Money;

/// Spec §9: a new tier sits 20 stops above the one before it.
pub const NEW_TIER_STOP_INCREMENT: u32 = 20;
pub const MIN_TIERS: usize = 2;
/// More than anyone's payslip needs; bounds the stored document.
pub const MAX_TIERS: usize = 20;
pub const MIN_RATE_PENCE: i64 = 1;
/// £100 a stop: far above any real rate, so only typos are refused.
pub const MAX_RATE_PENCE: i64 = 10_000;
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
                    "Tier {}: stop count must be between 1 and {MAX_STOP_COUNT}",
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
                (false, Some(n)) if n == 0 || n > MAX_STOP_COUNT => {
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

    /// Pay for a day of `stops`. Stop counts that do not rise simply make a tier cover no
    /// stops, so a half-edited tier list never produces a negative or doubled amount.
    pub fn pay_for(&self, stops: u32) -> Money {
        let mut paid = Money::ZERO;
        let mut covered: u32 = 0;
        for tier in &self.0 {
            let upper = tier.stop_count.unwrap_or(u32::MAX).min(stops);
            if upper > covered {
                paid = paid + tier.rate * i64::from(upper - covered);
                covered = upper;
            }
        }
        paid
    }

    /// Inserts a tier before the final one: previous stop count + 20, rate the average of the
    /// previous and final rates, rounded to the nearest penny (halves away from zero).
    pub fn add_tier(&self) -> Result<PayTiers, TierError> {
        let tiers = &self.0;
        let last = tiers.len() - 1;
        let previous = &tiers[last - 1];
        let final_rate = tiers[last].rate.0;
        let stop_count = previous
            .stop_count
            .unwrap_or(0)
            .saturating_add(NEW_TIER_STOP_INCREMENT);
        let rate = Money((previous.rate.0 + final_rate + 1).div_euclid(2));
        let mut next = tiers.clone();
        next.insert(
            last,
            PayTier {
                stop_count: Some(stop_count.min(MAX_STOP_COUNT)),
                rate,
            },
        );
        PayTiers::new(next)
    }

    /// Removes tier `index`: only while more than 2 tiers exist, and never the final one.
    pub fn remove_tier(&self, index: usize) -> Option<PayTiers> {
        if self.0.len() <= MIN_TIERS || index >= self.0.len() - 1 {
            return None;
        }
        let mut next = self.0.clone();
        next.remove(index);
        Some(PayTiers(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tiers(spec: &[(Option<u32>, i64)]) -> PayTiers {
        PayTiers::new(
            spec.iter()
                .map(|&(s, r)| PayTier {
                    stop_count: s,
                    rate: Money(r),
                })
                .collect(),
        )
        .unwrap()
    }

    #[test]
    fn default_tiers_pay_198_then_148() {
        let pay = PayTiers::default();
        assert_eq!(pay.pay_for(0), Money(0));
        assert_eq!(pay.pay_for(100), Money(19_800));
        assert_eq!(pay.pay_for(110), Money(21_780));
        assert_eq!(pay.pay_for(111), Money(21_928));
        assert_eq!(pay.pay_for(150), Money(21_780 + 40 * 148));
    }

    #[test]
    fn three_tiers() {
        let pay = tiers(&[(Some(100), 200), (Some(120), 175), (None, 150)]);
        assert_eq!(pay.pay_for(130), Money(100 * 200 + 20 * 175 + 10 * 150));
    }

    #[test]
    fn add_tier_follows_the_spec() {
        let added = PayTiers::default().add_tier().unwrap();
        assert_eq!(
            added.tiers(),
            &[
                PayTier {
                    stop_count: Some(110),
                    rate: Money(198)
                },
                PayTier {
                    stop_count: Some(130),
                    rate: Money(173)
                },
                PayTier {
                    stop_count: None,
                    rate: Money(148)
                },
            ]
        );
        // Average of 173 and 148 is 160.5: rounded to the nearest penny.
        let again = added.add_tier().unwrap();
        assert_eq!(
            again.tiers()[2],
            PayTier {
                stop_count: Some(150),
                rate: Money(161)
            }
        );
    }

    #[test]
    fn remove_tier_keeps_two_and_the_final() {
        let two = PayTiers::default();
        assert!(two.remove_tier(0).is_none(), "never fewer than 2");
        let three = two.add_tier().unwrap();
        assert!(three.remove_tier(2).is_none(), "never the final tier");
        assert_eq!(three.remove_tier(1).unwrap(), PayTiers::default());
    }

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

    proptest! {
        #[test]
        fn pay_grows_with_stops_and_never_exceeds_the_top_rate(
            counts in proptest::collection::vec(1u32..300, 1..5),
            rates in proptest::collection::vec(1i64..500, 5),
            stops in 0u32..1000,
        ) {
            let mut spec: Vec<PayTier> = counts.iter().zip(&rates).map(|(&c, &r)| PayTier { stop_count: Some(c), rate: Money(r) }).collect();
            spec.push(PayTier { stop_count: None, rate: Money(rates[4]) });
            let pay = PayTiers::new(spec).unwrap();
            let top = *rates.iter().max().unwrap();
            prop_assert!(pay.pay_for(stops) <= Money(top * i64::from(stops)));
            prop_assert!(pay.pay_for(stops) <= pay.pay_for(stops + 1));
        }
    }
}
