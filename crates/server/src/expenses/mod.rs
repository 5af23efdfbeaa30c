//! An expense (`kind: "expense"`), declared once: its rules are
//! `domain::expense::ExpenseInput::validate`; it points at its courier and vehicle when it
//! names them. Its receipt photos are not records: they upload through `receipts`.

use domain::{
    entry::{FieldProblems, format_date},
    expense::{Expense, ExpenseInput},
    sync::ExpenseContent,
};
use uuid::Uuid;

use crate::{
    couriers::Couriers,
    records::{RecordKind, Reference, Words},
    vehicles::Vehicles,
};

pub struct Expenses;

impl RecordKind for Expenses {
    const NAME: &'static str = "expense";
    const WORDS: Words = Words::new("expense", "expenses");
    type Input = ExpenseInput;
    type Record = Expense;
    type Content = ExpenseContent;
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
            courier_id: expense.courier_id.map(|id| id.to_string()),
            vehicle_id: expense.vehicle_id.map(|id| id.to_string()),
            repeat: expense.repeat,
            repeat_until: expense.repeat_until.map(format_date),
            receipts: expense.receipts.iter().map(Uuid::to_string).collect(),
        }
    }
}
