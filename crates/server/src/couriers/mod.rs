//! A courier (`kind: "courier"`), declared once: its rules are
//! `domain::courier::CourierInput::validate`; storage and sync are the generic record machinery.

use domain::{
    courier::{Courier, CourierInput, PeriodKind},
    entry::{FieldProblems, format_date},
    sync::CourierData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::records::RecordKind;

pub struct Couriers;

/// A stored courier: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CourierContent {
    name: String,
    colour: String,
    period_kind: PeriodKind,
    period_anchor: String,
    arrears_weeks: u8,
}

impl RecordKind for Couriers {
    const NAME: &'static str = "courier";
    type Input = CourierInput;
    type Record = Courier;
    type Content = CourierContent;
    type Data = CourierData;

    fn validate(input: &CourierInput, _user_id: Uuid) -> Result<Courier, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxNameChars": domain::courier::MAX_NAME_CHARS,
            "maxArrearsWeeks": domain::courier::MAX_ARREARS_WEEKS,
            "maxMonthlyAnchorDay": domain::courier::MAX_MONTHLY_ANCHOR_DAY,
        })
    }

    fn id(courier: &Courier) -> Uuid {
        courier.id
    }

    fn content(courier: &Courier) -> CourierContent {
        CourierContent {
            name: courier.name.clone(),
            colour: courier.colour.clone(),
            period_kind: courier.period_kind,
            period_anchor: format_date(courier.period_anchor),
            arrears_weeks: courier.arrears_weeks,
        }
    }

    fn data(c: CourierContent, created_at: String, updated_at: String) -> CourierData {
        CourierData {
            name: c.name,
            colour: c.colour,
            period_kind: c.period_kind,
            period_anchor: c.period_anchor,
            arrears_weeks: c.arrears_weeks,
            created_at,
            updated_at,
        }
    }
}
