//! A logged working day and the rules its fields must satisfy.

use serde::{Deserialize, Serialize};
use time::{Date, macros::format_description};

use crate::money::Money;

pub const MAX_STOPS: u32 = 1_000;
/// £10,000 of extra pay in one day: anything above is a typo.
pub const MAX_EXTRA_PENCE: i64 = 1_000_000;
pub const MAX_NOTES_CHARS: usize = 1_000;
/// Upper bound on a stored total: the most stops at the highest allowed rate plus extra.
pub const MAX_TOTAL_PENCE: i64 = MAX_STOPS as i64 * crate::tiers::MAX_RATE_PENCE + MAX_EXTRA_PENCE;
const MIN_YEAR: i32 = 2000;
const MAX_YEAR: i32 = 2100;

/// The fields a device sends for `entry.put`. Money in pence; `total` was computed on the
/// device with the tiers in force when the entry was saved (like a payslip line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntryInput {
    pub id: String,
    pub date: String,
    pub stops: i64,
    #[serde(default)]
    pub extra: i64,
    #[serde(default)]
    pub notes: String,
    pub total: i64,
}

/// A validated entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: uuid::Uuid,
    pub date: Date,
    pub stops: u32,
    pub extra: Money,
    pub notes: String,
    pub total: Money,
}

/// Field name → message, in a stable order.
pub type FieldProblems = Vec<(&'static str, String)>;

pub fn parse_date(raw: &str) -> Option<Date> {
    let date = Date::parse(raw, format_description!("[year]-[month]-[day]")).ok()?;
    (MIN_YEAR..=MAX_YEAR).contains(&date.year()).then_some(date)
}

pub fn format_date(date: Date) -> String {
    date.format(format_description!("[year]-[month]-[day]"))
        .unwrap_or_default()
}

impl EntryInput {
    pub fn validate(&self) -> Result<Entry, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = uuid::Uuid::parse_str(&self.id)
            .map_err(|_| problems.push(("id", "Entry id must be a UUID".into())))
            .ok();
        let date = parse_date(&self.date);
        if date.is_none() {
            problems.push(("date", "Date must be a real day written YYYY-MM-DD".into()));
        }
        let stops = u32::try_from(self.stops)
            .ok()
            .filter(|stops| *stops <= MAX_STOPS);
        if stops.is_none() {
            problems.push((
                "stops",
                format!("Stops must be a whole number from 0 to {MAX_STOPS}"),
            ));
        }
        if !(0..=MAX_EXTRA_PENCE).contains(&self.extra) {
            problems.push(("extra", "Extra must be between £0.00 and £10,000.00".into()));
        }
        if self.notes.chars().count() > MAX_NOTES_CHARS {
            problems.push((
                "notes",
                format!("Notes must be at most {MAX_NOTES_CHARS} characters"),
            ));
        }
        if !(0..=MAX_TOTAL_PENCE).contains(&self.total) || self.total < self.extra {
            problems.push(("total", "Total is out of range".into()));
        }
        match (id, date, stops, problems.is_empty()) {
            (Some(id), Some(date), Some(stops), true) => Ok(Entry {
                id,
                date,
                stops,
                extra: Money(self.extra),
                notes: self.notes.clone(),
                total: Money(self.total),
            }),
            _ => Err(problems),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input() -> EntryInput {
        EntryInput {
            id: "0190a6e2-7c1d-7000-8000-000000000001".into(),
            date: "2025-03-21".into(),
            stops: 120,
            extra: 500,
            notes: "Rain all day".into(),
            total: 21_780 + 10 * 148 + 500,
        }
    }

    #[test]
    fn a_normal_day_is_valid() {
        let entry = input().validate().unwrap();
        assert_eq!(entry.stops, 120);
        assert_eq!(format_date(entry.date), "2025-03-21");
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut EntryInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|e| e.id = "42".into(), "id"),
            (|e| e.date = "2025-02-30".into(), "date"),
            (|e| e.date = "21/03/2025".into(), "date"),
            (|e| e.date = "1999-12-31".into(), "date"),
            (|e| e.stops = -1, "stops"),
            (|e| e.stops = 1_001, "stops"),
            (|e| e.extra = -1, "extra"),
            (
                |e| {
                    e.extra = MAX_EXTRA_PENCE + 1;
                    e.total = MAX_TOTAL_PENCE;
                },
                "extra",
            ),
            (|e| e.notes = "n".repeat(1_001), "notes"),
            (|e| e.total = -5, "total"),
            (|e| e.total = MAX_TOTAL_PENCE + 1, "total"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            let problems = bad.validate().unwrap_err();
            assert_eq!(
                problems.iter().map(|p| p.0).collect::<Vec<_>>(),
                vec![field],
                "{bad:?}"
            );
        }
    }

    #[test]
    fn unknown_fields_are_refused() {
        let json = r#"{"id":"x","date":"2025-01-01","stops":1,"total":1,"role":"pro"}"#;
        assert!(serde_json::from_str::<EntryInput>(json).is_err());
    }

    proptest! {
        #[test]
        fn in_range_values_always_validate(stops in 0i64..=1000, extra in 0i64..=MAX_EXTRA_PENCE, day in 1u8..=28, month in 1u8..=12) {
            let e = EntryInput { stops, extra, total: extra + stops * 198, date: format!("2024-{month:02}-{day:02}"), ..input() };
            prop_assert!(e.validate().is_ok());
        }
    }
}
