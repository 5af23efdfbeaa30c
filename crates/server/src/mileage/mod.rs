//! A mileage record (`kind: "mileage"`), declared once: its rules are
//! `domain::mileage::MileageInput::validate`; it points at its vehicle, and at its courier
//! when it names one.

use domain::{
    entry::{FieldProblems, format_date},
    mileage::{Mileage, MileageInput},
    sync::MileageData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference},
    vehicles::Vehicles,
};

/// The mileage log: the kind's declaration (one record is a `domain::mileage::Mileage`).
pub struct MileageLog;

/// A stored mileage record: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MileageContent {
    date: String,
    vehicle_id: Uuid,
    courier_id: Option<Uuid>,
    odometer_start: Option<u32>,
    odometer_end: Option<u32>,
    business_miles: u32,
    commute_miles: u32,
    note: String,
}

impl RecordKind for MileageLog {
    const NAME: &'static str = "mileage";
    type Input = MileageInput;
    type Record = Mileage;
    type Content = MileageContent;
    type Data = MileageData;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<Vehicles>("vehicleId"),
        Reference::to::<Couriers>("courierId"),
    ];

    fn validate(input: &MileageInput, _user_id: Uuid) -> Result<Mileage, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxOdometer": domain::mileage::MAX_ODOMETER,
            "maxMiles": domain::mileage::MAX_MILES,
            "maxNoteChars": domain::mileage::MAX_NOTE_CHARS,
        })
    }

    fn id(mileage: &Mileage) -> Uuid {
        mileage.id
    }

    fn content(mileage: &Mileage) -> MileageContent {
        MileageContent {
            date: format_date(mileage.date),
            vehicle_id: mileage.vehicle_id,
            courier_id: mileage.courier_id,
            odometer_start: mileage.odometer.map(|(start, _)| start),
            odometer_end: mileage.odometer.map(|(_, end)| end),
            business_miles: mileage.business_miles,
            commute_miles: mileage.commute_miles,
            note: mileage.note.clone(),
        }
    }

    fn data(c: MileageContent, created_at: String, updated_at: String) -> MileageData {
        MileageData {
            date: c.date,
            vehicle_id: c.vehicle_id.to_string(),
            courier_id: c.courier_id.map(|id| id.to_string()),
            odometer_start: c.odometer_start,
            odometer_end: c.odometer_end,
            business_miles: c.business_miles,
            commute_miles: c.commute_miles,
            note: c.note,
            created_at,
            updated_at,
        }
    }
}
