//! A mileage record (`kind: "mileage"`), declared once: its rules are
//! `domain::mileage::MileageInput::validate`; it points at its vehicle, and at its courier
//! when it names one.

use domain::{
    entry::{FieldProblems, format_date},
    mileage::{Mileage, MileageInput},
    sync::MileageContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
    vehicles::Vehicles,
};

/// The mileage log: the kind's declaration (one record is a `domain::mileage::Mileage`).
pub struct MileageLog;

impl RecordKind for MileageLog {
    const NAME: &'static str = "mileage";
    const WORDS: Words = Words::new("mileage log", "mileage logs");
    type Input = MileageInput;
    type Record = Mileage;
    type Content = MileageContent;
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
            vehicle_id: mileage.vehicle_id.to_string(),
            courier_id: mileage.courier_id.map(|id| id.to_string()),
            odometer_start: mileage.odometer.map(|(start, _)| start),
            odometer_end: mileage.odometer.map(|(_, end)| end),
            business_miles: mileage.business_miles,
            commute_miles: mileage.commute_miles,
            note: mileage.note.clone(),
        }
    }
}
