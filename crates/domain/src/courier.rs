//! A courier a driver works for (`kind: "courier"`): how it is shown and when it pays. Days,
//! rate cards, deductions and statement checks each belong to one.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

pub const MAX_NAME_CHARS: usize = 60;
pub const MAX_ARREARS_WEEKS: u8 = 12;
/// A monthly period starts on this day of the month at the latest, so every month has it.
pub const MAX_MONTHLY_ANCHOR_DAY: u8 = 28;

/// How a courier cuts time into pay periods, each aligned to the courier's anchor date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum PeriodKind {
    /// 7-day periods starting on the anchor's weekday.
    Weekly,
    /// 91-day cycles from the anchor, each of periods of 28, 28 and 35 days.
    FourFourFive,
    /// Months starting on the anchor's day of month.
    Monthly,
}

impl PeriodKind {
    fn parse(raw: &str) -> Option<PeriodKind> {
        match raw {
            "weekly" => Some(PeriodKind::Weekly),
            "fourFourFive" => Some(PeriodKind::FourFourFive),
            "monthly" => Some(PeriodKind::Monthly),
            _ => None,
        }
    }
}

/// `courier.put` args. The enum-like fields arrive as text so a bad value is named with the
/// other problems rather than failing the whole parse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CourierInput {
    pub id: String,
    pub name: String,
    pub colour: String,
    /// `weekly`, `fourFourFive` or `monthly`.
    pub period_kind: String,
    pub period_anchor: String,
    pub arrears_weeks: i64,
}

/// A validated courier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Courier {
    pub id: Uuid,
    pub name: String,
    /// `#rrggbb`, lowercase.
    pub colour: String,
    pub period_kind: PeriodKind,
    pub period_anchor: Date,
    pub arrears_weeks: u8,
}

impl CourierInput {
    pub fn validate(&self) -> Result<Courier, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Courier id", &mut problems);
        let name = fields::line(
            &self.name,
            "name",
            "Name",
            (1, MAX_NAME_CHARS),
            &mut problems,
        );
        let colour = parse_colour(&self.colour);
        if colour.is_none() {
            problems.push(("colour", "Colour must be written #rrggbb".into()));
        }
        let period_kind = PeriodKind::parse(&self.period_kind);
        if period_kind.is_none() {
            problems.push((
                "periodKind",
                "Pay period must be weekly, fourFourFive or monthly".into(),
            ));
        }
        let anchor = fields::date(
            &self.period_anchor,
            "periodAnchor",
            "Period start",
            &mut problems,
        );
        if let (Some(PeriodKind::Monthly), Some(anchor)) = (period_kind, anchor)
            && anchor.day() > MAX_MONTHLY_ANCHOR_DAY
        {
            problems.push((
                "periodAnchor",
                format!(
                    "A monthly period must start on day 1 to {MAX_MONTHLY_ANCHOR_DAY} of the month"
                ),
            ));
        }
        let arrears = u8::try_from(self.arrears_weeks)
            .ok()
            .filter(|weeks| *weeks <= MAX_ARREARS_WEEKS);
        if arrears.is_none() {
            problems.push((
                "arrearsWeeks",
                format!("Weeks in arrears must be a whole number from 0 to {MAX_ARREARS_WEEKS}"),
            ));
        }
        match (
            id,
            name,
            colour,
            period_kind,
            anchor,
            arrears,
            problems.is_empty(),
        ) {
            (
                Some(id),
                Some(name),
                Some(colour),
                Some(period_kind),
                Some(period_anchor),
                Some(arrears_weeks),
                true,
            ) => Ok(Courier {
                id,
                name,
                colour,
                period_kind,
                period_anchor,
                arrears_weeks,
            }),
            _ => Err(problems),
        }
    }
}

/// `#rrggbb` in either case, kept lowercase so every device stores the same text.
fn parse_colour(raw: &str) -> Option<String> {
    let hex = raw.strip_prefix('#')?;
    (hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit())).then(|| raw.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::format_date;
    use proptest::prelude::*;

    fn input() -> CourierInput {
        CourierInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000c1".into(),
            name: "DPD".into(),
            colour: "#DC0032".into(),
            period_kind: "weekly".into(),
            period_anchor: "2025-01-05".into(),
            arrears_weeks: 2,
        }
    }

    fn fields(bad: &CourierInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_normal_courier_is_valid_and_its_colour_lowercase() {
        let courier = input().validate().unwrap();
        assert_eq!(courier.colour, "#dc0032");
        assert_eq!(courier.period_kind, PeriodKind::Weekly);
        assert_eq!(format_date(courier.period_anchor), "2025-01-05");
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut CourierInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|c| c.id = "42".into(), "id"),
            (|c| c.name = "  ".into(), "name"),
            (|c| c.name = "n".repeat(61), "name"),
            (|c| c.name = "DPD\nLocal".into(), "name"),
            (|c| c.colour = "#12345".into(), "colour"),
            (|c| c.colour = "123456".into(), "colour"),
            (|c| c.colour = "#12345g".into(), "colour"),
            (|c| c.colour = "#1234567".into(), "colour"),
            (|c| c.period_kind = "fortnightly".into(), "periodKind"),
            (|c| c.period_kind = "Weekly".into(), "periodKind"),
            (|c| c.period_anchor = "2025-02-30".into(), "periodAnchor"),
            (
                |c| {
                    c.period_kind = "monthly".into();
                    c.period_anchor = "2025-01-29".into();
                },
                "periodAnchor",
            ),
            (|c| c.arrears_weeks = -1, "arrearsWeeks"),
            (|c| c.arrears_weeks = 13, "arrearsWeeks"),
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
            CourierInput {
                name: " ".repeat(3) + &"é".repeat(60),
                arrears_weeks: 12,
                ..input()
            },
            CourierInput {
                name: "X".into(),
                arrears_weeks: 0,
                ..input()
            },
            CourierInput {
                period_kind: "monthly".into(),
                period_anchor: "2025-02-28".into(),
                ..input()
            },
            CourierInput {
                period_kind: "fourFourFive".into(),
                period_anchor: "2025-01-31".into(),
                ..input()
            },
        ] {
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = CourierInput {
            id: "x".into(),
            name: String::new(),
            colour: "red".into(),
            period_kind: "daily".into(),
            period_anchor: "soon".into(),
            arrears_weeks: 99,
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "name",
                "colour",
                "periodKind",
                "periodAnchor",
                "arrearsWeeks"
            ]
        );
    }

    #[test]
    fn unknown_and_missing_fields_are_refused() {
        let base = r##""id":"0190a6e2-7c1d-7000-8000-0000000000c1","name":"DPD","colour":"#000000","periodKind":"weekly","periodAnchor":"2025-01-05""##;
        assert!(
            serde_json::from_str::<CourierInput>(&format!("{{{base},\"arrearsWeeks\":0}}")).is_ok()
        );
        for json in [
            format!("{{{base},\"arrearsWeeks\":0,\"userId\":\"x\"}}"),
            format!("{{{base},\"arrearsWeeks\":1.5}}"),
            format!("{{{base}}}"),
        ] {
            assert!(
                serde_json::from_str::<CourierInput>(&json).is_err(),
                "{json}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_hex_colour_and_in_range_arrears_validate(rgb in 0u32..0x100_0000, weeks in 0i64..=12, day in 1u8..=28) {
            let ok = CourierInput {
                colour: format!("#{rgb:06X}"),
                arrears_weeks: weeks,
                period_kind: "monthly".into(),
                period_anchor: format!("2030-12-{day:02}"),
                ..input()
            };
            let courier = ok.validate().unwrap();
            prop_assert_eq!(courier.colour, format!("#{rgb:06x}"));
        }
    }
}
