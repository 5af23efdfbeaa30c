//! A vehicle (`kind: "vehicle"`), declared once: its rules are
//! `domain::vehicle::VehicleInput::validate`; mileage records and expenses point at one.

use domain::{
    entry::FieldProblems,
    sync::VehicleData,
    vehicle::{Vehicle, VehicleInput, VehicleMethod, VehicleType},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::records::RecordKind;

pub struct Vehicles;

/// A stored vehicle: its pulled `data` without the timestamps.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VehicleContent {
    name: String,
    #[serde(rename = "type")]
    vehicle_type: VehicleType,
    method: VehicleMethod,
    /// Migration 0020 gave every earlier vehicle 0.
    #[serde(default)]
    commute_miles: u32,
}

impl RecordKind for Vehicles {
    const NAME: &'static str = "vehicle";
    type Input = VehicleInput;
    type Record = Vehicle;
    type Content = VehicleContent;
    type Data = VehicleData;

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

    fn data(c: VehicleContent, created_at: String, updated_at: String) -> VehicleData {
        VehicleData {
            name: c.name,
            vehicle_type: c.vehicle_type,
            method: c.method,
            commute_miles: c.commute_miles,
            created_at,
            updated_at,
        }
    }
}
