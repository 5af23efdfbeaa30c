//! A deduction (`kind: "deduction"`): what a courier takes off a statement, once on a date or
//! every week or month (van hire, device rent, a damage charge), what it is for (an expense
//! category: van hire is a vehicle cost, claimed once with its vehicle) and, for a vehicle cost,
//! which vehicle. Occurrences, net pay and the tax treatment are computed on the device (web
//! `core/deductions/`, `core/tax/`).

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, expense::ExpenseCategory, fields};

pub const MAX_LABEL_CHARS: usize = 60;
/// £10,000 in one charge.
pub const MAX_AMOUNT_PENCE: i64 = 1_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Repeat {
    /// Charged once, on `from`.
    Once,
    /// Charged on `from` and every 7 days after, up to `to`.
    Weekly,
    /// Charged on `from`'s day of every month (the month's last day when shorter), up to `to`.
    Monthly,
}

impl Repeat {
    fn parse(raw: &str) -> Option<Repeat> {
        match raw {
            "once" => Some(Repeat::Once),
            "weekly" => Some(Repeat::Weekly),
            "monthly" => Some(Repeat::Monthly),
            _ => None,
        }
    }
}

/// `deduction.put` args.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeductionInput {
    pub id: String,
    pub courier_id: String,
    pub label: String,
    pub amount: i64,
    /// `once`, `weekly` or `monthly`.
    pub repeat: String,
    pub from: String,
    /// The last day a recurring deduction may fall on; null = ongoing (and always for once).
    #[serde(default)]
    pub to: Option<String>,
    /// What it is for: an expense category id (`vehicleHire`, `equipment`, … `other`), or null
    /// when not said (deductions saved before it could be). Absent from an app older than the
    /// field: an update then keeps the stored purpose and vehicle (see `server::deductions`).
    #[serde(default, deserialize_with = "fields::present")]
    pub purpose: Option<Option<String>>,
    /// The vehicle a vehicle cost is for, or null (absent = null).
    #[serde(default)]
    pub vehicle_id: Option<String>,
}

/// A validated deduction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deduction {
    pub id: Uuid,
    pub courier_id: Uuid,
    pub label: String,
    pub amount: i64,
    pub repeat: Repeat,
    pub from: Date,
    pub to: Option<Date>,
    pub purpose: Option<ExpenseCategory>,
    pub vehicle_id: Option<Uuid>,
}

impl DeductionInput {
    pub fn validate(&self) -> Result<Deduction, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Deduction id", &mut p);
        let courier_id = fields::uuid(&self.courier_id, "courierId", "Courier id", &mut p);
        let label = fields::line(&self.label, "label", "Label", (1, MAX_LABEL_CHARS), &mut p);
        if !(1..=MAX_AMOUNT_PENCE).contains(&self.amount) {
            p.push((
                "amount",
                "Amount must be between £0.01 and £10,000.00".into(),
            ));
        }
        let repeat = Repeat::parse(&self.repeat);
        if repeat.is_none() {
            p.push(("repeat", "Repeat must be once, weekly or monthly".into()));
        }
        let from = fields::date(&self.from, "from", "From", &mut p);
        let to = self
            .to
            .as_deref()
            .map(|raw| fields::date(raw, "to", "Until", &mut p).ok_or(()))
            .transpose();
        match (repeat, from, &to) {
            (Some(Repeat::Once), _, Ok(Some(_))) => {
                p.push(("to", "A one-off deduction has no end date".into()));
            }
            (Some(_), Some(from), Ok(Some(to))) if *to < from => {
                p.push(("to", "Until must be on or after the first charge".into()));
            }
            _ => {}
        }
        let purpose = match self.purpose.as_ref().and_then(Option::as_deref) {
            None => Some(None),
            Some(raw) => fields::choice::<ExpenseCategory>(
                raw,
                "purpose",
                || "Choose what the deduction is for from the list".into(),
                &mut p,
            )
            .map(Some),
        };
        let vehicle_id = fields::optional_uuid(&self.vehicle_id, "vehicleId", "Vehicle id", &mut p);
        // A vehicle says which vehicle a cost is for: it comes with the purpose, never alone.
        if matches!(vehicle_id, Some(Some(_))) && matches!(purpose, Some(None)) {
            p.push((
                "purpose",
                "Say what the deduction is for when it names a vehicle".into(),
            ));
        }
        match (
            id,
            courier_id,
            label,
            repeat,
            from,
            to,
            purpose,
            vehicle_id,
            p.is_empty(),
        ) {
            (
                Some(id),
                Some(courier_id),
                Some(label),
                Some(repeat),
                Some(from),
                Ok(to),
                Some(purpose),
                Some(vehicle_id),
                true,
            ) => Ok(Deduction {
                id,
                courier_id,
                label,
                amount: self.amount,
                repeat,
                from,
                to,
                purpose,
                vehicle_id,
            }),
            _ => Err(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input() -> DeductionInput {
        DeductionInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000e1".into(),
            courier_id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
            label: " Van hire ".into(),
            amount: 19_500,
            repeat: "weekly".into(),
            from: "2025-03-03".into(),
            to: None,
            purpose: Some(Some("vehicleHire".into())),
            vehicle_id: Some("0190a6e2-7c1d-7000-8000-0000000000f1".into()),
        }
    }

    fn fields(bad: &DeductionInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_weekly_van_hire_is_valid() {
        let deduction = input().validate().unwrap();
        assert_eq!(
            (deduction.label.as_str(), deduction.repeat, deduction.to),
            ("Van hire", Repeat::Weekly, None)
        );
        assert_eq!(
            (
                deduction.purpose,
                deduction.vehicle_id.map(|id| id.to_string())
            ),
            (
                Some(ExpenseCategory::VehicleHire),
                Some("0190a6e2-7c1d-7000-8000-0000000000f1".into())
            )
        );
    }

    #[test]
    fn a_purpose_is_optional_and_a_vehicle_comes_with_one() {
        // Not said (null), or left out by an app older than the field: no purpose, no vehicle.
        for purpose in [None, Some(None)] {
            let deduction = DeductionInput {
                purpose,
                vehicle_id: None,
                ..input()
            }
            .validate()
            .unwrap();
            assert_eq!((deduction.purpose, deduction.vehicle_id), (None, None));
        }
        // Any purpose may go without a vehicle ("No vehicle" is a choice).
        let fee = DeductionInput {
            purpose: Some(Some("other".into())),
            vehicle_id: None,
            ..input()
        }
        .validate()
        .unwrap();
        assert_eq!(fee.purpose, Some(ExpenseCategory::Other));
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-0000000000e1","courierId":"0190a6e2-7c1d-7000-8000-0000000000c1","label":"Admin","amount":500,"repeat":"once","from":"2025-03-03"}"#;
        let old_app: DeductionInput = serde_json::from_str(json).unwrap();
        assert_eq!((old_app.purpose, old_app.vehicle_id), (None, None));
        let said_null: DeductionInput = serde_json::from_str(&json.replace(
            r#""from":"2025-03-03""#,
            r#""from":"2025-03-03","purpose":null,"vehicleId":null"#,
        ))
        .unwrap();
        assert_eq!(said_null.purpose, Some(None));
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut DeductionInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|d| d.id = "42".into(), "id"),
            (|d| d.courier_id = "".into(), "courierId"),
            (|d| d.label = " ".into(), "label"),
            (|d| d.label = "l".repeat(61), "label"),
            (|d| d.label = "Van\nhire".into(), "label"),
            (|d| d.amount = 0, "amount"),
            (|d| d.amount = 1_000_001, "amount"),
            (|d| d.repeat = "daily".into(), "repeat"),
            (|d| d.from = "2025-02-29".into(), "from"),
            (|d| d.to = Some("2025-13-01".into()), "to"),
            (|d| d.to = Some("2025-03-02".into()), "to"), // before from
            (|d| d.purpose = Some(Some("vanHire".into())), "purpose"),
            (|d| d.purpose = Some(None), "purpose"), // a vehicle without a purpose
            (|d| d.vehicle_id = Some("van".into()), "vehicleId"),
            (
                |d| {
                    d.repeat = "once".into();
                    d.to = Some("2025-03-03".into());
                },
                "to",
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
            DeductionInput {
                amount: 1,
                to: Some("2025-03-03".into()),
                ..input()
            },
            DeductionInput {
                amount: 1_000_000,
                repeat: "monthly".into(),
                from: "2025-01-31".into(),
                ..input()
            },
            DeductionInput {
                repeat: "once".into(),
                label: "é".repeat(60),
                ..input()
            },
        ] {
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = DeductionInput {
            id: "x".into(),
            courier_id: "y".into(),
            label: String::new(),
            amount: -1,
            repeat: "sometimes".into(),
            from: "never".into(),
            to: Some("nope".into()),
            purpose: Some(Some("fun".into())),
            vehicle_id: Some("car".into()),
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "courierId",
                "label",
                "amount",
                "repeat",
                "from",
                "to",
                "purpose",
                "vehicleId"
            ]
        );
    }

    #[test]
    fn unknown_and_mistyped_fields_are_refused() {
        let base = r#""id":"0190a6e2-7c1d-7000-8000-0000000000e1","courierId":"0190a6e2-7c1d-7000-8000-0000000000c1","label":"Admin","repeat":"once","from":"2025-03-03""#;
        assert!(
            serde_json::from_str::<DeductionInput>(&format!("{{{base},\"amount\":500}}")).is_ok()
        );
        for json in [
            format!("{{{base},\"amount\":500,\"vat\":true}}"),
            format!("{{{base},\"amount\":5.5}}"),
            format!("{{{base},\"amount\":500,\"purpose\":7}}"),
            format!("{{{base}}}"),
        ] {
            assert!(
                serde_json::from_str::<DeductionInput>(&json).is_err(),
                "{json}"
            );
        }
    }

    proptest! {
        #[test]
        fn recurring_ranges_validate_exactly_when_to_is_not_before_from(from in 0i64..3_000, to in 0i64..3_000, amount in 1i64..=1_000_000) {
            let day = |n: i64| crate::entry::format_date(time::macros::date!(2020 - 01 - 01) + time::Duration::days(n));
            let deduction = DeductionInput { amount, repeat: "monthly".into(), from: day(from), to: Some(day(to)), ..input() };
            prop_assert_eq!(deduction.validate().is_ok(), to >= from);
        }
    }
}
