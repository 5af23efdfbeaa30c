//! An expense (`kind: "expense"`), declared once: its rules are
//! `domain::expense::ExpenseInput::validate`; it points at its courier and vehicle when it
//! names them. Its receipt photos are not records: they upload through `receipts`.

use domain::{
    deduction::Repeat,
    entry::{FieldProblems, format_date},
    expense::{Expense, ExpenseCategory, ExpenseInput},
    sync::ExpenseData,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference},
    vehicles::Vehicles,
};

pub struct Expenses;

/// A stored expense: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpenseContent {
    date: String,
    amount: i64,
    category: ExpenseCategory,
    note: String,
    courier_id: Option<Uuid>,
    vehicle_id: Option<Uuid>,
    repeat: Repeat,
    repeat_until: Option<String>,
    receipts: Vec<Uuid>,
}

impl RecordKind for Expenses {
    const NAME: &'static str = "expense";
    type Input = ExpenseInput;
    type Record = Expense;
    type Content = ExpenseContent;
    type Data = ExpenseData;
    const REFERENCES: &'static [Reference] = &[
        Reference::to::<Couriers>("courierId"),
        Reference::to::<Vehicles>("vehicleId"),
    ];

    fn validate(input: &ExpenseInput, _user_id: Uuid) -> Result<Expense, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxAmountPence": domain::expense::MAX_AMOUNT_PENCE,
            "maxNoteChars": domain::expense::MAX_NOTE_CHARS,
            "maxReceipts": domain::expense::MAX_RECEIPTS,
        })
    }

    fn id(expense: &Expense) -> Uuid {
        expense.id
    }

    fn content(expense: &Expense) -> ExpenseContent {
        ExpenseContent {
            date: format_date(expense.date),
            amount: expense.amount,
            category: expense.category,
            note: expense.note.clone(),
            courier_id: expense.courier_id,
            vehicle_id: expense.vehicle_id,
            repeat: expense.repeat,
            repeat_until: expense.repeat_until.map(format_date),
            receipts: expense.receipts.clone(),
        }
    }

    fn data(c: ExpenseContent, created_at: String, updated_at: String) -> ExpenseData {
        ExpenseData {
            date: c.date,
            amount: c.amount,
            category: c.category,
            note: c.note,
            courier_id: c.courier_id.map(|id| id.to_string()),
            vehicle_id: c.vehicle_id.map(|id| id.to_string()),
            repeat: c.repeat,
            repeat_until: c.repeat_until,
            receipts: c.receipts.iter().map(Uuid::to_string).collect(),
            created_at,
            updated_at,
        }
    }
}
