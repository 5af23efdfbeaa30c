//! A rate card (`kind: "rateCard"`): how one courier pays from a date. Declared once: its
//! rules are `domain::rate_card::RateCardInput::validate`; it points at its courier.

use domain::{
    entry::{FieldProblems, format_date},
    rate_card::{Peak, RateCard, RateCardInput},
    sync::{ChangeData, RateCardData},
    tiers::PayTier,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{couriers::Couriers, records::RecordKind};

pub struct RateCards;

/// A stored rate card: its pulled `data` without the timestamps. Every rule is written, null
/// when not used.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RateCardContent {
    courier_id: Uuid,
    valid_from: String,
    label: String,
    per_stop: Option<Vec<PayTier>>,
    per_parcel: Option<i64>,
    parcel_cap_per_stop: Option<i64>,
    per_collection: Option<i64>,
    per_failed: Option<i64>,
    day_rate: Option<i64>,
    hourly: Option<i64>,
    peaks: Vec<Peak>,
}

impl RecordKind for RateCards {
    const NAME: &'static str = "rateCard";
    type Input = RateCardInput;
    type Record = RateCard;
    type Content = RateCardContent;

    fn validate(input: &RateCardInput, _user_id: Uuid) -> Result<RateCard, FieldProblems> {
        input.validate()
    }

    fn id(card: &RateCard) -> Uuid {
        card.id
    }

    fn references(card: &RateCard) -> Vec<(&'static str, Uuid)> {
        vec![(Couriers::NAME, card.courier_id)]
    }

    fn content(card: &RateCard) -> RateCardContent {
        RateCardContent {
            courier_id: card.courier_id,
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
        }
    }

    fn data(c: RateCardContent, created_at: String, updated_at: String) -> ChangeData {
        ChangeData::RateCard(RateCardData {
            courier_id: c.courier_id.to_string(),
            valid_from: c.valid_from,
            label: c.label,
            per_stop: c.per_stop,
            per_parcel: c.per_parcel,
            parcel_cap_per_stop: c.parcel_cap_per_stop,
            per_collection: c.per_collection,
            per_failed: c.per_failed,
            day_rate: c.day_rate,
            hourly: c.hourly,
            peaks: c.peaks,
            created_at,
            updated_at,
        })
    }
}
