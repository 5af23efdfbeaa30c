//! The records every account starts with: a default courier and its first rate card, both
//! with the user's id as their id, so the server's migration, account creation and every
//! device agree on them without talking. (Migration 0012 spells the same contents as SQL
//! literals, since a migration cannot call this; keep the two in step.)

use time::macros::date;
use uuid::Uuid;

use crate::{
    courier::{Courier, PeriodKind},
    rate_card::RateCard,
    tiers::PayTiers,
};

/// How many records a new account holds before the driver saves anything.
pub const STARTER_RECORDS: i64 = 2;

/// "My courier", paid weekly from Sunday (the spec's weeks start on Sunday), no arrears.
pub fn default_courier(user_id: Uuid) -> Courier {
    Courier {
        id: user_id,
        name: "My courier".into(),
        colour: "#2f6fde".into(),
        period_kind: PeriodKind::Weekly,
        period_anchor: date!(2000 - 01 - 02),
        arrears_weeks: 0,
    }
}

/// The default courier's first card: per-stop `tiers`, in force from 2000-01-01, before any
/// day a driver can log (no card reaches back before its own date).
pub fn first_rate_card(user_id: Uuid, tiers: PayTiers) -> RateCard {
    RateCard {
        id: user_id,
        courier_id: user_id,
        valid_from: date!(2000 - 01 - 01),
        label: String::new(),
        per_stop: Some(tiers),
        per_parcel: None,
        parcel_cap_per_stop: None,
        per_collection: None,
        per_failed: None,
        day_rate: None,
        hourly: None,
        peaks: Vec::new(),
        band_rates: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{courier::CourierInput, entry::format_date, rate_card::RateCardInput};

    /// The defaults pass the same rules as anything a device pushes.
    #[test]
    fn the_defaults_are_valid_records() {
        let user = Uuid::now_v7();
        let courier = default_courier(user);
        let input = CourierInput {
            id: user.to_string(),
            name: courier.name.clone(),
            colour: courier.colour.clone(),
            period_kind: "weekly".into(),
            period_anchor: format_date(courier.period_anchor),
            arrears_weeks: 0,
        };
        assert_eq!(input.validate().unwrap(), courier);
        assert_eq!(courier.period_anchor.weekday(), time::Weekday::Sunday);
        let card = first_rate_card(user, PayTiers::default());
        let input = RateCardInput {
            id: user.to_string(),
            courier_id: user.to_string(),
            valid_from: format_date(card.valid_from),
            label: String::new(),
            per_stop: Some(PayTiers::default().tiers().to_vec()),
            per_parcel: None,
            parcel_cap_per_stop: None,
            per_collection: None,
            per_failed: None,
            day_rate: None,
            hourly: None,
            peaks: Vec::new(),
            band_rates: None,
        };
        assert_eq!(input.validate().unwrap(), card);
    }
}
