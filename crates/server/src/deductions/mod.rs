//! A deduction (`kind: "deduction"`): what a courier takes off a statement. Declared once:
//! its rules are `domain::deduction::DeductionInput::validate`; it points at its courier, and
//! at its vehicle when it names one (which must be the user's, as an expense's).

use domain::{
    deduction::{Deduction, DeductionInput},
    entry::{FieldProblems, format_date},
    sync::DeductionContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
    vehicles::Vehicles,
};

pub struct Deductions;

impl RecordKind for Deductions {
    const NAME: &'static str = "deduction";
    const WORDS: Words = Words::new("deduction", "deductions");
    type Input = DeductionInput;
    type Record = Deduction;
    type Content = DeductionContent;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<Couriers>("courierId"),
        Reference::to::<Vehicles>("vehicleId"),
    ];

    fn validate(input: &DeductionInput, _user_id: Uuid) -> Result<Deduction, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxLabelChars": domain::deduction::MAX_LABEL_CHARS,
            "maxAmountPence": domain::deduction::MAX_AMOUNT_PENCE,
        })
    }

    fn id(deduction: &Deduction) -> Uuid {
        deduction.id
    }

    /// An app from before deductions said what they were for sends no `purpose` (a newer one
    /// always does, null included): its edit keeps the stored purpose and vehicle.
    fn kept_when_absent(input: &DeductionInput) -> &'static [&'static str] {
        if input.purpose.is_none() {
            &["purpose", "vehicleId"]
        } else {
            &[]
        }
    }

    fn content(deduction: &Deduction) -> DeductionContent {
        DeductionContent {
            courier_id: deduction.courier_id.to_string(),
            label: deduction.label.clone(),
            amount: deduction.amount,
            repeat: deduction.repeat,
            from: format_date(deduction.from),
            to: deduction.to.map(format_date),
            purpose: deduction.purpose,
            vehicle_id: deduction.vehicle_id.map(|id| id.to_string()),
        }
    }
}
