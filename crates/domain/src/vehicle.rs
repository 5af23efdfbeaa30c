//! A vehicle (`kind: "vehicle"`): what a courier drives or rides, and how its costs are
//! claimed. Mileage records point at one; the claim itself is computed on the device (web
//! `core/tax/mileage-claim.ts`).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{entry::FieldProblems, fields};

pub const MAX_NAME_CHARS: usize = 60;
/// Home to depot, one way, in whole miles: twice this a day is at most a mileage record's
/// [`crate::mileage::MAX_MILES`].
pub const MAX_COMMUTE_MILES: i64 = 500;
// A day's commute (twice the one-way miles) always fits in one mileage record.
const _: () = assert!(2 * MAX_COMMUTE_MILES <= crate::mileage::MAX_MILES);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum VehicleType {
    /// A car or a goods vehicle: 45p a mile for the first 10,000 business miles, then 25p.
    CarVan,
    /// 24p a mile.
    Motorcycle,
    /// Not in the self-employed flat rate (ITTOIA 2005 s94D): actual costs only.
    Bicycle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum VehicleMethod {
    /// HMRC's simplified flat rate per business mile.
    FlatRate,
    /// Actual costs times the business-use share from the mileage log.
    ActualCosts,
}

/// `vehicle.put` args.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VehicleInput {
    pub id: String,
    pub name: String,
    /// `carVan`, `motorcycle` or `bicycle`.
    #[serde(rename = "type")]
    pub vehicle_type: String,
    /// `flatRate` or `actualCosts` (always `actualCosts` for a bicycle).
    pub method: String,
    /// Home to depot, one way, whole miles (issue 26): taken off twice a day when a day's
    /// odometer readings become business miles. An app from before it sends none: a new
    /// vehicle gets 0, an edit keeps the stored value (the server's `kept_when_absent`).
    #[serde(default)]
    pub commute_miles: Option<i64>,
}

/// A validated vehicle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vehicle {
    pub id: Uuid,
    pub name: String,
    pub vehicle_type: VehicleType,
    pub method: VehicleMethod,
    pub commute_miles: u32,
}

impl VehicleInput {
    pub fn validate(&self) -> Result<Vehicle, FieldProblems> {
        let mut p = FieldProblems::new();
        let id = fields::uuid(&self.id, "id", "Vehicle id", &mut p);
        let name = fields::line(&self.name, "name", "Name", (1, MAX_NAME_CHARS), &mut p);
        let vehicle_type = fields::choice::<VehicleType>(
            &self.vehicle_type,
            "type",
            || "Type must be carVan, motorcycle or bicycle".into(),
            &mut p,
        );
        let method = fields::choice::<VehicleMethod>(
            &self.method,
            "method",
            || "Method must be flatRate or actualCosts".into(),
            &mut p,
        );
        let commute_miles = fields::optional_in::<u32>(
            self.commute_miles,
            "commuteMiles",
            || format!("Commute must be a whole number of miles from 0 to {MAX_COMMUTE_MILES}"),
            (0, MAX_COMMUTE_MILES),
            &mut p,
        );
        if (vehicle_type, method) == (Some(VehicleType::Bicycle), Some(VehicleMethod::FlatRate)) {
            p.push((
                "method",
                "A bicycle's costs are claimed as actual costs".into(),
            ));
        }
        match (id, name, vehicle_type, method, commute_miles, p.is_empty()) {
            (Some(id), Some(name), Some(vehicle_type), Some(method), Some(commute), true) => {
                Ok(Vehicle {
                    id,
                    name,
                    vehicle_type,
                    method,
                    commute_miles: commute.unwrap_or(0),
                })
            }
            _ => Err(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> VehicleInput {
        VehicleInput {
            id: "0190a6e2-7c1d-7000-8000-0000000000f1".into(),
            name: " Transit ".into(),
            vehicle_type: "carVan".into(),
            method: "flatRate".into(),
            commute_miles: Some(6),
        }
    }

    fn fields(bad: &VehicleInput) -> Vec<&'static str> {
        match bad.validate() {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.0).collect(),
        }
    }

    #[test]
    fn a_flat_rate_van_is_valid() {
        let van = input().validate().unwrap();
        assert_eq!(
            (van.name.as_str(), van.vehicle_type, van.method),
            ("Transit", VehicleType::CarVan, VehicleMethod::FlatRate)
        );
    }

    #[test]
    fn the_commute_is_kept_in_bounds_and_absent_means_none() {
        assert_eq!(input().validate().unwrap().commute_miles, 6);
        for miles in [0, MAX_COMMUTE_MILES] {
            let edge = VehicleInput {
                commute_miles: Some(miles),
                ..input()
            };
            assert_eq!(
                edge.validate().unwrap().commute_miles,
                u32::try_from(miles).unwrap()
            );
        }
        let old_app: VehicleInput = serde_json::from_value(serde_json::json!({
            "id": "0190a6e2-7c1d-7000-8000-0000000000f1", "name": "Van",
            "type": "carVan", "method": "flatRate"
        }))
        .unwrap();
        assert_eq!(old_app.commute_miles, None);
        assert_eq!(old_app.validate().unwrap().commute_miles, 0);
    }

    #[test]
    fn each_bad_field_is_named() {
        type Breaker = fn(&mut VehicleInput);
        let cases: Vec<(Breaker, &str)> = vec![
            (|v| v.id = "van".into(), "id"),
            (|v| v.name = "  ".into(), "name"),
            (|v| v.name = "n".repeat(61), "name"),
            (|v| v.name = "Van\t2".into(), "name"),
            (|v| v.vehicle_type = "lorry".into(), "type"),
            (|v| v.vehicle_type = "car".into(), "type"),
            (|v| v.method = "mixed".into(), "method"),
            (|v| v.vehicle_type = "bicycle".into(), "method"),
            (|v| v.commute_miles = Some(-1), "commuteMiles"),
            (
                |v| v.commute_miles = Some(MAX_COMMUTE_MILES + 1),
                "commuteMiles",
            ),
            (|v| v.commute_miles = Some(i64::MAX), "commuteMiles"),
        ];
        for (break_it, field) in cases {
            let mut bad = input();
            break_it(&mut bad);
            assert_eq!(fields(&bad), vec![field], "{bad:?}");
        }
    }

    #[test]
    fn a_bicycle_is_claimed_as_actual_costs_only() {
        let flat = VehicleInput {
            vehicle_type: "bicycle".into(),
            ..input()
        };
        let problems = flat.validate().unwrap_err();
        assert_eq!(
            problems,
            [(
                "method",
                "A bicycle's costs are claimed as actual costs".to_owned()
            )]
        );
        for (vehicle_type, method) in [
            ("bicycle", "actualCosts"),
            ("motorcycle", "flatRate"),
            ("motorcycle", "actualCosts"),
            ("carVan", "actualCosts"),
        ] {
            let ok = VehicleInput {
                vehicle_type: vehicle_type.into(),
                method: method.into(),
                name: "é".repeat(60),
                ..input()
            };
            assert!(ok.validate().is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = VehicleInput {
            id: "x".into(),
            name: String::new(),
            vehicle_type: "tram".into(),
            method: "guess".into(),
            commute_miles: Some(-3),
        };
        assert_eq!(
            fields(&bad),
            ["id", "name", "type", "method", "commuteMiles"]
        );
    }

    #[test]
    fn the_type_travels_as_type_and_unknown_fields_are_refused() {
        let json = serde_json::to_value(input()).unwrap();
        assert_eq!(json["type"], "carVan");
        assert!(serde_json::from_value::<VehicleInput>(json.clone()).is_ok());
        let mut extra = json.clone();
        extra["vehicleType"] = serde_json::json!("carVan");
        assert!(serde_json::from_value::<VehicleInput>(extra).is_err());
        let mut missing = json;
        missing.as_object_mut().unwrap().remove("method");
        assert!(serde_json::from_value::<VehicleInput>(missing).is_err());
    }
}
