//! A courier (`kind: "courier"`), declared once: its rules are
//! `domain::courier::CourierInput::validate`; storage and sync are the generic record machinery.

use domain::{
    courier::{Courier, CourierInput},
    entry::{FieldProblems, format_date},
    sync::CourierContent,
};
use uuid::Uuid;

use crate::records::{RecordKind, Words};

pub struct Couriers;

impl RecordKind for Couriers {
    const NAME: &'static str = "courier";
    const WORDS: Words = Words::new("courier", "couriers");
    type Input = CourierInput;
    type Record = Courier;
    type Content = CourierContent;

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
}
