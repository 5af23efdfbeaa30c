//! A logged working day and the rules its fields must satisfy.

use serde::{Deserialize, Serialize};
use time::{Date, Time, macros::format_description};
use uuid::Uuid;

use crate::{fields, money::Money, size_bands::BandCounts};

pub const MAX_STOPS: u32 = 1_000;
/// £10,000 of extra pay in one day: anything above is a typo.
pub const MAX_EXTRA_PENCE: i64 = 1_000_000;
pub const MAX_NOTES_CHARS: usize = 1_000;
/// Upper bound on a stored total: the most stops at the highest allowed rate plus extra.
pub const MAX_TOTAL_PENCE: i64 = MAX_STOPS as i64 * crate::tiers::MAX_RATE_PENCE + MAX_EXTRA_PENCE;
/// Parcels, collections or failed items in one day.
pub const MAX_ITEMS: i64 = 2_000;
/// The years a stored day may be in (every record's days, read by [`parse_date`]).
pub const MIN_YEAR: i32 = 2000;
pub const MAX_YEAR: i32 = 2100;

/// The fields a device sends for `entry.put`. Money in pence; `total` was computed on the
/// device with the rate card in force when the entry was saved (like a payslip line). The
/// courier fields are optional so an app from before couriers keeps working: its days belong
/// to the user's default courier and first card (see `validate`).
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub courier_id: Option<String>,
    /// Absent and null differ: absent means "the default card" for an old app's day.
    #[serde(
        default,
        deserialize_with = "fields::present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<String>)]
    pub rate_card_id: Option<Option<String>>,
    #[serde(default)]
    pub parcels: Option<i64>,
    #[serde(default)]
    pub collections: Option<i64>,
    #[serde(default)]
    pub failed: Option<i64>,
    /// `HH:MM`; with `finishTime` or not at all.
    #[serde(default)]
    pub start_time: Option<String>,
    #[serde(default)]
    pub finish_time: Option<String>,
    /// The driver said this is a separate shift on a day that already has one for this courier
    /// (not the same day logged twice). Absent from an app older than shifts: a new day is then
    /// not one, and an edit keeps what is stored (see the server's `kept_when_absent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separate_shift: Option<bool>,
    /// The parcels by size band, when the courier pays by band; their sum is `parcels`.
    /// Absent (an app older than bands) or null: the day's parcels were not counted by band.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bands: Option<BandCounts>,
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
    pub courier_id: Uuid,
    /// The card that priced the day; `None` = priced with no card (the total is the extra).
    pub rate_card_id: Option<Uuid>,
    pub parcels: Option<u32>,
    pub collections: Option<u32>,
    pub failed: Option<u32>,
    /// Start and finish, both or neither.
    pub hours: Option<(Time, Time)>,
    /// A deliberate extra shift, so never flagged as the same day logged twice.
    pub separate_shift: bool,
    /// The parcels by size band; when present they add up to `parcels`.
    pub bands: Option<BandCounts>,
}

/// Field name → message, in a stable order.
pub type FieldProblems = Vec<(&'static str, String)>;

/// A real day written `YYYY-MM-DD`, four digits of year and no sign (`+2025-01-01` is not a
/// date a device writes), between the years 2000 and 2100.
pub fn parse_date(raw: &str) -> Option<Date> {
    let digits_at = |range: std::ops::Range<usize>| {
        raw.get(range)
            .is_some_and(|part| part.bytes().all(|b| b.is_ascii_digit()))
    };
    if raw.len() != 10 || !digits_at(0..4) || !digits_at(5..7) || !digits_at(8..10) {
        return None;
    }
    let date = Date::parse(raw, format_description!("[year]-[month]-[day]")).ok()?;
    (MIN_YEAR..=MAX_YEAR).contains(&date.year()).then_some(date)
}

pub fn format_date(date: Date) -> String {
    date.format(format_description!("[year]-[month]-[day]"))
        .unwrap_or_default()
}

impl EntryInput {
    /// `user_id` is the pushing user's: their default courier and first card carry that id,
    /// so a day without courier fields (an old app's) belongs to them.
    pub fn validate(&self, user_id: Uuid) -> Result<Entry, FieldProblems> {
        let mut problems = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Entry id", &mut problems);
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
        fields::multi_line(
            &self.notes,
            "notes",
            "Notes",
            MAX_NOTES_CHARS,
            &mut problems,
        );
        if !(0..=MAX_TOTAL_PENCE).contains(&self.total) || self.total < self.extra {
            problems.push(("total", "Total is out of range".into()));
        }
        let courier_id = match &self.courier_id {
            None => Some(user_id),
            Some(raw) => fields::uuid(raw, "courierId", "Courier id", &mut problems),
        };
        let rate_card_id = match (&self.rate_card_id, &self.courier_id) {
            (None, None) => Ok(Some(user_id)),
            (None | Some(None), _) => Ok(None),
            (Some(Some(raw)), _) => fields::uuid(raw, "rateCardId", "Rate card id", &mut problems)
                .map(Some)
                .ok_or(()),
        };
        let mut count = |value, field, what: &str| {
            let message =
                || format!("{what} must be a whole number from 0 to {MAX_ITEMS}, or left empty");
            fields::optional_in::<u32>(value, field, message, (0, MAX_ITEMS), &mut problems)
        };
        let parcels = count(self.parcels, "parcels", "Parcels");
        let collections = count(self.collections, "collections", "Collections");
        let failed = count(self.failed, "failed", "Failed or returned items");
        // Checked against the parcels as given: a parcels problem is already named above.
        let bands = match (&self.bands, &parcels) {
            (Some(bands), Some(_)) => bands.validate(self.parcels, &mut problems).map(Some),
            (Some(_), None) => None,
            (None, _) => Some(None),
        };
        let hours = self.hours(&mut problems);
        match (
            id,
            date,
            stops,
            courier_id,
            rate_card_id,
            bands,
            problems.is_empty(),
        ) {
            (
                Some(id),
                Some(date),
                Some(stops),
                Some(courier_id),
                Ok(rate_card_id),
                Some(bands),
                true,
            ) => Ok(Entry {
                id,
                date,
                stops,
                extra: Money(self.extra),
                notes: self.notes.clone(),
                total: Money(self.total),
                courier_id,
                rate_card_id,
                parcels: parcels.flatten(),
                collections: collections.flatten(),
                failed: failed.flatten(),
                hours,
                separate_shift: self.separate_shift.unwrap_or(false),
                bands,
            }),
            _ => Err(problems),
        }
    }

    fn hours(&self, problems: &mut FieldProblems) -> Option<(Time, Time)> {
        let clock = |raw: &Option<String>, field, what: &str, problems: &mut FieldProblems| {
            let parsed = raw.as_deref().map(fields::parse_clock);
            if parsed == Some(None) {
                problems.push((field, format!("{what} must be a time written HH:MM")));
            }
            parsed
        };
        let start = clock(&self.start_time, "startTime", "Start time", problems);
        let finish = clock(&self.finish_time, "finishTime", "Finish time", problems);
        match (start, finish) {
            (Some(Some(start)), Some(Some(finish))) => Some((start, finish)),
            (None, Some(Some(_))) => {
                problems.push(("startTime", "Give a start time with the finish time".into()));
                None
            }
            (Some(Some(_)), None) => {
                problems.push((
                    "finishTime",
                    "Give a finish time with the start time".into(),
                ));
                None
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_four_digit_years_without_a_sign() {
        assert!(parse_date("2025-01-01").is_some());
        for refused in [
            "+2025-01-01",
            "-2025-01-01",
            "+02025-01-01",
            " 2025-01-01",
            "2025-1-01",
            "2025-01-1",
            "20250-01-01",
            "2025/01/01",
            "1999-12-31",
            "2101-01-01",
            "2025-02-29",
        ] {
            assert_eq!(parse_date(refused), None, "{refused}");
        }
    }
    use proptest::prelude::*;

    const USER: Uuid = Uuid::from_u128(0x0190a6e2_7c1d_7000_8000_00000000f001);
    const COURIER: &str = "0190a6e2-7c1d-7000-8000-0000000000c1";
    const CARD: &str = "0190a6e2-7c1d-7000-8000-0000000000d1";

    /// A day as an app from before couriers sends it.
    fn input() -> EntryInput {
        EntryInput {
            id: "0190a6e2-7c1d-7000-8000-000000000001".into(),
            date: "2025-03-21".into(),
            stops: 120,
            extra: 500,
            notes: "Rain all day".into(),
            total: 21_780 + 10 * 148 + 500,
            courier_id: None,
            rate_card_id: None,
            parcels: None,
            collections: None,
            failed: None,
            start_time: None,
            finish_time: None,
            separate_shift: None,
            bands: None,
        }
    }

    /// A day with every courier field.
    fn full() -> EntryInput {
        EntryInput {
            courier_id: Some(COURIER.into()),
            rate_card_id: Some(Some(CARD.into())),
            parcels: Some(180),
            collections: Some(4),
            failed: Some(2),
            start_time: Some("07:30".into()),
            finish_time: Some("17:05".into()),
            separate_shift: Some(true),
            ..input()
        }
    }

    fn fields(bad: &EntryInput) -> Vec<&'static str> {
        match bad.validate(USER) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_normal_day_is_valid() {
        let entry = input().validate(USER).unwrap();
        assert_eq!(entry.stops, 120);
        assert_eq!(format_date(entry.date), "2025-03-21");
    }

    #[test]
    fn an_old_apps_day_belongs_to_the_default_courier_and_card() {
        let entry = input().validate(USER).unwrap();
        assert_eq!((entry.courier_id, entry.rate_card_id), (USER, Some(USER)));
        assert_eq!(
            (entry.parcels, entry.collections, entry.failed, entry.hours),
            (None, None, None, None)
        );
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198}"#;
        let parsed = serde_json::from_str::<EntryInput>(json).unwrap();
        assert_eq!(parsed.validate(USER).unwrap().rate_card_id, Some(USER));
    }

    #[test]
    fn a_courier_without_a_card_or_a_null_card_means_priced_with_no_card() {
        let courier = || EntryInput {
            courier_id: Some(COURIER.into()),
            ..input()
        };
        let no_card_field = courier().validate(USER).unwrap();
        assert_eq!(
            (
                no_card_field.courier_id.to_string().as_str(),
                no_card_field.rate_card_id
            ),
            (COURIER, None)
        );
        let null = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198,"rateCardId":null}"#;
        let parsed = serde_json::from_str::<EntryInput>(null).unwrap();
        assert_eq!(parsed.rate_card_id, Some(None));
        let entry = parsed.validate(USER).unwrap();
        assert_eq!((entry.courier_id, entry.rate_card_id), (USER, None));
    }

    #[test]
    fn every_new_field_is_kept() {
        let entry = full().validate(USER).unwrap();
        assert_eq!(entry.courier_id.to_string(), COURIER);
        assert_eq!(
            entry.rate_card_id.map(|id| id.to_string()).as_deref(),
            Some(CARD)
        );
        assert_eq!(
            (entry.parcels, entry.collections, entry.failed),
            (Some(180), Some(4), Some(2))
        );
        let (start, finish) = entry.hours.unwrap();
        assert_eq!(
            (fields::format_clock(start), fields::format_clock(finish)),
            ("07:30".into(), "17:05".into())
        );
        assert!(entry.separate_shift);
    }

    #[test]
    fn a_day_without_the_shift_field_is_not_a_separate_shift() {
        assert!(!input().validate(USER).unwrap().separate_shift);
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198,"courierId":"0190a6e2-7c1d-7000-8000-0000000000c1"}"#;
        let parsed = serde_json::from_str::<EntryInput>(json).unwrap();
        assert_eq!(parsed.separate_shift, None);
        assert!(!parsed.validate(USER).unwrap().separate_shift);
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198,"separateShift":"yes"}"#;
        assert!(serde_json::from_str::<EntryInput>(json).is_err());
    }

    #[test]
    fn each_bad_new_field_is_named() {
        type Breaker = fn(&mut EntryInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|e| e.courier_id = Some("courier".into()), "courierId"),
            (|e| e.rate_card_id = Some(Some("card".into())), "rateCardId"),
            (|e| e.parcels = Some(-1), "parcels"),
            (|e| e.parcels = Some(2_001), "parcels"),
            (|e| e.collections = Some(2_001), "collections"),
            (|e| e.failed = Some(-1), "failed"),
            (|e| e.start_time = Some("7:30".into()), "startTime"),
            (|e| e.finish_time = Some("24:00".into()), "finishTime"),
            (|e| e.start_time = None, "startTime"),
            (|e| e.finish_time = None, "finishTime"),
        ];
        for (break_it, field) in cases {
            let mut bad = full();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
        for ok in [
            EntryInput {
                parcels: Some(0),
                collections: Some(2_000),
                failed: Some(0),
                ..full()
            },
            EntryInput {
                start_time: Some("22:00".into()),
                finish_time: Some("06:00".into()),
                ..full()
            },
            EntryInput {
                start_time: None,
                finish_time: None,
                ..full()
            },
        ] {
            assert!(ok.validate(USER).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn parcels_by_band_add_up_to_the_parcels() {
        let bands = |packet, small, large| BandCounts {
            packet,
            small,
            large,
            ..BandCounts::default()
        };
        // (bands, parcels, the fields named; none = valid)
        let cases: Vec<(Option<BandCounts>, Option<i64>, Vec<&str>)> = vec![
            (Some(bands(100, 60, 20)), Some(180), vec![]),
            (None, Some(180), vec![]),
            (Some(BandCounts::default()), Some(0), vec![]),
            (Some(bands(100, 60, 21)), Some(180), vec!["bands"]),
            (Some(bands(100, 60, 20)), None, vec!["bands"]),
            (Some(bands(-1, 60, 20)), Some(79), vec!["bands"]),
            (Some(bands(2_001, 0, 0)), Some(2_001), vec!["parcels"]),
            (Some(bands(100, 60, 20)), Some(-1), vec!["parcels"]),
        ];
        for (given, parcels, named) in cases {
            let day = EntryInput {
                bands: given,
                parcels,
                ..full()
            };
            assert_eq!(fields(&day), named, "{given:?} {parcels:?}");
            if named.is_empty() {
                assert_eq!(day.validate(USER).unwrap().bands, given);
            }
        }
        let problems = EntryInput {
            bands: Some(bands(100, 60, 21)),
            ..full()
        }
        .validate(USER)
        .unwrap_err();
        assert_eq!(
            problems[0].1,
            "The parcels by band add up to 181, not the 180 parcels given"
        );
    }

    #[test]
    fn a_day_from_an_app_older_than_bands_has_none() {
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198,"parcels":3}"#;
        let parsed = serde_json::from_str::<EntryInput>(json).unwrap();
        assert_eq!(parsed.validate(USER).unwrap().bands, None);
        let json = r#"{"id":"0190a6e2-7c1d-7000-8000-000000000001","date":"2025-01-01","stops":1,"total":198,"parcels":3,"bands":{"packet":0,"small":2,"medium":0,"large":1,"extraLarge":0}}"#;
        let parsed = serde_json::from_str::<EntryInput>(json).unwrap();
        let bands = parsed.validate(USER).unwrap().bands.unwrap();
        assert_eq!((bands.small, bands.large, bands.packet), (2, 1, 0));
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = EntryInput {
            id: "x".into(),
            stops: -1,
            courier_id: Some("c".into()),
            rate_card_id: Some(Some("r".into())),
            parcels: Some(-1),
            collections: Some(-1),
            failed: Some(-1),
            start_time: Some("x".into()),
            finish_time: None,
            ..input()
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "stops",
                "courierId",
                "rateCardId",
                "parcels",
                "collections",
                "failed",
                "startTime"
            ]
        );
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
            let problems = bad.validate(USER).unwrap_err();
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
        let json = r#"{"id":"x","date":"2025-01-01","stops":1,"total":1,"rateCard":"x"}"#;
        assert!(serde_json::from_str::<EntryInput>(json).is_err());
    }

    proptest! {
        #[test]
        fn in_range_values_always_validate(stops in 0i64..=1000, extra in 0i64..=MAX_EXTRA_PENCE, day in 1u8..=28, month in 1u8..=12) {
            let e = EntryInput { stops, extra, total: extra + stops * 198, date: format!("2024-{month:02}-{day:02}"), ..input() };
            prop_assert!(e.validate(USER).is_ok());
        }
    }
}
