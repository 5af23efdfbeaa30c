//! A statement check: what a courier's statement said was paid for a period, kept so the driver
//! can compare it with their own entries (the comparison is computed on the device). On the
//! wire the kind keeps its older name `invoice` (see `server::statement_checks`).

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{
    entry::{FieldProblems, parse_date},
    fields,
    money::Money,
};

/// A year (leap or not) fits; anything longer is a typo, not a statement.
pub const MAX_PERIOD_DAYS: i64 = 366;
/// £100,000 for one statement period.
pub const MAX_PAID_PENCE: i64 = 10_000_000;
pub const MAX_STOPS: u32 = 100_000;
pub const MAX_REFERENCE_CHARS: usize = 100;
/// Parcels or collections on one statement.
pub const MAX_ITEMS: i64 = 100_000;
pub const MAX_NOTE_CHARS: usize = 1_000;

/// Where the driver is with a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum CheckStatus {
    #[default]
    Unchecked,
    Matches,
    Disputed,
    Resolved,
}

impl CheckStatus {
    fn parse(raw: &str) -> Option<CheckStatus> {
        match raw {
            "unchecked" => Some(CheckStatus::Unchecked),
            "matches" => Some(CheckStatus::Matches),
            "disputed" => Some(CheckStatus::Disputed),
            "resolved" => Some(CheckStatus::Resolved),
            _ => None,
        }
    }
}

/// The fields a device sends for `invoice.put`. Dates are inclusive; money in pence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatementCheckInput {
    pub id: String,
    pub period_start: String,
    pub period_end: String,
    pub paid: i64,
    /// Stops on the statement, when it gives them.
    #[serde(default)]
    pub stops: Option<i64>,
    /// Statement number or a short note.
    #[serde(default)]
    pub reference: String,
    /// The statement's courier; absent (an app from before couriers) = the default courier.
    #[serde(default)]
    pub courier_id: Option<String>,
    #[serde(default)]
    pub parcels: Option<i64>,
    #[serde(default)]
    pub collections: Option<i64>,
    /// The statement's total deductions, pence.
    #[serde(default)]
    pub deductions: Option<i64>,
    /// `unchecked` (when absent), `matches`, `disputed` or `resolved`.
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub note: String,
}

/// A validated statement check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementCheck {
    pub id: uuid::Uuid,
    pub period_start: Date,
    pub period_end: Date,
    pub paid: Money,
    pub stops: Option<u32>,
    /// Trimmed, so " INV-1 " and "INV-1" are the same reference on every device.
    pub reference: String,
    pub courier_id: Uuid,
    pub parcels: Option<u32>,
    pub collections: Option<u32>,
    pub deductions: Option<Money>,
    pub status: CheckStatus,
    pub note: String,
}

impl StatementCheckInput {
    /// `user_id` is the pushing user's, the id of their default courier.
    pub fn validate(&self, user_id: Uuid) -> Result<StatementCheck, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Statement check id", &mut problems);
        let start = parse_date(&self.period_start);
        if start.is_none() {
            problems.push((
                "periodStart",
                "Period start must be a real day written YYYY-MM-DD".into(),
            ));
        }
        let end = parse_date(&self.period_end);
        if end.is_none() {
            problems.push((
                "periodEnd",
                "Period end must be a real day written YYYY-MM-DD".into(),
            ));
        }
        if let (Some(start), Some(end)) = (start, end) {
            check_period(start, end, &mut problems);
        }
        if !(0..=MAX_PAID_PENCE).contains(&self.paid) {
            problems.push(("paid", "Paid must be between £0.00 and £100,000.00".into()));
        }
        let stops = self.stops.map(|stops| {
            u32::try_from(stops)
                .ok()
                .filter(|stops| *stops <= MAX_STOPS)
        });
        if stops == Some(None) {
            problems.push((
                "stops",
                format!("Stops must be a whole number from 0 to {MAX_STOPS}, or left empty"),
            ));
        }
        let reference = self.reference.trim();
        if reference.chars().count() > MAX_REFERENCE_CHARS {
            problems.push((
                "reference",
                format!("Reference must be at most {MAX_REFERENCE_CHARS} characters"),
            ));
        } else if !fields::is_clean_text(reference, false) {
            problems.push(("reference", fields::unclean_text("Reference", false)));
        }
        let courier_id = match &self.courier_id {
            None => Some(user_id),
            Some(raw) => fields::uuid(raw, "courierId", "Courier id", &mut problems),
        };
        let mut count = |value, field, what: &str| {
            let message =
                || format!("{what} must be a whole number from 0 to {MAX_ITEMS}, or left empty");
            fields::optional_in::<u32>(value, field, message, (0, MAX_ITEMS), &mut problems)
        };
        let parcels = count(self.parcels, "parcels", "Parcels");
        let collections = count(self.collections, "collections", "Collections");
        let deductions = fields::optional_in::<i64>(
            self.deductions,
            "deductions",
            || "Deductions must be between £0.00 and £100,000.00, or left empty".into(),
            (0, MAX_PAID_PENCE),
            &mut problems,
        );
        let status = match self.status.as_deref() {
            None => Some(CheckStatus::default()),
            Some(raw) => CheckStatus::parse(raw),
        };
        if status.is_none() {
            problems.push((
                "status",
                "Status must be unchecked, matches, disputed or resolved".into(),
            ));
        }
        fields::multi_line(&self.note, "note", "Note", MAX_NOTE_CHARS, &mut problems);
        match (id, start, end, courier_id, status, problems.is_empty()) {
            (
                Some(id),
                Some(period_start),
                Some(period_end),
                Some(courier_id),
                Some(status),
                true,
            ) => Ok(StatementCheck {
                id,
                period_start,
                period_end,
                paid: Money(self.paid),
                stops: stops.flatten(),
                reference: reference.to_owned(),
                courier_id,
                parcels: parcels.flatten(),
                collections: collections.flatten(),
                deductions: deductions.flatten().map(Money),
                status,
                note: self.note.clone(),
            }),
            _ => Err(problems),
        }
    }
}

fn check_period(start: Date, end: Date, problems: &mut FieldProblems) {
    if start > end {
        problems.push((
            "periodEnd",
            "Period end must be on or after the period start".into(),
        ));
        return;
    }
    // Both ends count: 1 Jan to 1 Jan is one day.
    let days = (end - start).whole_days() + 1;
    if days > MAX_PERIOD_DAYS {
        problems.push((
            "periodEnd",
            format!("A period can be at most {MAX_PERIOD_DAYS} days long"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::format_date;

    const USER: Uuid = Uuid::from_u128(0x0190a6e2_7c1d_7000_8000_00000000f001);

    /// A check as an app from before couriers sends it.
    fn input() -> StatementCheckInput {
        StatementCheckInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000a1".into(),
            period_start: "2025-03-17".into(),
            period_end: "2025-03-23".into(),
            paid: 123_456,
            stops: Some(640),
            reference: "INV-2025-12".into(),
            courier_id: None,
            parcels: None,
            collections: None,
            deductions: None,
            status: None,
            note: String::new(),
        }
    }

    /// A statement check with every new field.
    fn full() -> StatementCheckInput {
        StatementCheckInput {
            courier_id: Some("0190a6e2-7c1d-7000-8000-0000000000c1".into()),
            parcels: Some(900),
            collections: Some(12),
            deductions: Some(19_500),
            status: Some("disputed".into()),
            note: "Missing Tuesday\nasked depot".into(),
            ..input()
        }
    }

    fn fields(bad: &StatementCheckInput) -> Vec<&'static str> {
        match bad.validate(USER) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_normal_week_is_valid() {
        let check = input().validate(USER).unwrap();
        assert_eq!(format_date(check.period_start), "2025-03-17");
        assert_eq!(format_date(check.period_end), "2025-03-23");
        assert_eq!((check.paid, check.stops), (Money(123_456), Some(640)));
        assert_eq!(check.reference, "INV-2025-12");
    }

    #[test]
    fn optional_fields_default_to_no_stops_and_no_reference() {
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-0000000000a1","periodStart":"2025-03-01",
                      "periodEnd":"2025-03-31","paid":0}"#;
        let check = serde_json::from_str::<StatementCheckInput>(json)
            .unwrap()
            .validate(USER)
            .unwrap();
        assert_eq!((check.stops, check.reference.as_str()), (None, ""));
        assert_eq!(
            (check.courier_id, check.status, check.note.as_str()),
            (USER, CheckStatus::Unchecked, "")
        );
        assert_eq!(
            (check.parcels, check.collections, check.deductions),
            (None, None, None)
        );
        let explicit_null = StatementCheckInput {
            stops: None,
            ..input()
        };
        assert_eq!(explicit_null.validate(USER).unwrap().stops, None);
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut StatementCheckInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|i| i.id = "42".into(), "id"),
            (|i| i.period_start = "2025-02-30".into(), "periodStart"),
            (|i| i.period_start = "17/03/2025".into(), "periodStart"),
            (|i| i.period_end = "2025-13-01".into(), "periodEnd"),
            (|i| i.period_end = "".into(), "periodEnd"),
            (|i| i.period_end = "2025-03-16".into(), "periodEnd"), // before the start
            (|i| i.paid = -1, "paid"),
            (|i| i.paid = MAX_PAID_PENCE + 1, "paid"),
            (|i| i.stops = Some(-1), "stops"),
            (|i| i.stops = Some(100_001), "stops"),
            (|i| i.reference = "r".repeat(101), "reference"),
            (|i| i.reference = "INV\n12".into(), "reference"),
            (|i| i.reference = "INV\u{7}12".into(), "reference"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn period_length_is_counted_inclusively_up_to_366_days() {
        let period = |start: &str, end: &str| StatementCheckInput {
            period_start: start.into(),
            period_end: end.into(),
            ..input()
        };
        // One day: start and end on the same date.
        assert!(period("2025-03-17", "2025-03-17").validate(USER).is_ok());
        // 2024 is a leap year: 1 Jan to 31 Dec is 366 days, one more is 367.
        assert!(period("2024-01-01", "2024-12-31").validate(USER).is_ok());
        assert_eq!(
            fields(&period("2024-01-01", "2025-01-01")),
            vec!["periodEnd"]
        );
        // Across a non-leap year: 366 days ends a day into the next year.
        assert!(period("2025-01-01", "2026-01-01").validate(USER).is_ok());
        assert_eq!(
            fields(&period("2025-01-01", "2026-01-02")),
            vec!["periodEnd"]
        );
    }

    #[test]
    fn boundary_amounts_and_counts_are_accepted() {
        for (paid, stops) in [
            (0, Some(0)),
            (MAX_PAID_PENCE, Some(100_000)),
            (10_000_000, None),
        ] {
            let ok = StatementCheckInput {
                paid,
                stops,
                ..input()
            };
            assert!(ok.validate(USER).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn reference_is_trimmed_and_counted_in_characters() {
        let with = |reference: String| StatementCheckInput {
            reference,
            ..input()
        };
        assert!(with("r".repeat(100)).validate(USER).is_ok());
        // 100 two-byte characters are 200 bytes but still 100 characters.
        assert!(with("é".repeat(100)).validate(USER).is_ok());
        assert_eq!(fields(&with("é".repeat(101))), vec!["reference"]);
        // Surrounding spaces do not count and are not kept.
        let padded = with(format!("  {}  ", "r".repeat(100)))
            .validate(USER)
            .unwrap();
        assert_eq!(padded.reference, "r".repeat(100));
        let trailing_newline = with("INV-7\n".into()).validate(USER).unwrap();
        assert_eq!(trailing_newline.reference, "INV-7");
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = StatementCheckInput {
            id: "x".into(),
            period_start: "nope".into(),
            paid: -5,
            stops: Some(-5),
            reference: "\u{0}".into(),
            ..input()
        };
        assert_eq!(
            fields(&bad),
            vec!["id", "periodStart", "paid", "stops", "reference"]
        );
    }

    #[test]
    fn every_statement_field_is_kept() {
        let check = full().validate(USER).unwrap();
        assert_eq!(
            check.courier_id.to_string(),
            "0190a6e2-7c1d-7000-8000-0000000000c1"
        );
        assert_eq!(
            (check.parcels, check.collections, check.deductions),
            (Some(900), Some(12), Some(Money(19_500)))
        );
        assert_eq!(
            (check.status, check.note.as_str()),
            (CheckStatus::Disputed, "Missing Tuesday\nasked depot")
        );
        for status in ["unchecked", "matches", "disputed", "resolved"] {
            let ok = StatementCheckInput {
                status: Some(status.into()),
                ..full()
            };
            assert!(ok.validate(USER).is_ok(), "{status}");
        }
        let most = StatementCheckInput {
            parcels: Some(100_000),
            collections: Some(0),
            deductions: Some(MAX_PAID_PENCE),
            note: "é".repeat(1_000),
            ..full()
        };
        assert!(most.validate(USER).is_ok());
    }

    #[test]
    fn each_bad_statement_field_is_named() {
        type Breaker = fn(&mut StatementCheckInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|i| i.courier_id = Some("dpd".into()), "courierId"),
            (|i| i.parcels = Some(-1), "parcels"),
            (|i| i.parcels = Some(100_001), "parcels"),
            (|i| i.collections = Some(100_001), "collections"),
            (|i| i.deductions = Some(-1), "deductions"),
            (|i| i.deductions = Some(MAX_PAID_PENCE + 1), "deductions"),
            (|i| i.status = Some("paid".into()), "status"),
            (|i| i.note = "n".repeat(1_001), "note"),
        ];
        for (break_it, field) in cases {
            let mut bad = full();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn unknown_and_mistyped_fields_are_refused() {
        let base = r#""id":"0190a6e2-7c1d-7000-8000-0000000000a1","periodStart":"2025-03-01","periodEnd":"2025-03-31""#;
        for json in [
            format!(r#"{{{base},"paid":1,"userId":"someone-else"}}"#),
            format!(r#"{{{base},"paid":1.5}}"#),
            format!(r#"{{{base},"paid":"100"}}"#),
            format!(r#"{{{base},"paid":1,"stops":2.5}}"#),
            format!(r#"{{{base}}}"#),
        ] {
            assert!(
                serde_json::from_str::<StatementCheckInput>(&json).is_err(),
                "{json}"
            );
        }
    }
}
