//! A fuel fill (`kind: "fuelFill"`), declared once: its rules are
//! `domain::fuel_fill::FuelFillInput::validate`; it points at its vehicle. A log for the
//! vehicle's economy and evidence, never an expense: no tax figure reads it.

use domain::{
    entry::{FieldProblems, format_date},
    fuel_fill::{FuelFill, FuelFillInput},
    sync::FuelFillContent,
};
use uuid::Uuid;

use crate::{
    records::{RecordKind, Reference, Words},
    vehicles::Vehicles,
};

/// The fuel log: the kind's declaration (one record is a `domain::fuel_fill::FuelFill`).
pub struct FuelFills;

impl RecordKind for FuelFills {
    const NAME: &'static str = "fuelFill";
    const WORDS: Words = Words::new("fuel fill", "fuel fills");
    type Input = FuelFillInput;
    type Record = FuelFill;
    type Content = FuelFillContent;
    const REFERENCES: &'static [Reference] = &[Reference::to::<Vehicles>("vehicleId")];

    fn validate(input: &FuelFillInput, _user_id: Uuid) -> Result<FuelFill, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxQuantity": domain::fuel_fill::MAX_QUANTITY,
            "maxCostPence": domain::fuel_fill::MAX_COST_PENCE,
            "maxOdometer": domain::mileage::MAX_ODOMETER,
            "maxNoteChars": domain::fuel_fill::MAX_NOTE_CHARS,
        })
    }

    fn id(fill: &FuelFill) -> Uuid {
        fill.id
    }

    fn content(fill: &FuelFill) -> FuelFillContent {
        FuelFillContent {
            date: format_date(fill.date),
            vehicle_id: fill.vehicle_id.to_string(),
            unit: fill.unit,
            quantity: fill.quantity,
            cost: fill.cost,
            odometer: fill.odometer,
            full: fill.full,
            note: fill.note.clone(),
        }
    }
}
