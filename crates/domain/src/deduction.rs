//! A deduction (`kind: "deduction"`): what a courier takes off a statement, once on a date or
//! every week or month (van hire, device rent, a damage charge). Occurrences and net pay are
//! computed on the device (web `lib/deductions.ts`).

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

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
        match (id, courier_id, label, repeat, from, to, p.is_empty()) {
            (Some(id), Some(courier_id), Some(label), Some(repeat), Some(from), Ok(to), true) => {
                Ok(Deduction {
                    id,
                    courier_id,
                    label,
                    amount: self.amount,
                    repeat,
                    from,
                    to,
                })
            }
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
        };
        assert_eq!(
            fields(&bad),
            ["id", "courierId", "label", "amount", "repeat", "from", "to"]
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
