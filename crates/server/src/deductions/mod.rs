//! A deduction (`kind: "deduction"`): what a courier takes off a statement. Declared once:
//! its rules are `domain::deduction::DeductionInput::validate`; it points at its courier.

use domain::{
    deduction::{Deduction, DeductionInput, Repeat},
    entry::{FieldProblems, format_date},
    sync::{ChangeData, DeductionData},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{couriers::Couriers, records::RecordKind};

pub struct Deductions;

/// A stored deduction: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeductionContent {
    courier_id: Uuid,
    label: String,
    amount: i64,
    repeat: Repeat,
    from: String,
    to: Option<String>,
}

impl RecordKind for Deductions {
    const NAME: &'static str = "deduction";
    type Input = DeductionInput;
    type Record = Deduction;
    type Content = DeductionContent;

    fn validate(input: &DeductionInput, _user_id: Uuid) -> Result<Deduction, FieldProblems> {
        input.validate()
    }

    fn id(deduction: &Deduction) -> Uuid {
        deduction.id
    }

    fn references(deduction: &Deduction) -> Vec<(&'static str, Uuid)> {
        vec![(Couriers::NAME, deduction.courier_id)]
    }

    fn content(deduction: &Deduction) -> DeductionContent {
        DeductionContent {
            courier_id: deduction.courier_id,
            label: deduction.label.clone(),
            amount: deduction.amount,
            repeat: deduction.repeat,
            from: format_date(deduction.from),
            to: deduction.to.map(format_date),
        }
    }

    fn data(c: DeductionContent, created_at: String, updated_at: String) -> ChangeData {
        ChangeData::Deduction(DeductionData {
            courier_id: c.courier_id.to_string(),
            label: c.label,
            amount: c.amount,
            repeat: c.repeat,
            from: c.from,
            to: c.to,
            created_at,
            updated_at,
        })
    }
}
