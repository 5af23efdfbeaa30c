//! A vehicle (`kind: "vehicle"`), declared once: its rules are
//! `domain::vehicle::VehicleInput::validate`; mileage records and expenses point at one.

use domain::{
    entry::FieldProblems,
    sync::VehicleContent,
    vehicle::{Vehicle, VehicleInput},
};
use uuid::Uuid;

use crate::records::{RecordKind, Words};

pub struct Vehicles;

impl RecordKind for Vehicles {
    const NAME: &'static str = "vehicle";
    const WORDS: Words = Words::new("vehicle", "vehicles");
    type Input = VehicleInput;
    type Record = Vehicle;
    type Content = VehicleContent;

    fn validate(input: &VehicleInput, _user_id: Uuid) -> Result<Vehicle, FieldProblems> {
        input.validate()
    }

    fn bounds() -> serde_json::Value {
        serde_json::json!({
            "maxNameChars": domain::vehicle::MAX_NAME_CHARS,
            "maxCommuteMiles": domain::vehicle::MAX_COMMUTE_MILES,
        })
    }

    /// An app from before the commute (issue 26) sends none: its edit keeps the stored one.
    fn kept_when_absent(input: &VehicleInput) -> &'static [&'static str] {
        if input.commute_miles.is_none() {
            &["commuteMiles"]
        } else {
            &[]
        }
    }

    fn id(vehicle: &Vehicle) -> Uuid {
        vehicle.id
    }

    fn content(vehicle: &Vehicle) -> VehicleContent {
        VehicleContent {
            name: vehicle.name.clone(),
            vehicle_type: vehicle.vehicle_type,
            method: vehicle.method,
            commute_miles: vehicle.commute_miles,
        }
    }
}
