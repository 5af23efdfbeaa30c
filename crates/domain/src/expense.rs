//! An expense (`kind: "expense"`): money a courier spends on the business, once or every
//! week or month, in one of the Self Assessment (SA103) categories, with the ids of its receipt
//! photos. Which box a category goes in, and how vehicle running costs meet the mileage claim,
//! is the device's (web `core/tax/`); the server checks only what keeps a record sound.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{deduction::Repeat, entry::FieldProblems, fields};

/// £100,000 in one expense.
pub const MAX_AMOUNT_PENCE: i64 = 10_000_000;
pub const MAX_NOTE_CHARS: usize = 200;
pub const MAX_RECEIPTS: usize = 5;

/// The SA103 expense categories (web `core/tax/expense-categories.ts` maps each to its box).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum ExpenseCategory {
    Fuel,
    VehicleRepairs,
    VehicleInsurance,
    VehicleTax,
    VehicleHire,
    ParkingTolls,
    Travel,
    Phone,
    Office,
    Equipment,
    Clothing,
    Insurance,
    BankCharges,
    Accountancy,
    Subscriptions,
    Other,
}

/// `expense.put` args. Every field is required (null where the contract allows it), so a
/// device that forgot one is told rather than given a default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpenseInput {
    pub id: String,
    pub date: String,
    /// Pence, per occurrence.
    pub amount: i64,
    /// One of the SA103 category ids (`fuel`, `vehicleRepairs`, … `other`).
    pub category: String,
    pub note: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub courier_id: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub vehicle_id: Option<String>,
    /// `once`, `weekly` or `monthly` (as deductions).
    pub repeat: String,
    /// The last day a recurring expense may fall on; null = still running (and always for once).
    #[serde(deserialize_with = "Option::deserialize")]
    pub repeat_until: Option<String>,
    /// Receipt photo ids (canonical UUIDs, uploaded through `/api/v1/receipts/{id}`).
    pub receipts: Vec<String>,
}

/// A validated expense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expense {
    pub id: Uuid,
    pub date: Date,
    pub amount: i64,
    pub category: ExpenseCategory,
    pub note: String,
    pub courier_id: Option<Uuid>,
    pub vehicle_id: Option<Uuid>,
    pub repeat: Repeat,
    pub repeat_until: Option<Date>,
    pub receipts: Vec<Uuid>,
}

impl ExpenseInput {
    pub fn validate(&self) -> Result<Expense, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Expense id", &mut p);
        let date = fields::date(&self.date, "date", "Date", &mut p);
        if !(1..=MAX_AMOUNT_PENCE).contains(&self.amount) {
            p.push((
                "amount",
                "Amount must be between £0.01 and £100,000.00".into(),
            ));
        }
        let category = fields::choice::<ExpenseCategory>(
            &self.category,
            "category",
            || "Choose a category from the list".into(),
            &mut p,
        );
        let note = fields::line(&self.note, "note", "Note", (0, MAX_NOTE_CHARS), &mut p);
        let courier_id = fields::optional_uuid(&self.courier_id, "courierId", "Courier id", &mut p);
        let vehicle_id = fields::optional_uuid(&self.vehicle_id, "vehicleId", "Vehicle id", &mut p);
        let repeat = fields::choice::<Repeat>(
            &self.repeat,
            "repeat",
            || "Repeat must be once, weekly or monthly".into(),
            &mut p,
        );
        let until = fields::optional_date(&self.repeat_until, "repeatUntil", "Until", &mut p);
        match (repeat, date, &until) {
            (Some(Repeat::Once), _, Some(Some(_))) => {
                p.push(("repeatUntil", "A one-off expense has no end date".into()));
            }
            (Some(_), Some(date), Some(Some(until))) if *until < date => {
                p.push((
                    "repeatUntil",
                    "Until must be on or after the expense's date".into(),
                ));
            }
            _ => {}
        }
        let receipts = receipts(&self.receipts, &mut p);
        match (
            id,
            date,
            category,
            note,
            courier_id,
            vehicle_id,
            repeat,
            until,
            receipts,
            p.is_empty(),
        ) {
            (
                Some(id),
                Some(date),
                Some(category),
                Some(note),
                Some(courier_id),
                Some(vehicle_id),
                Some(repeat),
                Some(repeat_until),
                Some(receipts),
                true,
            ) => Ok(Expense {
                id,
                date,
                amount: self.amount,
                category,
                note,
                courier_id,
                vehicle_id,
                repeat,
                repeat_until,
                receipts,
            }),
            _ => Err(p),
        }
    }
}

/// At most [`MAX_RECEIPTS`] canonical ids, none twice (an id names one stored photo).
fn receipts(raw: &[String], p: &mut FieldProblems) -> Option<Vec<Uuid>> {
    if raw.len() > MAX_RECEIPTS {
        p.push((
            "receipts",
            format!("An expense has at most {MAX_RECEIPTS} receipt photos"),
        ));
        return None;
    }
    let ids: Option<Vec<Uuid>> = raw.iter().map(|id| fields::canonical_uuid(id)).collect();
    let Some(ids) = ids else {
        p.push((
            "receipts",
            "Receipt ids must be lowercase hyphenated UUIDs".into(),
        ));
        return None;
    };
    if ids
        .iter()
        .enumerate()
        .any(|(at, id)| ids[..at].contains(id))
    {
        p.push(("receipts", "A receipt photo is listed twice".into()));
        return None;
    }
    Some(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECEIPT: &str = "0190a6e2-7c1d-7000-8000-0000000000a1";

    fn input() -> ExpenseInput {
        ExpenseInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000e1".into(),
            date: "2025-04-06".into(),
            amount: 4_599,
            category: "fuel".into(),
            note: " Shell, Leeds ".into(),
            courier_id: Some("0190a6e2-7c1d-7000-8000-0000000000c1".into()),
            vehicle_id: Some("0190a6e2-7c1d-7000-8000-0000000000f1".into()),
            repeat: "once".into(),
            repeat_until: None,
            receipts: vec![RECEIPT.into()],
        }
    }

    fn fields(bad: &ExpenseInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_fuel_receipt_is_valid_and_its_note_trimmed() {
        let expense = input().validate().unwrap();
        assert_eq!(
            (
                expense.category,
                expense.note.as_str(),
                expense.repeat,
                expense.receipts.len()
            ),
            (ExpenseCategory::Fuel, "Shell, Leeds", Repeat::Once, 1)
        );
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut ExpenseInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|e| e.id = "42".into(), "id"),
            (|e| e.date = "2025-02-29".into(), "date"),
            (|e| e.date = "06/04/2025".into(), "date"),
            (|e| e.amount = 0, "amount"),
            (|e| e.amount = 10_000_001, "amount"),
            (|e| e.category = "lunch".into(), "category"),
            (|e| e.category = "Fuel".into(), "category"),
            (|e| e.note = "n".repeat(201), "note"),
            (|e| e.note = "two\nlines".into(), "note"),
            (|e| e.courier_id = Some("dpd".into()), "courierId"),
            (|e| e.vehicle_id = Some(String::new()), "vehicleId"),
            (|e| e.repeat = "daily".into(), "repeat"),
            (
                |e| e.repeat_until = Some("2025-04-31".into()),
                "repeatUntil",
            ),
            (
                |e| e.repeat_until = Some("2025-04-07".into()),
                "repeatUntil",
            ), // once
            (
                |e| {
                    e.repeat = "monthly".into();
                    e.repeat_until = Some("2025-04-05".into());
                },
                "repeatUntil",
            ),
            (|e| e.receipts = vec![RECEIPT.to_uppercase()], "receipts"),
            (|e| e.receipts = vec![RECEIPT.replace('-', "")], "receipts"),
            (|e| e.receipts = vec!["receipt.jpg".into()], "receipts"),
            (
                |e| e.receipts = vec![RECEIPT.into(), RECEIPT.into()],
                "receipts",
            ),
            (
                |e| {
                    e.receipts = (1..=6)
                        .map(|n| format!("0190a6e2-7c1d-7000-8000-00000000000{n}"))
                        .collect();
                },
                "receipts",
            ),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn boundaries_are_accepted() {
        for ok in [
            ExpenseInput {
                amount: 1,
                note: String::new(),
                courier_id: None,
                vehicle_id: None,
                receipts: Vec::new(),
                ..input()
            },
            ExpenseInput {
                amount: 10_000_000,
                note: "é".repeat(200),
                repeat: "weekly".into(),
                repeat_until: Some("2025-04-06".into()),
                receipts: (1..=5)
                    .map(|n| format!("0190a6e2-7c1d-7000-8000-00000000000{n}"))
                    .collect(),
                ..input()
            },
            ExpenseInput {
                repeat: "monthly".into(),
                repeat_until: None,
                category: "subscriptions".into(),
                ..input()
            },
        ] {
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_category_id_of_the_contract_is_accepted() {
        for category in [
            "fuel",
            "vehicleRepairs",
            "vehicleInsurance",
            "vehicleTax",
            "vehicleHire",
            "parkingTolls",
            "travel",
            "phone",
            "office",
            "equipment",
            "clothing",
            "insurance",
            "bankCharges",
            "accountancy",
            "subscriptions",
            "other",
        ] {
            let ok = ExpenseInput {
                category: category.into(),
                ..input()
            };
            let expense = ok.validate().unwrap();
            assert_eq!(
                serde_json::to_value(expense.category).unwrap(),
                serde_json::json!(category)
            );
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = ExpenseInput {
            id: "x".into(),
            date: "soon".into(),
            amount: -1,
            category: "treats".into(),
            note: "\u{7}".into(),
            courier_id: Some("c".into()),
            vehicle_id: Some("v".into()),
            repeat: "sometimes".into(),
            repeat_until: Some("never".into()),
            receipts: vec!["r".into()],
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "date",
                "amount",
                "category",
                "note",
                "courierId",
                "vehicleId",
                "repeat",
                "repeatUntil",
                "receipts"
            ]
        );
    }

    #[test]
    fn every_field_is_required_and_unknown_ones_are_refused() {
        let full = serde_json::to_value(input()).unwrap();
        assert!(serde_json::from_value::<ExpenseInput>(full.clone()).is_ok());
        for field in full.as_object().unwrap().keys() {
            let mut missing = full.clone();
            missing.as_object_mut().unwrap().remove(field);
            assert!(
                serde_json::from_value::<ExpenseInput>(missing).is_err(),
                "{field} may not be left out"
            );
        }
        let mut extra = full.clone();
        extra["vat"] = serde_json::json!(true);
        assert!(serde_json::from_value::<ExpenseInput>(extra).is_err());
        let mut fractional = full;
        fractional["amount"] = serde_json::json!(45.99);
        assert!(serde_json::from_value::<ExpenseInput>(fractional).is_err());
    }
}
