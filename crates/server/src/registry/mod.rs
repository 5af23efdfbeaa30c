//! Every synced record kind, by name: how push (`sync::mutations`) and pull (`store::sync`)
//! find them, and what the contract (contract.rs) describes. Above the kinds, which sit above
//! `records`, so the list and the trait do not import each other.

pub mod contract;

use crate::records::Kind;

/// Every synced record kind. Adding a kind adds one line here.
pub static KINDS: &[Kind] = &[
    Kind::of::<crate::entries::Entries>(),
    Kind::of::<crate::statement_checks::StatementChecks>(),
    Kind::of::<crate::couriers::Couriers>(),
    Kind::of::<crate::rate_cards::RateCards>(),
    Kind::of::<crate::deductions::Deductions>(),
    Kind::of::<crate::vehicles::Vehicles>(),
    Kind::of::<crate::expenses::Expenses>(),
    Kind::of::<crate::mileage::MileageLog>(),
    Kind::of::<crate::statement_lines::StatementLines>(),
    Kind::of::<crate::statement_formats::StatementFormats>(),
    Kind::of::<crate::sent_updates::SentUpdates>(),
    Kind::of::<crate::fuel_fills::FuelFills>(),
    Kind::of::<crate::statement_queries::StatementQueries>(),
    Kind::of::<crate::evidence::EvidenceItems>(),
];

/// The kind named `name` (`entry`, `invoice`, `courier`, ...).
pub fn find(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|kind| kind.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_unique_and_not_singletons() {
        for (index, kind) in KINDS.iter().enumerate() {
            assert!(!["profile", "settings"].contains(&kind.name));
            assert!(KINDS[index + 1..].iter().all(|k| k.name != kind.name));
            assert!(std::ptr::eq(find(kind.name).unwrap(), kind));
        }
    }

    /// Every kind's name is a tag the pulled data is read by (`domain::sync::ChangeData::read`):
    /// an empty `data` is refused for a missing field, never as an unknown kind.
    #[test]
    fn every_kind_is_read_by_its_name() {
        for kind in KINDS {
            let error =
                domain::sync::ChangeData::read(kind.name, serde_json::json!({})).unwrap_err();
            assert!(
                error.to_string().contains("missing field"),
                "{}: {error}",
                kind.name
            );
        }
    }
}
