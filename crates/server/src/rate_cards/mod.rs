//! A rate card (`kind: "rateCard"`): how one courier pays from a date. Declared once: its
//! rules are `domain::rate_card::RateCardInput::validate`; it points at its courier.

use domain::{
    entry::{FieldProblems, format_date},
    rate_card::{RateCard, RateCardInput},
    sync::RateCardContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
};

pub struct RateCards;

impl RecordKind for RateCards {
    const NAME: &'static str = "rateCard";
    const WORDS: Words = Words::new("rate card", "rate cards");
    type Input = RateCardInput;
    type Record = RateCard;
    type Content = RateCardContent;
    const REFERENCES: &'static [Reference] = &[Reference::to::<Couriers>("courierId")];

    fn validate(input: &RateCardInput, _user_id: Uuid) -> Result<RateCard, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxLabelChars": domain::rate_card::MAX_LABEL_CHARS,
            "maxUnitPence": domain::rate_card::MAX_UNIT_PENCE,
            "maxDayRatePence": domain::rate_card::MAX_DAY_RATE_PENCE,
            "minParcelCapPerStop": domain::rate_card::MIN_PARCEL_CAP_PER_STOP,
            "maxParcelCapPerStop": domain::rate_card::MAX_PARCEL_CAP_PER_STOP,
            "maxPeaks": domain::rate_card::MAX_PEAKS,
            "minMultiplierPercent": domain::rate_card::MULTIPLIER_PERCENT.0,
            "maxMultiplierPercent": domain::rate_card::MULTIPLIER_PERCENT.1,
            "minTiers": domain::tiers::MIN_TIERS,
            "maxTiers": domain::tiers::MAX_TIERS,
            "minRatePence": domain::tiers::MIN_RATE_PENCE,
            "maxRatePence": domain::tiers::MAX_RATE_PENCE,
            "minStopCount": domain::tiers::MIN_STOP_COUNT,
            "maxStopCount": domain::tiers::MAX_STOP_COUNT,
        })
    }

    fn id(card: &RateCard) -> Uuid {
        card.id
    }

    fn content(card: &RateCard) -> RateCardContent {
        RateCardContent {
            courier_id: card.courier_id.to_string(),
            valid_from: format_date(card.valid_from),
            label: card.label.clone(),
            per_stop: card.per_stop.as_ref().map(|tiers| tiers.tiers().to_vec()),
            per_parcel: card.per_parcel,
            parcel_cap_per_stop: card.parcel_cap_per_stop,
            per_collection: card.per_collection,
            per_failed: card.per_failed,
            day_rate: card.day_rate,
            hourly: card.hourly,
            peaks: card.peaks.clone(),
            band_rates: card.band_rates,
        }
    }
}
