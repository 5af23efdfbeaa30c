//! A mileage record (`kind: "mileage"`): one day's driving in one vehicle, in whole miles,
//! split into business and commuting (home to depot: not claimable, kept for the log and the
//! business-use share). It is its own kind rather than part of a day: a day's pay is fixed
//! when saved, while mileage is corrected for tax reasons, exists on days with no deliveries,
//! and a day may use two vehicles. The claim is computed on the device.

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

pub const MAX_ODOMETER: i64 = 9_999_999;
/// Miles in one record: more than a day's driving is a typo.
pub const MAX_MILES: i64 = 2_000;
pub const MAX_NOTE_CHARS: usize = 200;

/// `mileage.put` args. Every field is required (null where the contract allows it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MileageInput {
    pub id: String,
    pub date: String,
    pub vehicle_id: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub courier_id: Option<String>,
    /// Whole miles; both odometer readings or neither.
    #[serde(deserialize_with = "Option::deserialize")]
    pub odometer_start: Option<i64>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub odometer_end: Option<i64>,
    pub business_miles: i64,
    pub commute_miles: i64,
    pub note: String,
}

/// A validated mileage record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mileage {
    pub id: Uuid,
    pub date: Date,
    pub vehicle_id: Uuid,
    pub courier_id: Option<Uuid>,
    /// (start, end), end − start ≤ [`MAX_MILES`].
    pub odometer: Option<(u32, u32)>,
    pub business_miles: u32,
    pub commute_miles: u32,
    pub note: String,
}

impl Mileage {
    /// With odometers end − start (the rest of it is private), else business + commute.
    pub fn total_miles(&self) -> u32 {
        match self.odometer {
            Some((start, end)) => end - start,
            None => self.business_miles + self.commute_miles,
        }
    }
}

impl MileageInput {
    pub fn validate(&self) -> Result<Mileage, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Mileage id", &mut p);
        let date = fields::date(&self.date, "date", "Date", &mut p);
        let vehicle_id = fields::uuid(&self.vehicle_id, "vehicleId", "Vehicle id", &mut p);
        let courier_id = fields::optional_uuid(&self.courier_id, "courierId", "Courier id", &mut p);
        let reading = |value, field, what: &'static str, p: &mut FieldProblems| {
            fields::optional_in::<u32>(
                value,
                field,
                || format!("{what} must be a whole number of miles from 0 to 9,999,999"),
                (0, MAX_ODOMETER),
                p,
            )
        };
        let start = reading(
            self.odometer_start,
            "odometerStart",
            "Odometer start",
            &mut p,
        );
        let end = reading(self.odometer_end, "odometerEnd", "Odometer end", &mut p);
        let odometer = match (start, end) {
            (Some(Some(start)), Some(Some(end))) if end < start => {
                p.push((
                    "odometerEnd",
                    "Odometer end must be at least the start".into(),
                ));
                None
            }
            (Some(Some(start)), Some(Some(end))) if i64::from(end - start) > MAX_MILES => {
                p.push((
                    "odometerEnd",
                    format!("At most {MAX_MILES} miles between the odometer readings"),
                ));
                None
            }
            (Some(Some(start)), Some(Some(end))) => Some(Some((start, end))),
            (Some(None), Some(None)) => Some(None),
            (Some(Some(_)), Some(None)) => {
                p.push((
                    "odometerEnd",
                    "Enter both odometer readings, or neither".into(),
                ));
                None
            }
            (Some(None), Some(Some(_))) => {
                p.push((
                    "odometerStart",
                    "Enter both odometer readings, or neither".into(),
                ));
                None
            }
            _ => None,
        };
        let miles = |value: i64, field, what: &'static str, p: &mut FieldProblems| {
            fields::optional_in::<u32>(
                Some(value),
                field,
                || format!("{what} must be a whole number from 0 to {MAX_MILES}"),
                (0, MAX_MILES),
                p,
            )
            .flatten()
        };
        let business = miles(
            self.business_miles,
            "businessMiles",
            "Business miles",
            &mut p,
        );
        let commute = miles(self.commute_miles, "commuteMiles", "Commute miles", &mut p);
        match (odometer, business, commute) {
            (Some(Some((start, end))), Some(business), Some(commute))
                if business + commute > end - start =>
            {
                p.push((
                    "businessMiles",
                    format!(
                        "Business and commute miles add up to more than the {} miles between \
                         the odometer readings",
                        end - start
                    ),
                ));
            }
            (Some(None), Some(0), Some(0)) => {
                p.push((
                    "businessMiles",
                    "Enter the miles, or the odometer readings".into(),
                ));
            }
            _ => {}
        }
        let note = fields::line(&self.note, "note", "Note", (0, MAX_NOTE_CHARS), &mut p);
        match (
            id,
            date,
            vehicle_id,
            courier_id,
            odometer,
            business,
            commute,
            note,
            p.is_empty(),
        ) {
            (
                Some(id),
                Some(date),
                Some(vehicle_id),
                Some(courier_id),
                Some(odometer),
                Some(business_miles),
                Some(commute_miles),
                Some(note),
                true,
            ) => Ok(Mileage {
                id,
                date,
                vehicle_id,
                courier_id,
                odometer,
                business_miles,
                commute_miles,
                note,
            }),
            _ => Err(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input() -> MileageInput {
        MileageInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000d1".into(),
            date: "2025-04-05".into(),
            vehicle_id: "0190a6e2-7c1d-7000-8000-0000000000f1".into(),
            courier_id: None,
            odometer_start: Some(42_000),
            odometer_end: Some(42_130),
            business_miles: 112,
            commute_miles: 12,
            note: String::new(),
        }
    }

    fn typed() -> MileageInput {
        MileageInput {
            odometer_start: None,
            odometer_end: None,
            ..input()
        }
    }

    fn fields(bad: &MileageInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn odometer_and_typed_records_are_valid_with_their_totals() {
        let read = input().validate().unwrap();
        assert_eq!(
            (read.odometer, read.total_miles()),
            (Some((42_000, 42_130)), 130)
        );
        let typed = typed().validate().unwrap();
        assert_eq!((typed.odometer, typed.total_miles()), (None, 124));
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut MileageInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|m| m.id = "1".into(), "id"),
            (|m| m.date = "2025-04-31".into(), "date"),
            (|m| m.vehicle_id = "van".into(), "vehicleId"),
            (|m| m.courier_id = Some("dpd".into()), "courierId"),
            (|m| m.odometer_start = Some(-1), "odometerStart"),
            (|m| m.odometer_end = Some(10_000_000), "odometerEnd"),
            (|m| m.odometer_end = Some(41_999), "odometerEnd"),
            (|m| m.odometer_end = Some(44_001), "odometerEnd"),
            (|m| m.odometer_end = None, "odometerEnd"),
            (|m| m.odometer_start = None, "odometerStart"),
            (|m| m.business_miles = -1, "businessMiles"),
            (|m| m.business_miles = 2_001, "businessMiles"),
            (|m| m.commute_miles = 2_001, "commuteMiles"),
            (|m| m.business_miles = 119, "businessMiles"), // 119 + 12 > 130
            (|m| m.note = "n".repeat(201), "note"),
            (|m| m.note = "a\u{0}b".into(), "note"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn without_odometers_some_miles_are_needed() {
        let none = MileageInput {
            business_miles: 0,
            commute_miles: 0,
            ..typed()
        };
        assert_eq!(
            none.validate().unwrap_err(),
            [(
                "businessMiles",
                "Enter the miles, or the odometer readings".to_owned()
            )]
        );
        // With odometers, a day of only private miles is a fair record.
        let private = MileageInput {
            business_miles: 0,
            commute_miles: 0,
            ..input()
        };
        assert_eq!(private.validate().unwrap().total_miles(), 130);
    }

    #[test]
    fn boundaries_are_accepted() {
        for ok in [
            MileageInput {
                odometer_start: Some(9_997_999),
                odometer_end: Some(9_999_999),
                business_miles: 2_000,
                commute_miles: 0,
                note: "é".repeat(200),
                ..input()
            },
            MileageInput {
                odometer_start: Some(0),
                odometer_end: Some(0),
                business_miles: 0,
                commute_miles: 0,
                ..input()
            },
            MileageInput {
                business_miles: 2_000,
                commute_miles: 2_000,
                courier_id: Some("0190a6e2-7c1d-7000-8000-0000000000c1".into()),
                ..typed()
            },
            MileageInput {
                business_miles: 0,
                commute_miles: 1,
                ..typed()
            },
        ] {
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = MileageInput {
            id: "x".into(),
            date: "today".into(),
            vehicle_id: "v".into(),
            courier_id: Some("c".into()),
            odometer_start: Some(-5),
            odometer_end: Some(99_999_999),
            business_miles: -1,
            commute_miles: 5_000,
            note: "a\u{7}".into(),
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "date",
                "vehicleId",
                "courierId",
                "odometerStart",
                "odometerEnd",
                "businessMiles",
                "commuteMiles",
                "note"
            ]
        );
    }

    #[test]
    fn every_field_is_required_and_unknown_ones_are_refused() {
        let full = serde_json::to_value(input()).unwrap();
        assert!(serde_json::from_value::<MileageInput>(full.clone()).is_ok());
        for field in full.as_object().unwrap().keys() {
            let mut missing = full.clone();
            missing.as_object_mut().unwrap().remove(field);
            assert!(
                serde_json::from_value::<MileageInput>(missing).is_err(),
                "{field} may not be left out"
            );
        }
        let mut extra = full;
        extra["privateMiles"] = serde_json::json!(6);
        assert!(serde_json::from_value::<MileageInput>(extra).is_err());
    }

    proptest! {
        #[test]
        fn odometer_records_validate_exactly_when_the_split_fits(start in 0i64..9_000_000, span in 0i64..2_500, business in 0i64..2_000, commute in 0i64..2_000) {
            let record = MileageInput {
                odometer_start: Some(start),
                odometer_end: Some(start + span),
                business_miles: business,
                commute_miles: commute,
                ..input()
            };
            prop_assert_eq!(record.validate().is_ok(), span <= MAX_MILES && business + commute <= span);
        }
    }
}
