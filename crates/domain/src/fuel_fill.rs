//! A fuel fill (`kind: "fuelFill"`): fuel or charge put into one of the driver's vehicles on
//! one day, what it cost, and the odometer when it was read. It is a log, not an expense: the
//! money is claimed as an expense or through the mileage rate, never from here, so a fill
//! counts towards no tax figure. The device works out the vehicle's economy from full fills
//! (web `core/fuel/economy.ts`).

use serde::{Deserialize, Serialize};
use time::Date;
use uuid::Uuid;

use crate::{entry::FieldProblems, fields, mileage::MAX_ODOMETER};

/// Millilitres or watt-hours in one fill: 500 litres or 500 kWh is more than any van holds.
pub const MAX_QUANTITY: i64 = 500_000;
/// £2,000 in one fill.
pub const MAX_COST_PENCE: i64 = 200_000;
pub const MAX_NOTE_CHARS: usize = 200;

/// What the fill is measured in: fuel in litres (stored as millilitres) or charge in kWh
/// (stored as watt-hours), so every quantity is an exact whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum FuelUnit {
    Litres,
    KWh,
}

/// `fuelFill.put` args. Every field is required (null where the contract allows it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FuelFillInput {
    pub id: String,
    pub date: String,
    pub vehicle_id: String,
    /// `litres` or `kWh`.
    pub unit: String,
    /// Millilitres (litres) or watt-hours (kWh), at least 1.
    pub quantity: i64,
    /// Pence paid, 0 for a free charge.
    pub cost: i64,
    /// Whole miles, or null when not read.
    #[serde(deserialize_with = "Option::deserialize")]
    pub odometer: Option<i64>,
    /// Filled to full (or charged to the usual level): only full fills measure economy.
    pub full: bool,
    pub note: String,
}

/// A validated fuel fill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuelFill {
    pub id: Uuid,
    pub date: Date,
    pub vehicle_id: Uuid,
    pub unit: FuelUnit,
    pub quantity: u32,
    pub cost: i64,
    pub odometer: Option<u32>,
    pub full: bool,
    pub note: String,
}

impl FuelFillInput {
    pub fn validate(&self) -> Result<FuelFill, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Fuel fill id", &mut p);
        let date = fields::date(&self.date, "date", "Date", &mut p);
        let vehicle_id = fields::uuid(&self.vehicle_id, "vehicleId", "Vehicle id", &mut p);
        let unit = fields::choice::<FuelUnit>(
            &self.unit,
            "unit",
            || "Unit must be litres or kWh".into(),
            &mut p,
        );
        let quantity = fields::optional_in::<u32>(
            Some(self.quantity),
            "quantity",
            || "Quantity must be from 0.001 to 500 litres or kWh".into(),
            (1, MAX_QUANTITY),
            &mut p,
        )
        .flatten();
        if !(0..=MAX_COST_PENCE).contains(&self.cost) {
            p.push(("cost", "Cost must be between £0.00 and £2,000.00".into()));
        }
        let odometer = fields::optional_in::<u32>(
            self.odometer,
            "odometer",
            || "Odometer must be a whole number of miles from 0 to 9,999,999".into(),
            (0, MAX_ODOMETER),
            &mut p,
        );
        let note = fields::line(&self.note, "note", "Note", (0, MAX_NOTE_CHARS), &mut p);
        match (id, date, vehicle_id, unit, quantity, odometer, note) {
            (
                Some(id),
                Some(date),
                Some(vehicle_id),
                Some(unit),
                Some(quantity),
                Some(odometer),
                Some(note),
            ) if p.is_empty() => Ok(FuelFill {
                id,
                date,
                vehicle_id,
                unit,
                quantity,
                cost: self.cost,
                odometer,
                full: self.full,
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

    fn input() -> FuelFillInput {
        FuelFillInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000e1".into(),
            date: "2025-04-05".into(),
            vehicle_id: "0190a6e2-7c1d-7000-8000-0000000000f1".into(),
            unit: "litres".into(),
            quantity: 45_670,
            cost: 6_845,
            odometer: Some(42_130),
            full: true,
            note: String::new(),
        }
    }

    fn fields(bad: &FuelFillInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_fill_keeps_its_exact_quantity_and_cost() {
        let fill = input().validate().unwrap();
        assert_eq!(
            (
                fill.unit,
                fill.quantity,
                fill.cost,
                fill.odometer,
                fill.full
            ),
            (FuelUnit::Litres, 45_670, 6_845, Some(42_130), true)
        );
        let charge = FuelFillInput {
            unit: "kWh".into(),
            odometer: None,
            full: false,
            ..input()
        };
        assert_eq!(charge.validate().unwrap().unit, FuelUnit::KWh);
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut FuelFillInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|f| f.id = "1".into(), "id"),
            (|f| f.date = "2025-02-29".into(), "date"),
            (|f| f.vehicle_id = "van".into(), "vehicleId"),
            (|f| f.unit = "gallons".into(), "unit"),
            (|f| f.unit = "kwh".into(), "unit"),
            (|f| f.quantity = 0, "quantity"),
            (|f| f.quantity = MAX_QUANTITY + 1, "quantity"),
            (|f| f.cost = -1, "cost"),
            (|f| f.cost = MAX_COST_PENCE + 1, "cost"),
            (|f| f.odometer = Some(-1), "odometer"),
            (|f| f.odometer = Some(MAX_ODOMETER + 1), "odometer"),
            (|f| f.note = "n".repeat(201), "note"),
            (|f| f.note = "a\u{0}b".into(), "note"),
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
            FuelFillInput {
                quantity: 1,
                cost: 0,
                odometer: Some(0),
                ..input()
            },
            FuelFillInput {
                quantity: MAX_QUANTITY,
                cost: MAX_COST_PENCE,
                odometer: Some(MAX_ODOMETER),
                note: "é".repeat(200),
                ..input()
            },
        ] {
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = FuelFillInput {
            id: "x".into(),
            date: "today".into(),
            vehicle_id: "v".into(),
            unit: "gal".into(),
            quantity: -5,
            cost: -1,
            odometer: Some(99_999_999),
            full: true,
            note: "a\u{7}".into(),
        };
        assert_eq!(
            fields(&bad),
            [
                "id",
                "date",
                "vehicleId",
                "unit",
                "quantity",
                "cost",
                "odometer",
                "note"
            ]
        );
    }

    #[test]
    fn every_field_is_required_and_unknown_ones_are_refused() {
        let full = serde_json::to_value(input()).unwrap();
        assert!(serde_json::from_value::<FuelFillInput>(full.clone()).is_ok());
        for field in full.as_object().unwrap().keys() {
            let mut missing = full.clone();
            missing.as_object_mut().unwrap().remove(field);
            assert!(
                serde_json::from_value::<FuelFillInput>(missing).is_err(),
                "{field} may not be left out"
            );
        }
        let mut extra = full;
        extra["litres"] = serde_json::json!(45.67);
        assert!(serde_json::from_value::<FuelFillInput>(extra).is_err());
    }

    proptest! {
        #[test]
        fn a_fill_validates_exactly_when_its_numbers_are_in_bounds(quantity in -10i64..600_000, cost in -10i64..300_000, odometer in proptest::option::of(-10i64..10_100_000)) {
            let fill = FuelFillInput { quantity, cost, odometer, ..input() };
            let in_bounds = (1..=MAX_QUANTITY).contains(&quantity)
                && (0..=MAX_COST_PENCE).contains(&cost)
                && odometer.is_none_or(|o| (0..=MAX_ODOMETER).contains(&o));
            prop_assert_eq!(fill.validate().is_ok(), in_bounds);
        }
    }
}
